/* SPDX-License-Identifier: Apache-2.0 */
/* The result model: ownership, one-line folding, children, counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/report.h"

static void test_init_target(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", NULL);
	assert_string_equal(r.command, "env");
	assert_string_equal(r.target, "");
	assert_int_equal(r.n_checks, 0);
	report_release(&r);
	assert_null(r.command);
	report_init(&r, "node", "pod/p0");
	assert_string_equal(r.target, "pod/p0");
	report_release(&r);
}

static void test_add_fields(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "x");
	struct ci_check *c = report_add(&r, "env.ucx.tls", CI_FAIL, true, CI_LAYER_ENV, "decode",
					"UCX_TLS=%s leaves %d transport", "tcp", 1);
	assert_string_equal(c->id, "env.ucx.tls");
	assert_int_equal(c->status, CI_FAIL);
	assert_true(c->critical);
	assert_int_equal(c->layer, CI_LAYER_ENV);
	assert_string_equal(c->subject, "decode");
	assert_string_equal(c->detail, "UCX_TLS=tcp leaves 1 transport");
	assert_null(c->fix);
	assert_int_equal(c->n_evidence, 0);

	struct ci_check *d =
		report_add(&r, "env.other", CI_OK, false, CI_LAYER_TUNING, NULL, "fine");
	assert_null(d->subject);
	assert_int_equal(r.n_checks, 2);
	report_release(&r);
}

static const struct check_desc descs[] = {
	{"t.crit", CI_LAYER_FABRIC, true, "a critical check", "proj a.c @v1"},
	{"t.minor", CI_LAYER_TUNING, false, "advice", "proj b.c @v2"},
};

static void test_descriptors(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "node", "x");
	/* report_check: layer and criticality from the descriptor */
	struct ci_check *c = report_check(&r, &descs[0], CI_WARN, "mlx5_0", "%d down", 2);
	assert_string_equal(c->id, "t.crit");
	assert_int_equal(c->status, CI_WARN);
	assert_true(c->critical);
	assert_int_equal(c->layer, CI_LAYER_FABRIC);
	assert_string_equal(c->subject, "mlx5_0");
	assert_string_equal(c->detail, "2 down");
	/* the source rides along for the formats that show it (SARIF) */
	assert_string_equal(c->source, "proj a.c @v1");
	/* report_na: skipped and never critical, the descriptor's layer */
	c = report_na(&r, &descs[0], NULL, "no RDMA device");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_false(c->critical);
	assert_int_equal(c->layer, CI_LAYER_FABRIC);
	assert_null(c->subject);
	/* report_check_as: the explicit exception wins */
	c = report_check_as(&r, &descs[1], CI_FAIL, true, CI_LAYER_DRIVER, "s", "x%s", "y");
	assert_string_equal(c->id, "t.minor");
	assert_true(c->critical);
	assert_int_equal(c->layer, CI_LAYER_DRIVER);
	assert_string_equal(c->detail, "xy");
	assert_int_equal(r.n_checks, 3);
	report_release(&r);

	assert_ptr_equal(check_desc_find(descs, 2, "t.minor"), &descs[1]);
	assert_null(check_desc_find(descs, 2, "t"));
	assert_null(check_desc_find(descs, 2, "t.minor.x"));
}

static void test_fix_replaced_and_evidence_order(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "x");
	struct ci_check *c = report_add(&r, "a.b", CI_WARN, false, CI_LAYER_ENV, NULL, "d");
	check_set_fix(c, "first %d", 1);
	check_set_fix(c, "second %s", "fix"); /* replaces; the first must not leak */
	assert_string_equal(c->fix, "second fix");
	for (int i = 0; i < 20; i++)
		check_add_evidence(c, "deploy.yaml:%d: X=%d", i + 1, i);
	assert_int_equal(c->n_evidence, 20);
	assert_string_equal(c->evidence[0], "deploy.yaml:1: X=0");
	assert_string_equal(c->evidence[19], "deploy.yaml:20: X=19");
	report_release(&r);
}

static void test_one_line_folding(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "x");
	struct ci_check *c = report_add(&r, "a.b", CI_WARN, false, CI_LAYER_ENV, NULL,
					"line1\nline2\r\nline3\tend");
	assert_string_equal(c->detail, "line1 line2  line3 end");
	check_set_fix(c, "do\nthis");
	assert_string_equal(c->fix, "do this");
	check_add_evidence(c, "a\nb");
	assert_string_equal(c->evidence[0], "a b");
	/* A step's description is one line, its command keeps its breaks. */
	report_add_step(&r, "run\nthis", "a \\\n  b");
	assert_string_equal(r.steps[0].description, "run this");
	assert_string_equal(r.steps[0].command, "a \\\n  b");
	report_release(&r);
}

