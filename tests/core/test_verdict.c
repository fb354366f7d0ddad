/* SPDX-License-Identifier: Apache-2.0 */
/* Every verdict rule, fix_first ordering, dedup, children, exit codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "core/report.h"

static struct ci_check *add(struct ci_report *r, const char *id, enum ci_status st, bool crit,
			    enum ci_layer layer)
{
	return report_add(r, id, st, crit, layer, NULL, "%s", id);
}

static void assert_fix_first(const struct ci_verdict *v, const char *const *ids, size_t n)
{
	assert_int_equal(v->n_fix_first, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v->fix_first[i], ids[i]);
}

static void test_empty_is_unknown(void **state)
{
	(void)state;
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "env", "x");
	verdict_compute(&r, &v);
	assert_int_equal(v.kind, CI_UNKNOWN);
	assert_false(v.trusted);
	assert_int_equal(verdict_exit_code(&v), 3);
	assert_int_equal(v.n_fix_first, 0);
	assert_string_equal(v.summary,
			    "Nothing could be checked, so the transport cannot be trusted yet.");
	verdict_release(&v);
	report_release(&r);
}

static void test_all_ok_is_ready(void **state)
{
	(void)state;
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "env", "x");
	add(&r, "a.one", CI_OK, true, CI_LAYER_FABRIC);
	add(&r, "a.two", CI_OK, false, CI_LAYER_ENV);
	verdict_compute(&r, &v);
	assert_int_equal(v.kind, CI_READY);
	assert_true(v.trusted);
	assert_int_equal(verdict_exit_code(&v), 0);
	assert_int_equal(v.n_fix_first, 0);
	assert_string_equal(v.summary,
			    "The disaggregated transport can be trusted: all 2 checks passed.");
	verdict_release(&v);
	report_release(&r);
}

static void test_non_critical_skip_ignored(void **state)
{
	(void)state;
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "env", "x");
	add(&r, "a.one", CI_OK, true, CI_LAYER_FABRIC);
	add(&r, "a.opt", CI_SKIPPED, false, CI_LAYER_TUNING);
	verdict_compute(&r, &v);
	assert_int_equal(v.kind, CI_READY);
	assert_int_equal(v.n_fix_first, 0);
	verdict_release(&v);
	report_release(&r);
}

static void test_only_non_critical_skips(void **state)
{
	(void)state;
	/* Only non-critical skips: nothing was proven, so never ready. */
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "env", "x");
	add(&r, "a.opt", CI_SKIPPED, false, CI_LAYER_TUNING);
	add(&r, "a.opt2", CI_SKIPPED, false, CI_LAYER_ENV);
	verdict_compute(&r, &v);
	assert_int_equal(v.kind, CI_UNKNOWN);
	assert_int_equal(verdict_exit_code(&v), 3);
	assert_int_equal(v.n_fix_first, 0);
	assert_string_equal(v.summary,
			    "Nothing could be checked, so the transport cannot be trusted yet.");
	verdict_release(&v);
	report_release(&r);
}

static void test_warn_is_degraded(void **state)
{
	(void)state;
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "env", "x");
	add(&r, "a.ok", CI_OK, true, CI_LAYER_FABRIC);
	add(&r, "a.warn", CI_WARN, false, CI_LAYER_TUNING);
	add(&r, "a.skip", CI_SKIPPED, false, CI_LAYER_ENV);
	verdict_compute(&r, &v);
	assert_int_equal(v.kind, CI_DEGRADED);
	assert_false(v.trusted);
	assert_int_equal(verdict_exit_code(&v), 1);
	const char *ff[] = {"a.warn"};
	assert_fix_first(&v, ff, 1);
	assert_string_equal(v.summary, "Usable but not trusted: 1 warning; look at a.warn first.");
	verdict_release(&v);
	report_release(&r);
}

static void test_critical_skip_is_unknown(void **state)
{
	(void)state;
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "node", "x");
	add(&r, "a.ok", CI_OK, true, CI_LAYER_FABRIC);
	add(&r, "a.warn", CI_WARN, true, CI_LAYER_FABRIC);
	add(&r, "a.skip", CI_SKIPPED, true, CI_LAYER_DRIVER);
	verdict_compute(&r, &v);
	/* Skipped is inconclusive, never a pass: it outranks a warning. */
	assert_int_equal(v.kind, CI_UNKNOWN);
	assert_false(v.trusted);
	assert_int_equal(verdict_exit_code(&v), 3);
	const char *ff[] = {"a.skip", "a.warn"};
	assert_fix_first(&v, ff, 2);
	assert_string_equal(v.summary,
			    "Cannot tell: 1 critical check could not be made; start with a.skip.");
	verdict_release(&v);
	report_release(&r);
}

