/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz fi_info -p efa: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/fi_info.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RUN(type, fn, rel) do { \
		struct type x_; \
		(void)fn((const char *)data, size, &x_); \
		rel(&x_); \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	RUN(fi_info, fi_info_parse, fi_info_release);
	return 0;
}
