/* SPDX-License-Identifier: Apache-2.0 */
/* Each env rule against hand-built deployment models. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "core/render.h"
#include "env_test_util.h"

struct fx {
	struct manifest_set ms;
	struct ci_report r;
};

static int setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof(*f));
	manifest_set_init(&f->ms);
	report_init(&f->r, "env", "test");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	report_release(&f->r);
	manifest_set_release(&f->ms);
	free(f);
	return 0;
}

/* An InfiniBand disaggregated pair, both sides fully plumbed. */
static struct deployment *ib_pair(struct manifest_set *ms, struct service **p, struct service **d,
				  long nodes)
{
	struct deployment *dep = tu_dep(ms, "ib", "vllm");
	tu_svc(dep, "Frontend", ROLE_FRONTEND, 0, 1, "python3 -m dynamo.frontend");
	struct service *sp = tu_svc(dep, "Prefill", ROLE_PREFILL, 8, nodes, TU_VLLM_PREFILL);
	struct service *sd = tu_svc(dep, "Decode", ROLE_DECODE, 8, nodes, TU_VLLM_DECODE);
	struct service *both[2] = {sp, sd};
	for (int i = 0; i < 2; i++) {
		tu_kv(&both[i]->resources, "rdma/ib", "8");
		tu_kv(&both[i]->cap_add, "IPC_LOCK", "");
		tu_env(both[i], "UCX_TLS", "rc_x,rc,cuda_copy,cuda_ipc", 10 + i);
		tu_env(both[i], "UCX_NET_DEVICES", "mlx5_0:1,mlx5_1:1", 20 + i);
		tu_env(both[i], "UCX_IB_ADDR_TYPE", "eth", 30 + i);
	}
	if (p)
		*p = sp;
	if (d)
		*d = sd;
	return dep;
}

static void run(struct fx *f)
{
	env_analyze(&f->r, &f->ms, "test");
}

static enum ci_status st(struct fx *f, const char *id)
{
	const struct ci_check *c = tu_get(&f->r, id);
	assert_non_null(c);
	return c->status;
}

static enum ci_verdict_kind verdict(struct fx *f)
{
	struct ci_verdict v;
	verdict_compute(&f->r, &v);
	enum ci_verdict_kind k = v.kind;
	verdict_release(&v);
	return k;
}

static void test_clean_ib_pair_is_ready(void **state)
{
	struct fx *f = *state;
	ib_pair(&f->ms, NULL, NULL, 1);
	run(f);
	assert_int_equal(st(f, "env.mode"), CI_OK);
	assert_int_equal(st(f, "env.fabric"), CI_OK);
	assert_int_equal(st(f, "env.backend"), CI_OK);
	assert_int_equal(st(f, "env.pair.agree"), CI_OK);
	assert_int_equal(st(f, "env.ucx.tls"), CI_OK);
	assert_int_equal(st(f, "env.ucx.ib_addr_type"), CI_OK);
	assert_int_equal(st(f, "env.pod.rdma"), CI_OK);
	assert_int_equal(st(f, "env.pod.memlock"), CI_OK);
	assert_int_equal(verdict(f), CI_READY);
	assert_non_null(strstr(tu_get(&f->r, "env.mode")->detail, "disaggregated"));
	assert_non_null(strstr(tu_get(&f->r, "env.mode")->detail, "InfiniBand"));
}

/* vLLM's --is-prefill-worker marks the prefill side: the mode evidence
 * names that flag, and the pairing finds the prefill worker by it. */
static void test_is_prefill_worker_flag(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "v", "vllm");
	static const char kv[] = " --kv-transfer-config '{\"kv_connector\":\"NixlConnector\"}'";
	char pcmd[160], dcmd[160];
	snprintf(pcmd, sizeof(pcmd), "python3 -m dynamo.vllm --is-prefill-worker%s", kv);
	snprintf(dcmd, sizeof(dcmd), "python3 -m dynamo.vllm%s", kv);
	struct service *p = tu_svc(dep, "P", ROLE_WORKER, 1, 1, pcmd);
	struct service *d = tu_svc(dep, "D", ROLE_DECODE, 1, 1, dcmd);
	tu_env(p, "UCX_TLS", "rc,cuda_copy", 5);
	tu_env(d, "UCX_TLS", "rc,cuda_copy,cuda_ipc", 6);
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.mode");
	bool named = false, wrong = false;
	for (size_t i = 0; i < c->n_evidence; i++) {
		named |= strstr(c->evidence[i],
				"mode: prefill P, decode D (--is-prefill-worker)") != NULL;
		wrong |= strstr(c->evidence[i], "(--disaggregation-mode)") != NULL;
	}
	assert_true(named);
	assert_false(wrong);
	c = tu_get(&f->r, "env.pair.agree");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(strstr(c->detail, "UCX_TLS differs"));
}

