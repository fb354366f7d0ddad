/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet checks: what no single-pod look can see.  Pure functions from the
 * per-pod summaries to checks (fleet_desc.c).  Each compares one reading across
 * the pods that could be read; pods whose reading is unknown are left out of
 * the comparison (fleet.unreachable and the pods' own checks say why), and a
 * comparison over fewer than two pods is `skipped` (nothing to compare),
 * never a pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "fleet/fleet.h"
#include "fleet/fleet_desc.h"

/* Names listed in one detail line before "and N more". */
#define LIST_MAX 6

struct vgroup {
	char *value;
	size_t *idx; /* pods holding value */
	size_t n, cap;
};

struct vgroups {
	struct vgroup *g;
	size_t n, cap;
};

static void groups_add(struct vgroups *gs, const char *value, size_t pod)
{
	struct vgroup *g = NULL;
	for (size_t i = 0; i < gs->n; i++)
		if (!strcmp(gs->g[i].value, value))
			g = &gs->g[i];
	if (!g) {
		g = XPUSH(gs->g, gs->n, gs->cap);
		memset(g, 0, sizeof(*g));
		g->value = xstrdup(value);
	}
	*XPUSH(g->idx, g->n, g->cap) = pod;
}

static void groups_release(struct vgroups *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		free(gs->g[i].value);
		free(gs->g[i].idx);
	}
	free(gs->g);
	memset(gs, 0, sizeof(*gs));
}

static size_t groups_total(const struct vgroups *gs)
{
	size_t t = 0;
	for (size_t i = 0; i < gs->n; i++)
		t += gs->g[i].n;
	return t;
}

/* "p0 (prefill), d0 (decode)" */
static void list_pods(struct strbuf *b, const struct fleet_pod *p, const struct vgroup *g)
{
	for (size_t i = 0; i < g->n && i < LIST_MAX; i++) {
		const struct fleet_pod *q = &p[g->idx[i]];
		strbuf_addf(b, "%s%s", i ? ", " : "", q->name);
		if (*q->role)
			strbuf_addf(b, " (%s)", q->role);
	}
	if (g->n > LIST_MAX)
		strbuf_addf(b, " and %zu more", g->n - LIST_MAX);
}

/* "node-a (p0, d0), node-b (p1)": nodes, each with its pods. */
static void list_nodes(struct strbuf *b, const struct fleet_pod *p, const struct vgroup *g)
{
	size_t shown = 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct fleet_pod *q = &p[g->idx[i]];
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(p[g->idx[j]].node, q->node);
		if (seen)
			continue;
		if (shown == LIST_MAX) {
			strbuf_addf(b, " and more");
			break;
		}
		strbuf_addf(b, "%s%s (", shown ? ", " : "", *q->node ? q->node : "unscheduled");
		size_t k = 0;
		for (size_t j = i; j < g->n; j++)
			if (!strcmp(p[g->idx[j]].node, q->node))
				strbuf_addf(b, "%s%s", k++ ? ", " : "", p[g->idx[j]].name);
		strbuf_addf(b, ")");
		shown++;
	}
}

/* "VALUE on LIST; VALUE on LIST" */
static void describe(struct strbuf *b, const struct fleet_pod *p, const struct vgroups *gs,
		     bool by_node, const char *prefix, const char *suffix)
{
	for (size_t i = 0; i < gs->n; i++) {
		strbuf_addf(b, "%s%s%s%s on ", i ? "; " : "", prefix, gs->g[i].value, suffix);
		if (by_node)
			list_nodes(b, p, &gs->g[i]);
		else
			list_pods(b, p, &gs->g[i]);
	}
}

static size_t n_probed(const struct fleet_pod *p, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += p[i].probed;
	return k;
}

