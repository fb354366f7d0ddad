/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the cmocka tests of several areas (tu_ = test util).
 * Header-only so that each area's test executable needs no extra library,
 * only include_directories('../common') in its meson.build.
 */
#ifndef CI_TESTS_TEST_UTIL_H
#define CI_TESTS_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/report.h"
#include "core/xalloc.h"

/* Whole file, NUL-terminated; fails the test when it cannot be opened. */
static inline char *tu_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = xmalloc((size_t)n + 1);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	b[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* The first check `id` in r, or NULL. */
static inline const struct ci_check *tu_find(const struct ci_report *r, const char *id)
{
	for (size_t i = 0; i < r->n_checks; i++)
		if (!strcmp(r->checks[i].id, id))
			return &r->checks[i];
	return NULL;
}

#endif