static void test_tls_tcp_only_fails(void **state)
{
	struct fx *f = *state;
	struct service *d;
	ib_pair(&f->ms, NULL, &d, 1);
	free(d->env.v[0].value);
	d->env.v[0].value = xstrdup("tcp,cuda_copy");
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.ucx.tls");
	assert_int_equal(c->status, CI_FAIL);
	assert_true(c->critical);
	assert_non_null(strstr(c->detail, "Decode"));
	assert_non_null(c->fix);
	assert_non_null(strstr(c->evidence[0], "deploy.yaml:"));
	/* and the two sides disagree */
	c = tu_get(&f->r, "env.pair.agree");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(strstr(c->detail, "rc_x,rc,cuda_copy,cuda_ipc"));
	assert_non_null(strstr(c->detail, "tcp,cuda_copy"));
	assert_int_equal(verdict(f), CI_BLOCKED);
}

static void test_tls_exclusions(void **state)
{
	struct fx *f = *state;
	struct service *p, *d;
	ib_pair(&f->ms, &p, &d, 1);
	free(p->env.v[0].value);
	p->env.v[0].value = xstrdup("^cuda_ipc"); /* fine off MNNVL */
	free(d->env.v[0].value);
	d->env.v[0].value = xstrdup("^cuda_ipc");
	run(f);
	assert_int_equal(st(f, "env.ucx.tls"), CI_OK);
	report_release(&f->r);
	report_init(&f->r, "env", "test");
	free(d->env.v[0].value);
	d->env.v[0].value = xstrdup("^rc,dc,ud");
	free(p->env.v[0].value);
	p->env.v[0].value = xstrdup("^ib");
	run(f);
	assert_int_equal(st(f, "env.ucx.tls"), CI_FAIL);
}

static void test_tls_without_cuda_fails(void **state)
{
	struct fx *f = *state;
	struct service *p, *d;
	ib_pair(&f->ms, &p, &d, 1);
	free(p->env.v[0].value);
	p->env.v[0].value = xstrdup("rc,ud");
	free(d->env.v[0].value);
	d->env.v[0].value = xstrdup("rc,ud");
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.ucx.tls");
	/* one status with nixl.ucx.filters (rules/ucx.c): memReg refuses VRAM */
	assert_int_equal(c->status, CI_FAIL);
	assert_non_null(strstr(c->detail, "leaves out cuda_copy"));
}

static struct deployment *mnnvl_pair(struct manifest_set *ms, const char *tls, const char *enable)
{
	struct deployment *dep = tu_dep(ms, "gb200", "vllm");
	struct service *sp = tu_svc(dep, "Prefill", ROLE_PREFILL, 4, 2, TU_VLLM_PREFILL);
	struct service *sd = tu_svc(dep, "Decode", ROLE_DECODE, 4, 2, TU_VLLM_DECODE);
	struct service *both[2] = {sp, sd};
	for (int i = 0; i < 2; i++) {
		/* the template is not in the input: its name says ComputeDomain */
		tu_kv(&both[i]->resource_claims, "channel", "gb200-compute-domain-channel");
		if (tls)
			tu_env(both[i], "UCX_TLS", tls, 40 + i);
		if (enable)
			tu_env(both[i], "UCX_CUDA_IPC_ENABLE_MNNVL", enable, 50 + i);
	}
	return dep;
}

static void test_mnnvl_fast_path_ok(void **state)
{
	struct fx *f = *state;
	mnnvl_pair(&f->ms, "cuda_copy,cuda_ipc,tcp", "y");
	run(f);
	assert_int_equal(st(f, "env.fabric"), CI_OK);
	assert_int_equal(st(f, "env.ucx.tls"), CI_OK);
	assert_int_equal(st(f, "env.vars"), CI_OK);
	assert_null(tu_find(&f->r, "env.pod.rdma"));
	assert_null(tu_find(&f->r, "env.ucx.ib_addr_type"));
	assert_int_equal(verdict(f), CI_READY);
	assert_non_null(strstr(tu_get(&f->r, "env.mode")->detail, "MNNVL"));
}

static void test_mnnvl_excluding_cuda_ipc_fails(void **state)
{
	struct fx *f = *state;
	mnnvl_pair(&f->ms, "^cuda_ipc", "y");
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.ucx.tls");
	assert_int_equal(c->status, CI_FAIL);
	assert_non_null(strstr(c->detail, "nixl#1110"));
}

static void test_mnnvl_missing_vars_warn(void **state)
{
	struct fx *f = *state;
	mnnvl_pair(&f->ms, NULL, NULL);
	run(f);
	/* UCX_TLS unset on MNNVL is UCX's right default (cuda_ipc over fabric
	 * handles is tried from UCX 1.18): noted, not a warning (issue 20) */
	const struct ci_check *c = tu_get(&f->r, "env.vars");
	assert_int_equal(c->status, CI_OK);
	assert_non_null(strstr(c->detail, "UCX_TLS left to UCX's defaults"));
	/* default try since UCX 1.18: not required */
	assert_null(strstr(c->detail, "UCX_CUDA_IPC_ENABLE_MNNVL"));
	assert_int_equal(st(f, "env.ucx.tls"), CI_SKIPPED);
	assert_false(tu_get(&f->r, "env.ucx.tls")->critical);
}

