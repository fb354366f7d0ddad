/* SPDX-License-Identifier: Apache-2.0 */
/* The nixl verb's pure parts: UCX filter semantics, shell quoting, the
 * peer choice, the facts and checks over transcripts built from real
 * ucx_info outputs (tests/fixtures/nixl/build_fixtures.py), and the next
 * commands.  Runs from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/report.h"
#include "core/xalloc.h"
#include "nixl/nixl.h"
#include "node/node_checks.h"
#include "parse/ucx_tls.h"
#include "probe/kube_get_pods.h"
#include "probe/run_command.h"
#include "parse/transcript.h"
#include "test_util.h"

#define FIX "tests/fixtures/nixl/"

/* The check `id`; fails the test when it was not reported (never NULL). */
static const struct ci_check *find(const struct ci_report *r, const char *id)
{
	static char empty[1];
	static const struct ci_check none = {.detail = empty};
	const struct ci_check *c = tu_find(r, id);
	if (c)
		return c;
	fail_msg("check %s not reported", id);
	return &none;
}

static enum ci_status st(const struct ci_report *r, const char *id)
{
	return find(r, id)->status;
}

static const char *detail(const struct ci_report *r, const char *id)
{
	return find(r, id)->detail;
}

/* A transcript case: facts and report kept together. */
struct tcase {
	char *buf;
	struct transcript t;
	struct nixl_facts f;
	struct ci_report r;
	struct ci_verdict v;
};

static void tcase_load(struct tcase *c, const char *name, const struct nixl_target *tgt)
{
	char path[256];
	size_t len;
	snprintf(path, sizeof(path), FIX "transcripts/%s.txt", name);
	c->buf = tu_slurp(path, &len);
	transcript_init(&c->t);
	transcript_parse(&c->t, c->buf, len);
	assert_true(c->t.valid && c->t.complete);
	nixl_facts_init(&c->f);
	nixl_facts_read(&c->f, &c->t);
	report_init(&c->r, "nixl", name);
	struct nixl_target none = {.kind = NK_REPLAY};
	nixl_analyze(&c->r, &c->f, tgt ? tgt : &none, name);
	nixl_steps(&c->r, &c->f, tgt ? tgt : &none);
	verdict_compute(&c->r, &c->v);
}

static void tcase_release(struct tcase *c)
{
	verdict_release(&c->v);
	report_release(&c->r);
	nixl_facts_release(&c->f);
	transcript_release(&c->t);
	free(c->buf);
}

/* ---- UCX filters ---- */

static void test_tls_semantics(void **state)
{
	(void)state;
	assert_true(ucx_tls_allows(NULL, "rc_mlx5"));
	assert_true(ucx_tls_allows("  ", "rc_mlx5"));
	assert_true(ucx_tls_allows("rc", "rc_mlx5"));
	assert_true(ucx_tls_allows("rc", "rc_verbs"));
	assert_false(ucx_tls_allows("rc", "ud_mlx5")); /* aux only */
	assert_false(ucx_tls_allows("rc", "dc_mlx5"));
	assert_true(ucx_tls_allows("rc_x", "rc_mlx5"));
	assert_false(ucx_tls_allows("rc_x", "rc_verbs"));
	assert_true(ucx_tls_allows("rc_v", "rc_verbs"));
	assert_true(ucx_tls_allows("dc", "dc_mlx5"));
	assert_true(ucx_tls_allows("dc_x", "dc_mlx5"));
	assert_true(ucx_tls_allows("ud", "ud_verbs"));
	assert_false(ucx_tls_allows("ud_x", "ud_verbs"));
	assert_true(ucx_tls_allows("ib", "ud_verbs"));
	assert_true(ucx_tls_allows("ib", "dc_mlx5"));
	assert_true(ucx_tls_allows("all", "srd"));
	assert_true(ucx_tls_allows("srd,cuda_copy", "srd"));
	assert_true(ucx_tls_allows(" rc_x , cuda_copy ", "rc_mlx5"));
	assert_false(ucx_tls_allows("tcp,cuda_copy,cuda_ipc", "rc_mlx5"));
	assert_true(ucx_tls_allows("tcp,cuda_copy,cuda_ipc", "tcp"));
	assert_true(ucx_tls_allows("cuda", "cuda_ipc"));
	assert_true(ucx_tls_allows("cuda", "gdr_copy"));
	assert_true(ucx_tls_allows("sm", "posix"));
	assert_false(ucx_tls_allows("mm", "cma"));
	/* strict names never expand */
	assert_true(ucx_tls_allows("\\rc_mlx5", "rc_mlx5"));
	assert_false(ucx_tls_allows("\\rc", "rc_mlx5"));
	/* exclusion */
	assert_false(ucx_tls_allows("^rc,dc,ud", "rc_mlx5"));
	assert_false(ucx_tls_allows("^rc,dc,ud", "ud_verbs"));
	assert_true(ucx_tls_allows("^rc,dc,ud", "tcp"));
	assert_true(ucx_tls_allows("^rc", "dc_mlx5"));
	assert_false(ucx_tls_allows("^ib", "rc_verbs"));
	assert_false(ucx_tls_allows("^cuda_ipc", "cuda_ipc"));
	assert_true(ucx_tls_allows("^cuda_ipc", "rc_mlx5"));
	assert_false(ucx_tls_allows("^all", "rc_mlx5"));
	/* bounded: a huge list is still answered */
	char big[8192];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_false(ucx_tls_allows(big, "rc_mlx5"));
}

