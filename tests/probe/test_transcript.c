/* SPDX-License-Identifier: Apache-2.0 */
/* The transcript parser: the wire format, its tolerance, and that no body
 * line can ever forge a boundary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/transcript.h"

static void parse(struct transcript *t, const char *s)
{
	transcript_init(t);
	transcript_parse(t, s, strlen(s));
}

static void test_basic(void **state)
{
	(void)state;
	struct transcript t;
	parse(&t, "@@ci-probe v1\n"
		  "@@begin ibstat\n"
		  "|CA 'mlx5_0'\n"
		  "|\tPort 1:\n"
		  "@@end ibstat rc=0\n"
		  "@@begin fi_info\n"
		  "@@end fi_info rc=127 missing\n"
		  "@@begin nvidia-smi/topo\n"
		  "|GPU0\n"
		  "@@end nvidia-smi/topo rc=124 timeout capped\n"
		  "@@done\n");
	assert_true(t.valid);
	assert_true(t.complete);
	assert_false(t.truncated);
	assert_int_equal(t.n, 3);
	const struct section *s = transcript_get(&t, "ibstat");
	assert_non_null(s);
	assert_string_equal(s->body, "CA 'mlx5_0'\n\tPort 1:\n");
	assert_int_equal(s->len, strlen("CA 'mlx5_0'\n\tPort 1:\n"));
	assert_int_equal(s->rc, 0);
	assert_false(s->capped || s->timed_out || s->missing);
	s = transcript_get(&t, "fi_info");
	assert_non_null(s);
	assert_string_equal(s->body, "");
	assert_int_equal(s->len, 0);
	assert_int_equal(s->rc, 127);
	assert_true(s->missing);
	assert_false(s->timed_out);
	s = transcript_get(&t, "nvidia-smi/topo");
	assert_non_null(s);
	assert_int_equal(s->rc, 124);
	assert_true(s->timed_out);
	assert_true(s->capped);
	assert_false(s->missing);
	assert_null(transcript_get(&t, "nope"));
	assert_null(transcript_get(&t, "ibsta"));
	transcript_release(&t);
}

/* A tool printing the script's own directives: every such line reaches the
 * parser behind a '|', so it is data, and the section stays open until the
 * script's real @@end. */
static void test_forged_boundaries_are_data(void **state)
{
	(void)state;
	struct transcript t;
	parse(&t, "@@ci-probe v1\n"
		  "@@begin env\n"
		  "|@@end env rc=0\n"
		  "|@@begin evil\n"
		  "||secret\n"
		  "|@@done\n"
		  "|@@ci-probe v1\n"
		  "@@end env rc=3\n"
		  "@@done\n");
	assert_true(t.complete);
	assert_int_equal(t.n, 1);
	const struct section *s = transcript_get(&t, "env");
	assert_non_null(s);
	assert_int_equal(s->rc, 3);
	assert_string_equal(s->body,
			    "@@end env rc=0\n@@begin evil\n|secret\n@@done\n@@ci-probe v1\n");
	assert_null(transcript_get(&t, "evil"));
	transcript_release(&t);
}

static void test_crlf_and_no_final_newline(void **state)
{
	(void)state;
	struct transcript t;
	parse(&t, "@@ci-probe v1\r\n@@begin a\r\n|x\r\n|y\r\r\n@@end a rc=1\r\n@@done");
	assert_true(t.valid);
	assert_true(t.complete);
	const struct section *s = transcript_get(&t, "a");
	assert_non_null(s);
	/* one CR before LF is the line ending; a second one is data */
	assert_string_equal(s->body, "x\ny\r\n");
	assert_int_equal(s->rc, 1);
	transcript_release(&t);

	parse(&t, "@@ci-probe v1\n@@begin a\n|last");
	s = transcript_get(&t, "a");
	assert_non_null(s);
	assert_string_equal(s->body, "last\n");
	assert_int_equal(s->rc, -1);
	assert_false(t.complete);
	transcript_release(&t);
}

static void test_header(void **state)
{
	(void)state;
	struct transcript t;
	parse(&t, "@@begin a\n|x\n@@end a rc=0\n@@done\n");
	assert_false(t.valid);
	assert_false(t.complete);
	assert_int_equal(t.n, 0);
	transcript_release(&t);

	/* banners before the header (a login motd, kubectl warnings) */
	parse(&t, "Defaulted container \"main\" out of: main, sidecar\n"
		  "# source: saved by hand\n"
		  "@@ci-probe v1 extra=ignored\n@@begin a\n|x\n@@end a rc=0\n@@done\n");
	assert_true(t.valid);
	assert_true(t.complete);
	assert_int_equal(t.n, 1);
	transcript_release(&t);

	parse(&t, "@@ci-probe v2\n@@begin a\n@@end a rc=0\n@@done\n");
	assert_false(t.valid);
	assert_int_equal(t.n, 0);
	transcript_release(&t);

	parse(&t, "@@ci-probev1\n@@ci-probe\n|@@ci-probe v1\n");
	assert_false(t.valid);
	transcript_release(&t);

	parse(&t, "");
	assert_false(t.valid);
	transcript_release(&t);

	transcript_init(&t);
	transcript_parse(&t, NULL, 10);
	assert_false(t.valid);
	transcript_release(&t);
}

