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
#include "core/strmap.h"
#include "core/xalloc.h"
#include "fleet/fleet.h"
#include "fleet/fleet_desc.h"

/* Names listed in one detail line before "and N more". */
#define LIST_MAX 6

struct vgroup {
	char *value;
	size_t *idx; /* pods holding value, in order (at most LIST_MAX when cut) */
	size_t n_idx, cap;
	size_t n; /* pods holding value: n_idx unless the list was cut */
};

/* Readings grouped by value, in the order first seen; the index finds a
 * value's group in one step, so grouping n pods is linear, not n x groups. */
struct vgroups {
	struct vgroup *g;
	size_t n, cap;
	struct strmap ix; /* value -> its group */
};

static struct vgroup *groups_get(struct vgroups *gs, const char *value)
{
	size_t k = strmap_get(&gs->ix, value);
	if (k != STRMAP_NONE)
		return &gs->g[k];
	struct vgroup *g = XPUSH(gs->g, gs->n, gs->cap);
	memset(g, 0, sizeof(*g));
	g->value = xstrdup(value);
	strmap_put(&gs->ix, g->value, gs->n - 1);
	return g;
}

static void groups_add(struct vgroups *gs, const char *value, size_t pod)
{
	struct vgroup *g = groups_get(gs, value);
	*XPUSH(g->idx, g->n_idx, g->cap) = pod;
	g->n++;
}

static void groups_release(struct vgroups *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		free(gs->g[i].value);
		free(gs->g[i].idx);
	}
	free(gs->g);
	strmap_release(&gs->ix);
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
	for (size_t i = 0; i < g->n_idx && i < LIST_MAX; i++) {
		const struct fleet_pod *q = &p[g->idx[i]];
		strbuf_addf(b, "%s%s", i ? ", " : "", q->name);
		if (*q->role)
			strbuf_addf(b, " (%s)", q->role);
	}
	if (g->n > LIST_MAX)
		strbuf_addf(b, " and %zu more", g->n - LIST_MAX);
}

/* "node-a (p0, d0), node-b (p1)": nodes in the order first seen, each with
 * all its pods; after LIST_MAX nodes, "and more".  One pass: only the
 * nodes that are shown (and whether one more exists) are tracked. */
