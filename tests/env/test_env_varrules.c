/* SPDX-License-Identifier: Apache-2.0 */
/* The shared per-variable rules (env_varrules.c), as both verbs call them:
 * varrule_eval() for the env verb's grouping, env_check_pod_vars() for the
 * node verb. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/report.h"
#include "env/env_varrules.h"
#include "test_util.h"

#define V(n, v)                                                         \
	{                                                               \
		.name = (n), .value = (v), .where = "pid 1 environment" \
	}

/* A recipe (env verb) and a host's hardware (node verb). */
static const struct varrule_ctx recipe_ib = {
	.fabric = FAB_IB, .gpu = true, .cross_pod = true, .nodes = 2};
static const struct varrule_ctx host_ib = {
	.fabric = FAB_IB, .hw = true, .gpu = true, .cross_pod = true};
static const struct varrule_ctx host_none = {
	.fabric = 0, .hw = true, .gpu = true, .cross_pod = true};
static const struct varrule_ctx host_gb200 = {
	.fabric = FAB_IB | FAB_MNNVL, .hw = true, .gpu = true, .cross_pod = true};

/* Status of one rule over vars; -1 when it has nothing to say. */
static int eval_st(enum varrule_id id, const struct var_view *v, size_t n,
		   const struct varrule_ctx *x, char *msg, size_t len)
{
	struct varrule_res res;
	if (!varrule_eval(id, v, n, x, &res))
		return -1;
	int worst = (int)res.note[0].st;
	if (msg)
		snprintf(msg, len, "%s", res.note[0].msg);
	for (size_t i = 1; i < res.n_note; i++)
		if ((int)res.note[i].st > worst && res.note[i].st != CI_SKIPPED)
			worst = (int)res.note[i].st;
	varrule_res_release(&res);
	return worst;
}