static void test_ib_unpinned_is_not_a_warning(void **state)
{
	struct fx *f = *state;
	struct service *p, *d;
	ib_pair(&f->ms, &p, &d, 1);
	/* drop UCX_TLS and UCX_NET_DEVICES on both: portable recipe */
	for (int i = 0; i < 2; i++) {
		struct service *s = i ? d : p;
		for (size_t k = 0; k < 2; k++) {
			free(s->env.v[k].name);
			s->env.v[k].name = xstrdup(k ? "X_UNRELATED_B" : "X_UNRELATED_A");
		}
	}
	run(f);
	/* none of the critical variables set: the transport is left to the
	 * image, a warning that names each and points at node/all */
	const struct ci_check *c = tu_get(&f->r, "env.vars");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(strstr(c->detail, "sets none of the critical transport variables"));
	assert_non_null(strstr(c->detail, "UCX_TLS, UCX_NET_DEVICES"));
	assert_non_null(strstr(c->detail, "injected by the operator"));
	assert_non_null(strstr(c->fix, "check_interconnect all"));
	/* one of them set: the other is noted, UCX picks it itself */
	report_release(&f->r);
	report_init(&f->r, "env", "test");
	tu_env(p, "UCX_TLS", "rc_x,rc,cuda_copy", 70);
	tu_env(d, "UCX_TLS", "rc_x,rc,cuda_copy", 71);
	run(f);
	c = tu_get(&f->r, "env.vars");
	assert_int_equal(c->status, CI_OK);
	assert_non_null(strstr(c->detail, "not pinned"));
	assert_int_equal(verdict(f), CI_READY);
}

/* UCX deprecates ADDR_TYPE ("To force use of global routing use
 * IS_GLOBAL"): unset on one side is not a finding, never a fix to eth. */
static void test_ib_addr_type_missing_warns(void **state)
{
	struct fx *f = *state;
	struct service *p, *d;
	ib_pair(&f->ms, &p, &d, 1);
	free(d->env.v[2].name);
	d->env.v[2].name = xstrdup("X_OTHER");
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.ucx.ib_addr_type");
	assert_int_equal(c->status, CI_OK);
	assert_non_null(strstr(c->detail, "Prefill"));
	assert_null(strstr(c->detail, "Decode"));
	assert_non_null(strstr(c->detail, "IS_GLOBAL"));
	for (size_t i = 0; i < f->r.n_checks; i++)
		assert_true(!f->r.checks[i].fix || !strstr(f->r.checks[i].fix, "=eth"));
}

static void test_net_devices_rules(void **state)
{
	struct fx *f = *state;
	struct service *p, *d;
	ib_pair(&f->ms, &p, &d, 1);
	free(p->env.v[1].value);
	p->env.v[1].value = xstrdup("mlx5_bond_0:1");
	free(d->env.v[1].value);
	d->env.v[1].value = xstrdup("mlx5_0");
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.ucx.net_devices");
	assert_int_equal(c->status, CI_WARN);
	assert_null(strstr(c->detail, "member devices")); /* a bond is valid (RoCE LAG) */
	assert_non_null(strstr(c->detail, "malformed"));
	report_release(&f->r);
	report_init(&f->r, "env", "test");
	free(d->env.v[1].value);
	d->env.v[1].value = xstrdup("eth0");
	run(f);
	assert_int_equal(st(f, "env.ucx.net_devices"), CI_FAIL);
}

static void test_rndv_rules(void **state)
{
	struct fx *f = *state;
	struct service *p, *d;
	ib_pair(&f->ms, &p, &d, 1);
	tu_env(p, "UCX_RNDV_THRESH", "inf", 60);
	run(f);
	/* NIXL's UCX plugin sets inf itself */
	const struct ci_check *c = tu_get(&f->r, "env.ucx.rndv");
	assert_int_equal(c->status, CI_OK);
	assert_non_null(strstr(c->detail, "UCX_RNDV_THRESH=inf"));
}

static struct deployment *efa_pair(struct manifest_set *ms, const char *kvc, long gpus)
{
	struct deployment *dep = tu_dep(ms, "efa", "vllm");
	char *cp = xasprintf(
		"python3 -m dynamo.vllm --disaggregation-mode prefill --kv-transfer-config '%s'",
		kvc);
	char *cd = xasprintf(
		"python3 -m dynamo.vllm --disaggregation-mode decode --kv-transfer-config '%s'",
		kvc);
	struct service *sp = tu_svc(dep, "Prefill", ROLE_PREFILL, gpus, 1, cp);
	struct service *sd = tu_svc(dep, "Decode", ROLE_DECODE, gpus, 1, cd);
	free(cp);
	free(cd);
	struct service *both[2] = {sp, sd};
	for (int i = 0; i < 2; i++) {
		tu_kv(&both[i]->resources, "vpc.amazonaws.com/efa", "32");
		tu_kv(&both[i]->cap_add, "IPC_LOCK", "");
		tu_env(both[i], "FI_PROVIDER", "efa", 70 + i);
	}
	return dep;
}

