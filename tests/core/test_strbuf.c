/* SPDX-License-Identifier: Apache-2.0 */
/* The one string builder: growth, joins, detach, and caps that say so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

static void test_empty_is_a_string(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb); /* nothing allocated: still fine */
	strbuf_addf(&sb, "%s", "");
	assert_string_equal(sb.buf, "");
	assert_int_equal(sb.len, 0);
	char *s = strbuf_detach(&sb); /* always a heap string */
	assert_string_equal(s, "");
	free(s);
}

static void test_add_and_grow(void **state)
{
	(void)state;
	struct strbuf sb;
	strbuf_init(&sb);
	strbuf_addstr(&sb, "mlx5_0");
	strbuf_addch(&sb, '/');
	strbuf_addf(&sb, "%u %s", 1u, "DOWN");
	assert_string_equal(sb.buf, "mlx5_0/1 DOWN");
	assert_int_equal(sb.len, strlen(sb.buf));
	for (int i = 0; i < 2000; i++)
		strbuf_addf(&sb, ",%d", i);
	assert_int_equal(sb.len, strlen(sb.buf));
	assert_non_null(strstr(sb.buf, ",1999"));
	strbuf_reset(&sb);
	assert_string_equal(sb.buf, "");
	strbuf_add(&sb, "abc", 2);
	assert_string_equal(sb.buf, "ab");
	char *s = strbuf_detach(&sb);
	assert_string_equal(s, "ab");
	assert_string_equal(sb.buf, ""); /* left empty and reusable */
	free(s);
	strbuf_release(&sb);
}

static void test_join(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	strbuf_joinf(&sb, ", ", "%s/%u", "mlx5_0", 1u);
	strbuf_joinstr(&sb, ", ", "mlx5_1/1");
	strbuf_joinf(&sb, "; ", "%d", 3);
	assert_string_equal(sb.buf, "mlx5_0/1, mlx5_1/1; 3");
	strbuf_release(&sb);
	strbuf_joinstr(&sb, ", ", "only"); /* no separator before the first */
	assert_string_equal(sb.buf, "only");
	strbuf_release(&sb);
}

static void test_cap_marker(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	/* cap 12: "aaa, bbb" (8) fits, ", ccc" would pass it */
	assert_true(strbuf_joinf_capped(&sb, 12, ", ", "%s", "aaa"));
	assert_true(strbuf_joinf_capped(&sb, 12, ", ", "%s", "bbb"));
	assert_false(strbuf_joinf_capped(&sb, 12, ", ", "%s", "ccc"));
	assert_string_equal(sb.buf, "aaa, bbb, ... (1 more)");
	/* later items are counted even when they would fit */
	assert_false(strbuf_joinf_capped(&sb, 12, ", ", "%s", "d"));
	assert_false(strbuf_joinf_capped(&sb, 12, ", ", "%s", "e"));
	assert_string_equal(sb.buf, "aaa, bbb, ... (3 more)");
	strbuf_release(&sb);
	assert_int_equal(sb.more, 0);

	/* the first item already too long: only the marker */
	assert_false(strbuf_joinf_capped(&sb, 4, "; ", "%s", "toolong"));
	assert_string_equal(sb.buf, "... (1 more)");
	strbuf_reset(&sb);
	assert_true(strbuf_addf_capped(&sb, 6, "%s", "abc"));
	assert_true(strbuf_addf_capped(&sb, 6, "%s", "def"));
	assert_false(strbuf_addf_capped(&sb, 6, "%s", "g"));
	assert_string_equal(sb.buf, "abcdef... (1 more)");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_is_a_string),
		cmocka_unit_test(test_add_and_grow),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_cap_marker),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
