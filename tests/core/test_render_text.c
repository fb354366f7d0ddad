/* SPDX-License-Identifier: Apache-2.0 */
/* Text renderer: exact layout, 80-column wrapping, quiet/verbose, colour. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "render_helpers.h"

static const char long_detail[] =
	"no IPC_LOCK capability and no ulimit -l in the command: UCX may drop InfiniBand "
	"when the memlock limit is below 512 MiB, which makes KV transfers fall back";
static const char long_command[] =
	"kubectl exec -n ns pod-a -- nixlbench --backend UCX --etcd_endpoints "
	"http://etcd:2379 --initiator_seg_type VRAM --target_seg_type VRAM --check_consistency";

static void build(struct ci_report *r)
{
	/* one target with several subjects: the flat list (a recipe tree, env
	 * over several deployments, has its own layout: test_tree_*) */
	report_init(r, "node", "examples/recipes/demo");
	struct ci_check *c =
		report_add(r, "env.ucx.tls", CI_FAIL, true, CI_LAYER_ENV, "decode",
			   "UCX_TLS=tcp leaves only TCP: KV moves over the host network");
	check_set_fix(c, "set UCX_TLS=rc,cuda_copy,cuda_ipc or remove it");
	check_add_evidence(c, "deploy.yaml:57: UCX_TLS=tcp");
	c = report_add(r, "env.nixl.backend", CI_OK, true, CI_LAYER_ENV, NULL,
		       "UCX backend on both roles");
	check_set_fix(c, "nothing to do");
	c = report_add(r, "env.memlock", CI_WARN, false, CI_LAYER_DRIVER, "prefill", "%s",
		       long_detail);
	check_set_fix(c, "add IPC_LOCK to securityContext.capabilities.add");
	report_add(r, "env.opt", CI_SKIPPED, false, CI_LAYER_TUNING, NULL, "not applicable");
	report_add_fact(r, "UCX_TLS", "tcp", "decode", "deploy.yaml:57");
	report_add_step(r, "Run nixlbench on both sides", long_command);
}

/* Read with the eyes, then pasted: the whole layout in one string. */
static const char expected_default[] =
	"check_interconnect node: examples/recipes/demo\n"
	"\n"
	"  fail    env.ucx.tls      decode: UCX_TLS=tcp leaves only TCP: KV moves over\n"
	"                           the host network\n"
	"                           fix: set UCX_TLS=rc,cuda_copy,cuda_ipc or remove it\n"
	"  ok      env.nixl.backend UCX backend on both roles\n"
	"  warn    env.memlock      prefill: no IPC_LOCK capability and no ulimit -l in\n"
	"                           the command: UCX may drop InfiniBand when the memlock\n"
	"                           limit is below 512 MiB, which makes KV transfers fall\n"
	"                           back\n"
	"                           fix: add IPC_LOCK to securityContext.capabilities.add\n"
	"  skipped env.opt          not applicable\n"
	"\n"
	"Transport settings seen:\n"
	"  UCX_TLS=tcp (decode, deploy.yaml:57)\n"
	"\n"
	"Next commands (run them yourself; this tool never does):\n"
	"  1. Run nixlbench on both sides\n"
	"     kubectl exec -n ns pod-a -- nixlbench --backend UCX --etcd_endpoints "
	"http://etcd:2379 --initiator_seg_type VRAM --target_seg_type VRAM --check_consistency\n"
	"\n"
	"1 ok, 1 warn, 1 fail, 1 skipped\n"
	"verdict: blocked (not trusted, exit 2)\n"
	"  Do not trust the transport: 1 check failed; fix env.ucx.tls first.\n"
	"fix first:\n"
	"  1. env.ucx.tls (decode): set UCX_TLS=rc,cuda_copy,cuda_ipc or remove it\n"
	"  2. env.memlock (prefill): add IPC_LOCK to securityContext.capabilities.add\n";