static void test_efa_rules(void **state)
{
	struct fx *f = *state;
	efa_pair(&f->ms,
		 "{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\","
		 "\"kv_connector_extra_config\":{\"backends\":[\"LIBFABRIC\"]}}",
		 4);
	run(f);
	assert_int_equal(st(f, "env.backend"), CI_OK);
	assert_non_null(strstr(tu_get(&f->r, "env.backend")->detail, "LIBFABRIC"));
	/* FI_EFA_USE_DEVICE_RDMA is missing */
	const struct ci_check *c = tu_get(&f->r, "env.vars");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(strstr(c->detail, "FI_EFA_USE_DEVICE_RDMA"));
	assert_int_equal(st(f, "env.pod.anti_affinity"), CI_WARN);
	assert_null(tu_find(&f->r, "env.ucx.tls"));
	/* Dynamo's EFA guide: privileged, "IPC_LOCK alone is insufficient" */
	c = tu_get(&f->r, "env.pod.rdma");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(strstr(c->detail, "not privileged"));
}

/* A preferred anti-affinity yields when nodes are short: only a required
 * one keeps prefill and decode apart on EFA. */
static void test_efa_anti_affinity_required(void **state)
{
	struct fx *f = *state;
	struct deployment *dep =
		efa_pair(&f->ms,
			 "{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\","
			 "\"kv_connector_extra_config\":{\"backends\":[\"LIBFABRIC\"]}}",
			 4);
	for (size_t i = 0; i < dep->n_svcs; i++) {
		dep->svcs[i].anti_affinity = true;
		dep->svcs[i].privileged = true;
	}
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.pod.anti_affinity");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(strstr(c->detail, "only a preferred anti-affinity"));
	assert_non_null(strstr(c->fix, "requiredDuringScheduling"));
	assert_int_equal(st(f, "env.pod.rdma"), CI_OK);
	report_release(&f->r);
	report_init(&f->r, "env", "test");
	for (size_t i = 0; i < dep->n_svcs; i++)
		dep->svcs[i].anti_affinity_required = true;
	run(f);
	assert_int_equal(st(f, "env.pod.anti_affinity"), CI_OK);
}

static void test_ucx_on_efa_warns(void **state)
{
	struct fx *f = *state;
	struct deployment *dep =
		efa_pair(&f->ms, "{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}", 8);
	tu_env(&dep->svcs[0], "UCX_RNDV_SCHEME", "get_zcopy", 80);
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.backend");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(strstr(c->fix, "LIBFABRIC"));
	assert_int_equal(st(f, "env.ucx.rndv"), CI_WARN);
	/* whole-node pods (8 GPUs) cannot share a node */
	assert_int_equal(st(f, "env.pod.anti_affinity"), CI_OK);
}

static void test_nccl_socket_on_multinode_warns(void **state)
{
	struct fx *f = *state;
	struct service *p;
	ib_pair(&f->ms, &p, NULL, 2);
	tu_env(p, "NCCL_IB_DISABLE", "1", 90);
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.nccl.ib");
	assert_int_equal(c->status, CI_FAIL);
	assert_non_null(strstr(c->detail, "Prefill"));
	assert_non_null(strstr(c->detail, "2 nodes"));
}

static void test_nccl_ignored_single_node(void **state)
{
	struct fx *f = *state;
	struct service *p;
	ib_pair(&f->ms, &p, NULL, 1);
	tu_env(p, "NCCL_IB_DISABLE", "1", 90);
	run(f);
	assert_null(tu_find(&f->r, "env.nccl.ib"));
}

static void test_pod_rdma_missing_on_one_side_fails(void **state)
{
	struct fx *f = *state;
	struct service *d;
	ib_pair(&f->ms, NULL, &d, 1);
	free(d->resources.v[0].key);
	d->resources.v[0].key = xstrdup("cpu");
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.pod.rdma");
	assert_int_equal(c->status, CI_FAIL);
	assert_int_equal(c->layer, CI_LAYER_FABRIC);
	assert_non_null(strstr(c->detail, "Decode"));
	struct ci_verdict v;
	verdict_compute(&f->r, &v);
	assert_string_equal(v.fix_first[0], "env.pod.rdma");
	verdict_release(&v);
}

