/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz ibstat and ibstatus: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ibstat.h"
#include "parse/ibstatus.h"
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FUZZ_PARSE(ibstat, ibstat_parse, ibstat_release);
	FUZZ_PARSE(ibstatus, ibstatus_parse, ibstatus_release);
	return 0;
}