/* Skip a comparison that has fewer than two readings. */
static bool too_few(struct ci_report *r, const struct check_desc *ck, const char *subject,
		    const char *what, size_t known)
{
	if (known >= 2)
		return false;
	/* Layer tuning whatever the check's own: one pod is no fleet, so
	 * this skip never ranks in fix_first. */
	report_check_as(r, ck, CI_SKIPPED, false, CI_LAYER_TUNING, subject,
			"%s known for %zu pod%s: nothing to compare", what, known,
			known == 1 ? "" : "s");
	return true;
}

void fleet_check_unreachable(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	size_t bad = n - n_probed(p, n);
	if (!n)
		return;
	if (!bad) {
		report_check(r, FLEET_CHECK(UNREACHABLE), CI_OK, "pods",
			     "all %zu worker pod%s answered the probe", n, n == 1 ? "" : "s");
		return;
	}
	struct strbuf b = STRBUF_INIT, names = STRBUF_INIT;
	size_t k = 0, timed = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i].probed)
			continue;
		timed += p[i].timed_out;
		if (k < LIST_MAX)
			strbuf_joinstr(&names, ", ", p[i].name);
		else if (k == LIST_MAX)
			strbuf_addf(&names, " and more");
		k++;
	}
	strbuf_addf(&b,
		    "%zu of %zu worker pods could not be probed (%zu timed out): %s; a worker "
		    "that was not seen cannot be trusted",
		    bad, n, timed, names.buf);
	struct ci_check *c =
		report_check(r, FLEET_CHECK(UNREACHABLE), CI_SKIPPED, "pods", "%s", b.buf);
	for (size_t i = 0; i < n; i++)
		if (!p[i].probed)
			check_add_evidence(c, "%s: %s", p[i].name,
					   p[i].unreachable ? p[i].unreachable : "not probed");
	check_set_fix(
		c,
		timed ? "look at the pods that did not answer (kubectl describe pod), or "
			"raise --timeout (or --deadline, when given), and run again"
		      : "give access to pods/exec in the namespace or fix the pods, and run again");
	strbuf_release(&b);
	strbuf_release(&names);
}

bool fleet_var_must_match(const char *name)
{
	static const char *const exact[] = {
		"UCX_TLS",
		"UCX_IB_ADDR_TYPE",
		"UCX_RNDV_SCHEME",
		"UCX_CUDA_IPC_ENABLE_MNNVL",
		"UCX_IB_GPU_DIRECT_RDMA",
		"UCX_RNDV_THRESH",
		"FI_PROVIDER",
		"FI_HMEM",
		"FI_EFA_USE_DEVICE_RDMA",
		"SGLANG_DISAGGREGATION_NIXL_BACKEND",
		"SGLANG_DISAGGREGATION_TRANSFER_BACKEND",
		"TRTLLM_NIXL_KVCACHE_BACKEND",
		"DYN_KVBM_NIXL_BACKEND_UCX",
		"DYN_KVBM_NIXL_BACKEND_LIBFABRIC",
		NULL,
	};
	for (size_t i = 0; exact[i]; i++)
		if (!strcmp(name, exact[i]))
			return true;
	return false;
}