static void test_cut_sections(void **state)
{
	(void)state;
	struct transcript t;
	/* begin while open: the first was cut; EOF while open: kept */
	parse(&t,
	      "@@ci-probe v1\n@@begin a\n|one\n@@begin b\n|two\n@@end b rc=0\n@@begin c\n|three\n");
	assert_true(t.valid);
	assert_false(t.complete);
	assert_int_equal(t.n, 3);
	assert_int_equal(transcript_get(&t, "a")->rc, -1);
	assert_string_equal(transcript_get(&t, "a")->body, "one\n");
	assert_int_equal(transcript_get(&t, "b")->rc, 0);
	assert_int_equal(transcript_get(&t, "c")->rc, -1);
	assert_string_equal(transcript_get(&t, "c")->body, "three\n");
	transcript_release(&t);

	/* @@done with a section open: complete, the section has no rc */
	parse(&t, "@@ci-probe v1\n@@begin a\n|x\n@@done\n");
	assert_true(t.complete);
	assert_int_equal(transcript_get(&t, "a")->rc, -1);
	transcript_release(&t);
}

static void test_end_mismatch_and_stray(void **state)
{
	(void)state;
	struct transcript t;
	parse(&t, "@@ci-probe v1\n"
		  "|outside any section\n"
		  "@@end a rc=0\n"
		  "@@begin a\n"
		  "stray stderr line\n"
		  "|in\n"
		  "@@end b rc=9\n"
		  "|still in\n"
		  "@@end a rc=2\n"
		  "|outside again\n"
		  "@@unknown directive\n"
		  "@@done\n"
		  "@@begin late\n|after done\n@@end late rc=0\n");
	assert_int_equal(t.n, 1);
	const struct section *s = transcript_get(&t, "a");
	assert_string_equal(s->body, "in\nstill in\n");
	assert_int_equal(s->rc, 2);
	assert_null(transcript_get(&t, "late"));
	transcript_release(&t);
}

static void test_duplicates_keep_first(void **state)
{
	(void)state;
	struct transcript t;
	parse(&t, "@@ci-probe v1\n"
		  "@@begin a\n|first\n@@end a rc=0\n"
		  "@@begin a\n|second\n@@end a rc=1\n"
		  "@@begin b\n|b\n@@end b rc=0\n"
		  "@@done\n");
	assert_int_equal(t.n, 2);
	assert_int_equal(t.dropped, 1);
	assert_string_equal(transcript_get(&t, "a")->body, "first\n");
	assert_int_equal(transcript_get(&t, "a")->rc, 0);
	assert_string_equal(transcript_get(&t, "b")->body, "b\n");
	transcript_release(&t);
}

static void test_names(void **state)
{
	(void)state;
	assert_true(transcript_name_valid("sys/class/infiniband:mlx5_0.port-1_x", 36));
	assert_false(transcript_name_valid("", 0));
	assert_false(transcript_name_valid("Upper", 5));
	assert_false(transcript_name_valid("a b", 3));
	assert_false(transcript_name_valid("a$b", 3));
	char longname[TRANSCRIPT_MAX_NAME + 2];
	memset(longname, 'a', sizeof(longname));
	assert_true(transcript_name_valid(longname, TRANSCRIPT_MAX_NAME));
	assert_false(transcript_name_valid(longname, TRANSCRIPT_MAX_NAME + 1));

	struct transcript t;
	parse(&t, "@@ci-probe v1\n@@begin Bad\n|x\n@@end Bad rc=0\n@@begin\n|y\n@@end\n"
		  "@@begin ok\n|z\n@@end ok rc=0\n@@done\n");
	assert_int_equal(t.n, 1);
	assert_int_equal(t.dropped, 2);
	assert_string_equal(transcript_get(&t, "ok")->body, "z\n");
	transcript_release(&t);
}

static void test_end_flags(void **state)
{
	(void)state;
	struct transcript t;
	parse(&t, "@@ci-probe v1\n"
		  "@@begin a\n@@end a rc=-1 newflag\n"
		  "@@begin b\n@@end b rc=abc\n"
		  "@@begin c\n@@end c\trc=5\tmissing\n"
		  "@@begin d\n@@end d rc=99999999999\n"
		  "@@begin e\n@@end e\n"
		  "@@done\n");
	assert_int_equal(transcript_get(&t, "a")->rc, -1);
	assert_int_equal(transcript_get(&t, "b")->rc, -1);
	assert_int_equal(transcript_get(&t, "c")->rc, 5);
	assert_true(transcript_get(&t, "c")->missing);
	assert_int_equal(transcript_get(&t, "d")->rc, -1);
	assert_int_equal(transcript_get(&t, "e")->rc, -1);
	transcript_release(&t);
}

