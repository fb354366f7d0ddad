/* SPDX-License-Identifier: Apache-2.0 */
/* JSON renderer: parse the output back with jansson and check every field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <string.h>

#include "render_helpers.h"

static json_t *render_parse(const struct ci_report *r)
{
	char *s = render_to_string(r, R_JSON, false, false, false);
	json_error_t err;
	json_t *j = json_loads(s, 0, &err);
	if (!j)
		fail_msg("invalid JSON: %s at %d:%d\n%s", err.text, err.line, err.column, s);
	/* one document, newline-terminated */
	assert_int_equal(s[strlen(s) - 1], '\n');
	free(s);
	return j;
}

static const char *str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_string(v))
		fail_msg("%s is not a string", key);
	return json_string_value(v);
}

static void test_fields(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "recipes/x");
	struct ci_check *c =
		report_add(&r, "env.ucx.tls", CI_FAIL, true, CI_LAYER_ENV, "decode", "only tcp");
	check_set_fix(c, "set UCX_TLS");
	check_add_evidence(c, "a.yaml:3: UCX_TLS=tcp");
	check_add_evidence(c, "a.yaml:9: UCX_TLS=tcp");
	report_add(&r, "env.other", CI_SKIPPED, false, CI_LAYER_TUNING, NULL, "n/a");
	report_add_fact(&r, "UCX_TLS", "tcp", "decode", "a.yaml:3");
	report_add_step(&r, "do it", "echo 1\necho 2");
	json_t *j = render_parse(&r);

	assert_string_equal(str(j, "schema"), "check_interconnect/v1");
	assert_string_equal(str(j, "command"), "env");
	assert_string_equal(str(j, "target"), "recipes/x");
	assert_null(json_object_get(j, "pods"));
	assert_null(json_object_get(j, "label"));

	json_t *checks = json_object_get(j, "checks");
	assert_int_equal(json_array_size(checks), 2);
	json_t *c0 = json_array_get(checks, 0);
	assert_string_equal(str(c0, "id"), "env.ucx.tls");
	assert_string_equal(str(c0, "status"), "fail");
	assert_true(json_is_true(json_object_get(c0, "critical")));
	assert_string_equal(str(c0, "layer"), "environment");
	assert_string_equal(str(c0, "subject"), "decode");
	assert_string_equal(str(c0, "detail"), "only tcp");
	assert_string_equal(str(c0, "fix"), "set UCX_TLS");
	json_t *ev = json_object_get(c0, "evidence");
	assert_int_equal(json_array_size(ev), 2);
	assert_string_equal(json_string_value(json_array_get(ev, 1)), "a.yaml:9: UCX_TLS=tcp");
	json_t *c1 = json_array_get(checks, 1);
	assert_true(json_is_null(json_object_get(c1, "subject")));
	assert_true(json_is_null(json_object_get(c1, "fix")));
	assert_true(json_is_false(json_object_get(c1, "critical")));
	assert_string_equal(str(c1, "layer"), "tuning");
	assert_string_equal(str(c1, "status"), "skipped");
	assert_int_equal(json_array_size(json_object_get(c1, "evidence")), 0);
	assert_int_equal(json_object_size(c0), 8);

	json_t *set = json_array_get(json_object_get(j, "settings"), 0);
	assert_string_equal(str(set, "name"), "UCX_TLS");
	assert_string_equal(str(set, "value"), "tcp");
	assert_string_equal(str(set, "subject"), "decode");
	assert_string_equal(str(set, "source"), "a.yaml:3");
	json_t *step = json_array_get(json_object_get(j, "next_steps"), 0);
	assert_string_equal(str(step, "description"), "do it");
	assert_string_equal(str(step, "command"), "echo 1\necho 2");

	json_t *n = json_object_get(j, "counts");
	assert_int_equal(json_integer_value(json_object_get(n, "ok")), 0);
	assert_int_equal(json_integer_value(json_object_get(n, "fail")), 1);
	assert_int_equal(json_integer_value(json_object_get(n, "skipped")), 1);
	assert_int_equal(json_integer_value(json_object_get(n, "warn")), 0);

	json_t *v = json_object_get(j, "verdict");
	assert_string_equal(str(v, "status"), "blocked");
	assert_true(json_is_false(json_object_get(v, "trusted")));
	assert_int_equal(json_integer_value(json_object_get(v, "exit_code")), 2);
	assert_string_equal(str(v, "summary"),
			    "Do not trust the transport: 1 check failed; fix env.ucx.tls first.");
	json_t *ff = json_object_get(v, "fix_first");
	assert_int_equal(json_array_size(ff), 1);
	assert_string_equal(json_string_value(json_array_get(ff, 0)), "env.ucx.tls");

	/* key order is stable: schema first, verdict last */
	const char *first = json_object_iter_key(json_object_iter(j));
	assert_string_equal(first, "schema");
	json_decref(j);
	report_release(&r);
}