void fleet_check_env_drift(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	size_t known = n_probed(p, n);
	if (too_few(r, FLEET_CHECK(ENV_DRIFT), "environment", "the transport environment", known))
		return;
	/* Every name any probed pod sets, in the order first seen. */
	const char **names = NULL;
	size_t nn = 0, cap = 0;
	for (size_t i = 0; i < n; i++) {
		if (!p[i].probed)
			continue;
		for (size_t j = 0; j < p[i].n_env; j++) {
			bool seen = false;
			for (size_t k = 0; k < nn && !seen; k++)
				seen = !strcmp(names[k], p[i].env[j].name);
			if (!seen)
				*XPUSH(names, nn, cap) = p[i].env[j].name;
		}
	}
	size_t drifted = 0;
	for (size_t k = 0; k < nn; k++) {
		struct vgroups gs = {0};
		for (size_t i = 0; i < n; i++) {
			if (!p[i].probed)
				continue;
			const char *v = fleet_pod_env(&p[i], names[k]);
			char *q = v ? xasprintf("%s=%s", names[k], v)
				    : xasprintf("%s unset", names[k]);
			groups_add(&gs, q, i);
			free(q);
		}
		if (gs.n > 1) {
			drifted++;
			bool crit = fleet_var_must_match(names[k]);
			struct strbuf b = STRBUF_INIT;
			strbuf_addf(&b, "the pods disagree: ");
			describe(&b, p, &gs, false, "", "");
			if (crit)
				strbuf_addf(&b, "; both ends of a KV transfer must agree on it");
			struct ci_check *c =
				report_check_as(r, FLEET_CHECK(ENV_DRIFT), crit ? CI_FAIL : CI_WARN,
						crit, CI_LAYER_ENV, names[k], "%s", b.buf);
			check_set_fix(c,
				      "set %s once for every worker (the deployment's spec env), "
				      "not per service or per image",
				      names[k]);
			strbuf_release(&b);
		}
		groups_release(&gs);
	}
	if (!drifted && nn)
		report_check(r, FLEET_CHECK(ENV_DRIFT), CI_OK, "environment",
			     "all %zu probed pods set the same %zu transport variable%s", known, nn,
			     nn == 1 ? "" : "s");
	else if (!drifted)
		report_check(r, FLEET_CHECK(ENV_DRIFT), CI_OK, "environment",
			     "no probed pod sets a transport variable (all %zu agree)", known);
	free(names);
}

typedef const char *(*getter)(const struct fleet_pod *p, char *buf, size_t len);

/* Group the probed pods by a reading; returns how many had one. */
static size_t group_pods(const struct fleet_pod *p, size_t n, getter get, struct vgroups *gs)
{
	for (size_t i = 0; i < n; i++) {
		if (!p[i].probed)
			continue;
		char buf[64];
		const char *v = get(&p[i], buf, sizeof(buf));
		if (v)
			groups_add(gs, v, i);
	}
	return groups_total(gs);
}

struct cmp_spec {
	const struct check_desc *ck;
	const char *subject, *what; /* what: "the UCX version" */
	getter get;
	bool by_node;
	enum ci_status differ;
	const char *prefix, *suffix; /* around each value in the detail */
	const char *same;            /* detail when equal: "%s" gets the value */
	const char *why;             /* appended when they differ */
	const char *fix;
};

static void compare(struct ci_report *r, const struct fleet_pod *p, size_t n,
		    const struct cmp_spec *s)
{
	struct vgroups gs = {0};
	size_t known = group_pods(p, n, s->get, &gs);
	if (too_few(r, s->ck, s->subject, s->what, known)) {
		groups_release(&gs);
		return;
	}
	struct strbuf b = STRBUF_INIT;
	if (gs.n == 1) {
		/* `same` holds one "%s" for the value (not used as a format). */
		const char *at = strstr(s->same, "%s");
		if (at)
			strbuf_addf(&b, "%.*s%s%s", (int)(at - s->same), s->same, gs.g[0].value,
				    at + 2);
		else
			strbuf_addf(&b, "%s", s->same);
		strbuf_addf(&b, " (%zu pods)", known);
		report_check(r, s->ck, CI_OK, s->subject, "%s", b.buf);
	} else {
		strbuf_addf(&b, "%s differs: ", s->what);
		describe(&b, p, &gs, s->by_node, s->prefix, s->suffix);
		if (s->why)
			strbuf_addf(&b, "; %s", s->why);
		struct ci_check *c = report_check(r, s->ck, s->differ, s->subject, "%s", b.buf);
		check_set_fix(c, "%s", s->fix);
	}
	strbuf_release(&b);
	groups_release(&gs);
}

static const char *get_ucx(const struct fleet_pod *p, char *b, size_t l)
{
	(void)b, (void)l;
	return p->ucx_version;
}

