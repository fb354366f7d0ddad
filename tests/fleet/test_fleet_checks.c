/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet checks as pure functions over hand-built per-pod summaries, the
 * pod selection over a parsed `get pods` answer, the per-pod summary read
 * from a real-derived transcript, and the recipe-versus-pod drift.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/render.h"
#include "core/report.h"
#include "env/env_analyze.h"
#include "fleet/fleet.h"
#include "fleet/fleet_desc.h"
#include "parse/transcript.h"
#include "test_util.h"

/* A healthy IB pod; tests then change one reading. */
static void mk(struct fleet_pod *p, const char *name, const char *node, const char *role)
{
	fleet_pod_init(p, name, node, role, NULL);
	p->probed = true;
	p->rdma_known = true;
	p->n_ports = 8;
	p->n_active = 8;
	p->link_layer = strdup("InfiniBand");
	p->rate = strdup("400 Gb/s");
	p->n_gpus = 8;
	p->driver = strdup("535.183.01");
	p->gpudirect = strdup("peermem");
	p->gdrcopy = 1;
	p->ucx_version = strdup("1.19.0");
	p->nixl_version = strdup("0.7.1");
	p->backend = strdup("UCX");
	fleet_pod_set_env(p, "UCX_TLS", "rc_x,rc,cuda_copy,cuda_ipc");
}

struct fx {
	struct fleet_pod p[4];
	size_t n;
	struct ci_report r;
};

static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));
	mk(&x->p[0], "p0", "node-a", "prefill");
	mk(&x->p[1], "d0", "node-b", "decode");
	mk(&x->p[2], "d1", "node-c", "decode");
	x->n = 3;
	report_init(&x->r, "node", "test");
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fx *x = *state;
	for (size_t i = 0; i < x->n; i++)
		fleet_pod_release(&x->p[i]);
	report_release(&x->r);
	free(x);
	return 0;
}

static void replace(char **field, const char *v)
{
	free(*field);
	*field = v ? strdup(v) : NULL;
}

/* The only check with `id`, asserted to have status st and critical. */
static const struct ci_check *one(const struct ci_report *r, const char *id, enum ci_status st)
{
	const struct ci_check *c = NULL;
	size_t k = 0;
	for (size_t i = 0; i < r->n_checks; i++)
		if (!strcmp(r->checks[i].id, id)) {
			c = &r->checks[i];
			k++;
		}
	assert_int_equal(k, 1);
	if (!c)
		fail_msg("no check %s", id);
	else
		assert_int_equal(c->status, st);
	return c;
}

static void has(const struct ci_check *c, const char *text)
{
	if (!strstr(c->detail, text))
		fail_msg("'%s' not in '%s'", text, c->detail);
}

static void test_unreachable(void **state)
{
	struct fx *x = *state;
	fleet_check_unreachable(&x->r, x->p, x->n);
	const struct ci_check *c = one(&x->r, "fleet.unreachable", CI_OK);
	has(c, "all 3 worker pods");

	report_release(&x->r);
	report_init(&x->r, "node", "t");
	x->p[2].probed = false;
	x->p[2].timed_out = true;
	x->p[2].unreachable = strdup("did not answer before the deadline");
	fleet_check_unreachable(&x->r, x->p, x->n);
	c = one(&x->r, "fleet.unreachable", CI_SKIPPED);
	assert_true(c->critical);
	has(c, "1 of 3 worker pods could not be probed (1 timed out): d1");
	assert_int_equal(c->n_evidence, 1);
	struct ci_verdict v;
	verdict_compute(&x->r, &v);
	assert_int_equal(v.kind, CI_UNKNOWN);
	verdict_release(&v);
}