static void test_netdev_semantics(void **state)
{
	(void)state;
	assert_true(ucx_net_devices_allows(NULL, "mlx5_0:1"));
	assert_true(ucx_net_devices_allows("all", "mlx5_0:1"));
	assert_true(ucx_net_devices_allows("mlx5_0:1", "mlx5_0:1"));
	assert_true(ucx_net_devices_allows("mlx5_1:1, mlx5_0:1", "mlx5_0:1"));
	assert_false(ucx_net_devices_allows("mlx5_0", "mlx5_0:1")); /* exact names only */
	assert_false(ucx_net_devices_allows("mlx5_1:1", "mlx5_0:1"));
	assert_false(ucx_net_devices_allows("^mlx5_1:1", "mlx5_0:1")); /* no deny form: a name */
	assert_false(ucx_net_devices_allows("^mlx5_0:1", "mlx5_0:1"));
	char rc[] = "rc_mlx5", cc[] = "cuda_copy", accel[] = "accelerator", tc[] = "tcp";
	struct ucx_tl net = {.transport = rc, .type = NULL};
	struct ucx_tl acc = {.transport = cc, .type = accel};
	struct ucx_tl tcp = {.transport = tc, .type = NULL};
	assert_true(nixl_tl_is_network(&net));
	assert_false(nixl_tl_is_network(&acc));
	assert_true(nixl_tl_is_network(&tcp));
}

/* ---- shell quoting ---- */

/* What sh makes of `printf %s <quoted>`: the quoting must round-trip. */
static char *through_sh(const char *quoted)
{
	char *script = xasprintf("printf %%s %s", quoted);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct run_request req = {.argv = argv, .deadline = run_now() + 10};
	struct run_result res;
	assert_int_equal(run_command(&req, &res), 0);
	assert_int_equal(res.status, RUN_EXITED);
	assert_int_equal(res.exit_code, 0);
	char *out = xstrndup(res.out, res.out_len);
	run_result_release(&res);
	free(script);
	return out;
}

static void test_shell_quote(void **state)
{
	(void)state;
	char *q = shell_quote("dynamo");
	assert_string_equal(q, "'dynamo'");
	free(q);
	q = shell_quote("");
	assert_string_equal(q, "''");
	free(q);
	q = shell_quote(NULL);
	assert_string_equal(q, "''");
	free(q);
	q = shell_quote("o'brien");
	assert_string_equal(q, "'o'\\''brien'");
	free(q);
	static const char *const hostile[] = {
		"o'brien",
		"$(touch /tmp/ci-pwned)",
		"`id`",
		"a b\tc",
		"x;rm -rf /",
		"''''",
		"\\'\\",
		"line1\nline2",
		"*",
		"$HOME",
		"-n",
		"\"dq\"",
		"arn:aws:eks:us-west-2:1:cluster/x",
		/* control bytes are written as \ooo, never raw (issue 11) */
		"http://etcd:2379'\b\b\b; touch /tmp/ci-pwned #",
		"\x1b[2K\r%s%n\\0",
		"\xc3\xa9\xff",
	};
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		q = shell_quote(hostile[i]);
		assert_true(q[0] == '\'' || !strncmp(q, "\"$(printf '", 11));
		for (const char *p = q; *p; p++)
			assert_true(*p >= 0x20 && *p < 0x7f);
		char *back = through_sh(q);
		assert_string_equal(back, hostile[i]);
		free(back);
		free(q);
	}
}