static void test_ucx_tls(void **state)
{
	(void)state;
	char msg[512];
	/* UCX_CUDA_IPC_ENABLE_MNNVL is a ternary: only "no" turns MNNVL off,
	 * with or without UCX_TLS; "try" (UCX's default) is not a finding */
	struct var_view mn_off[] = {V("UCX_CUDA_IPC_ENABLE_MNNVL", "n")};
	struct varrule_ctx gb = host_gb200;
	gb.fabric = FAB_MNNVL;
	assert_int_equal(eval_st(VR_UCX_TLS, mn_off, 1, &gb, msg, sizeof(msg)), CI_FAIL);
	assert_non_null(strstr(msg, "turns off multi-node NVLink"));
	assert_int_equal(eval_st(VR_UCX_TLS, mn_off, 1, &host_gb200, msg, sizeof(msg)), CI_FAIL);
	assert_non_null(strstr(msg, "takes the NIC"));
	assert_int_equal(eval_st(VR_UCX_TLS, mn_off, 1, &host_ib, NULL, 0), -1); /* off MNNVL */
	struct var_view mn_try[] = {V("UCX_TLS", "cuda_copy,cuda_ipc,tcp"),
				    V("UCX_CUDA_IPC_ENABLE_MNNVL", "try")};
	assert_int_equal(eval_st(VR_UCX_TLS, mn_try, 2, &gb, NULL, 0), CI_OK);
	struct var_view mn_no[] = {V("UCX_TLS", "cuda_copy,cuda_ipc,tcp"),
				   V("UCX_CUDA_IPC_ENABLE_MNNVL", "no")};
	assert_int_equal(eval_st(VR_UCX_TLS, mn_no, 2, &gb, NULL, 0), CI_FAIL);
	struct var_view tcp[] = {V("UCX_TLS", "tcp,cuda_copy")};
	assert_int_equal(eval_st(VR_UCX_TLS, tcp, 1, &recipe_ib, msg, sizeof(msg)), CI_FAIL);
	assert_non_null(strstr(msg, "leaves no RDMA transport"));
	assert_int_equal(eval_st(VR_UCX_TLS, tcp, 1, &host_ib, NULL, 0), CI_FAIL);
	/* a host without an RDMA device loses nothing to TCP */
	assert_int_equal(eval_st(VR_UCX_TLS, tcp, 1, &host_none, msg, sizeof(msg)), CI_OK);
	assert_non_null(strstr(msg, "no RDMA device"));
	/* but a recipe with no visible fabric still moves KV between pods */
	struct varrule_ctx recipe_none = recipe_ib;
	recipe_none.fabric = 0;
	assert_int_equal(eval_st(VR_UCX_TLS, tcp, 1, &recipe_none, NULL, 0), CI_FAIL);

	/* no cuda_copy on a GPU pod: NIXL's memReg refuses VRAM (rules/ucx.c) */
	struct var_view nocuda[] = {V("UCX_TLS", "rc_x,rc")};
	assert_int_equal(eval_st(VR_UCX_TLS, nocuda, 1, &host_ib, NULL, 0), CI_FAIL);
	struct var_view ipc_only[] = {V("UCX_TLS", "rc_x,rc,cuda_ipc")};
	assert_int_equal(eval_st(VR_UCX_TLS, ipc_only, 1, &host_ib, NULL, 0), CI_FAIL);
	struct varrule_ctx host_nogpu = host_ib;
	host_nogpu.gpu = false;
	assert_int_equal(eval_st(VR_UCX_TLS, nocuda, 1, &host_nogpu, NULL, 0), CI_OK);

	struct var_view excl[] = {V("UCX_TLS", "^cuda_ipc"), V("UCX_CUDA_IPC_ENABLE_MNNVL", "y")};
	assert_int_equal(eval_st(VR_UCX_TLS, excl, 2, &host_ib, NULL, 0), CI_OK); /* off MNNVL */
	assert_int_equal(eval_st(VR_UCX_TLS, excl, 2, &host_gb200, msg, sizeof(msg)), CI_WARN);
	assert_non_null(strstr(msg, "UCX_CUDA_IPC_ENABLE_MNNVL=y asks for it"));
	struct varrule_ctx mnnvl_only = host_gb200;
	mnnvl_only.fabric = FAB_MNNVL;
	assert_int_equal(eval_st(VR_UCX_TLS, excl, 2, &mnnvl_only, msg, sizeof(msg)), CI_FAIL);
	assert_non_null(strstr(msg, "failed to select lane"));

	struct var_view empty[] = {V("UCX_TLS", "")};
	assert_int_equal(eval_st(VR_UCX_TLS, empty, 1, &host_ib, NULL, 0), CI_WARN);
	/* not set, or set only from a reference: nothing to say */
	struct var_view ref[] = {
		{.name = "UCX_TLS", .value = NULL, .shown = "<secret s/k>", .ref = true}};
	assert_int_equal(eval_st(VR_UCX_TLS, ref, 1, &host_ib, NULL, 0), -1);
	assert_int_equal(eval_st(VR_UCX_TLS, NULL, 0, &host_ib, NULL, 0), -1);
}

static void test_ucx_net_devices(void **state)
{
	(void)state;
	char msg[512];
	struct var_view eth[] = {V("UCX_NET_DEVICES", "eth0")};
	assert_int_equal(eval_st(VR_UCX_NET_DEVICES, eth, 1, &recipe_ib, NULL, 0), CI_FAIL);
	assert_int_equal(eval_st(VR_UCX_NET_DEVICES, eth, 1, &host_ib, NULL, 0), CI_FAIL);
	assert_int_equal(eval_st(VR_UCX_NET_DEVICES, eth, 1, &host_none, NULL, 0), CI_OK);
	struct var_view bond[] = {V("UCX_NET_DEVICES", "mlx5_bond_0:1")};
	/* RoCE LAG bonds are valid devices (LID 0 by design on Ethernet): on a
	 * host the hardware's link layer is judged by node.env.ucx.devices_exist,
	 * in a recipe it is a note, never "list the member devices" */
	assert_int_equal(eval_st(VR_UCX_NET_DEVICES, bond, 1, &host_ib, msg, sizeof(msg)), CI_OK);
	assert_int_equal(eval_st(VR_UCX_NET_DEVICES, bond, 1, &recipe_ib, msg, sizeof(msg)), CI_OK);
	assert_non_null(strstr(msg, "RoCE LAG bond (mlx5_bond_0:1)"));
	assert_null(strstr(msg, "member"));
	struct var_view noport[] = {V("UCX_NET_DEVICES", "mlx5_0")};
	assert_int_equal(eval_st(VR_UCX_NET_DEVICES, noport, 1, &host_ib, msg, sizeof(msg)),
			 CI_WARN);
	assert_non_null(strstr(msg, "malformed entry (mlx5_0)"));
	/* `$X` is computed at pod start in a recipe, a literal in a pod */
	struct var_view dyn[] = {V("UCX_NET_DEVICES", "$DEVS")};
	assert_int_equal(eval_st(VR_UCX_NET_DEVICES, dyn, 1, &recipe_ib, NULL, 0), CI_OK);
	assert_int_equal(eval_st(VR_UCX_NET_DEVICES, dyn, 1, &host_ib, NULL, 0), CI_WARN);
	struct var_view good[] = {V("UCX_NET_DEVICES", "mlx5_0:1,mlx5_1:1")};
	assert_int_equal(eval_st(VR_UCX_NET_DEVICES, good, 1, &host_ib, NULL, 0), CI_OK);
}