static void test_env_drift(void **state)
{
	struct fx *x = *state;
	fleet_check_env_drift(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.env.drift", CI_OK), "same 1 transport variable");

	report_release(&x->r);
	report_init(&x->r, "node", "t");
	free(x->p[1].env[0].value);
	x->p[1].env[0].value = strdup("tcp,cuda_copy");
	fleet_pod_set_env(&x->p[0], "NCCL_DEBUG", "INFO");
	fleet_check_env_drift(&x->r, x->p, x->n);
	/* UCX_TLS must match (fail); NCCL_DEBUG only warns. */
	size_t fails = 0, warns = 0;
	for (size_t i = 0; i < x->r.n_checks; i++) {
		const struct ci_check *c = &x->r.checks[i];
		assert_string_equal(c->id, "fleet.env.drift");
		if (c->status == CI_FAIL) {
			fails++;
			assert_string_equal(c->subject, "UCX_TLS");
			has(c, "UCX_TLS=tcp,cuda_copy on d0 (decode)");
			has(c, "UCX_TLS=rc_x,rc,cuda_copy,cuda_ipc on p0 (prefill), d1 (decode)");
		} else if (c->status == CI_WARN) {
			warns++;
			assert_string_equal(c->subject, "NCCL_DEBUG");
			has(c, "NCCL_DEBUG unset on d0 (decode), d1 (decode)");
		}
	}
	assert_int_equal(fails, 1);
	assert_int_equal(warns, 1);
	assert_true(fleet_var_must_match("UCX_TLS"));
	assert_false(fleet_var_must_match("NCCL_DEBUG"));
}

static void test_one_pod_skips(void **state)
{
	struct fx *x = *state;
	fleet_check_env_drift(&x->r, x->p, 1);
	fleet_check_ucx_version(&x->r, x->p, 1);
	assert_false(one(&x->r, "fleet.env.drift", CI_SKIPPED)->critical);
	has(one(&x->r, "fleet.ucx.version", CI_SKIPPED), "nothing to compare");
}

static void test_versions_backend(void **state)
{
	struct fx *x = *state;
	replace(&x->p[1].ucx_version, "1.18.0");
	replace(&x->p[2].nixl_version, "0.6.0");
	replace(&x->p[0].backend, "LIBFABRIC");
	fleet_check_ucx_version(&x->r, x->p, x->n);
	fleet_check_nixl_version(&x->r, x->p, x->n);
	fleet_check_backend(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.ucx.version", CI_WARN), "UCX 1.18.0 on d0 (decode)");
	has(one(&x->r, "fleet.nixl.version", CI_WARN), "NIXL 0.6.0 on d1 (decode)");
	const struct ci_check *c = one(&x->r, "fleet.backend", CI_FAIL);
	assert_true(c->critical);
	has(c, "LIBFABRIC on p0 (prefill); UCX on d0 (decode), d1 (decode)");
	/* A pod without the reading is left out, not counted as different. */
	report_release(&x->r);
	report_init(&x->r, "node", "t");
	replace(&x->p[1].ucx_version, NULL);
	fleet_check_ucx_version(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.ucx.version", CI_OK), "every pod runs UCX 1.19.0 (2 pods)");
}

static void test_rdma(void **state)
{
	struct fx *x = *state;
	x->p[1].n_active = 7;
	replace(&x->p[2].rate, "200 Gb/s");
	fleet_check_rdma_ports(&x->r, x->p, x->n);
	fleet_check_rdma_rate(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.rdma.ports", CI_WARN), "7 active on node-b (d0)");
	has(one(&x->r, "fleet.rdma.rate", CI_WARN), "200 Gb/s on node-c (d1)");
}

static void test_link_layer(void **state)
{
	struct fx *x = *state;
	fleet_check_link_layer(&x->r, x->p, x->n);
	one(&x->r, "fleet.link_layer", CI_OK);
	/* Overlapping sets warn; disjoint ones fail. */
	report_release(&x->r);
	report_init(&x->r, "node", "t");
	replace(&x->p[1].link_layer, "InfiniBand+RoCE");
	fleet_check_link_layer(&x->r, x->p, x->n);
	one(&x->r, "fleet.link_layer", CI_WARN);
	report_release(&x->r);
	report_init(&x->r, "node", "t");
	replace(&x->p[2].link_layer, "RoCE");
	replace(&x->p[1].link_layer, "InfiniBand");
	fleet_check_link_layer(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.link_layer", CI_FAIL), "RoCE on node-c (d1)");
}

static void test_gpus(void **state)
{
	struct fx *x = *state;
	x->p[0].n_gpus = 4; /* prefill with other parallelism: fine */
	fleet_check_gpus(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.gpus", CI_OK), "4 GPUs on p0 (prefill)");
	report_release(&x->r);
	report_init(&x->r, "node", "t");
	x->p[2].n_gpus = 7; /* two decode replicas that differ */
	fleet_check_gpus(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.gpus", CI_WARN), "decode pods see different GPU counts");
}

static void test_driver_gpudirect_gdrcopy(void **state)
{
	struct fx *x = *state;
	replace(&x->p[1].driver, "550.54.15");
	replace(&x->p[2].gpudirect, "dma-buf");
	x->p[0].gdrcopy = 0;
	fleet_check_driver(&x->r, x->p, x->n);
	fleet_check_gpudirect_mode(&x->r, x->p, x->n);
	fleet_check_gdrcopy(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.driver", CI_WARN), "550.54.15 on node-b (d0)");
	has(one(&x->r, "fleet.gpudirect.mode", CI_WARN), "dma-buf on node-c (d1)");
	has(one(&x->r, "fleet.gdrcopy", CI_WARN), "GDRCopy not usable on node-a (p0)");
}

static void add_v4(struct fleet_pod *p, const char *gid, int index)
{
	p->v4 = realloc(p->v4, (p->n_v4 + 1) * sizeof(*p->v4));
	p->v4[p->n_v4].gid = strdup(gid);
	p->v4[p->n_v4++].index = index;
	p->cap_v4 = p->n_v4;
}

#define GID(x) "0000:0000:0000:0000:0000:ffff:0a00:" x

static void test_roce_gid(void **state)
{
	struct fx *x = *state;
	/* unique addresses; a pinned index that holds them everywhere */
	add_v4(&x->p[0], GID("0a01"), 3);
	add_v4(&x->p[1], GID("0b01"), 3);
	add_v4(&x->p[2], GID("0c01"), 3);
	for (size_t i = 0; i < 3; i++)
		x->p[i].gid_index_var = strdup("NCCL_IB_GID_INDEX=3");
	fleet_check_roce_gid(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.roce.gid", CI_OK), "unique across nodes (3 GIDs)");
	report_release(&x->r);
	report_init(&x->r, "node", "test");
	/* d1 holds its address at index 5: the pinned index means another entry */
	x->p[2].v4[0].index = 5;
	fleet_check_roce_gid(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.roce.gid", CI_WARN), "index 5 on d1");
	report_release(&x->r);
	report_init(&x->r, "node", "test");
	/* d0 on node-b holds p0's 10.0.10.1: a clash (d1 on node-c shares none) */
	free(x->p[1].v4[0].gid);
	x->p[1].v4[0].gid = strdup(GID("0a01"));
	fleet_check_roce_gid(&x->r, x->p, x->n);
	const struct ci_check *c = one(&x->r, "fleet.roce.gid", CI_FAIL);
	has(c, "10.0.10.1 on p0 (node-a), d0 (node-b)");
	assert_true(c->critical);
	report_release(&x->r);
	report_init(&x->r, "node", "test");
	/* the same GID on one node (a shared NIC) is not a clash */
	replace(&x->p[1].node, "node-a");
	fleet_check_roce_gid(&x->r, x->p, x->n);
	one(&x->r, "fleet.roce.gid", CI_WARN); /* only d1's index is left */
}

static void test_mtu_fw(void **state)
{
	struct fx *x = *state;
	for (size_t i = 0; i < 3; i++) {
		x->p[i].mtu = strdup(i == 2 ? "1024" : "4096");
		x->p[i].fw = strdup(i == 0 ? "MT4129 28.39.2048" : "MT4129 28.42.1000");
	}
	fleet_check_rdma_mtu(&x->r, x->p, x->n);
	fleet_check_nic_fw(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.rdma.mtu", CI_WARN), "active_mtu 1024 on node-c (d1)");
	has(one(&x->r, "fleet.nic.fw", CI_WARN), "MT4129 28.39.2048 on node-a (p0)");
}

/* One window, measured: execs that started and ended together share it;
 * one exec started 20 s late (a slow node) does not, and the flat and
 * balance comparisons are then not made. --jobs below the pod count warns
 * whatever the times say. */
static void test_live_window_measured(void **state)
{
	struct fx *x = *state;
	for (size_t i = 0; i < x->n; i++) {
		x->p[i].live_observed = true;
		x->p[i].live_rdma = 4e9;
		x->p[i].exec_start = 100.0 + 0.05 * (double)i;
		x->p[i].exec_end = 112.0 + 0.05 * (double)i;
	}
	fleet_check_live(&x->r, x->p, x->n, 64);
	has(one(&x->r, "fleet.live.window", CI_OK), "started less than 1 s apart");
	one(&x->r, "fleet.live.flat", CI_OK);
	report_release(&x->r);
	report_init(&x->r, "node", "test");
	x->p[2].exec_start = 120.0;
	x->p[2].exec_end = 132.0;
	fleet_check_live(&x->r, x->p, x->n, 64);
	has(one(&x->r, "fleet.live.window", CI_WARN), "started up to 20.0 s apart");
	assert_false(one(&x->r, "fleet.live.flat", CI_SKIPPED)->critical);
	report_release(&x->r);
	report_init(&x->r, "node", "test");
	x->p[2].exec_start = 100.1;
	x->p[2].exec_end = 112.1;
	fleet_check_live(&x->r, x->p, x->n, 2);
	has(one(&x->r, "fleet.live.window", CI_WARN), "successive windows");
}

static void test_mnnvl_domain(void **state)
{
	struct fx *x = *state;
	fleet_check_mnnvl_domain(&x->r, x->p, x->n);
	one(&x->r, "fleet.mnnvl.domain", CI_SKIPPED); /* not MNNVL */
	report_release(&x->r);
	report_init(&x->r, "node", "test");
	for (size_t i = 0; i < 3; i++) {
		x->p[i].cluster_uuid = strdup("dc6e40c4-d722-4357-9ba6-5291dd461278");
		x->p[i].clique_id = strdup("2");
		x->p[i].rdma_path = true;
	}
	fleet_check_mnnvl_domain(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.mnnvl.domain", CI_OK), "one NVLink domain");
	report_release(&x->r);
	report_init(&x->r, "node", "test");
	replace(&x->p[2].clique_id, "3");
	fleet_check_mnnvl_domain(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.mnnvl.domain", CI_WARN), "takes the RDMA NICs");
	report_release(&x->r);
	report_init(&x->r, "node", "test");
	/* the official MNNVL recipes' UCX_TLS: cuda_ipc is the only GPU path */
	for (size_t k = 0; k < x->p[0].n_env; k++)
		if (!strcmp(x->p[0].env[k].name, "UCX_TLS"))
			replace(&x->p[0].env[k].value, "cuda_copy,cuda_ipc,tcp");
	fleet_check_mnnvl_domain(&x->r, x->p, x->n);
	has(one(&x->r, "fleet.mnnvl.domain", CI_FAIL), "CliqueId 3: d1");
}

static void test_efa_colocated(void **state)
{
	struct fx *x = *state;
	fleet_check_efa_colocated(&x->r, x->p, x->n);
	one(&x->r, "fleet.efa.colocated", CI_SKIPPED);
	report_release(&x->r);
	report_init(&x->r, "node", "t");
	for (size_t i = 0; i < x->n; i++)
		x->p[i].efa = true;
	fleet_check_efa_colocated(&x->r, x->p, x->n);
	one(&x->r, "fleet.efa.colocated", CI_OK);
	report_release(&x->r);
	report_init(&x->r, "node", "t");
	replace(&x->p[2].node, "node-a");
	/* placement counts even for a pod that was not probed */
	x->p[2].probed = false;
	fleet_check_efa_colocated(&x->r, x->p, x->n);
	const struct ci_check *c = one(&x->r, "fleet.efa.colocated", CI_FAIL);
	assert_string_equal(c->subject, "node-a");
	has(c, "prefill p0 and decode d1 run on the same node");
	has(c, "EAGAIN");
}

static void test_checks_run_kinds(void **state)
{
	struct fx *x = *state;
	fleet_checks_run(&x->r, FLEET_NODE, x->p, x->n);
	for (size_t i = 0; i < x->r.n_checks; i++)
		assert_null(strstr(x->r.checks[i].id, "ucx"));
	struct ci_verdict v;
	verdict_compute(&x->r, &v);
	assert_int_equal(v.kind, CI_READY);
	verdict_release(&v);
	report_release(&x->r);
	report_init(&x->r, "nixl", "t");
	fleet_checks_run(&x->r, FLEET_NIXL, x->p, x->n);
	one(&x->r, "fleet.ucx.version", CI_OK);
	for (size_t i = 0; i < x->r.n_checks; i++)
		assert_null(strstr(x->r.checks[i].id, "rdma"));
}

static void test_group_of(void **state)
{
	(void)state;
	assert_string_equal(fleet_group_of("node.rdma.ports"), "rdma");
	assert_string_equal(fleet_group_of("node.efa"), "rdma");
	assert_string_equal(fleet_group_of("node.gdrcopy"), "gpudirect");
	assert_string_equal(fleet_group_of("node.nvlink.fabric"), "nvlink");
	assert_string_equal(fleet_group_of("node.mnnvl.imex"), "nvlink");
	assert_string_equal(fleet_group_of("node.caps"), "memlock");
	assert_string_equal(fleet_group_of("node.env.ucx_tls"), "env");
	assert_string_equal(fleet_group_of("nixl.ucx.rdma"), "nixl/ucx");
	assert_null(fleet_group_of("node.probe"));
	assert_null(fleet_group_of("nixl.probe"));
}

/* A fake cluster's `get pods` answer: the clusters are built at test time
 * (tests/fixtures/fleet/clusters.py, under the trees of tests/fixtures/trees.py). */
static char *cluster_pods(const char *cluster, size_t *len)
{
	FILE *p = popen("python3 tests/fixtures/trees.py", "r");
	char dir[4096];
	assert_non_null(p);
	assert_non_null(fgets(dir, sizeof dir, p));
	assert_int_equal(pclose(p), 0);
	dir[strcspn(dir, "\n")] = '\0';
	char path[4096 + 64];
	snprintf(path, sizeof path, "%s/fleet/%s/_pods.json", dir, cluster);
	return tu_slurp(path, len);
}

static void test_plan(void **state)
{
	(void)state;
	size_t len;
	char *json = cluster_pods("not_running", &len);
	struct kube_pod_list l;
	kube_pod_list_init(&l);
	assert_int_equal(kube_pods_parse(json, len, &l), 0);
	struct fleet_plan p;
	fleet_plan_make(&l, &p);
	assert_int_equal(p.n, 5);
	assert_int_equal(p.n_probe, 2);
	size_t front = 0, down = 0;
	for (size_t i = 0; i < p.n; i++) {
		front += p.v[i].pick == FP_FRONTEND;
		if (p.v[i].pick == FP_NOT_RUNNING) {
			down++;
			assert_true(!strcmp(p.v[i].state, "Pending") ||
				    !strcmp(p.v[i].state, "Running, terminating"));
		}
		if (p.v[i].pick == FP_PROBE)
			assert_true(!strcmp(p.v[i].role, "prefill") ||
				    !strcmp(p.v[i].role, "decode"));
	}
	assert_int_equal(front, 1);
	assert_int_equal(down, 2);
	struct ci_report r;
	report_init(&r, "node", "t");
	fleet_plan_report(&r, &p, "deployment llm-disagg");
	has(one(&r, "fleet.pods", CI_OK), "2 running worker pods to probe (1 prefill, 1 decode");
	const struct ci_check *c = one(&r, "fleet.pods.not_running", CI_WARN);
	assert_non_null(strstr(c->subject, "llm-disagg-vllmprefillworker-1 (Pending)"));
	report_release(&r);
	fleet_plan_release(&p);

	/* No worker at all: unknown, never ready. */
	struct kube_pod_list empty;
	kube_pod_list_init(&empty);
	fleet_plan_make(&empty, &p);
	report_init(&r, "node", "t");
	fleet_plan_report(&r, &p, "deployment x");
	assert_true(one(&r, "fleet.pods", CI_SKIPPED)->critical);
	report_release(&r);
	fleet_plan_release(&p);
	kube_pod_list_release(&empty);
	kube_pod_list_release(&l);
	free(json);
}

static void read_pod(struct fleet_pod *p, const char *file, bool nixl)
{
	size_t len;
	char *buf = tu_slurp(file, &len);
	struct transcript t;
	transcript_init(&t);
	transcript_parse(&t, buf, len);
	fleet_pod_init(p, "x", "n", "prefill", NULL);
	fleet_pod_read(p, &t, nixl);
	transcript_release(&t);
	free(buf);
}

static void test_pod_read(void **state)
{
	(void)state;
	struct fleet_pod p;
	read_pod(&p, "tests/fixtures/fleet/transcripts/ib_ok.txt", true);
	assert_true(p.probed);
	assert_int_equal(p.n_ports, 9);
	assert_int_equal(p.n_active, 9);
	assert_string_equal(p.link_layer, "InfiniBand+RoCE");
	assert_string_equal(p.rate, "200/400 Gb/s");
	assert_int_equal(p.n_gpus, 8);
	assert_string_equal(p.driver, "535.183.01");
	assert_string_equal(p.gpudirect, "peermem");
	assert_int_equal(p.gdrcopy, 1);
	assert_string_equal(p.ucx_version, "1.19.0");
	assert_string_equal(p.nixl_version, "0.7.1");
	assert_string_equal(p.backend, "UCX");
	assert_false(p.efa);
	assert_string_equal(fleet_pod_env(&p, "UCX_TLS"), "rc_x,rc,cuda_copy,cuda_ipc");
	assert_string_equal(fleet_pod_env(&p, "NIXL_ETCD_PASSWORD"), "<redacted>");
	fleet_pod_release(&p);

	read_pod(&p, "tests/fixtures/fleet/transcripts/ib_port_down.txt", false);
	assert_int_equal(p.n_active, 8);
	assert_null(p.ucx_version);
	fleet_pod_release(&p);

	read_pod(&p, "tests/fixtures/fleet/transcripts/efa_ok.txt", true);
	assert_true(p.efa);
	assert_string_equal(p.link_layer, "EFA");
	assert_string_equal(p.backend, "LIBFABRIC");
	fleet_pod_release(&p);
}

static void test_drift(void **state)
{
	(void)state;
	size_t len;
	char *yaml = tu_slurp("tests/fixtures/fleet/recipes/llm-disagg/deploy.yaml", &len);
	struct manifest_set ms;
	manifest_set_init(&ms);
	manifest_parse_bytes(&ms, "deploy.yaml", yaml, len);
	const struct deployment *d = all_pick_deployment(&ms, "llm-disagg");
	assert_non_null(d);
	assert_ptr_equal(all_pick_deployment(&ms, "other"), d); /* the only DGD */

	struct fleet_pod p[2];
	fleet_pod_init(&p[0], "pre-0", "a", "prefill", "VllmPrefillWorker");
	fleet_pod_init(&p[1], "dec-0", "b", "decode", NULL); /* matched by role */
	for (size_t i = 0; i < 2; i++) {
		p[i].probed = true;
		fleet_pod_set_env(&p[i], "UCX_TLS", "rc_x,rc,cuda_copy,cuda_ipc");
		fleet_pod_set_env(&p[i], "UCX_IB_ADDR_TYPE", "eth");
		fleet_pod_set_env(&p[i], "NCCL_SOCKET_IFNAME", "eth0");
	}
	struct ci_report r;
	report_init(&r, "all", "t");
	all_check_drift(&r, &ms, d, p, 2);
	has(one(&r, "all.drift.match", CI_OK), "dec-0 -> VllmDecodeWorker (by role)");
	one(&r, "all.drift.recipe", CI_OK);
	has(one(&r, "all.drift.image", CI_OK), "every transport variable in the pods");
	report_release(&r);

	/* Both ways: decode lacks one and changes one; the image adds two. */
	free(p[1].env[1].value);
	p[1].env[1].value = strdup("ib");
	free(p[1].env[0].name);
	p[1].env[0].name = strdup("UCX_TLS_X");
	fleet_pod_set_env(&p[0], "UCX_TLS_EXTRA", "x");      /* does not choose */
	fleet_pod_set_env(&p[0], "UCX_NET_DEVICES", "eth0"); /* chooses, and wrong */
	report_init(&r, "all", "t");
	all_check_drift(&r, &ms, d, p, 2);
	size_t recipe = 0, image_warn = 0, image_ok = 0;
	for (size_t i = 0; i < r.n_checks; i++) {
		const struct ci_check *c = &r.checks[i];
		if (!strcmp(c->id, "all.drift.recipe")) {
			assert_int_equal(c->status, CI_WARN);
			recipe++;
		} else if (!strcmp(c->id, "all.drift.image")) {
			if (c->status == CI_WARN) {
				image_warn++;
				has(c, "UCX_NET_DEVICES=eth0 names only network interfaces");
				has(c, "(pods pre-0)");
			} else {
				image_ok++;
				has(c, "UCX_TLS_EXTRA=x (pre-0)");
			}
		}
	}
	assert_int_equal(recipe, 2); /* VllmDecodeWorker: UCX_TLS, UCX_IB_ADDR_TYPE */
	assert_int_equal(image_warn, 1);
	assert_int_equal(image_ok, 1);
	report_release(&r);

	fleet_pod_release(&p[0]);
	fleet_pod_release(&p[1]);
	manifest_set_release(&ms);
	free(yaml);
}

/* all.drift.image judges an image's value by the rule node applies, on the
 * pod's own hardware: right is ok, wrong keeps the warning with the rule's
 * finding, and the variables no rule reads follow the table. */
static const struct ci_check *image_check(const struct ci_report *r, const char *name)
{
	for (size_t i = 0; i < r->n_checks; i++)
		if (!strcmp(r->checks[i].id, "all.drift.image") && r->checks[i].subject &&
		    !strcmp(r->checks[i].subject, name))
			return &r->checks[i];
	fail_msg("no all.drift.image for %s", name);
	return NULL;
}

static void test_drift_image_judged(void **state)
{
	(void)state;
	size_t len;
	char *yaml = tu_slurp("tests/fixtures/fleet/recipes/llm-disagg-image/deploy.yaml", &len);
	struct manifest_set ms;
	manifest_set_init(&ms);
	manifest_parse_bytes(&ms, "deploy.yaml", yaml, len);
	const struct deployment *d = all_pick_deployment(&ms, "llm-disagg");
	assert_non_null(d);
	struct fleet_pod p[2];
	read_pod(&p[0], "tests/fixtures/fleet/transcripts/ib_ok.txt", true);
	read_pod(&p[1], "tests/fixtures/fleet/transcripts/ib_image_tcp_b.txt", true);
	free(p[0].component);
	p[0].component = strdup("VllmPrefillWorker");
	free(p[1].name);
	p[1].name = strdup("y");
	free(p[1].role);
	p[1].role = strdup("decode");
	fleet_pod_set_env(&p[0], "NCCL_NET_GDR_LEVEL", "LOC");
	fleet_pod_set_env(&p[1], "UCX_IB_GPU_DIRECT_RDMA", "n");

	struct ci_report r;
	report_init(&r, "all", "t");
	all_check_drift(&r, &ms, d, p, 2);
	/* UCX_TLS: right on x, TCP-only on y's InfiniBand: the warning names y */
	const struct ci_check *c = image_check(&r, "UCX_TLS");
	assert_int_equal(c->status, CI_WARN);
	has(c, "UCX_TLS=tcp,cuda_copy leaves no RDMA transport");
	has(c, "(pods y)");
	assert_null(strstr(c->detail, "(pods x)"));
	assert_non_null(strstr(c->fix, "override it in the recipe"));
	/* the same rule as node: well-formed on both */
	c = image_check(&r, "UCX_NET_DEVICES");
	assert_int_equal(c->status, CI_OK);
	has(c, "judged right on the pods' hardware");
	has(c, "(pods x, y)");
	/* no rule: the table */
	assert_int_equal(image_check(&r, "NCCL_SOCKET_IFNAME")->status, CI_OK);
	has(image_check(&r, "NCCL_SOCKET_IFNAME"), "bootstrap");
	assert_int_equal(image_check(&r, "NCCL_IB_HCA")->status, CI_OK);
	assert_int_equal(image_check(&r, "NCCL_NET_GDR_LEVEL")->status, CI_WARN);
	c = image_check(&r, "UCX_IB_GPU_DIRECT_RDMA");
	assert_int_equal(c->status, CI_WARN);
	has(c, "staged through host memory");
	report_release(&r);

	/* A pod without any RDMA device: a TCP-only value loses nothing there. */
	struct fleet_pod q;
	fleet_pod_init(&q, "z", "n", "decode", "VllmDecodeWorker");
	q.probed = true;
	q.rdma_known = true;
	q.link_layer = strdup("none");
	fleet_pod_set_env(&q, "UCX_TLS", "tcp,cuda_copy");
	report_init(&r, "all", "t");
	all_check_drift(&r, &ms, d, &q, 1);
	c = image_check(&r, "UCX_TLS");
	assert_int_equal(c->status, CI_OK);
	has(c, "has no RDMA device");
	report_release(&r);
	/* ...but one given NICs whose ports are all down still has a NIC */
	q.n_ports = 2;
	q.fabric.nics_given_down = 2;
	report_init(&r, "all", "t");
	all_check_drift(&r, &ms, d, &q, 1);
	assert_int_equal(image_check(&r, "UCX_TLS")->status, CI_WARN);
	report_release(&r);

	/* A shared RDMA namespace: sysfs lists the host's InfiniBand NICs, none
	 * given to the pod.  The fabric model (as node judges the pod) says no
	 * NIC of its own carries KV, so a TCP-only value loses nothing here;
	 * reading the link layers of sysfs instead would warn (the verbs would
	 * disagree). */
	free(q.link_layer);
	q.link_layer = strdup("InfiniBand");
	q.n_ports = 4;
	q.fabric.nics_given_down = 0;
	q.fabric.nics_not_given = 4;
	report_init(&r, "all", "t");
	all_check_drift(&r, &ms, d, &q, 1);
	assert_int_equal(image_check(&r, "UCX_TLS")->status, CI_OK);
	report_release(&r);
	q.fabric.nics_not_given = 0;

	/* MNNVL without a NIC: an image's ^cuda_ipc leaves no lane (nixl#1110) */
	free(q.link_layer);
	q.link_layer = strdup("none");
	q.n_ports = 0;
	q.fabric.nics_given_down = 0;
	q.fabric.cluster_uuid = true; /* the model's input: an NVLink domain */
	q.cluster_uuid = strdup("dc6e40c4-0000-4000-8000-000000000001");
	free(q.env[0].value);
	q.env[0].value = strdup("^cuda_ipc");
	report_init(&r, "all", "t");
	all_check_drift(&r, &ms, d, &q, 1);
	c = image_check(&r, "UCX_TLS");
	assert_int_equal(c->status, CI_WARN);
	has(c, "nixl#1110");
	report_release(&r);

	fleet_pod_release(&q);
	fleet_pod_release(&p[0]);
	fleet_pod_release(&p[1]);
	manifest_set_release(&ms);
	free(yaml);
}

/* ---- scale: the checks stay linear in the pods ----
 *
 * The test binary is linked with -Wl,--wrap=strcmp (tests/fleet/meson.build),
 * so every string comparison the checks make is counted.  A bound on that
 * count, not on time, proves the work grows with the pods: the quadratic
 * loops these checks once had (a scan of the groups, the nodes, the roles or
 * the names per pod) made 115,000 comparisons per pod on the first fleet
 * below at 20,000 pods (2.3e9 in all, growing with n); the linear ones make
 * about 30 per pod at any size. */
#include "count_strcmp.h"

#define SCALE_PODS    10000
/* comparisons per pod, over every check of one run: the linear code makes
 * 30-40 (up to LIST_MAX per by-node listing; the test prints the figure) */
#define SCALE_PER_POD 100

static size_t checks_count(struct fleet_pod *p, size_t n)
{
	struct ci_report r;
	report_init(&r, "all", "t");
	n_strcmp = 0;
	fleet_checks_run(&r, FLEET_ALL, p, n);
	size_t k = n_strcmp;
	report_release(&r);
	return k;
}

static void test_scale_linear(void **state)
{
	(void)state;
	size_t n = SCALE_PODS;
	struct fleet_pod *p = calloc(n, sizeof(*p));
	assert_non_null(p);
	/* Every pod different where a reading can differ: its own driver, role
	 * and variable, four nodes for all (long per-node lists), two rates. */
	for (size_t i = 0; i < n; i++) {
		char name[32], node[16], role[16], drv[16], var[24];
		snprintf(name, sizeof(name), "w-%zu", i);
		snprintf(node, sizeof(node), "node-%zu", i % 4);
		snprintf(role, sizeof(role), "r%zu", i);
		snprintf(drv, sizeof(drv), "535.%zu", i);
		snprintf(var, sizeof(var), "UCX_X%zu", i);
		mk(&p[i], name, node, role);
		replace(&p[i].driver, drv);
		replace(&p[i].rate, i % 2 ? "400 Gb/s" : "200 Gb/s");
		fleet_pod_set_env(&p[i], var, "1");
	}
	size_t k = checks_count(p, n);
	print_message("%zu pods, distinct values: %zu comparisons (%.1f per pod)\n", n, k,
		      (double)k / (double)n);
	assert_true(k < SCALE_PER_POD * n);

	/* EFA, every prefill pod on its own node, a decode pod beside every
	 * tenth: the placement check's per-node lists. */
	for (size_t i = 0; i < n; i++) {
		char node[16];
		snprintf(node, sizeof(node), "n%zu", i % 10 == 9 ? i - 1 : i);
		replace(&p[i].node, node);
		replace(&p[i].role, i % 10 == 9 ? "decode" : "prefill");
		p[i].efa = true;
	}
	k = checks_count(p, n);
	print_message("%zu pods on EFA, one node each: %zu comparisons (%.1f per pod)\n", n, k,
		      (double)k / (double)n);
	assert_true(k < SCALE_PER_POD * n);
	for (size_t i = 0; i < n; i++)
		fleet_pod_release(&p[i]);
	free(p);
}

/* The text report of a fleet whose every pod warns the same way (one fix,
 * 10,000 places) and fails its own way (10,000 causes): the fix-first list
 * found each place and cause with a scan of those seen, 20,015 comparisons
 * per pod at this size (and growing); with maps, 17 per pod. */
#define RENDER_PER_POD 100

static void test_render_linear(void **state)
{
	(void)state;
	size_t n = SCALE_PODS;
	struct ci_report r;
	report_init(&r, "node", "deployment d in namespace ns");
	for (size_t i = 0; i < n; i++) {
		char target[48];
		snprintf(target, sizeof(target), "pod ns/w-%zu", i);
		struct ci_report c;
		report_init(&c, "node", target);
		c.child_label = strdup(i % 2 ? "decode on n1" : "prefill on n0");
		struct ci_check *k = report_add(&c, "node.rdma.ports", CI_WARN, true,
						CI_LAYER_FABRIC, "mlx5_1", "port 1 is DOWN");
		check_set_fix(k, "bring the port up");
		report_add(&c, "node.gpudirect", CI_FAIL, true, CI_LAYER_DRIVER, NULL,
			   "no peer memory module (pod %zu)", i);
		report_add(&c, "node.gpu", CI_OK, true, CI_LAYER_DRIVER, NULL, "8 GPUs");
		report_adopt_child(&r, &c);
	}
	struct render_opts o = {.format = CI_FORMAT_TEXT, .width = 80};
	FILE *out = fopen("/dev/null", "w");
	assert_non_null(out);
	n_strcmp = 0;
	struct ci_verdict v;
	verdict_compute(&r, &v);
	fleet_render_text(out, &r, &v, &o);
	size_t k = n_strcmp;
	fclose(out);
	print_message("%zu pods, one shared and one own finding each: %zu comparisons (%.1f per "
		      "pod) to render\n",
		      n, k, (double)k / (double)n);
	assert_int_equal(v.kind, CI_BLOCKED);
	assert_true(k < RENDER_PER_POD * n);
	verdict_release(&v);
	report_release(&r);
}

/* Issue 23: the Prometheus render of the same fleet.  Its series were
 * merged with a scan of those seen per check (three strcmp per series
 * seen, 47 s of CPU at 4,000 pods); with two maps, a few per check. */
#define PROM_PER_POD 40

static void test_prometheus_linear(void **state)
{
	(void)state;
	size_t n = SCALE_PODS;
	struct ci_report r;
	report_init(&r, "node", "deployment d in namespace ns");
	for (size_t i = 0; i < n; i++) {
		char target[48];
		snprintf(target, sizeof(target), "pod ns/w-%zu", i);
		struct ci_report c;
		report_init(&c, "node", target);
		report_add(&c, "node.rdma.ports", CI_WARN, true, CI_LAYER_FABRIC, "mlx5_1",
			   "port 1 is DOWN");
		report_add(&c, "node.gpudirect", CI_FAIL, true, CI_LAYER_DRIVER, NULL,
			   "no peer memory module (pod %zu)", i);
		report_add(&c, "node.gpu", CI_OK, true, CI_LAYER_DRIVER, NULL, "8 GPUs");
		report_adopt_child(&r, &c);
	}
	struct render_opts o = {.format = CI_FORMAT_PROMETHEUS};
	FILE *out = fopen("/dev/null", "w");
	assert_non_null(out);
	struct ci_verdict v;
	verdict_compute(&r, &v);
	n_strcmp = 0;
	render_prometheus(out, &r, &v, &o);
	size_t k = n_strcmp;
	fclose(out);
	print_message("%zu pods, 3 checks each: %zu comparisons (%.1f per pod) to render "
		      "Prometheus\n",
		      n, k, (double)k / (double)n);
	assert_true(k < PROM_PER_POD * n);
	verdict_release(&v);
	report_release(&r);
}

/* all.drift over a fleet whose every pod carries a variable of its own that
 * the recipe does not set: all.drift.image grouped the names with a scan of
 * those seen per name, 15,038 comparisons per pod at this size (and growing);
 * with one map, 35. */
#define DRIFT_PER_POD 100

static void test_drift_linear(void **state)
{
	(void)state;
	size_t len, n = SCALE_PODS;
	char *yaml = tu_slurp("tests/fixtures/fleet/recipes/llm-disagg/deploy.yaml", &len);
	struct manifest_set ms;
	manifest_set_init(&ms);
	manifest_parse_bytes(&ms, "deploy.yaml", yaml, len);
	const struct deployment *d = all_pick_deployment(&ms, "llm-disagg");
	assert_non_null(d);
	struct fleet_pod *p = calloc(n, sizeof(*p));
	assert_non_null(p);
	for (size_t i = 0; i < n; i++) {
		char name[32], node[16], var[24];
		snprintf(name, sizeof(name), "w-%zu", i);
		snprintf(node, sizeof(node), "node-%zu", i);
		snprintf(var, sizeof(var), "NIXL_X%zu", i);
		fleet_pod_init(&p[i], name, node, i % 2 ? "decode" : "prefill",
			       i % 2 ? "VllmDecodeWorker" : "VllmPrefillWorker");
		p[i].probed = true;
		fleet_pod_set_env(&p[i], "UCX_TLS", "rc_x,rc,cuda_copy,cuda_ipc");
		fleet_pod_set_env(&p[i], var, "1");
	}
	struct ci_report r;
	report_init(&r, "all", "t");
	n_strcmp = 0;
	all_check_drift(&r, &ms, d, p, n);
	size_t k = n_strcmp;
	print_message("%zu pods, a variable of its own each: %zu comparisons (%.1f per pod) in "
		      "all.drift\n",
		      n, k, (double)k / (double)n);
	has(one(&r, "all.drift.image", CI_OK), "NIXL_X9999=1 (w-9999)");
	assert_true(k < DRIFT_PER_POD * n);
	report_release(&r);
	for (size_t i = 0; i < n; i++)
		fleet_pod_release(&p[i]);
	free(p);
	manifest_set_release(&ms);
	free(yaml);
}

/* A recipe that leaves every critical variable to the image: env.vars
 * warns; `all` turns it ok when the pods have them or have an RDMA NIC
 * for UCX's defaults, and keeps it, naming the pod, otherwise. */
static void test_vars_resolved_by_pods(void **state)
{
	(void)state;
	static const char yaml[] =
		"apiVersion: nvidia.com/v1alpha1\n"
		"kind: DynamoGraphDeployment\n"
		"metadata: {name: bare}\n"
		"spec:\n"
		"  backendFramework: vllm\n"
		"  services:\n"
		"    P:\n"
		"      componentType: worker\n"
		"      subComponentType: prefill\n"
		"      resources: {limits: {gpu: '1', rdma/ib: '1'}}\n"
		"      extraPodSpec:\n"
		"        mainContainer:\n"
		"          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.0\n"
		"          securityContext: {capabilities: {add: [IPC_LOCK]}}\n"
		"          command: [python3, -m, dynamo.vllm, --disaggregation-mode, prefill,\n"
		"            --kv-transfer-config, '{\"kv_connector\":\"NixlConnector\"}']\n"
		"    D:\n"
		"      componentType: worker\n"
		"      subComponentType: decode\n"
		"      resources: {limits: {gpu: '1', rdma/ib: '1'}}\n"
		"      extraPodSpec:\n"
		"        mainContainer:\n"
		"          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.0\n"
		"          securityContext: {capabilities: {add: [IPC_LOCK]}}\n"
		"          command: [python3, -m, dynamo.vllm, --disaggregation-mode, decode,\n"
		"            --kv-transfer-config, '{\"kv_connector\":\"NixlConnector\"}']\n";
	struct manifest_set ms;
	manifest_set_init(&ms);
	manifest_parse_bytes(&ms, "bare.yaml", yaml, sizeof(yaml) - 1);
	const struct deployment *d = all_pick_deployment(&ms, "bare");
	assert_non_null(d);
	struct fleet_pod p[2];
	fleet_pod_init(&p[0], "p-0", "a", "prefill", "P");
	fleet_pod_init(&p[1], "d-0", "b", "decode", "D");
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < 2; i++) {
			p[i].probed = true;
			/* round 0: the decode pod has no RDMA NIC for UCX's defaults */
			p[i].rdma_path = round == 1 || i == 0;
		}
		fleet_pod_set_env(&p[0], "UCX_TLS", "rc_x,rc,cuda_copy,cuda_ipc");
		struct ci_report r;
		report_init(&r, "all", "t");
		env_analyze(&r, &ms, "bare.yaml");
		one(&r, "env.vars", CI_WARN);
		all_check_drift(&r, &ms, d, p, 2);
		const struct ci_check *c = NULL; /* the array grew: look again */
		for (size_t k = 0; k < r.n_checks; k++)
			if (!strcmp(r.checks[k].id, "env.vars"))
				c = &r.checks[k];
		assert_non_null(c);
		if (round == 0) {
			assert_int_equal(c->status, CI_WARN);
			bool named = false;
			for (size_t k = 0; k < c->n_evidence; k++)
				named |= strstr(c->evidence[k], "pod d-0 lacks UCX_TLS") != NULL;
			assert_true(named);
		} else {
			assert_int_equal(c->status, CI_OK);
			has(c, "resolved by the pods");
			has(c, "UCX_TLS=rc_x,rc,cuda_copy,cuda_ipc in p-0");
			assert_null(c->fix);
		}
		report_release(&r);
	}
	for (size_t i = 0; i < 2; i++)
		fleet_pod_release(&p[i]);
	manifest_set_release(&ms);
}

/* The comparison table: each row's descriptor is one of fleet's, and no two
 * rows decide the same check. */
static void test_steps_table(void **state)
{
	(void)state;
	assert_true(fleet_steps_len > 0);
	for (size_t i = 0; i < fleet_steps_len; i++) {
		const struct check_desc *d = fleet_steps[i].desc;
		assert_non_null(fleet_steps[i].run);
		assert_true(d >= fleet_check_table && d < fleet_check_table + FLEET_CK_COUNT);
		for (size_t j = 0; j < i; j++)
			assert_ptr_not_equal(fleet_steps[j].desc, d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unreachable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_env_drift, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_pod_skips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_versions_backend, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rdma, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_layer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_driver_gpudirect_gdrcopy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_efa_colocated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_roce_gid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mtu_fw, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mnnvl_domain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_window_measured, setup, teardown),
		cmocka_unit_test_setup_teardown(test_checks_run_kinds, setup, teardown),
		cmocka_unit_test(test_group_of),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_pod_read),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_drift_image_judged),
		cmocka_unit_test(test_scale_linear),
		cmocka_unit_test(test_render_linear),
		cmocka_unit_test(test_prometheus_linear),
		cmocka_unit_test(test_drift_linear),
		cmocka_unit_test(test_vars_resolved_by_pods),
		cmocka_unit_test(test_steps_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