static void test_expect(void **state)
{
	(void)state;
	double lo, hi;
	nixl_expect_gbs(200, &lo, &hi);
	assert_true(lo == 20 && hi == 25);
	nixl_expect_gbs(400, &lo, &hi);
	assert_true(lo == 45 && hi == 50);
	nixl_expect_gbs(100, &lo, &hi);
	assert_true(lo == 10 && hi == 12.5);
}

/* ---- kubectl get pods ---- */

static void load_pods(const char *name, struct kube_pod_list *l)
{
	char path[256];
	size_t len;
	snprintf(path, sizeof(path), FIX "pods/%s", name);
	char *b = tu_slurp(path, &len);
	kube_pod_list_init(l);
	assert_int_equal(kube_pods_parse(b, len, l), 0);
	free(b);
}

static void test_pods_parse(void **state)
{
	(void)state;
	struct kube_pod_list l;
	load_pods("dgd_1p_pending_3d.json", &l);
	assert_int_equal(l.n, 6);
	const struct kube_pod *p =
		kube_pods_find(&l, "llama-70b-disagg-vllmprefillworker-6b7d9c5f8-4hq2m");
	assert_non_null(p);
	assert_string_equal(p->namespace_, "dynamo");
	assert_string_equal(p->phase, "Running");
	assert_string_equal(p->node_name, "gpu-node-a07");
	assert_string_equal(p->pod_ip, "10.244.3.41");
	assert_string_equal(p->dgd, "llama-70b-disagg");
	assert_string_equal(p->component_type, "worker");
	assert_string_equal(p->sub_component_type, "prefill");
	assert_string_equal(p->component, "VllmPrefillWorker");
	assert_int_equal(p->n_containers, 1);
	assert_string_equal(p->containers[0].name, "main");
	assert_true(p->containers[0].ready && p->containers[0].running);
	assert_true(kube_pod_ready(p));
	p = kube_pods_find(&l, "llama-70b-disagg-vllmprefillworker-6b7d9c5f8-zz8tn");
	assert_non_null(p);
	assert_string_equal(p->phase, "Pending");
	assert_null(p->node_name);
	assert_null(p->pod_ip);
	assert_false(kube_pod_ready(p));
	p = kube_pods_find(&l, "llama-70b-disagg-vllmdecodeworker-7f5c8d6a9-9p4lw");
	assert_non_null(p->deletion_timestamp);
	assert_false(kube_pod_ready(p));
	p = kube_pods_find(&l, "llama-70b-disagg-frontend-5d8c7b9f4-x2k9q");
	assert_null(p->sub_component_type);
	assert_string_equal(p->component_type, "frontend");
	kube_pod_list_release(&l);

	load_pods("two_dgds_decode_not_ready.json", &l);
	assert_int_equal(l.n, 3);
	p = kube_pods_find(&l, "sglang-disagg-decode-0");
	assert_int_equal(p->n_containers, 2);
	assert_false(kube_pod_ready(p));
	assert_true(p->containers[1].running && !p->containers[1].ready);
	kube_pod_list_release(&l);

	/* shapes */
	static const char *const bad[] = {"",
					  "[]",
					  "null",
					  "{\"items\": 3}",
					  "{\"kind\":\"Service\"}",
					  "{\"items\": [",
					  "\xff\xfe"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		kube_pod_list_init(&l);
		assert_int_equal(kube_pods_parse(bad[i], strlen(bad[i]), &l), -1);
		kube_pod_list_release(&l);
	}
	const char *one =
		"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\x7f\",\"labels\":{\"" KUBE_LABEL_DGD
		"\":7}},\"status\":{\"phase\":\"Running\"}}";
	kube_pod_list_init(&l);
	assert_int_equal(kube_pods_parse(one, strlen(one), &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.pods[0].name, "a?");
	assert_null(l.pods[0].dgd); /* wrong type: dropped */
	kube_pod_list_release(&l);
	const char *mixed = "{\"items\":[1,{\"metadata\":{}},{\"metadata\":{\"name\":\"b\"}}]}";
	kube_pod_list_init(&l);
	assert_int_equal(kube_pods_parse(mixed, strlen(mixed), &l), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.skipped, 2);
	kube_pod_list_release(&l);
}

static void test_selector(void **state)
{
	(void)state;
	assert_true(kube_selector_valid(KUBE_LABEL_DGD));
	assert_true(kube_selector_valid(
		"nvidia.com/dynamo-graph-deployment-name=x,nvidia.com/dynamo-sub-component-type=decode"));
	assert_true(kube_selector_valid("app!=x,!tier"));
	assert_true(
		kube_selector_valid("nvidia.com/dynamo-sub-component-type in (prefill,decode)"));
	assert_true(kube_selector_valid("env notin (a)"));
	assert_false(kube_selector_valid("-l"));
	assert_false(kube_selector_valid(""));
	assert_false(kube_selector_valid(NULL));
	assert_false(kube_selector_valid("a=b c=d"));
	assert_false(kube_selector_valid("a in ()"));
	assert_false(kube_selector_valid("a in (x"));
	assert_false(kube_selector_valid("a=$(id)"));
	assert_false(kube_selector_valid("a='b'"));
	assert_false(kube_selector_valid("a=b\n"));

	const char *argv[KUBE_GET_ARGV_MAX];
	char *why = NULL;
	int n = kube_get_pods_argv("kubectl", "ctx", NULL, "dynamo", KUBE_LABEL_DGD, argv, &why);
	assert_int_equal(n, 11);
	assert_null(why);
	assert_string_equal(argv[3], "get");
	assert_string_equal(argv[4], "pods");
	assert_string_equal(argv[7], "-l");
	assert_string_equal(argv[9], "-o");
	assert_null(argv[n]);
	n = kube_get_pods_argv("kubectl", NULL, NULL, "Bad_NS", NULL, argv, &why);
	assert_int_equal(n, -1);
	assert_non_null(why);
	free(why);
	n = kube_get_pods_argv("kubectl", NULL, NULL, "dynamo", "a=$(id)", argv, &why);
	assert_int_equal(n, -1);
	free(why);
}

/* ---- the fake kubectl: one call, classified errors ---- */

static void test_get_pods_fake(void **state)
{
	(void)state;
	struct probe_target o;
	memset(&o, 0, sizeof(o));
	o.kubectl = "tests/fakes/kubectl";
	struct kube_pod_list l;
	char *msg = NULL;
	int calls = 0;

	setenv("FAKE_KUBECTL_GET_PODS", FIX "pods/dgd_1p_pending_3d.json", 1);
	unsetenv("FAKE_KUBECTL_GET_MODE");
	kube_pod_list_init(&l);
	assert_int_equal(
		kube_get_pods(&o, "dynamo", KUBE_LABEL_DGD, run_now() + 20, &l, &msg, &calls),
		PROBE_OK);
	assert_null(msg);
	assert_int_equal(calls, 1);
	assert_int_equal(l.n, 6);
	kube_pod_list_release(&l);

	setenv("FAKE_KUBECTL_GET_MODE", "forbidden", 1);
	kube_pod_list_init(&l);
	assert_int_equal(
		kube_get_pods(&o, "dynamo", KUBE_LABEL_DGD, run_now() + 20, &l, &msg, &calls),
		PROBE_FORBIDDEN);
	assert_string_equal(msg, "RBAC forbids listing pods in namespace dynamo (needs 'list' on "
				 "pods); kubectl said 'pods is forbidden: User "
				 "\"system:serviceaccount:dynamo:default\" cannot list resource "
				 "\"pods\" in API group \"\" in the namespace \"dynamo\"'");
	assert_int_equal(calls, 2);
	free(msg);
	kube_pod_list_release(&l);

	setenv("FAKE_KUBECTL_GET_MODE", "unauthorized", 1);
	kube_pod_list_init(&l);
	assert_int_equal(kube_get_pods(&o, "dynamo", NULL, run_now() + 20, &l, &msg, &calls),
			 PROBE_UNAUTHORIZED);
	assert_non_null(strstr(msg, "not logged in"));
	free(msg);
	kube_pod_list_release(&l);
	unsetenv("FAKE_KUBECTL_GET_MODE");

	/* an answer that is not a pod list */
	setenv("FAKE_KUBECTL_GET_PODS", FIX "build_fixtures.py", 1);
	kube_pod_list_init(&l);
	assert_int_equal(kube_get_pods(&o, "dynamo", NULL, run_now() + 20, &l, &msg, &calls),
			 PROBE_EXEC_FAILED);
	assert_non_null(strstr(msg, "not a pod list"));
	free(msg);
	kube_pod_list_release(&l);

	/* an invalid name: nothing runs */
	int before = calls;
	kube_pod_list_init(&l);
	assert_int_equal(
		kube_get_pods(&o, "Not-A-Namespace!", NULL, run_now() + 20, &l, &msg, &calls),
		PROBE_BAD_TARGET);
	assert_int_equal(calls, before);
	free(msg);
	kube_pod_list_release(&l);
	unsetenv("FAKE_KUBECTL_GET_PODS");
}

/* ---- the peer ---- */

static void test_pick_peer(void **state)
{
	(void)state;
	struct kube_pod_list l;
	struct nixl_peer_choice pc;
	load_pods("dgd_1p_pending_3d.json", &l);

	nixl_pick_peer(&l, "llama-70b-disagg-vllmprefillworker-6b7d9c5f8-4hq2m", &pc);
	assert_int_equal(pc.state, PEER_FOUND);
	/* not the terminating one on the same node; the first ready one by name elsewhere */
	assert_string_equal(pc.peer->name, "llama-70b-disagg-vllmdecodeworker-7f5c8d6a9-k7c2r");
	assert_string_equal(pc.self->sub_component_type, "prefill");
	assert_non_null(strstr(pc.why, "another node"));
	assert_non_null(strstr(pc.why, "3 decode pods in all, 1 not Running"));

	nixl_pick_peer(&l, "llama-70b-disagg-vllmdecodeworker-7f5c8d6a9-m3v8d", &pc);
	assert_int_equal(pc.state, PEER_FOUND);
	assert_string_equal(pc.peer->name, "llama-70b-disagg-vllmprefillworker-6b7d9c5f8-4hq2m");

	nixl_pick_peer(&l, "no-such-pod", &pc);
	assert_int_equal(pc.state, PEER_NOT_FOUND);
	assert_non_null(strstr(pc.why, "--peer POD"));
	kube_pod_list_release(&l);

	load_pods("two_dgds_decode_not_ready.json", &l);
	nixl_pick_peer(&l, "sglang-disagg-prefill-0", &pc);
	assert_int_equal(pc.state, PEER_FOUND);
	assert_string_equal(pc.peer->name, "sglang-disagg-decode-0"); /* never other-dgd */
	assert_non_null(strstr(pc.why, "Running but not ready"));
	nixl_pick_peer(&l, "other-dgd-decode-0", &pc);
	assert_int_equal(pc.state, PEER_NOT_FOUND);
	assert_non_null(strstr(pc.why, "no other prefill pod in deployment other-dgd"));
	kube_pod_list_release(&l);
}

/* ---- facts and checks over transcripts ---- */

static void test_ib_gpudirect(void **state)
{
	(void)state;
	struct tcase c;
	tcase_load(&c, "ib_gpudirect", NULL);
	assert_true(c.f.have_ucxv);
	assert_string_equal(c.f.ucxv.version, "1.19.0");
	assert_int_equal(c.f.n_plugins, 4);
	assert_true(nixl_has_plugin(&c.f, "UCX"));
	assert_int_equal(c.f.n_py, 1);
	assert_string_equal(c.f.py[0].name, "nixl-cu12");
	assert_string_equal(c.f.py[0].version, "0.7.1");
	assert_string_equal(c.f.tool_path[NT_NIXLBENCH], "/usr/local/bin/nixlbench");
	assert_null(c.f.tool_path[NT_KVBENCH]);
	assert_int_equal(c.f.backend, NB_UCX);
	assert_false(c.f.efa);
	assert_int_equal(st(&c.r, "nixl.ucx.gpudirect"), CI_OK);
	assert_int_equal(st(&c.r, "nixl.ucx.filters"), CI_OK);
	assert_non_null(strstr(detail(&c.r, "nixl.ucx.filters"), "rc_mlx5/mlx5_0:1"));
	assert_null(strstr(detail(&c.r, "nixl.ucx.filters"), "dc_mlx5")); /* not in UCX_TLS */
	assert_int_equal(st(&c.r, "nixl.reachability"), CI_SKIPPED);
	assert_false(find(&c.r, "nixl.reachability")->critical);
	assert_int_equal(c.v.kind, CI_READY);
	/* etcd from the environment; the device list from UCX_NET_DEVICES */
	bool etcd = false, dl = false, clean = false;
	for (size_t i = 0; i < c.r.n_steps; i++) {
		etcd |= strstr(c.r.steps[i].command,
			       "--etcd_endpoints 'http://etcd.dynamo.svc.cluster.local:2379'") !=
			NULL;
		dl |= strstr(c.r.steps[i].command, "--device_list 'mlx5_0'") != NULL;
		clean |= !strcmp(
			c.r.steps[i].command,
			"etcdctl --endpoints 'http://etcd.dynamo.svc.cluster.local:2379' del xferbench --prefix");
	}
	assert_true(etcd && dl && clean);
	tcase_release(&c);
}

static void test_ib_host_only(void **state)
{
	(void)state;
	struct tcase c;
	tcase_load(&c, "ib_host_only", NULL);
	assert_int_equal(st(&c.r, "nixl.ucx.version"), CI_WARN);
	assert_int_equal(st(&c.r, "nixl.ucx.gpudirect"), CI_WARN);
	assert_non_null(strstr(detail(&c.r, "nixl.ucx.gpudirect"), "only host memory"));
	assert_int_equal(st(&c.r, "nixl.ucx.rdma"), CI_OK);
	assert_int_equal(c.v.kind, CI_DEGRADED);
	/* no etcd: ASIO with the placeholder of the peer's address */
	assert_non_null(
		strstr(c.r.steps[0].command,
		       "--runtime_type ASIO --asio_address <peer-host-ip> --asio_port 12345"));
	tcase_release(&c);
}

static void test_no_verbs(void **state)
{
	(void)state;
	struct tcase c;
	tcase_load(&c, "ucx_no_verbs", NULL);
	assert_int_equal(c.f.ucxv.verbs, UCX_OPT_WITHOUT);
	assert_int_equal(st(&c.r, "nixl.ucx.build"), CI_FAIL);
	assert_non_null(strstr(detail(&c.r, "nixl.ucx.build"), "--without-verbs"));
	assert_int_equal(st(&c.r, "nixl.ucx.rdma"), CI_FAIL);
	assert_non_null(strstr(detail(&c.r, "nixl.ucx.rdma"), "KV would move over TCP"));
	assert_int_equal(c.v.kind, CI_BLOCKED);
	tcase_release(&c);
}

static void test_efa(void **state)
{
	(void)state;
	struct tcase c;
	tcase_load(&c, "efa_libfabric", NULL);
	assert_true(c.f.efa);
	assert_int_equal(c.f.backend, NB_LIBFABRIC);
	assert_int_equal(st(&c.r, "nixl.backend"), CI_OK);
	/* libfabric 1.16.1 (provider 116.10) under NIXL 0.7.1 (API 1.9): only
	 * the efa provider's sync-memops registration risk (rules/efa.c) */
	assert_int_equal(st(&c.r, "nixl.libfabric"), CI_WARN);
	assert_non_null(strstr(detail(&c.r, "nixl.libfabric"), "SYNC_MEMOPS"));
	assert_int_equal(st(&c.r, "nixl.ucx.rdma"), CI_SKIPPED);
	assert_false(find(&c.r, "nixl.ucx.rdma")->critical);
	assert_int_equal(c.v.kind, CI_DEGRADED);
	bool lf = false, perftest = false;
	for (size_t i = 0; i < c.r.n_steps; i++) {
		lf |= strstr(c.r.steps[i].command, "--backend LIBFABRIC") != NULL;
		perftest |= strstr(c.r.steps[i].command, "ucx_perftest") != NULL;
	}
	assert_true(lf);
	assert_false(perftest); /* UCX is not the KV path on EFA */
	tcase_release(&c);

	/* EFA crosses nodes only: a same-node pair is flagged */
	struct nixl_target t = {.kind = NK_POD,
				.namespace_ = "dynamo",
				.pod = "p-0",
				.peer = "d-0",
				.peer_state = PEER_FOUND,
				.pod_node = "gpu-node-a07",
				.peer_node = "gpu-node-a07",
				.peer_ip = "10.0.0.2"};
	tcase_load(&c, "efa_libfabric", &t);
	assert_int_equal(st(&c.r, "nixl.peer"), CI_WARN);
	assert_non_null(strstr(detail(&c.r, "nixl.peer"), "EAGAIN"));
	tcase_release(&c);
}

/* A missing nixlbench leaves the pair-test proof undone, not the transport:
 * skipped (never critical), the verdict stays ready, the next steps say where
 * nixlbench comes from. */
static void test_no_nixlbench_ready(void **state)
{
	(void)state;
	struct tcase c;
	tcase_load(&c, "ib_gpudirect_no_nixlbench", NULL);
	assert_null(c.f.tool_path[NT_NIXLBENCH]);
	assert_int_equal(st(&c.r, "nixl.tools"), CI_SKIPPED);
	assert_false(find(&c.r, "nixl.tools")->critical);
	assert_non_null(strstr(detail(&c.r, "nixl.tools"), "needs nixlbench"));
	assert_int_equal(c.v.kind, CI_READY);
	tcase_release(&c);
}

static void test_no_tooling(void **state)
{
	(void)state;
	struct tcase c;
	tcase_load(&c, "no_tooling", NULL);
	assert_int_equal(st(&c.r, "nixl.tools"), CI_SKIPPED);
	assert_false(find(&c.r, "nixl.tools")->critical);
	assert_int_equal(st(&c.r, "nixl.backend"), CI_SKIPPED);
	assert_true(find(&c.r, "nixl.backend")->critical);
	assert_int_equal(st(&c.r, "nixl.ucx.rdma"), CI_SKIPPED);
	assert_non_null(strstr(detail(&c.r, "nixl.ucx.rdma"), "ucx_info is not on PATH"));
	assert_int_equal(c.v.kind, CI_UNKNOWN); /* never a false pass */
	tcase_release(&c);
}

static void test_tls_excludes(void **state)
{
	(void)state;
	struct tcase c;
	tcase_load(&c, "tls_excludes_rdma", NULL);
	assert_int_equal(st(&c.r, "nixl.ucx.rdma"), CI_OK);
	assert_int_equal(st(&c.r, "nixl.ucx.filters"), CI_FAIL);
	const struct ci_check *k = find(&c.r, "nixl.ucx.filters");
	bool why = false;
	for (size_t i = 0; i < k->n_evidence; i++)
		why |= strstr(k->evidence[i], "rc_mlx5/mlx5_0:1 (UCX_TLS)") != NULL;
	assert_true(why);
	assert_int_equal(c.v.kind, CI_BLOCKED);
	tcase_release(&c);
}

static void test_debian_ci_transcript(void **state)
{
	(void)state;
	struct tcase c;
	tcase_load(&c, "debian12_ci", NULL);
	/* "# Version 1.13.1" (UCX <= 1.13) is read */
	assert_true(c.f.have_ucxv);
	assert_string_equal(c.f.ucxv.version, "1.13.1");
	assert_int_equal(c.f.ucxv.verbs, UCX_OPT_WITH);
	assert_true(c.f.have_ucxd);
	assert_false(ucx_devices_has_rdma(&c.f.ucxd));
	assert_true(ucx_devices_has_transport(&c.f.ucxd, "tcp"));
	assert_true(ucx_devices_has_transport(&c.f.ucxd, "cma"));
	assert_int_equal(st(&c.r, "nixl.ucx.version"), CI_FAIL);
	assert_int_equal(st(&c.r, "nixl.ucx.rdma"), CI_FAIL);
	assert_non_null(strstr(detail(&c.r, "nixl.ucx.rdma"), "UCX has no RDMA transport here"));
	assert_int_equal(c.v.kind, CI_BLOCKED);
	tcase_release(&c);
}

/* The real Debian outputs, parsed directly (the parser tests are the
 * parsers area's; this one pins what the nixl checks depend on). */
static void test_debian_outputs(void **state)
{
	(void)state;
	size_t len;
	char *b = tu_slurp(FIX "outputs/ucx_info_-d__debian12_ci_no_rdma.txt", &len);
	struct ucx_devices d;
	assert_int_equal(ucx_devices_parse(b, len, &d), 0);
	assert_false(ucx_devices_has_rdma(&d));
	assert_non_null(ucx_devices_md(&d, "posix"));
	assert_int_equal(ucx_devices_md(&d, "tcp")->nmem_types, 0); /* 1.13 prints none */
	ucx_devices_release(&d);
	free(b);
}

/* ---- next commands for a pod ---- */

static void test_pod_steps(void **state)
{
	(void)state;
	struct nixl_target t = {
		.kind = NK_POD,
		.namespace_ = "dynamo",
		.pod = "prefill-0",
		.context = "arn:aws:eks:us-west-2:1:cluster/o'brien",
		.container = "main",
		.peer = "decode-0",
		.peer_state = PEER_FOUND,
		.peer_why = "decode pod decode-0",
		.pod_role = "prefill",
		.peer_role = "decode",
		.peer_ip = "10.244.7.12",
	};
	struct tcase c;
	tcase_load(&c, "ib_host_only", &t);
	assert_int_equal(st(&c.r, "nixl.peer"), CI_OK);
	const char *pfx =
		"kubectl --context 'arn:aws:eks:us-west-2:1:cluster/o'\\''brien' exec -n 'dynamo' ";
	char *want =
		xasprintf("%s'decode-0' -c 'main' -- nixlbench --runtime_type ASIO --asio_address "
			  "'10.244.7.12' --asio_port 12345 --backend UCX --initiator_seg_type VRAM "
			  "--target_seg_type VRAM --check_consistency",
			  pfx);
	assert_string_equal(c.r.steps[0].command, want);
	free(want);
	want = xasprintf(
		"%s'prefill-0' -c 'main' -- ucx_perftest '10.244.7.12' -t tag_bw -m cuda -s "
		"134217728 -n 100",
		pfx);
	assert_string_equal(c.r.steps[3].command, want);
	free(want);
	assert_non_null(strstr(c.r.steps[0].description, "decode pod decode-0"));
	tcase_release(&c);

	/* the target's IP unknown: one read-only lookup first, then "$PEER_IP" */
	t.peer_ip = NULL;
	t.context = NULL;
	t.container = NULL;
	tcase_load(&c, "ib_host_only", &t);
	assert_string_equal(
		c.r.steps[0].command,
		"PEER_IP=$(kubectl get pod -n 'dynamo' 'decode-0' -o jsonpath='{.status.podIP}')");
	assert_non_null(strstr(c.r.steps[1].command, "--asio_address \"$PEER_IP\""));
	tcase_release(&c);
}

/* A node transcript judged by both verbs: node's checks and nixl's. */
struct both {
	char *buf;
	struct transcript t;
	struct nixl_facts f;
	struct ci_report rn, rx;
};

static void both_load(struct both *x, const char *name)
{
	char path[256];
	size_t len;
	snprintf(path, sizeof(path), "tests/fixtures/node/transcripts/%s.txt", name);
	x->buf = tu_slurp(path, &len);
	transcript_init(&x->t);
	transcript_parse(&x->t, x->buf, len);
	nixl_facts_init(&x->f);
	nixl_facts_read(&x->f, &x->t);
	report_init(&x->rn, "node", name);
	report_init(&x->rx, "nixl", name);
	node_checks_run(&x->rn, &x->f.node);
	struct nixl_target none = {.kind = NK_REPLAY};
	nixl_analyze(&x->rx, &x->f, &none, name);
}

static void both_release(struct both *x)
{
	report_release(&x->rn);
	report_release(&x->rx);
	nixl_facts_release(&x->f);
	transcript_release(&x->t);
	free(x->buf);
}

/* One fact, one status: on every node transcript, what nixl says of the
 * pod's memlock, NVLink fabric and IMEX channel is what node says (issue
 * 21). */
static void test_one_status_with_node(void **state)
{
	(void)state;
	static const char *const names[] = {
		"down_memlock", "gb200", "gb200_shared_ns", "gh200_no_nvswitch", "h100_ib",
		"ci_host",      NULL};
	static const char *const pairs[][2] = {{"node.memlock", "nixl.memlock"},
					       {"node.nvlink.fabric", "nixl.nvlink.fabric"},
					       {"node.mnnvl.imex", "nixl.mnnvl.imex"}};
	size_t judged = 0;
	for (size_t i = 0; names[i]; i++) {
		struct both x;
		both_load(&x, names[i]);
		for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
			const struct ci_check *b = tu_find(&x.rx, pairs[k][1]);
			if (!b)
				continue; /* not a fact of this pod (no NVLink fabric) */
			assert_int_equal(find(&x.rn, pairs[k][0])->status, b->status);
			judged++;
		}
		both_release(&x);
	}
	assert_true(judged >= 10);
}

