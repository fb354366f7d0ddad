/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz the NCCL/UCX/NIXL log classifier: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/logscan.h"
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FUZZ_PARSE(logscan, logscan_parse, logscan_release);
	return 0;
}
