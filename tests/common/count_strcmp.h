/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counts every strcmp() a test binary makes, for the tests that prove code
 * linear by a count of comparisons rather than by a clock.  The binary is
 * linked with -Wl,--wrap=strcmp (its meson.build), so each call lands in
 * __wrap_strcmp below.  Include this header in exactly one file of such a
 * binary; reset n_strcmp before the code under test and read it after.
 */
#ifndef CI_TEST_COUNT_STRCMP_H
#define CI_TEST_COUNT_STRCMP_H

#include <stddef.h>

static size_t n_strcmp;
int __real_strcmp(const char *a, const char *b);
int __wrap_strcmp(const char *a, const char *b);
int __wrap_strcmp(const char *a, const char *b)
{
	n_strcmp++;
	return __real_strcmp(a, b);
}

#endif