static void test_fail_is_blocked(void **state)
{
	(void)state;
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "env", "x");
	add(&r, "a.warn", CI_WARN, true, CI_LAYER_FABRIC);
	add(&r, "a.skip", CI_SKIPPED, true, CI_LAYER_FABRIC);
	add(&r, "a.fail", CI_FAIL, false, CI_LAYER_TUNING);
	add(&r, "a.fail2", CI_FAIL, true, CI_LAYER_ENV);
	verdict_compute(&r, &v);
	assert_int_equal(v.kind, CI_BLOCKED);
	assert_false(v.trusted);
	assert_int_equal(verdict_exit_code(&v), 2);
	/* Failures first (lower layer first), then warnings; the critical skip
	 * is not listed once the verdict is blocked. */
	const char *ff[] = {"a.fail2", "a.fail", "a.warn"};
	assert_fix_first(&v, ff, 3);
	assert_string_equal(v.summary,
			    "Do not trust the transport: 2 checks failed; fix a.fail2 first.");
	verdict_release(&v);
	report_release(&r);
}

static void test_order_layer_then_critical_then_input(void **state)
{
	(void)state;
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "env", "x");
	add(&r, "w.tuning", CI_WARN, true, CI_LAYER_TUNING);
	add(&r, "f.env", CI_FAIL, false, CI_LAYER_ENV);
	add(&r, "f.fabric_noncrit", CI_FAIL, false, CI_LAYER_FABRIC);
	add(&r, "f.tuning", CI_FAIL, true, CI_LAYER_TUNING);
	add(&r, "f.fabric_crit", CI_FAIL, true, CI_LAYER_FABRIC);
	add(&r, "f.driver", CI_FAIL, false, CI_LAYER_DRIVER);
	add(&r, "w.fabric", CI_WARN, false, CI_LAYER_FABRIC);
	add(&r, "f.env_b", CI_FAIL, false, CI_LAYER_ENV); /* tie: input order kept */
	add(&r, "ok.x", CI_OK, true, CI_LAYER_FABRIC);
	verdict_compute(&r, &v);
	const char *ff[] = {"f.fabric_crit", "f.fabric_noncrit", "f.driver", "f.env",
			    "f.env_b",       "f.tuning",         "w.fabric", "w.tuning"};
	assert_fix_first(&v, ff, 8);
	verdict_release(&v);
	report_release(&r);
}

/* The sort is n log n now; it must give the order the stable insertion
 * sort gave: rank first, input order among equals (many ties here). */
static void test_many_ties_keep_input_order(void **state)
{
	(void)state;
	enum {
		N = 3000
	};
	static const enum ci_layer layers[] = {CI_LAYER_TUNING, CI_LAYER_FABRIC, CI_LAYER_ENV,
					       CI_LAYER_DRIVER};
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "env", "x");
	static char ids[N][16];
	static size_t want[N];
	size_t nw = 0;
	for (size_t i = 0; i < N; i++) {
		snprintf(ids[i], sizeof(ids[i]), "c%04zu", i);
		enum ci_status st = i % 7 == 0 ? CI_FAIL : i % 5 == 0 ? CI_OK : CI_WARN;
		add(&r, ids[i], st, i % 2 == 0, layers[(i / 3) % 4]);
	}
	/* Reference: group (fail, warn), then layer, then critical, then input. */
	for (int g = 0; g < 2; g++)
		for (int layer = 0; layer <= (int)CI_LAYER_TUNING; layer++)
			for (int crit = 1; crit >= 0; crit--)
				for (size_t i = 0; i < N; i++) {
					const struct ci_check *c = &r.checks[i];
					if ((g == 0) != (c->status == CI_FAIL) ||
					    (g == 1 && c->status != CI_WARN))
						continue;
					if ((int)c->layer == layer && (int)c->critical == crit)
						want[nw++] = i;
				}
	verdict_compute(&r, &v);
	assert_int_equal(v.n_fix_first, nw);
	for (size_t k = 0; k < nw; k++)
		assert_string_equal(v.fix_first[k], ids[want[k]]);
	verdict_release(&v);
	report_release(&r);
}

static void test_dedup_ids(void **state)
{
	(void)state;
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "env", "x");
	report_add(&r, "env.ucx.tls", CI_WARN, true, CI_LAYER_ENV, "prefill", "a");
	report_add(&r, "env.ucx.tls", CI_FAIL, true, CI_LAYER_ENV, "decode", "b");
	report_add(&r, "env.ucx.tls", CI_FAIL, true, CI_LAYER_ENV, "worker", "c");
	report_add(&r, "env.other", CI_WARN, false, CI_LAYER_ENV, NULL, "d");
	verdict_compute(&r, &v);
	const char *ff[] = {"env.ucx.tls", "env.other"};
	assert_fix_first(&v, ff, 2);
	assert_string_equal(v.summary,
			    "Do not trust the transport: 2 checks failed; fix env.ucx.tls first.");
	verdict_release(&v);
	report_release(&r);
}