static void test_exact_layout(void **state)
{
	(void)state;
	struct ci_report r;
	build(&r);
	char *s = render_to_string(&r, R_TEXT, false, false, false);
	assert_string_equal(s, expected_default);
	free(s);
	report_release(&r);
}

/* Every line fits 80 columns, except a next-step command, which must stay
 * copy-pasteable (verbatim, never wrapped). */
static void assert_fits_80(const char *s)
{
	for (const char *line = s; *line;) {
		size_t n = strcspn(line, "\n");
		bool is_command = !strncmp(line, "     kubectl ", 13);
		if (n > 80 && !is_command)
			fail_msg("line longer than 80 columns (%zu): %.*s", n, (int)n, line);
		line += n + (line[n] == '\n');
	}
}

static void test_wrap_80(void **state)
{
	(void)state;
	struct ci_report r;
	build(&r);
	/* An id longer than the id column and a long subject. */
	struct ci_check *c = report_add(&r, "env.a.very.long.check.identifier.indeed", CI_WARN,
					true, CI_LAYER_TUNING, "prefill-worker, decode-worker",
					"%s %s", long_detail, long_detail);
	check_set_fix(c, "%s", long_detail);
	check_add_evidence(c, "%s", long_detail);
	for (int verbose = 0; verbose < 2; verbose++) {
		char *s = render_to_string(&r, R_TEXT, false, verbose, false);
		assert_fits_80(s);
		assert_non_null(strstr(s, long_command)); /* not wrapped */
		assert_non_null(strstr(s, "env.a.very.long.check.identifier.indeed "));
		free(s);
	}
	report_release(&r);
}

static void test_alignment(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "t");
	report_add(&r, "a.b", CI_OK, false, CI_LAYER_ENV, NULL, "first");
	report_add(&r, "a.much_longer_id", CI_WARN, false, CI_LAYER_ENV, NULL, "second");
	report_add(&r, "c", CI_SKIPPED, false, CI_LAYER_ENV, NULL, "third");
	char *s = render_to_string(&r, R_TEXT, false, false, false);
	/* the detail column is the same on every check line */
	const char *a = strstr(s, "first"), *b = strstr(s, "second"), *c = strstr(s, "third");
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	const char *la = a, *lb = b, *lc = c;
	while (la > s && la[-1] != '\n')
		la--;
	while (lb > s && lb[-1] != '\n')
		lb--;
	while (lc > s && lc[-1] != '\n')
		lc--;
	assert_int_equal(a - la, b - lb);
	assert_int_equal(a - la, c - lc);
	assert_int_equal(a - la, 2 + 7 + 1 + 16 + 1);
	free(s);
	report_release(&r);
}

static void test_quiet_only_verdict(void **state)
{
	(void)state;
	struct ci_report r;
	build(&r);
	char *s = render_to_string(&r, R_TEXT, true, false, false);
	assert_true(!strncmp(s, "verdict: blocked (not trusted, exit 2)\n", 39));
	assert_null(strstr(s, "check_interconnect node:"));
	assert_null(strstr(s, "  ok "));
	assert_null(strstr(s, "Transport settings"));
	assert_null(strstr(s, "Next commands"));
	/* -q is the verdict line and nothing else (issue 13) */
	assert_string_equal(s, "verdict: blocked (not trusted, exit 2)\n");
	free(s);
	report_release(&r);
}

static void test_verbose_evidence(void **state)
{
	(void)state;
	struct ci_report r;
	build(&r);
	char *plain = render_to_string(&r, R_TEXT, false, false, false);
	char *verbose = render_to_string(&r, R_TEXT, false, true, false);
	assert_null(strstr(plain, "deploy.yaml:57: UCX_TLS=tcp"));
	assert_non_null(
		strstr(verbose, "                           > deploy.yaml:57: UCX_TLS=tcp\n"));
	/* fixes of passing checks only in verbose */
	assert_null(strstr(plain, "nothing to do"));
	assert_non_null(strstr(verbose, "fix: nothing to do"));
	free(plain);
	free(verbose);
	report_release(&r);
}

