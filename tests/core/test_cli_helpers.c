/* SPDX-License-Identifier: Apache-2.0 */
/* --timeout durations, "did you mean", the terminal width. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/duration.h"
#include "core/suggest.h"
#include "core/term.h"

static void ok(const char *s, double want)
{
	double d = -1;
	assert_true(duration_parse(s, &d));
	assert_true(d > want - 1e-9 && d < want + 1e-9);
}

static void bad(const char *s)
{
	double d = 7;
	assert_false(duration_parse(s, &d));
	assert_true(d == 7);
}

static void test_duration(void **state)
{
	(void)state;
	ok("30", 30);
	ok("2.5", 2.5);
	ok("30s", 30);
	ok("2m", 120);
	ok("1m30s", 90);
	ok("1h", 3600);
	ok("500ms", 0.5);
	ok("1.5m", 90);
	ok("1h2m3s", 3723);
	bad("");
	bad("0");
	bad("0s");
	bad("-5s");
	bad("+5s");
	bad("5x");
	bad("m");
	bad("1m30"); /* a bare number after a unit: ambiguous */
	bad("5 s");
	bad("25h"); /* past the one-day cap */
	bad("nan");
	bad("inf");
}

static void test_suggest(void **state)
{
	(void)state;
	static const char *const verbs[] = {"env", "node", "nixl", "all", "vars", "help"};
	size_t nv = sizeof(verbs) / sizeof(verbs[0]);
	assert_string_equal(suggest_closest("evn", verbs, nv), "env");
	assert_string_equal(suggest_closest("nod", verbs, nv), "node");
	assert_string_equal(suggest_closest("nxil", verbs, nv), "nixl");
	assert_string_equal(suggest_closest("var", verbs, nv), "vars");
	assert_null(suggest_closest("deploy", verbs, nv));
	assert_null(suggest_closest("x", verbs, nv));
	assert_null(suggest_closest("env", verbs, nv)); /* the word itself: nothing to suggest */
	static const char *const opts[] = {"--namespace", "--deployment", "--timeout",
					   "--format",    "--pod",        "--peer"};
	size_t no = sizeof(opts) / sizeof(opts[0]);
	assert_string_equal(suggest_closest("--namspace", opts, no), "--namespace");
	assert_string_equal(suggest_closest("--deploymnet", opts, no), "--deployment");
	assert_string_equal(suggest_closest("--fromat", opts, no), "--format");
	assert_null(suggest_closest("--frobnicate", opts, no));
	assert_int_equal(suggest_distance("evn", "env"), 1);
	assert_int_equal(suggest_distance("", "abc"), 3);
}

static void test_width(void **state)
{
	(void)state;
	setenv("COLUMNS", "120", 1);
	assert_int_equal(term_width(STDOUT_FILENO), 120);
	setenv("COLUMNS", "10", 1);
	assert_int_equal(term_width(STDOUT_FILENO), TERM_MIN_WIDTH);
	setenv("COLUMNS", "wide", 1);
	int fd = dup(STDOUT_FILENO);
	/* not a number: the tty's size, else 80; /dev/null is no tty */
	int nul = open("/dev/null", 1);
	assert_int_equal(term_width(nul), 80);
	close(nul);
	close(fd);
	unsetenv("COLUMNS");
	setenv("TERM", "dumb", 1);
	assert_false(term_auto_color(STDOUT_FILENO));
	setenv("TERM", "xterm", 1);
	setenv("NO_COLOR", "1", 1);
	assert_false(term_auto_color(STDOUT_FILENO));
}

/* --jobs from the machine: CPUs x 4, a quarter of the memory at 50 MB per
 * kubectl exec, 1 to 32. */
static void test_default_jobs(void **state)
{
	(void)state;
	const unsigned long long GB = 1000000000ull;
	assert_int_equal(cli_default_jobs(2, 16 * GB), 8);      /* this kind of laptop: CPU-bound */
	assert_int_equal(cli_default_jobs(2, 1 * GB), 5);       /* 250 MB for execs: 5 */
	assert_int_equal(cli_default_jobs(64, 512 * GB), 32);   /* the cap */
	assert_int_equal(cli_default_jobs(16, 4 * GB), 20);     /* memory-bound below 64 */
	assert_int_equal(cli_default_jobs(1, 100000000ull), 1); /* never 0 */
	assert_int_equal(cli_default_jobs(-1, 0), 4);           /* nothing known: one CPU */
	assert_int_equal(cli_default_jobs(3, 0), 12);           /* memory unknown: CPUs alone */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_default_jobs),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_width),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