static void list_nodes(struct strbuf *b, const struct fleet_pod *p, const struct vgroup *g)
{
	const char *node[LIST_MAX];
	struct strbuf pods[LIST_MAX];
	size_t count[LIST_MAX], shown = 0;
	bool more = false;
	for (size_t i = 0; i < g->n_idx; i++) {
		const struct fleet_pod *q = &p[g->idx[i]];
		size_t k = 0;
		while (k < shown && strcmp(node[k], q->node))
			k++;
		if (k == shown) {
			if (shown == LIST_MAX) {
				more = true;
				continue;
			}
			node[shown] = q->node;
			count[shown] = 0;
			strbuf_init(&pods[shown]);
			shown++;
		}
		strbuf_addf(&pods[k], "%s%s", count[k]++ ? ", " : "", q->name);
	}
	for (size_t k = 0; k < shown; k++) {
		strbuf_addf(b, "%s%s (%s)", k ? ", " : "", *node[k] ? node[k] : "unscheduled",
			    pods[k].buf);
		strbuf_release(&pods[k]);
	}
	if (more)
		strbuf_addf(b, " and more");
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

/* One transport variable across the probed pods. */
struct env_name {
	const char *name; /* borrowed from the first pod that sets it */
	size_t *set;      /* the pods that set it, in order */
	size_t n_set, cap_set;
	size_t last;         /* the last pod counted: a pod's first value wins */
	struct vgroups vals; /* "NAME=VALUE", in the order first seen */
};

/* The pods that do not set e->name: how many, and the first LIST_MAX of
 * them (all that list_pods shows), found by walking the probed pods past
 * e's setters: linear in e's setters, not in the fleet. */
static void env_unset_group(const struct env_name *e, const size_t *probed, size_t np,
			    struct vgroup *u)
{
	memset(u, 0, sizeof(*u));
	u->n = np - e->n_set;
	if (!u->n)
		return;
	u->value = xasprintf("%s unset", e->name);
	for (size_t t = 0, s = 0; t < np && u->n_idx < LIST_MAX; t++) {
		if (s < e->n_set && e->set[s] == probed[t])
			s++;
		else
			*XPUSH(u->idx, u->n_idx, u->cap) = probed[t];
	}
}

static void env_name_report(struct ci_report *r, const struct fleet_pod *p, struct env_name *e,
			    const size_t *probed, size_t np, size_t *drifted)
{
	struct vgroup u;
	env_unset_group(e, probed, np, &u);
	size_t ng = e->vals.n + (u.n > 0);
	if (ng > 1) {
		/* The groups in the order their first pod comes (the "unset"
		 * one among them), as one scan over the pods would meet them. */
		struct vgroup *v = xcalloc(ng, sizeof(*v));
		size_t k = 0;
		for (size_t i = 0; i < e->vals.n; i++) {
			if (u.n && k == i && u.idx[0] < e->vals.g[i].idx[0])
				v[k++] = u;
			v[k++] = e->vals.g[i];
		}
		if (k < ng)
			v[k++] = u;
		struct vgroups view = {.g = v, .n = ng};
		(*drifted)++;
		bool crit = fleet_var_must_match(e->name);
		struct strbuf b = STRBUF_INIT;
		strbuf_addf(&b, "the pods disagree: ");
		describe(&b, p, &view, false, "", "");
		if (crit)
			strbuf_addf(&b, "; both ends of a KV transfer must agree on it");
		struct ci_check *c =
			report_check_as(r, FLEET_CHECK(ENV_DRIFT), crit ? CI_FAIL : CI_WARN, crit,
					CI_LAYER_ENV, e->name, "%s", b.buf);
		check_set_fix(c,
			      "set %s once for every worker (the deployment's spec env), "
			      "not per service or per image",
			      e->name);
		strbuf_release(&b);
		free(v);
	}
	free(u.value);
	free(u.idx);
}

void fleet_check_env_drift(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	size_t known = n_probed(p, n);
	if (too_few(r, FLEET_CHECK(ENV_DRIFT), "environment", "the transport environment", known))
		return;
	/* One pass over every (pod, variable): each name any probed pod sets,
	 * in the order first seen, with its setters and its values.  A pod
	 * that does not set a name is in its "unset" group, which is derived
	 * from the setters (a scan of every pod for every name would be
	 * quadratic when the pods set different names). */
	struct strmap ix;
	strmap_init(&ix);
	struct env_name *nm = NULL;
	size_t nn = 0, cap = 0, np = 0;
	size_t *probed = xcalloc(known, sizeof(*probed));
	for (size_t i = 0; i < n; i++) {
		if (!p[i].probed)
			continue;
		probed[np++] = i;
		for (size_t j = 0; j < p[i].n_env; j++) {
			const struct fleet_var *fv = &p[i].env[j];
			size_t k = strmap_put(&ix, fv->name, nn);
			if (k == nn) {
				struct env_name *fresh = XPUSH(nm, nn, cap);
				memset(fresh, 0, sizeof(*fresh));
				fresh->name = fv->name;
				fresh->last = SIZE_MAX;
			}
			struct env_name *e = &nm[k];
			if (e->last == i)
				continue; /* the name again in one pod: its first value counts */
			e->last = i;
			if (!fv->value)
				continue; /* no value: the pod counts as not setting it */
			*XPUSH(e->set, e->n_set, e->cap_set) = i;
			char *q = xasprintf("%s=%s", fv->name, fv->value);
			groups_add(&e->vals, q, i);
			free(q);
		}
	}
	size_t drifted = 0;
	for (size_t k = 0; k < nn; k++) {
		env_name_report(r, p, &nm[k], probed, np, &drifted);
		free(nm[k].set);
		groups_release(&nm[k].vals);
	}
	if (!drifted && nn)
		report_check(r, FLEET_CHECK(ENV_DRIFT), CI_OK, "environment",
			     "all %zu probed pods set the same %zu transport variable%s", known, nn,
			     nn == 1 ? "" : "s");
	else if (!drifted)
		report_check(r, FLEET_CHECK(ENV_DRIFT), CI_OK, "environment",
			     "no probed pod sets a transport variable (all %zu agree)", known);
	free(nm);
	free(probed);
	strmap_release(&ix);
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
	/* Each role's pods grouped by count, roles in the order first seen:
	 * one pass, the roles found through an index. */
	struct strmap ix;
	strmap_init(&ix);
	struct vgroups *roles = NULL;
	size_t *first = NULL; /* each role's first pod */
	size_t nr = 0, cap = 0, cap_first = 0, n_first = 0;
	for (size_t j = 0; j < n; j++) {
		if (!p[j].probed || p[j].n_gpus < 0)
			continue;
		size_t k = strmap_put(&ix, p[j].role, nr);
		if (k == nr) {
			memset(XPUSH(roles, nr, cap), 0, sizeof(*roles));
			*XPUSH(first, n_first, cap_first) = j;
		}
		char v[32];
		snprintf(v, sizeof(v), "%d", p[j].n_gpus);
		groups_add(&roles[k], v, j);
	}
	bool differ = false;
	struct strbuf b = STRBUF_INIT;
	for (size_t k = 0; k < nr; k++) {
		if (roles[k].n > 1) {
			const char *role = p[first[k]].role;
			if (differ)
				strbuf_addf(&b, "; ");
			differ = true;
			strbuf_addf(&b, "%s pods see different GPU counts: ",
				    *role ? role : "unlabelled");
			describe(&b, p, &roles[k], true, "", " GPUs");
		}
		groups_release(&roles[k]);
	}
	free(roles);
	free(first);
	strmap_release(&ix);
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
		"UCX takes a different registration path on each side (DMA-BUF or peermem), "
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

static const char *get_mtu(const struct fleet_pod *p, char *b, size_t l)
{
	(void)b, (void)l;
	return p->mtu;
}

void fleet_check_rdma_mtu(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	/* UCX (uct_ib_address_pack: the path MTU travels in the address) and
	 * NCCL (net_ib: the smaller of both ends' active_mtu) connect at the
	 * smaller MTU: the mismatch costs the larger side, and names a netdev
	 * or switch MTU that differs. */
	static const struct cmp_spec s = {
		FLEET_CHECK(RDMA_MTU),
		"RoCE MTU",
		"the RoCE data ports' active MTU",
		get_mtu,
		true,
		CI_WARN,
		"active_mtu ",
		"",
		"every RoCE data port runs active_mtu %s",
		"UCX and NCCL connect two ports at the smaller MTU, so the nodes with the larger one "
		"run at the smaller; a netdev or switch MTU differs",
		"set one MTU on every node's RoCE interfaces and their switch ports (netdev MTU 9000 "
		"for active_mtu 4096)",
	};
	compare(r, p, n, &s);
}

static const char *get_fw(const struct fleet_pod *p, char *b, size_t l)
{
	(void)b, (void)l;
	return p->fw;
}

void fleet_check_nic_fw(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	static const struct cmp_spec s = {
		FLEET_CHECK(NIC_FW),
		"NIC firmware",
		"the data NICs' firmware",
		get_fw,
		true,
		CI_WARN,
		"",
		"",
		"every node's data NICs run %s",
		"NICs of one fabric on different firmware differ in RoCE/congestion defaults and "
		"known bugs",
		"flash the data NICs of every node to one firmware release (mlxfwmanager; the NIC "
		"firmware shipped with one DOCA/MLNX_OFED release)",
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
	/* Placement is known for every listed pod, probed or not.  The nodes
	 * that run a prefill pod, in the order first seen, each with its
	 * prefill and decode pods: two passes through an index of nodes. */
	struct colo {
		const char *node;
		struct strbuf pre, dec;
		size_t nd;
	} *cn = NULL;
	size_t ncn = 0, cap = 0;
	struct strmap ix;
	strmap_init(&ix);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(p[i].role, "prefill") || !*p[i].node)
			continue;
		if (strmap_put(&ix, p[i].node, ncn) == ncn) {
			struct colo *c = XPUSH(cn, ncn, cap);
			c->node = p[i].node;
			strbuf_init(&c->pre);
			strbuf_init(&c->dec);
			c->nd = 0;
		}
	}
	for (size_t j = 0; j < n && ncn; j++) {
		bool pre = !strcmp(p[j].role, "prefill"),
		     dec = !pre && !strcmp(p[j].role, "decode");
		size_t k = pre || dec ? strmap_get(&ix, p[j].node) : STRMAP_NONE;
		if (k == STRMAP_NONE)
			continue;
		if (pre) {
			strbuf_joinstr(&cn[k].pre, ", ", p[j].name);
		} else {
			cn[k].nd++;
			strbuf_joinstr(&cn[k].dec, ", ", p[j].name);
		}
	}
	size_t bad = 0;
	for (size_t k = 0; k < ncn; k++) {
		if (cn[k].nd) {
			bad++;
			struct ci_check *c = report_check(
				r, FLEET_CHECK(EFA_COLOCATED), CI_FAIL, cn[k].node,
				"prefill %s and decode %s run on the same node: EFA moves data between "
				"nodes only, so their KV transfers retry with EAGAIN and never complete",
				cn[k].pre.buf, cn[k].dec.buf);
			check_set_fix(
				c, "add pod anti-affinity between the prefill and decode workers "
				   "(topologyKey kubernetes.io/hostname)");
		}
		strbuf_release(&cn[k].pre);
		strbuf_release(&cn[k].dec);
	}
	free(cn);
	strmap_release(&ix);
	if (!bad)
		report_check(r, FLEET_CHECK(EFA_COLOCATED), CI_OK, "placement",
			     "EFA fabric: no node runs both a prefill and a decode pod");
}

/* The comparison checks in their run order: one row per check function,
 * with its descriptor and the fleet runs it belongs to (NIXL's readings in
 * nixl and all runs, the hardware's in node and all runs).  Adding a
 * comparison is a descriptor row in fleet_desc.c, a function, and a row
 * here. */
const struct fleet_step fleet_steps[] = {
	{FLEET_CHECK(UNREACHABLE), fleet_check_unreachable, FLEET_ANY},
	{FLEET_CHECK(ENV_DRIFT), fleet_check_env_drift, FLEET_ANY},
	{FLEET_CHECK(BACKEND), fleet_check_backend, FLEET_NX},
	{FLEET_CHECK(UCX_VERSION), fleet_check_ucx_version, FLEET_NX},
	{FLEET_CHECK(NIXL_VERSION), fleet_check_nixl_version, FLEET_NX},
	{FLEET_CHECK(LINK_LAYER), fleet_check_link_layer, FLEET_HW},
	{FLEET_CHECK(RDMA_PORTS), fleet_check_rdma_ports, FLEET_HW},
	{FLEET_CHECK(RDMA_RATE), fleet_check_rdma_rate, FLEET_HW},
	{FLEET_CHECK(GPUDIRECT_MODE), fleet_check_gpudirect_mode, FLEET_HW},
	{FLEET_CHECK(GDRCOPY), fleet_check_gdrcopy, FLEET_HW},
	{FLEET_CHECK(DRIVER), fleet_check_driver, FLEET_HW},
	{FLEET_CHECK(GPUS), fleet_check_gpus, FLEET_HW},
	{FLEET_CHECK(ROCE_GID), fleet_check_roce_gid, FLEET_HW},
	{FLEET_CHECK(RDMA_MTU), fleet_check_rdma_mtu, FLEET_HW},
	{FLEET_CHECK(NIC_FW), fleet_check_nic_fw, FLEET_HW},
	{FLEET_CHECK(MNNVL_DOMAIN), fleet_check_mnnvl_domain, FLEET_HW},
	{FLEET_CHECK(EFA_COLOCATED), fleet_check_efa_colocated, FLEET_ANY},
};
const size_t fleet_steps_len = sizeof(fleet_steps) / sizeof(fleet_steps[0]);

void fleet_checks_run(struct ci_report *r, enum fleet_kind kind, const struct fleet_pod *p,
		      size_t n)
{
	bool hw = kind == FLEET_NODE || kind == FLEET_ALL;
	bool nx = kind == FLEET_NIXL || kind == FLEET_ALL;
	for (size_t i = 0; i < fleet_steps_len; i++) {
		const struct fleet_step *s = &fleet_steps[i];
		if (s->runs == FLEET_ANY || (s->runs == FLEET_NX && nx) ||
		    (s->runs == FLEET_HW && hw))
			s->run(r, p, n);
	}
}