static void test_memlock_rules(void **state)
{
	struct fx *f = *state;
	struct service *p, *d;
	ib_pair(&f->ms, &p, &d, 1);
	for (int i = 0; i < 2; i++) {
		struct service *s = i ? d : p;
		free(s->cap_add.v[0].key);
		s->cap_add.v[0].key = xstrdup("SYS_PTRACE");
	}
	free(d->command_line);
	d->command_line = xstrdup("ulimit -l unlimited && " TU_VLLM_DECODE);
	run(f);
	/* `ulimit -l unlimited` alone cannot raise the runtime's hard limit */
	const struct ci_check *c = tu_get(&f->r, "env.pod.memlock");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(strstr(c->detail, "Prefill"));
	assert_non_null(strstr(c->detail, "Decode: `ulimit -l unlimited` without SYS_RESOURCE"));
	report_release(&f->r);
	report_init(&f->r, "env", "test");
	tu_kv(&d->cap_add, "SYS_RESOURCE", "container");
	run(f);
	c = tu_get(&f->r, "env.pod.memlock");
	assert_null(strstr(c->detail, "Decode"));
}

/* kv_buffer_device cpu stages KV through host memory: correct, slow. */
static void test_kv_buffer_device_cpu_warns(void **state)
{
	struct fx *f = *state;
	struct service *p, *d;
	ib_pair(&f->ms, &p, &d, 1);
	free(p->command_line);
	p->command_line = xstrdup("python3 -m dynamo.vllm --disaggregation-mode prefill "
				  "--kv-transfer-config '{\"kv_connector\":\"NixlConnector\","
				  "\"kv_role\":\"kv_both\",\"kv_buffer_device\":\"cpu\"}'");
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.backend");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(strstr(c->detail, "Prefill"));
	assert_non_null(strstr(c->detail, "host memory"));
	assert_null(strstr(c->detail, "Decode"));
}

static void test_agg_single_node_is_ready(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "agg", "vllm");
	tu_svc(dep, "Frontend", ROLE_FRONTEND, 0, 1, "python3 -m dynamo.frontend");
	struct service *w =
		tu_svc(dep, "VllmDecodeWorker", ROLE_DECODE, 4, 1, "python3 -m dynamo.vllm");
	tu_env(w, "UCX_TLS", "tcp", 5); /* irrelevant: no KV transfer */
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.transport");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_false(c->critical);
	assert_non_null(strstr(c->detail,
			       "aggregated single-node deployment: no KV transfer between pods"));
	assert_null(tu_find(&f->r, "env.ucx.tls"));
	assert_int_equal(verdict(f), CI_READY);
	assert_non_null(strstr(tu_get(&f->r, "env.mode")->detail, "aggregated"));
	/* the variable is still reported as a fact */
	assert_int_equal(f->r.n_facts, 1);
	assert_string_equal(f->r.facts[0].name, "UCX_TLS");
}

static void test_no_fabric_warns(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "bare", "vllm");
	tu_svc(dep, "Prefill", ROLE_PREFILL, 8, 1, TU_VLLM_PREFILL);
	tu_svc(dep, "Decode", ROLE_DECODE, 8, 1, TU_VLLM_DECODE);
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.fabric");
	assert_int_equal(c->status, CI_WARN);
	assert_int_equal(c->layer, CI_LAYER_FABRIC);
	assert_int_equal(st(f, "env.vars"), CI_SKIPPED);
	assert_int_equal(verdict(f), CI_DEGRADED);
}

static void test_no_deployment_is_unknown(void **state)
{
	struct fx *f = *state;
	tu_file(&f->ms);
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.deployment");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_true(c->critical);
	assert_non_null(
		strstr(c->detail, "no DynamoGraphDeployment or pod workload found in test"));
	assert_int_equal(verdict(f), CI_UNKNOWN);
}

static void test_sglang_default_backend_is_mooncake(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "sgl", "sglang");
	tu_svc(dep, "prefill", ROLE_PREFILL, 8, 1,
	       "python3 -m dynamo.sglang --disaggregation-mode prefill");
	tu_svc(dep, "decode", ROLE_DECODE, 8, 1,
	       "python3 -m dynamo.sglang --disaggregation-mode decode");
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.backend");
	assert_int_equal(c->status, CI_OK);
	assert_non_null(strstr(c->detail, "assumed mooncake"));
	assert_non_null(strstr(tu_get(&f->r, "env.mode")->detail, "Mooncake (assumed"));
	assert_null(tu_find(&f->r, "env.ucx.tls"));
}

static void test_sglang_nixl_backend_env(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "sgl", "sglang");
	struct service *p = tu_svc(dep, "prefill", ROLE_PREFILL, 8, 1,
				   "python3 -m dynamo.sglang --disaggregation-mode prefill "
				   "--disaggregation-transfer-backend nixl");
	struct service *d = tu_svc(dep, "decode", ROLE_DECODE, 8, 1,
				   "python3 -m dynamo.sglang --disaggregation-mode decode "
				   "--disaggregation-transfer-backend nixl");
	tu_env(p, "SGLANG_DISAGGREGATION_NIXL_BACKEND", "LIBFABRIC", 3);
	tu_env(d, "SGLANG_DISAGGREGATION_NIXL_BACKEND", "UCX", 4);
	run(f);
	/* no backend in common: no KV can move */
	const struct ci_check *c = tu_get(&f->r, "env.pair.agree");
	assert_int_equal(c->status, CI_FAIL);
	assert_non_null(strstr(c->detail, "no backend in common"));
	assert_non_null(strstr(c->detail, "NIXL/LIBFABRIC"));
	assert_non_null(strstr(c->detail, "NIXL/UCX"));
}