static void test_children_included(void **state)
{
	(void)state;
	struct ci_report r, c1, c2;
	struct ci_verdict v;
	report_init(&r, "node", "deployment");
	add(&r, "fleet.drift", CI_WARN, false, CI_LAYER_ENV);
	report_init(&c1, "node", "pod/a");
	add(&c1, "node.ok", CI_OK, true, CI_LAYER_FABRIC);
	report_init(&c2, "node", "pod/b");
	add(&c2, "node.port", CI_FAIL, true, CI_LAYER_FABRIC);
	report_adopt_child(&r, &c1);
	report_adopt_child(&r, &c2);
	verdict_compute(&r, &v);
	assert_int_equal(v.kind, CI_BLOCKED);
	const char *ff[] = {"node.port", "fleet.drift"};
	assert_fix_first(&v, ff, 2);
	verdict_release(&v);

	/* A pod that could not be probed makes the fleet unknown, never ready. */
	struct ci_report r2, c3;
	report_init(&r2, "node", "deployment");
	report_init(&c3, "node", "pod/c");
	add(&c3, "node.probe", CI_SKIPPED, true, CI_LAYER_FABRIC);
	report_adopt_child(&r2, &c3);
	add(&r2, "fleet.ok", CI_OK, true, CI_LAYER_ENV);
	verdict_compute(&r2, &v);
	assert_int_equal(v.kind, CI_UNKNOWN);
	assert_int_equal(verdict_exit_code(&v), 3);
	verdict_release(&v);
	report_release(&r2);
	report_release(&r);
}

static void test_exit_codes(void **state)
{
	(void)state;
	struct ci_verdict v = {0};
	v.kind = CI_READY;
	assert_int_equal(verdict_exit_code(&v), CI_EXIT_READY);
	v.kind = CI_DEGRADED;
	assert_int_equal(verdict_exit_code(&v), CI_EXIT_DEGRADED);
	v.kind = CI_BLOCKED;
	assert_int_equal(verdict_exit_code(&v), CI_EXIT_BLOCKED);
	v.kind = CI_UNKNOWN;
	assert_int_equal(verdict_exit_code(&v), CI_EXIT_UNKNOWN);
	assert_int_equal(CI_EXIT_USAGE, 64);
}

static void test_release_twice(void **state)
{
	(void)state;
	struct ci_report r;
	struct ci_verdict v;
	report_init(&r, "env", "x");
	add(&r, "a.warn", CI_WARN, false, CI_LAYER_ENV);
	verdict_compute(&r, &v);
	verdict_release(&v);
	verdict_release(&v); /* zeroed by the first release */
	assert_null(v.summary);
	report_release(&r);
}

/* Ready with next commands (nixl): the summary must not claim more than a
 * read-only look proved. */
static void test_ready_with_steps_is_modest(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "nixl", "t");
	report_add(&r, "nixl.ucx.rdma", CI_OK, true, CI_LAYER_DRIVER, NULL, "rc_mlx5");
	struct ci_verdict v;
	verdict_compute(&r, &v);
	assert_non_null(strstr(v.summary, "can be trusted"));
	verdict_release(&v);
	report_add_step(&r, "pair test", "nixlbench ...");
	verdict_compute(&r, &v);
	assert_int_equal(v.kind, CI_READY);
	assert_non_null(strstr(v.summary, "as far as a read-only check can tell"));
	assert_null(strstr(v.summary, "can be trusted"));
	verdict_release(&v);
	report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_is_unknown),
		cmocka_unit_test(test_all_ok_is_ready),
		cmocka_unit_test(test_non_critical_skip_ignored),
		cmocka_unit_test(test_only_non_critical_skips),
		cmocka_unit_test(test_warn_is_degraded),
		cmocka_unit_test(test_critical_skip_is_unknown),
		cmocka_unit_test(test_fail_is_blocked),
		cmocka_unit_test(test_order_layer_then_critical_then_input),
		cmocka_unit_test(test_many_ties_keep_input_order),
		cmocka_unit_test(test_dedup_ids),
		cmocka_unit_test(test_children_included),
		cmocka_unit_test(test_exit_codes),
		cmocka_unit_test(test_release_twice),
		cmocka_unit_test(test_ready_with_steps_is_modest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