static void test_color_only_when_asked(void **state)
{
	(void)state;
	struct ci_report r;
	build(&r);
	char *plain = render_to_string(&r, R_TEXT, false, true, false);
	char *color = render_to_string(&r, R_TEXT, false, true, true);
	char *quiet_color = render_to_string(&r, R_TEXT, true, false, true);
	assert_null(strchr(plain, '\033'));
	assert_non_null(strstr(color, "\033[1;31mfail   \033[0m"));
	assert_non_null(strstr(color, "\033[32mok     \033[0m"));
	assert_non_null(strstr(color, "verdict: \033[1;31mblocked\033[0m"));
	assert_non_null(strstr(quiet_color, "\033[1;31mblocked"));
	free(plain);
	free(color);
	free(quiet_color);
	report_release(&r);
}

static void test_ready_and_empty(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "node", "local host");
	char *s = render_to_string(&r, R_TEXT, false, false, false);
	assert_string_equal(
		s, "check_interconnect node: local host\n\n"
		   "\n0 ok, 0 warn, 0 fail, 0 skipped\n"
		   "verdict: unknown (not trusted, exit 3)\n"
		   "  Nothing could be checked, so the transport cannot be trusted yet.\n");
	free(s);
	report_add(&r, "node.x", CI_OK, true, CI_LAYER_FABRIC, NULL, "fine");
	s = render_to_string(&r, R_TEXT, true, false, false);
	assert_string_equal(s, "verdict: ready (trusted, exit 0)\n");
	free(s);
	report_release(&r);
}

static void test_children(void **state)
{
	(void)state;
	struct ci_report r, c;
	report_init(&r, "node", "deployment vllm-disagg");
	report_init(&c, "node", "pod/decode-0");
	c.child_label = strdup("decode on node-7");
	report_add(&c, "node.rdma.ports", CI_FAIL, true, CI_LAYER_FABRIC, "mlx5_0", "port 1 down");
	report_add_fact(&c, "UCX_TLS", "rc", "decode-0", "pod env");
	report_adopt_child(&r, &c);
	report_add(&r, "fleet.drift", CI_OK, false, CI_LAYER_ENV, NULL, "no drift");
	char *s = render_to_string(&r, R_TEXT, false, false, false);
	assert_non_null(strstr(s, "\npod/decode-0  decode on node-7\n"
				  "    fail    node.rdma.ports mlx5_0: port 1 down\n"));
	assert_non_null(
		strstr(s, "\n  Transport settings seen:\n    UCX_TLS=rc (decode-0, pod env)\n"));
	assert_non_null(strstr(s, "1 ok, 0 warn, 1 fail, 0 skipped\n"));
	/* in a fleet run, the place a fix applies to is the child (the pod) */
	assert_non_null(strstr(s, "  1. node.rdma.ports (pod/decode-0): port 1 down\n"));
	free(s);
	report_release(&r);
}

/* The fix-first line quotes the check that put the id on the list (here
 * the warning), not an informational skip with the same id. */
static void test_fix_first_quotes_the_ranked_check(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "t");
	report_add(&r, "env.input", CI_SKIPPED, false, CI_LAYER_ENV, NULL, "a note");
	struct ci_check *w = report_add(&r, "env.input", CI_WARN, false, CI_LAYER_ENV, NULL,
					"cannot read b.yaml");
	check_set_fix(w, "fix or remove b.yaml");
	char *s = render_to_string(&r, R_TEXT, false, false, false);
	const char *ff = strstr(s, "fix first:");
	assert_non_null(ff);
	assert_non_null(strstr(ff, "1. env.input: fix or remove b.yaml"));
	assert_null(strstr(ff, "a note"));
	free(s);
	report_release(&r);
}

/* The fix-first list says how many places a fix applies to, and keeps
 * distinct causes of one id apart (issue 13): 3 deployments share one
 * fix; two pods fail their probe for two reasons, both listed. */