static void test_addr_type_rndv_nccl(void **state)
{
	(void)state;
	char msg[512];
	/* unset UCX_IB_ADDR_TYPE is no finding: UCX deprecates it (IS_GLOBAL) */
	assert_int_equal(eval_st(VR_UCX_IB_ADDR_TYPE, NULL, 0, &recipe_ib, NULL, 0), -1);
	assert_int_equal(eval_st(VR_UCX_IB_ADDR_TYPE, NULL, 0, &host_gb200, NULL, 0), -1);
	struct var_view glob[] = {V("UCX_IB_IS_GLOBAL", "y")};
	assert_int_equal(eval_st(VR_UCX_IB_ADDR_TYPE, glob, 1, &recipe_ib, msg, sizeof(msg)),
			 CI_OK);
	assert_non_null(strstr(msg, "global routing forced"));
	struct var_view local_glob[] = {V("UCX_IB_ADDR_TYPE", "ib_local"),
					V("UCX_IB_IS_GLOBAL", "y")};
	assert_int_equal(eval_st(VR_UCX_IB_ADDR_TYPE, local_glob, 2, &recipe_ib, NULL, 0), CI_OK);
	struct var_view local[] = {V("UCX_IB_ADDR_TYPE", "ib_local")};
	assert_int_equal(eval_st(VR_UCX_IB_ADDR_TYPE, local, 1, &host_ib, NULL, 0), CI_WARN);
	struct var_view eth[] = {V("UCX_IB_ADDR_TYPE", "eth")};
	assert_int_equal(eval_st(VR_UCX_IB_ADDR_TYPE, eth, 1, &host_ib, NULL, 0), CI_OK);

	struct var_view rndv[] = {V("UCX_RNDV_THRESH", "inf"), V("UCX_RNDV_SCHEME", "get_zcopy")};
	struct varrule_ctx efa = host_ib;
	efa.fabric = FAB_EFA;
	struct varrule_res res;
	assert_true(varrule_eval(VR_UCX_RNDV, rndv, 2, &efa, &res));
	assert_int_equal(res.n_note, 1); /* only the scheme: inf is NIXL's own value */
	assert_int_equal(res.note[0].st, CI_WARN);
	assert_int_equal(res.n_ev, 2);
	varrule_res_release(&res);
	assert_int_equal(eval_st(VR_UCX_RNDV, rndv, 1, &recipe_ib, msg, sizeof(msg)), CI_OK);
	assert_non_null(strstr(msg, "NIXL's UCX plugin sets itself"));
	assert_int_equal(eval_st(VR_UCX_RNDV, rndv + 1, 1, &host_ib, NULL, 0), CI_OK);

	struct var_view sock[] = {V("NCCL_NET", "Socket")};
	/* a recipe worker over 2 nodes: its collectives forced onto TCP */
	assert_int_equal(eval_st(VR_NCCL_IB, sock, 1, &recipe_ib, msg, sizeof(msg)), CI_FAIL);
	assert_non_null(strstr(msg, "on a worker that spans 2 nodes"));
	assert_int_equal(eval_st(VR_NCCL_IB, sock, 1, &host_ib, msg, sizeof(msg)), CI_WARN);
	assert_non_null(strstr(msg, "although this host has RDMA devices"));
	assert_int_equal(eval_st(VR_NCCL_IB, sock, 1, &host_none, NULL, 0), CI_OK);
	assert_int_equal(eval_st(VR_NCCL_IB, sock, 1, &host_gb200, NULL, 0), CI_OK);
	struct var_view p2p[] = {V("NCCL_P2P_DISABLE", "1")};
	assert_int_equal(eval_st(VR_NCCL_IB, p2p, 1, &host_ib, NULL, 0), CI_WARN);
	/* nothing set: an ok note for a recipe's multi-node worker */
	assert_int_equal(eval_st(VR_NCCL_IB, NULL, 0, &recipe_ib, msg, sizeof(msg)), CI_OK);
	assert_non_null(strstr(msg, "between the 2 nodes"));
}

