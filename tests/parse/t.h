/* SPDX-License-Identifier: Apache-2.0 */
/* Common includes for the parser tests. */
#ifndef CI_TESTS_PARSE_T_H
#define CI_TESTS_PARSE_T_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixture.h"

/* Parse fixture NAME into a fresh struct VAR of TYPE with FN, expecting RC. */
#define PARSE_FIXTURE(fn, var, name, rc)                      \
	do {                                                  \
		size_t len_;                                  \
		char *b_ = fixture_body(name, &len_);         \
		assert_int_equal(fn(b_, len_, &(var)), (rc)); \
		free(b_);                                     \
	} while (0)

#define PARSE_STR(fn, var, str, rc) assert_int_equal(fn((str), strlen(str), &(var)), (rc))

#endif
