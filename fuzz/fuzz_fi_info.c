/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz fi_info -p efa: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/fi_info.h"
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FUZZ_PARSE(fi_info, fi_info_parse, fi_info_release);
	return 0;
}