/* SGLang's NIXL connector with SGLANG_NIXL_HOST_STAGING_MB > 0 stages KV
 * through pinned host memory: correct, slow; 0 or a reference is not read. */
static void test_sglang_nixl_host_staging_warns(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "sgl", "sglang");
	struct service *p = tu_svc(dep, "prefill", ROLE_PREFILL, 8, 1,
				   "python3 -m dynamo.sglang --disaggregation-mode prefill "
				   "--disaggregation-transfer-backend nixl");
	struct service *d = tu_svc(dep, "decode", ROLE_DECODE, 8, 1,
				   "python3 -m dynamo.sglang --disaggregation-mode decode "
				   "--disaggregation-transfer-backend nixl");
	tu_env(p, "SGLANG_NIXL_HOST_STAGING_MB", "512", 3);
	tu_env(d, "SGLANG_NIXL_HOST_STAGING_MB", "0", 4);
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.backend");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(
		strstr(c->detail, "prefill: NIXL/UCX with SGLANG_NIXL_HOST_STAGING_MB=512"));
	assert_non_null(strstr(c->detail, "pinned host memory"));
	assert_null(strstr(c->detail, "decode: NIXL/UCX with"));
	assert_non_null(strstr(c->fix, "unset SGLANG_NIXL_HOST_STAGING_MB"));
}

static void test_trtllm_configmap_backend(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "trt", "trtllm");
	tu_svc(dep, "prefill", ROLE_PREFILL, 4, 1,
	       "python3 -m dynamo.trtllm --extra-engine-args /cfg/prefill.yaml --disaggregation-mode prefill");
	tu_svc(dep, "decode", ROLE_DECODE, 4, 1,
	       "python3 -m dynamo.trtllm --extra-engine-args /cfg/decode.yaml --disaggregation-mode decode");
	struct configmap *cm = XPUSH(f->ms.cms, f->ms.n_cms, f->ms.cap_cms);
	memset(cm, 0, sizeof(*cm));
	cm->name = xstrdup("cfg");
	cm->text = xstrdup("x");
	tu_kv(&cm->data, "prefill.yaml",
	      "backend: pytorch\ncache_transceiver_config:\n  backend: UCX\n");
	tu_kv(&cm->data, "decode.yaml",
	      "backend: pytorch\ncache_transceiver_config:\n  backend: NIXL\n");
	run(f);
	/* TRT-LLM's own UCX transceiver and NIXL's share no protocol */
	const struct ci_check *c = tu_get(&f->r, "env.pair.agree");
	assert_int_equal(c->status, CI_FAIL);
	assert_non_null(strstr(c->detail, "UCX on prefill"));
	assert_non_null(strstr(c->detail, "NIXL/UCX on decode"));
}

static void test_kv_config_from_env_reference(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "ref", "vllm");
	const char *cmd[2] = {
		"python3 -m dynamo.vllm --disaggregation-mode prefill --kv-transfer-config \"${KV_TRANSFER_CONFIG}\"",
		"python3 -m dynamo.vllm --disaggregation-mode decode --kv-transfer-config $(KV_TRANSFER_CONFIG)"};
	for (int i = 0; i < 2; i++) {
		struct service *s = tu_svc(dep, i ? "decode" : "prefill",
					   i ? ROLE_DECODE : ROLE_PREFILL, 4, 1, cmd[i]);
		tu_env(s, "KV_TRANSFER_CONFIG",
		       "{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\","
		       "\"kv_connector_extra_config\":{\"backends\":[\"LIBFABRIC\"]}}",
		       7);
	}
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.backend");
	assert_non_null(strstr(c->detail, "NIXL/LIBFABRIC"));
	assert_int_equal(st(f, "env.pair.agree"), CI_OK);
}

static void test_secret_never_leaks(void **state)
{
	struct fx *f = *state;
	struct service *p;
	ib_pair(&f->ms, &p, NULL, 1);
	tu_env(p, "NIXL_ETCD_PASSWORD", "hunter2-leak", 100);
	tu_env(p, "HF_TOKEN", "hf_leakyleak", 101);
	struct env_var *v = tu_env(p, "UCX_AUTH_TOKEN", NULL, 102);
	v->value_from = xstrdup("<secret hf-token-secret/HF_TOKEN>");
	run(f);
	struct render_opts o = {.verbose = true};
	struct ci_verdict vd;
	verdict_compute(&f->r, &vd);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	render_text(m, &f->r, &vd, &o);
	render_json(m, &f->r, &vd, &o);
	fclose(m);
	verdict_release(&vd);
	assert_null(strstr(buf, "hunter2"));
	assert_null(strstr(buf, "hf_leaky"));
	assert_non_null(strstr(buf, "NIXL_ETCD_PASSWORD=<redacted>"));
	assert_non_null(strstr(buf, "<secret hf-token-secret/HF_TOKEN>"));
	free(buf);
}