/* The caller's descriptors, by enum varrule_id, as node and env pass them. */
#define VR_DESCS(p)                                                      \
	{                                                                \
		{p ".ucx.tls", CI_LAYER_ENV, true, ""},                  \
			{p ".ucx.net_devices", CI_LAYER_ENV, true, ""},  \
			{p ".ucx.ib_addr_type", CI_LAYER_ENV, true, ""}, \
			{p ".ucx.rndv", CI_LAYER_ENV, true, ""},         \
		{                                                        \
			p ".nccl.ib", CI_LAYER_ENV, true, ""             \
		}                                                        \
	}
static const struct check_desc node_vr[VR_COUNT] = VR_DESCS("node.env");
static const struct check_desc x_vr[VR_COUNT] = VR_DESCS("x");

static void test_pod_vars(void **state)
{
	(void)state;
	struct ci_report r;
	report_init(&r, "node", "test");
	struct var_view v[] = {
		V("UCX_TLS", "rc"), /* overridden below */
		V("NCCL_IB_DISABLE", "1"),
		V("UCX_TLS", "tcp"),
		{.name = "NIXL_ETCD_PASSWORD", .value = "x", .shown = "<redacted>"},
	};
	env_check_pod_vars(&r, NULL, v, 4, &host_ib, node_vr);
	/* only the rules whose variables are set */
	assert_int_equal(r.n_checks, 2);
	const struct ci_check *c = tu_find(&r, "node.env.ucx.tls");
	assert_non_null(c);
	if (c) {
		assert_int_equal(c->status, CI_FAIL);
		assert_true(c->critical);
		assert_string_equal(c->subject, "UCX_TLS");
		assert_non_null(strstr(c->detail, "UCX_TLS=tcp ")); /* the last one wins */
		assert_non_null(c->fix);
		assert_int_equal(c->n_evidence, 1);
		assert_string_equal(c->evidence[0], "pid 1 environment: UCX_TLS=tcp");
	}
	c = tu_find(&r, "node.env.nccl.ib");
	assert_non_null(c);
	if (c)
		assert_int_equal(c->status, CI_WARN);
	assert_null(tu_find(&r, "node.env.ucx.ib_addr_type")); /* unset: no statement */
	report_release(&r);

	/* a given subject and prefix; two findings of one rule in one check */
	report_init(&r, "env", "test");
	struct var_view rv[] = {V("UCX_RNDV_THRESH", "inf"), V("UCX_RNDV_SCHEME", "get_zcopy")};
	struct varrule_ctx efa = host_ib;
	efa.fabric = FAB_EFA;
	env_check_pod_vars(&r, "pod p", rv, 2, &efa, x_vr);
	c = tu_find(&r, "x.ucx.rndv");
	assert_non_null(c);
	if (c) {
		assert_int_equal(c->status, CI_WARN);
		assert_string_equal(c->subject, "pod p");
		assert_non_null(strstr(c->detail, "UCX_RNDV_SCHEME=get_zcopy"));
		assert_null(strstr(c->detail, "UCX_RNDV_THRESH=inf turns"));
		assert_int_equal(c->n_evidence, 2);
	}
	report_release(&r);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(varrule_suffix(VR_UCX_TLS), "ucx.tls");
	assert_string_equal(varrule_suffix(VR_NCCL_IB), "nccl.ib");
	assert_string_equal(varrule_suffix(VR_COUNT), "unknown");
	struct var_view v = {.name = "UCX_TLS", .value = "rc"};
	char *e = var_view_evidence(&v);
	assert_string_equal(e, "UCX_TLS=rc");
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ucx_tls),
		cmocka_unit_test(test_ucx_net_devices),
		cmocka_unit_test(test_addr_type_rndv_nccl),
		cmocka_unit_test(test_pod_vars),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