void fleet_check_ucx_version(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	static const struct cmp_spec s = {
		FLEET_CHECK(UCX_VERSION),
		"UCX",
		"the UCX version",
		get_ucx,
		false,
		CI_WARN,
		"UCX ",
		"",
		"every pod runs UCX %s",
		"NIXL on one side may reject or mis-handle the other side's UCX (\"UCX version is "
		"incompatible\")",
		"run prefill and decode from one image (one UCX build)",
	};
	compare(r, p, n, &s);
}

static const char *get_nixl(const struct fleet_pod *p, char *b, size_t l)
{
	(void)b, (void)l;
	return p->nixl_version;
}

void fleet_check_nixl_version(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	static const struct cmp_spec s = {
		FLEET_CHECK(NIXL_VERSION),
		"NIXL",
		"the NIXL version",
		get_nixl,
		false,
		CI_WARN,
		"NIXL ",
		"",
		"every pod runs NIXL %s",
		"NIXL agents exchange serialized metadata, which is not promised to be compatible "
		"across versions",
		"run prefill and decode from one image (one NIXL build)",
	};
	compare(r, p, n, &s);
}

static const char *get_backend(const struct fleet_pod *p, char *b, size_t l)
{
	(void)b, (void)l;
	return p->backend;
}

void fleet_check_backend(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	static const struct cmp_spec s = {
		FLEET_CHECK(BACKEND),
		"NIXL backend",
		"the NIXL backend",
		get_backend,
		false,
		CI_FAIL,
		"",
		"",
		"every pod uses the %s backend",
		"NIXL agents on different backends share no transport: KV transfers fail",
		"select one backend for every worker (the engine's KV connector config or the "
		"backend variable, in the deployment's spec env)",
	};
	compare(r, p, n, &s);
}

static const char *get_ports(const struct fleet_pod *p, char *b, size_t l)
{
	if (!p->rdma_known)
		return NULL;
	snprintf(b, l, "%d", p->n_active);
	return b;
}

void fleet_check_rdma_ports(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	static const struct cmp_spec s = {
		FLEET_CHECK(RDMA_PORTS),
		"RDMA ports",
		"the number of active RDMA ports",
		get_ports,
		true,
		CI_WARN,
		"",
		" active",
		"every node has %s active RDMA ports",
		"the side with fewer rails moves KV slower, and a missing port may be down",
		"bring the missing ports up (node.rdma.ports names them) or give every worker the "
		"same NICs",
	};
	compare(r, p, n, &s);
}

static const char *get_rate(const struct fleet_pod *p, char *b, size_t l)
{
	(void)b, (void)l;
	return p->rdma_known && p->n_active ? p->rate : NULL;
}

void fleet_check_rdma_rate(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	static const struct cmp_spec s = {
		FLEET_CHECK(RDMA_RATE),
		"RDMA rate",
		"the RDMA link rate",
		get_rate,
		true,
		CI_WARN,
		"",
		"",
		"every node's active RDMA ports run at %s",
		"a transfer runs at the slower side's rate",
		"look for ports that trained down (cables, switch ports) on the slower nodes",
	};
	compare(r, p, n, &s);
}

static const char *get_ll(const struct fleet_pod *p, char *b, size_t l)
{
	(void)b, (void)l;
	return p->rdma_known && p->link_layer && strcmp(p->link_layer, "none") ? p->link_layer
									       : NULL;
}

static bool ll_share(const char *a, const char *b)
{
	for (const char *p = a; *p;) {
		size_t n = strcspn(p, "+");
		for (const char *q = b; *q;) {
			size_t m = strcspn(q, "+");
			if (n == m && !strncmp(p, q, n))
				return true;
			q += m + (q[m] != '\0');
		}
		p += n + (p[n] != '\0');
	}
	return false;
}