static void test_kustomize_patch_is_ignored(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "patch", NULL);
	struct service *s = tu_svc(dep, "Prefill", ROLE_PREFILL, 4, 1, NULL);
	free(s->image);
	s->image = NULL;
	run(f);
	assert_non_null(tu_find(&f->r, "env.deployment"));
	assert_null(tu_find(&f->r, "env.mode"));
}

/* ---- issue 9: what the workload really is ---- */

static void tu_claim_template(struct manifest_set *ms, const char *name, const char *classes)
{
	struct claim_template *t = XPUSH(ms->claims, ms->n_claims, ms->cap_claims);
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	t->classes = xstrdup(classes);
}

/* A GPU claim (NVIDIA or Intel) is not MNNVL: no MNNVL rule, no fix that
 * would take RDMA out of UCX_TLS; a NIC claim gives the pod the NIC. */
static void test_dra_gpu_and_nic_claims_are_not_mnnvl(void **state)
{
	struct fx *f = *state;
	tu_claim_template(&f->ms, "gpu-nic", "gpu.nvidia.com,rdma-dranet");
	tu_claim_template(&f->ms, "xpu", "gpu.intel.com");
	struct deployment *dep = tu_dep(&f->ms, "dra", "vllm");
	struct service *sp = tu_svc(dep, "Prefill", ROLE_PREFILL, 1, 1, TU_VLLM_PREFILL);
	struct service *sd = tu_svc(dep, "Decode", ROLE_DECODE, 1, 1, TU_VLLM_DECODE);
	struct service *both[2] = {sp, sd};
	for (int i = 0; i < 2; i++) {
		tu_kv(&both[i]->resource_claims, "gpu-nic", "gpu-nic");
		tu_kv(&both[i]->resource_claims, "xpu", "xpu");
		tu_kv(&both[i]->cap_add, "IPC_LOCK", "");
		tu_env(both[i], "UCX_TLS", "rc_x,rc,cuda_copy", 10 + i);
	}
	run(f);
	assert_null(strstr(tu_get(&f->r, "env.mode")->detail, "MNNVL"));
	const struct ci_check *c = tu_get(&f->r, "env.ucx.tls");
	assert_int_equal(c->status, CI_OK);
	assert_null(c->fix);
	c = tu_get(&f->r, "env.pod.rdma");
	assert_int_equal(c->status, CI_OK);
	assert_non_null(strstr(c->detail, "claims an RDMA NIC through DRA"));
	assert_int_equal(verdict(f), CI_READY);
}

/* Only a GPU claim, nothing else: no fabric at all, never MNNVL. */
static void test_dra_gpu_claim_alone(void **state)
{
	struct fx *f = *state;
	tu_claim_template(&f->ms, "one-gpu", "gpu.nvidia.com");
	struct deployment *dep = tu_dep(&f->ms, "gpu", "vllm");
	struct service *sp = tu_svc(dep, "Prefill", ROLE_PREFILL, 1, 1, TU_VLLM_PREFILL);
	struct service *sd = tu_svc(dep, "Decode", ROLE_DECODE, 1, 1, TU_VLLM_DECODE);
	tu_kv(&sp->resource_claims, "g", "one-gpu");
	tu_kv(&sd->resource_claims, "g", "one-gpu");
	run(f);
	assert_int_equal(st(f, "env.fabric"), CI_WARN);
	assert_null(strstr(tu_get(&f->r, "env.mode")->detail, "MNNVL"));
}

static void test_mocker_is_ready(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "mock", NULL);
	tu_svc(dep, "Frontend", ROLE_FRONTEND, 0, 1, "python3 -m dynamo.frontend");
	struct service *p = tu_svc(dep, "prefill", ROLE_PREFILL, 0, 1,
				   "python3 -m dynamo.mocker --model-path m --is-prefill-worker");
	tu_svc(dep, "decode", ROLE_DECODE, 0, 1, "python3 -m dynamo.mocker --model-path m");
	tu_env(p, "UCX_TLS", "tcp", 9);
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.transport");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_false(c->critical);
	assert_non_null(strstr(c->detail, "mocker"));
	assert_null(tu_find(&f->r, "env.ucx.tls"));
	assert_int_equal(verdict(f), CI_READY);
}

static void test_dgd_without_worker_is_unknown(void **state)
{
	struct fx *f = *state;
	struct deployment *dep = tu_dep(&f->ms, "fe", "vllm");
	tu_svc(dep, "Frontend", ROLE_FRONTEND, 0, 1, "python3 -m dynamo.frontend");
	tu_svc(dep, "Planner", ROLE_OTHER, 0, 1, "python3 -m dynamo.planner");
	run(f);
	const struct ci_check *c = tu_get(&f->r, "env.deployment");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_true(c->critical);
	assert_non_null(strstr(c->detail, "no worker service"));
	assert_int_equal(verdict(f), CI_UNKNOWN);
}