static void test_fix_first_counts_places_and_causes(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "recipes");
	const char *deps[] = {"dep-a", "dep-b", "dep-c", "dep-d"};
	/* the noun comes from the descriptor, never from the id */
	static const struct check_desc fabric = {
		"env.fabric", CI_LAYER_FABRIC, true, "the fabric", "test", 0, "deployment"};
	for (size_t i = 0; i < 4; i++) {
		struct ci_check *c =
			report_check(&r, &fabric, CI_WARN, deps[i], "no RDMA device requested");
		check_set_fix(c, "request the NIC");
	}
	char *s = render_to_string(&r, R_TEXT, false, false, false);
	assert_non_null(strstr(s, "  1. env.fabric (4 deployments): request the NIC\n"));
	free(s);
	report_release(&r);

	struct ci_report f, a, b;
	report_init(&f, "node", "deployment d");
	report_init(&a, "node", "pod ns/w-0");
	report_init(&b, "node", "pod ns/w-1");
	struct ci_check *c = report_add(&a, "node.probe", CI_SKIPPED, true, CI_LAYER_FABRIC, NULL,
					"w-0 did not answer");
	check_set_fix(c, "raise --timeout");
	c = report_add(&b, "node.probe", CI_SKIPPED, true, CI_LAYER_FABRIC, NULL,
		       "RBAC forbids exec into w-1");
	check_set_fix(c, "grant create on pods/exec");
	report_adopt_child(&f, &a);
	report_adopt_child(&f, &b);
	s = render_to_string(&f, R_TEXT, false, false, false);
	const char *ff = strstr(s, "fix first:");
	assert_non_null(ff);
	assert_non_null(strstr(ff, "  1. node.probe (2 pods, 2 causes):\n"
				   "     - w-0: raise --timeout\n"
				   "     - w-1: grant create on pods/exec\n"));
	free(s);
	report_release(&f);
}

/* A recipe tree (env over several deployments) opens with one row per
 * deployment, the worst first, then only the checks that are not ok; -v
 * shows every check; one deployment keeps the full list (issue 13). */
static void test_tree_problems_first(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "env", "recipes");
	report_add(&r, "env.mode", CI_OK, true, CI_LAYER_ENV, "good-dep", "aggregated");
	report_add(&r, "env.mode", CI_OK, true, CI_LAYER_ENV, "bad-dep", "disaggregated");
	struct ci_check *c = report_add(&r, "env.ucx.tls", CI_FAIL, true, CI_LAYER_ENV, "bad-dep",
					"UCX_TLS=tcp");
	check_set_fix(c, "include rc");
	char *s = render_to_string(&r, R_TEXT, false, false, false);
	assert_non_null(strstr(s, "2 deployments: 1 blocked, 1 ready\n"
				  "VERDICT     OK WARN FAIL SKIP  TOP FINDING  DEPLOYMENT\n"
				  "blocked      1    0    1    0  env.ucx.tls  bad-dep\n"
				  "ready        1    0    0    0  -            good-dep\n"));
	assert_non_null(strstr(s, "  fail    env.ucx.tls  bad-dep: UCX_TLS=tcp\n"));
	assert_null(strstr(s, "  ok      env.mode"));
	free(s);
	s = render_to_string(&r, R_TEXT, false, true, false);
	assert_null(strstr(s, "deployments:"));
	assert_non_null(strstr(s, "  ok      env.mode     good-dep: aggregated\n"));
	free(s);
	report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_layout),
		cmocka_unit_test(test_wrap_80),
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_quiet_only_verdict),
		cmocka_unit_test(test_verbose_evidence),
		cmocka_unit_test(test_color_only_when_asked),
		cmocka_unit_test(test_ready_and_empty),
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_fix_first_quotes_the_ranked_check),
		cmocka_unit_test(test_fix_first_counts_places_and_causes),
		cmocka_unit_test(test_tree_problems_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
