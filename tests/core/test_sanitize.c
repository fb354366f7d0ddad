/* SPDX-License-Identifier: Apache-2.0 */
/* The output sanitiser: what a terminal is shown for bytes from outside. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/sanitize.h"

static void check(const char *in, size_t len, size_t max, const char *want)
{
	char *got = sanitize_mem(in, len, max);
	assert_string_equal(got, want);
	free(got);
}

static void test_controls(void **state)
{
	(void)state;
	check("plain text", 10, 0, "plain text");
	check("a\x1b[2Kb", 6, 0, "a\\x1b[2Kb");
	check("a\rb\nc\bd\te", 9, 0, "a\\rb\\nc\\bd\\te");
	check("\x7f\x01", 2, 0, "\\x7f\\x01");
	check("nul\0x", 5, 0, "nul\\x00x");
	/* C1 CSI (U+009B) would be a one-byte ESC [ on some terminals */
	check("\xc2\x9b"
	      "31m",
	      5, 0, "\\u009b31m");
	/* bidi override: text that reads in another order than it runs */
	check("\xe2\x80\xae"
	      "abc",
	      6, 0, "\\u202eabc");
}

static void test_utf8(void **state)
{
	(void)state;
	check("caf\xc3\xa9", 5, 0, "caf\xc3\xa9");
	check("\xe2\x9c\x93 ok", 6, 0, "\xe2\x9c\x93 ok");
	check("\xff\xfe", 2, 0, "\\xff\\xfe");
	check("\xc0\xaf", 2, 0, "\\xc0\\xaf");          /* overlong '/' */
	check("\xed\xa0\x80", 3, 0, "\\xed\\xa0\\x80"); /* surrogate */
	check("\xe2\x9c", 2, 0, "\\xe2\\x9c");          /* cut sequence */
	assert_true(sanitize_is_clean("caf\xc3\xa9", 5));
	assert_false(sanitize_is_clean("a\x1b", 2));
	assert_false(sanitize_is_clean("\xc2\x9b", 2));
}

static void test_cut(void **state)
{
	(void)state;
	check("abcdefgh", 8, 4, "abcd [... 4 bytes cut]");
	/* never inside a character */
	check("abc\xc3\xa9z", 6, 4, "abc [... 3 bytes cut]");
	char *big = malloc(SANITIZE_MAX * 2 + 1);
	memset(big, 'x', SANITIZE_MAX * 2);
	big[SANITIZE_MAX * 2] = '\0';
	char *s = sanitize_str(big);
	assert_non_null(strstr(s, " [... 8192 bytes cut]"));
	assert_int_equal(strlen(s), SANITIZE_MAX + strlen(" [... 8192 bytes cut]"));
	free(s);
	free(big);
	s = sanitize_str(NULL);
	assert_string_equal(s, "");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
