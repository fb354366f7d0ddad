/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz ibv_devinfo (plain, -vv, -l): any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ibv_devinfo.h"
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FUZZ_PARSE(ibv_devinfo, ibv_devinfo_parse, ibv_devinfo_release);
	return 0;
}
