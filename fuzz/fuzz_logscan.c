/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz the NCCL/UCX/NIXL log classifier: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/logscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RUN(type, fn, rel) do { \
		struct type x_; \
		(void)fn((const char *)data, size, &x_); \
		rel(&x_); \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	RUN(logscan, logscan_parse, logscan_release);
	return 0;
}
