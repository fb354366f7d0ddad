/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the parser fuzz targets.  Every parser has the shape
 * `int X_parse(const char *buf, size_t len, struct X *out)` + `X_release()`,
 * and its output must be released whether the parse succeeded or not (a
 * failed parse may hold partial results): FUZZ_PARSE runs one such parser
 * over the target's `data`/`size` and releases it.  Parsers with helper
 * functions worth touching get a small static function in their target.
 */
#ifndef CI_FUZZ_PARSE_H
#define CI_FUZZ_PARSE_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_PARSE(type, fn, rel)                        \
	do {                                             \
		struct type x_;                          \
		(void)fn((const char *)data, size, &x_); \
		rel(&x_);                                \
	} while (0)

#endif
