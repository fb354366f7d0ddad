/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz Python distribution METADATA: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/pip_meta.h"
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FUZZ_PARSE(pip_meta, pip_meta_parse, pip_meta_release);
	return 0;
}