void fleet_check_link_layer(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	struct vgroups gs = {0};
	size_t known = group_pods(p, n, get_ll, &gs);
	bool disjoint = false;
	for (size_t i = 0; i < gs.n; i++)
		for (size_t j = i + 1; j < gs.n; j++)
			disjoint |= !ll_share(gs.g[i].value, gs.g[j].value);
	groups_release(&gs);
	(void)known;
	/* Nodes that share no link layer cannot do RDMA with each other at all
	 * (InfiniBand does not talk to RoCE); a partial overlap still works. */
	struct cmp_spec s = {
		FLEET_CHECK(LINK_LAYER),
		"link layer",
		"the RDMA link layer",
		get_ll,
		true,
		disjoint ? CI_FAIL : CI_WARN,
		"",
		"",
		"every node's active RDMA ports are %s",
		disjoint
			? "some nodes share no link layer, so RDMA between them is impossible"
			: "the nodes share a link layer, but UCX may pick a port the peer cannot reach",
		"run prefill and decode on nodes of one fabric, and pin UCX_NET_DEVICES to its ports",
	};
	compare(r, p, n, &s);
}

static const char *get_gpus(const struct fleet_pod *p, char *b, size_t l)
{
	if (p->n_gpus < 0)
		return NULL;
	snprintf(b, l, "%d", p->n_gpus);
	return b;
}

void fleet_check_gpus(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	/* Prefill and decode may legitimately use different parallelism, so
	 * only pods of the same role are expected to see the same GPUs. */
	struct vgroups all = {0};
	size_t known = group_pods(p, n, get_gpus, &all);
	if (too_few(r, FLEET_CHECK(GPUS), "GPUs", "the GPU count", known)) {
		groups_release(&all);
		return;
	}
	bool differ = false;
	struct strbuf b = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (!p[i].probed || p[i].n_gpus < 0)
			continue;
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = !(p[j].probed && p[j].n_gpus >= 0 && !strcmp(p[j].role, p[i].role));
		if (!first)
			continue;
		struct vgroups gs = {0};
		for (size_t j = i; j < n; j++)
			if (p[j].probed && p[j].n_gpus >= 0 && !strcmp(p[j].role, p[i].role)) {
				char v[32];
				snprintf(v, sizeof(v), "%d", p[j].n_gpus);
				groups_add(&gs, v, j);
			}
		if (gs.n > 1) {
			if (differ)
				strbuf_addf(&b, "; ");
			differ = true;
			strbuf_addf(&b, "%s pods see different GPU counts: ",
				    *p[i].role ? p[i].role : "unlabelled");
			describe(&b, p, &gs, true, "", " GPUs");
		}
		groups_release(&gs);
	}
	if (differ) {
		struct ci_check *c =
			report_check(r, FLEET_CHECK(GPUS), CI_WARN, "GPUs",
				     "%s; replicas of one role should be alike", b.buf);
		check_set_fix(c, "look for GPUs missing on those nodes (nvidia-smi, the device "
				 "plugin's allocatable count)");
	} else {
		strbuf_addf(&b, "each role sees one GPU count: ");
		describe(&b, p, &all, false, "", " GPUs");
		report_check(r, FLEET_CHECK(GPUS), CI_OK, "GPUs", "%s", b.buf);
	}
	strbuf_release(&b);
	groups_release(&all);
}

static const char *get_driver(const struct fleet_pod *p, char *b, size_t l)
{
	(void)b, (void)l;
	return p->driver;
}

void fleet_check_driver(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	static const struct cmp_spec s = {
		FLEET_CHECK(DRIVER),
		"NVIDIA driver",
		"the NVIDIA driver version",
		get_driver,
		true,
		CI_WARN,
		"",
		"",
		"every node runs NVIDIA driver %s",
		"nodes on different drivers behave differently (GPUDirect, DMA-BUF, fabric manager)",
		"roll the nodes to one driver version",
	};
	compare(r, p, n, &s);
}

static const char *get_gdr(const struct fleet_pod *p, char *b, size_t l)
{
	(void)b, (void)l;
	return p->gpudirect;
}

