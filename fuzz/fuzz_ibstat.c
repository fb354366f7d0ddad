/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz ibstat and ibstatus: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ibstat.h"
#include "parse/ibstatus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RUN(type, fn, rel) do { \
		struct type x_; \
		(void)fn((const char *)data, size, &x_); \
		rel(&x_); \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	RUN(ibstat, ibstat_parse, ibstat_release);
	RUN(ibstatus, ibstatus_parse, ibstatus_release);
	return 0;
}