static void test_binary_body(void **state)
{
	(void)state;
	static const char in[] =
		"@@ci-probe v1\n@@begin bin\n|a\0b\xff\xfe\n|\n@@end bin rc=0\n@@done\n";
	struct transcript t;
	transcript_init(&t);
	transcript_parse(&t, in, sizeof(in) - 1);
	const struct section *s = transcript_get(&t, "bin");
	assert_non_null(s);
	assert_int_equal(s->len, 7);
	assert_memory_equal(s->body, "a\0b\xff\xfe\n\n", 7);
	assert_int_equal(s->body[7], '\0');
	transcript_release(&t);
}

static void test_section_cap(void **state)
{
	(void)state;
	size_t cap = 64 * (TRANSCRIPT_MAX_SECTIONS + 100), len = 0;
	char *buf = xmalloc(cap);
	len += (size_t)snprintf(buf + len, cap - len, "@@ci-probe v1\n");
	for (int i = 0; i < TRANSCRIPT_MAX_SECTIONS + 50; i++)
		len += (size_t)snprintf(buf + len, cap - len, "@@begin s%d\n|%d\n@@end s%d rc=0\n",
					i, i, i);
	len += (size_t)snprintf(buf + len, cap - len, "@@done\n");
	struct transcript t;
	transcript_init(&t);
	transcript_parse(&t, buf, len);
	assert_int_equal(t.n, TRANSCRIPT_MAX_SECTIONS);
	assert_true(t.truncated);
	assert_int_equal(t.dropped, 50);
	assert_true(t.complete);
	assert_string_equal(transcript_get(&t, "s0")->body, "0\n");
	assert_non_null(transcript_get(&t, "s511"));
	assert_null(transcript_get(&t, "s512"));
	transcript_release(&t);
	free(buf);
}

static void test_byte_cap(void **state)
{
	(void)state;
	/* 1 KiB lines past the total cap: the section is marked capped and
	 * keeps whole lines only. */
	size_t line = 1024, lines = (TRANSCRIPT_MAX_BYTES / line) + 10;
	size_t cap = lines * (line + 2) + 128, len = 0;
	char *buf = xmalloc(cap);
	len += (size_t)snprintf(buf + len, cap - len, "@@ci-probe v1\n@@begin big\n");
	for (size_t i = 0; i < lines && len + line + 2 < cap; i++) {
		buf[len++] = '|';
		memset(buf + len, 'x', line - 1);
		len += line - 1;
		buf[len++] = '\n';
	}
	struct transcript t;
	transcript_init(&t);
	transcript_parse(&t, buf, len);
	const struct section *s = transcript_get(&t, "big");
	assert_non_null(s);
	assert_true(t.truncated);
	assert_true(s->capped);
	assert_true(s->len <= TRANSCRIPT_MAX_BYTES);
	assert_int_equal(s->len % line, 0);
	assert_int_equal(s->body[s->len - 1], '\n');
	transcript_release(&t);
	free(buf);
}

/* The sample transcript fixture used by the collect tests parses. */
static void test_fixture(void **state)
{
	(void)state;
	FILE *f = fopen("tests/fixtures/probe/transcript_sample.txt", "rb");
	assert_non_null(f);
	char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	struct transcript t;
	transcript_init(&t);
	transcript_parse(&t, buf, n);
	assert_true(t.valid);
	assert_true(t.complete);
	assert_int_equal(t.n, 4);
	const struct section *s = transcript_get(&t, "sys/class/infiniband");
	assert_non_null(s);
	assert_string_equal(s->body, "mlx5_0\nmlx5_1\n");
	s = transcript_get(&t, "tool/ibstat");
	assert_non_null(s);
	assert_true(s->missing);
	assert_int_equal(s->rc, 127);
	s = transcript_get(&t, "env");
	assert_non_null(s);
	assert_non_null(strstr(s->body, "@@end env rc=0\n"));
	transcript_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_forged_boundaries_are_data),
		cmocka_unit_test(test_crlf_and_no_final_newline),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_cut_sections),
		cmocka_unit_test(test_end_mismatch_and_stray),
		cmocka_unit_test(test_duplicates_keep_first),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_end_flags),
		cmocka_unit_test(test_binary_body),
		cmocka_unit_test(test_section_cap),
		cmocka_unit_test(test_byte_cap),
		cmocka_unit_test(test_fixture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