void fleet_check_gpudirect_mode(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	static const struct cmp_spec s = {
		FLEET_CHECK(GPUDIRECT_MODE),
		"GPUDirect RDMA",
		"the GPUDirect RDMA mode",
		get_gdr,
		true,
		CI_WARN,
		"",
		"",
		"every node provides GPUDirect RDMA through %s",
		"UCX takes a different registration path on each side (DMA-BUF needs UCX >= 1.14), "
		"and a node without it stages KV through host memory",
		"use one GPUDirect mode on every node (nvidia_peermem loaded everywhere, or the open "
		"kernel module with DMA-BUF everywhere)",
	};
	compare(r, p, n, &s);
}

static const char *get_gdrcopy(const struct fleet_pod *p, char *b, size_t l)
{
	(void)b, (void)l;
	return p->gdrcopy < 0 ? NULL : p->gdrcopy ? "usable" : "not usable";
}

void fleet_check_gdrcopy(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	static const struct cmp_spec s = {
		FLEET_CHECK(GDRCOPY),
		"GDRCopy",
		"GDRCopy",
		get_gdrcopy,
		true,
		CI_WARN,
		"GDRCopy ",
		"",
		"GDRCopy is %s on every node",
		"small transfers are slower on the pods without it",
		"load gdrdrv and expose /dev/gdrdrv on every node, or on none",
	};
	compare(r, p, n, &s);
}

void fleet_check_efa_colocated(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	bool efa = false;
	for (size_t i = 0; i < n; i++)
		efa |= p[i].probed && p[i].efa;
	if (!efa) {
		report_na(r, FLEET_CHECK(EFA_COLOCATED), "placement",
			  "not an EFA fabric: prefill and decode may share a node");
		return;
	}
	/* Placement is known for every listed pod, probed or not. */
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(p[i].role, "prefill") || !*p[i].node)
			continue;
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = !(!strcmp(p[j].role, "prefill") && !strcmp(p[j].node, p[i].node));
		if (!first)
			continue;
		struct strbuf pre = STRBUF_INIT, dec = STRBUF_INIT;
		size_t nd = 0;
		for (size_t j = 0; j < n; j++) {
			if (strcmp(p[j].node, p[i].node))
				continue;
			if (!strcmp(p[j].role, "prefill")) {
				strbuf_joinstr(&pre, ", ", p[j].name);
			} else if (!strcmp(p[j].role, "decode")) {
				nd++;
				strbuf_joinstr(&dec, ", ", p[j].name);
			}
		}
		if (nd) {
			bad++;
			struct ci_check *c = report_check(
				r, FLEET_CHECK(EFA_COLOCATED), CI_FAIL, p[i].node,
				"prefill %s and decode %s run on the same node: EFA moves data between "
				"nodes only, so their KV transfers retry with EAGAIN and never complete",
				pre.buf, dec.buf);
			check_set_fix(
				c, "add pod anti-affinity between the prefill and decode workers "
				   "(topologyKey kubernetes.io/hostname)");
		}
		strbuf_release(&pre);
		strbuf_release(&dec);
	}
	if (!bad)
		report_check(r, FLEET_CHECK(EFA_COLOCATED), CI_OK, "placement",
			     "EFA fabric: no node runs both a prefill and a decode pod");
}

void fleet_checks_run(struct ci_report *r, enum fleet_kind kind, const struct fleet_pod *p,
		      size_t n)
{
	bool hw = kind == FLEET_NODE || kind == FLEET_ALL;
	bool nx = kind == FLEET_NIXL || kind == FLEET_ALL;
	fleet_check_unreachable(r, p, n);
	fleet_check_env_drift(r, p, n);
	if (nx) {
		fleet_check_backend(r, p, n);
		fleet_check_ucx_version(r, p, n);
		fleet_check_nixl_version(r, p, n);
	}
	if (hw) {
		fleet_check_link_layer(r, p, n);
		fleet_check_rdma_ports(r, p, n);
		fleet_check_rdma_rate(r, p, n);
		fleet_check_gpudirect_mode(r, p, n);
		fleet_check_gdrcopy(r, p, n);
		fleet_check_driver(r, p, n);
		fleet_check_gpus(r, p, n);
	}
	fleet_check_efa_colocated(r, p, n);
	fleet_check_live(r, p, n);
}