/* Dynamo >= 1.0 refuses a vLLM prefill worker without --kv-transfer-config,
 * and starts a decode worker without one with no KV connector. */
static void test_vllm_without_kv_transfer_config(void **state)
{
	struct fx *f = *state;
	static const char kvtc[] =
		" --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'";
	static const char dec[] = "python3 -m dynamo.vllm --disaggregation-mode decode";
	static const struct {
		const char *image, *pcmd;
		bool dflag; /* the decode worker has the flag */
		int want;   /* ci_status of env.backend */
		const char *says;
	} cases[] = {
		{"nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.1",
		 "python3 -m dynamo.vllm --disaggregation-mode prefill", true, CI_FAIL,
		 "prefill worker without --kv-transfer-config does not start"},
		{"nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.3.0",
		 "python3 -m dynamo.vllm --is-prefill-worker", true, CI_FAIL,
		 "prefill worker without --kv-transfer-config does not start"},
		{"nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.1",
		 "python3 -m dynamo.vllm --disaggregation-mode prefill", false, CI_OK, NULL},
		/* a tag that names no release: judged by the newest (a fail, said so) */
		{"registry.example.com/engine:prod",
		 "python3 -m dynamo.vllm --disaggregation-mode=prefill", false, CI_FAIL,
		 "judged by the newest"},
		/* the command is not visible: the image's entrypoint is not judged */
		{"nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.1", NULL, true, CI_OK, NULL},
		/* decode without the flag on >= 1.0: no connector (warn) */
		{"nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.0",
		 "python3 -m dynamo.vllm --disaggregation-mode prefill", false, CI_WARN,
		 "decode worker without --kv-transfer-config"},
		/* ... on a tag that names no release: judged by the newest */
		{"registry.example.com/engine:prod",
		 "python3 -m dynamo.vllm --disaggregation-mode prefill", false, CI_WARN,
		 "decode worker without --kv-transfer-config"},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		report_release(&f->r);
		manifest_set_release(&f->ms);
		manifest_set_init(&f->ms);
		report_init(&f->r, "env", "test");
		struct deployment *dep = tu_dep(&f->ms, "v", "vllm");
		char pcmd[256], dcmd[256];
		/* the prefill command of the decode cases has the flag */
		bool pflag = cases[k].pcmd && !strstr(cases[k].pcmd, "--is-prefill-worker") &&
			     (cases[k].says ? strstr(cases[k].says, "decode") != NULL
					    : strstr(cases[k].image, ":1.2.0") ||
						      strstr(cases[k].image, ":prod"));
		snprintf(pcmd, sizeof(pcmd), "%s%s", cases[k].pcmd ? cases[k].pcmd : "",
			 pflag ? kvtc : "");
		snprintf(dcmd, sizeof(dcmd), "%s%s", dec, cases[k].dflag ? kvtc : "");
		struct service *p =
			tu_svc(dep, "P", ROLE_PREFILL, 1, 1, cases[k].pcmd ? pcmd : NULL);
		struct service *d = tu_svc(dep, "D", ROLE_DECODE, 1, 1, dcmd);
		free(p->image);
		p->image = xstrdup(cases[k].image);
		free(d->image);
		d->image = xstrdup(cases[k].image);
		run(f);
		const struct ci_check *c = tu_get(&f->r, "env.backend");
		assert_int_equal(c->status, cases[k].want);
		if (cases[k].says)
			assert_non_null(strstr(c->detail, cases[k].says));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean_ib_pair_is_ready, setup, teardown),
		cmocka_unit_test_setup_teardown(test_is_prefill_worker_flag, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tls_tcp_only_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tls_exclusions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tls_without_cuda_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mnnvl_fast_path_ok, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dra_gpu_and_nic_claims_are_not_mnnvl, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_dra_gpu_claim_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mocker_is_ready, setup, teardown),
		cmocka_unit_test_setup_teardown(test_efa_anti_affinity_required, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kv_buffer_device_cpu_warns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sglang_nixl_host_staging_warns, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_dgd_without_worker_is_unknown, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_vllm_without_kv_transfer_config, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_mnnvl_excluding_cuda_ipc_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_mnnvl_missing_vars_warn, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ib_unpinned_is_not_a_warning, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ib_addr_type_missing_warns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_net_devices_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rndv_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_efa_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ucx_on_efa_warns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nccl_socket_on_multinode_warns, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_nccl_ignored_single_node, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pod_rdma_missing_on_one_side_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_memlock_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_agg_single_node_is_ready, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_fabric_warns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_deployment_is_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sglang_default_backend_is_mooncake, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sglang_nixl_backend_env, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trtllm_configmap_backend, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kv_config_from_env_reference, setup, teardown),
		cmocka_unit_test_setup_teardown(test_secret_never_leaks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kustomize_patch_is_ignored, setup, teardown),
	};
	return cmocka_run_group_tests_name("env_rules", tests, NULL, NULL);
}