static void test_invalid_utf8_still_valid_json(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "bad\xff\xfe target");
	struct ci_check *c =
		report_add(&r, "env.x", CI_WARN, false, CI_LAYER_ENV, "sub\xc3\x28ject",
			   "detail \xe2\x82 with \xf0\x9f\x98 broken bytes, \xc3\xa9 ok");
	check_set_fix(c, "fix \x80");
	check_add_evidence(c, "ev \xff");
	report_add_fact(&r, "UCX_\xff", "v\xfe", "s", "src");
	report_add_step(&r, "d\xff", "c\xff");
	json_t *j = render_parse(&r);
	json_t *c0 = json_array_get(json_object_get(j, "checks"), 0);
	const char *d = str(c0, "detail");
	assert_null(strchr(d, '\xe2'));
	assert_non_null(strstr(d, "detail "));
	assert_non_null(strstr(d, "broken bytes"));
	assert_string_equal(str(j, "target"), "bad?? target");
	assert_string_equal(str(c0, "fix"), "fix ?");
	json_decref(j);
	report_release(&r);
}

static void test_escapes(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "quote\" back\\slash");
	report_add(&r, "env.x", CI_OK, true, CI_LAYER_ENV, NULL, "ctl \x01 \x1f chars");
	json_t *j = render_parse(&r);
	assert_string_equal(str(j, "target"), "quote\" back\\slash");
	assert_string_equal(str(json_array_get(json_object_get(j, "checks"), 0), "detail"),
			    "ctl \x01 \x1f chars");
	assert_string_equal(str(json_object_get(j, "verdict"), "status"), "ready");
	assert_true(json_is_true(json_object_get(json_object_get(j, "verdict"), "trusted")));
	json_decref(j);
	report_release(&r);
}

static void test_children_as_pods(void **state)
{
	(void)state;
	struct ci_report r, a, b;
	report_init(&r, "node", "deployment d");
	report_init(&a, "node", "pod/a");
	a.child_label = strdup("prefill on n1");
	report_add(&a, "node.ok", CI_OK, true, CI_LAYER_FABRIC, NULL, "fine");
	report_init(&b, "node", "pod/b");
	report_add(&b, "node.probe", CI_SKIPPED, true, CI_LAYER_FABRIC, NULL, "timed out");
	report_adopt_child(&r, &a);
	report_adopt_child(&r, &b);
	json_t *j = render_parse(&r);
	json_t *pods = json_object_get(j, "pods");
	assert_int_equal(json_array_size(pods), 2);
	json_t *p0 = json_array_get(pods, 0), *p1 = json_array_get(pods, 1);
	assert_null(json_object_get(p0, "schema"));
	assert_string_equal(str(p0, "label"), "prefill on n1");
	assert_null(json_object_get(p1, "label"));
	assert_string_equal(str(p0, "target"), "pod/a");
	/* each pod has its own verdict; the run's verdict covers them all */
	assert_string_equal(str(json_object_get(p0, "verdict"), "status"), "ready");
	assert_string_equal(str(json_object_get(p1, "verdict"), "status"), "unknown");
	assert_string_equal(str(json_object_get(j, "verdict"), "status"), "unknown");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "counts"), "ok")),
			 1);
	assert_int_equal(json_array_size(json_object_get(j, "checks")), 0);
	json_decref(j);
	report_release(&r);
}

static void test_report_finish_exit_code(void **state)
{
	(void)state;
	/* report_finish writes to stdout; point it at /dev/null. */
	FILE *saved = stdout;
	FILE *devnull = fopen("/dev/null", "w");
	assert_non_null(devnull);
	stdout = devnull;
	struct render_opts o = {0};
	struct ci_report r;
	report_init(&r, "env", "x");
	report_add(&r, "a.b", CI_WARN, false, CI_LAYER_ENV, NULL, "w");
	int rc_text = report_finish(&r, &o);
	o.format = CI_FORMAT_JSON;
	int rc_json = report_finish(&r, &o);
	stdout = saved;
	fclose(devnull);
	assert_int_equal(rc_text, 1);
	assert_int_equal(rc_json, 1);
	report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_invalid_utf8_still_valid_json),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_children_as_pods),
		cmocka_unit_test(test_report_finish_exit_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
