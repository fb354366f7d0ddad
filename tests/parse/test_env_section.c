/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/env_section.h"

/* What the probe script writes (controls already escaped, cut marked). */
static void script_form(void **state)
{
	struct env_section e;

	(void)state;
	PARSE_STR(env_section_parse, e,
		  "UCX_TLS=rc,cuda_copy\n"
		  "NCCL_IB_HCA=mlx5_0 <multi-line value cut>\n"
		  "NCCL_FORGE=foo\\x0dUCX_TLS=tcp\nNIXL_ETCD_PASSWORD=<redacted>\n",
		  0);
	assert_int_equal(e.n, 4);
	assert_string_equal(e.v[0].name, "UCX_TLS");
	assert_string_equal(e.v[0].value, "rc,cuda_copy");
	assert_string_equal(e.v[2].value, "foo\\x0dUCX_TLS=tcp");
	env_section_release(&e);
}

/* A raw CR (an earlier script, or a hand-edited transcript) stays inside
 * its value: it never starts a variable (issue 11, 5). */
static void cr_never_splits(void **state)
{
	struct env_section e;
	const char in[] = "NCCL_X=foo\rUCX_TLS=rc,cuda_copy\nUCX_TLS=tcp\nA=\x1b[2J\0z\n";

	(void)state;
	assert_int_equal(env_section_parse(in, sizeof(in) - 1, &e), 0);
	assert_int_equal(e.n, 3);
	assert_string_equal(e.v[0].name, "NCCL_X");
	assert_string_equal(e.v[0].value, "foo\rUCX_TLS=rc,cuda_copy");
	assert_string_equal(e.v[1].name, "UCX_TLS");
	assert_string_equal(e.v[1].value, "tcp");
	assert_string_equal(e.v[2].value, "\x1b[2J");
	env_section_release(&e);
}

/* Bad names are skipped, the first of a repeated name is kept. */
static void names(void **state)
{
	struct env_section e;

	(void)state;
	PARSE_STR(env_section_parse, e, "=x\n9A=1\nno equals\nA B=1\nUCX_TLS=a\nUCX_TLS=b\n", 0);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.v[0].value, "a");
	env_section_release(&e);
	PARSE_STR(env_section_parse, e, "", -1);
	env_section_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(script_form),
		cmocka_unit_test(cr_never_splits),
		cmocka_unit_test(names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