/* UCX_TLS=^cuda_ipc on a GB200 pod (this transcript's environment sets it):
 * node.env.ucx.tls and nixl.ucx.filters give one status
 * (ai-dynamo/nixl#1110). */
static void test_mnnvl_tls_cut_one_status(void **state)
{
	(void)state;
	struct both x;
	both_load(&x, "gb200");
	assert_int_not_equal(st(&x.rn, "node.env.ucx.tls"), CI_OK);
	assert_int_equal(st(&x.rx, "nixl.ucx.filters"), st(&x.rn, "node.env.ucx.tls"));
	assert_non_null(strstr(detail(&x.rx, "nixl.ucx.filters"), "the MNNVL path"));
	both_release(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tls_semantics),
		cmocka_unit_test(test_netdev_semantics),
		cmocka_unit_test(test_shell_quote),
		cmocka_unit_test(test_expect),
		cmocka_unit_test(test_pods_parse),
		cmocka_unit_test(test_selector),
		cmocka_unit_test(test_get_pods_fake),
		cmocka_unit_test(test_pick_peer),
		cmocka_unit_test(test_ib_gpudirect),
		cmocka_unit_test(test_ib_host_only),
		cmocka_unit_test(test_no_verbs),
		cmocka_unit_test(test_efa),
		cmocka_unit_test(test_no_tooling),
		cmocka_unit_test(test_no_nixlbench_ready),
		cmocka_unit_test(test_tls_excludes),
		cmocka_unit_test(test_debian_ci_transcript),
		cmocka_unit_test(test_debian_outputs),
		cmocka_unit_test(test_one_status_with_node),
		cmocka_unit_test(test_mnnvl_tls_cut_one_status),
		cmocka_unit_test(test_pod_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