static void test_facts(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "x");
	report_add_fact(&r, "UCX_TLS", "rc,cuda_copy", "prefill, decode", "deploy.yaml:12");
	report_add_fact(&r, "NIXL_X", NULL, NULL, NULL); /* tolerated: stored as "" */
	assert_int_equal(r.n_facts, 2);
	assert_string_equal(r.facts[0].name, "UCX_TLS");
	assert_string_equal(r.facts[0].value, "rc,cuda_copy");
	assert_string_equal(r.facts[0].subject, "prefill, decode");
	assert_string_equal(r.facts[0].source, "deploy.yaml:12");
	assert_string_equal(r.facts[1].value, "");
	assert_string_equal(r.facts[1].source, "");
	report_release(&r);
}

static void test_children_and_counts(void **state)
{
	(void)state;
	struct ci_report r, a, b;
	report_init(&r, "node", "deployment d");
	report_add(&r, "fleet.x", CI_OK, false, CI_LAYER_ENV, NULL, "ok");
	report_init(&a, "node", "pod/a");
	report_add(&a, "node.rdma", CI_FAIL, true, CI_LAYER_FABRIC, NULL, "down");
	report_add(&a, "node.gdr", CI_WARN, false, CI_LAYER_DRIVER, NULL, "no gdrcopy");
	report_init(&b, "node", "pod/b");
	report_add(&b, "node.rdma", CI_SKIPPED, true, CI_LAYER_FABRIC, NULL, "no sysfs");
	report_adopt_child(&r, &a);
	report_adopt_child(&r, &b);
	assert_null(a.checks);
	assert_int_equal(a.n_checks, 0);
	assert_null(b.command);
	assert_int_equal(r.n_children, 2);
	assert_string_equal(r.children[0].target, "pod/a");
	assert_string_equal(r.children[1].checks[0].detail, "no sysfs");

	struct ci_counts n = report_counts(&r);
	assert_int_equal(n.ok, 1);
	assert_int_equal(n.warn, 1);
	assert_int_equal(n.fail, 1);
	assert_int_equal(n.skipped, 1);
	report_release(&r);
	report_release(&a); /* released-empty is harmless */
}

static void test_many_checks_grow(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "x");
	for (int i = 0; i < 1000; i++)
		report_add(&r, "a.b", (enum ci_status)(i % 4), false, CI_LAYER_ENV, NULL, "%d", i);
	assert_int_equal(r.n_checks, 1000);
	assert_string_equal(r.checks[999].detail, "999");
	struct ci_counts n = report_counts(&r);
	assert_int_equal(n.ok + n.warn + n.fail + n.skipped, 1000);
	assert_int_equal(n.skipped, 250);
	report_release(&r);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(status_name(CI_OK), "ok");
	assert_string_equal(status_name(CI_WARN), "warn");
	assert_string_equal(status_name(CI_FAIL), "fail");
	assert_string_equal(status_name(CI_SKIPPED), "skipped");
	assert_string_equal(status_name((enum ci_status)9), "?");
	assert_string_equal(verdict_name(CI_READY), "ready");
	assert_string_equal(verdict_name(CI_DEGRADED), "degraded");
	assert_string_equal(verdict_name(CI_BLOCKED), "blocked");
	assert_string_equal(verdict_name(CI_UNKNOWN), "unknown");
	assert_string_equal(layer_name(CI_LAYER_FABRIC), "fabric");
	assert_string_equal(layer_name(CI_LAYER_DRIVER), "driver");
	assert_string_equal(layer_name(CI_LAYER_ENV), "environment");
	assert_string_equal(layer_name(CI_LAYER_TUNING), "tuning");
	assert_string_equal(layer_name((enum ci_layer)7), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_target),
		cmocka_unit_test(test_add_fields),
		cmocka_unit_test(test_descriptors),
		cmocka_unit_test(test_fix_replaced_and_evidence_order),
		cmocka_unit_test(test_one_line_folding),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_children_and_counts),
		cmocka_unit_test(test_many_checks_grow),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
