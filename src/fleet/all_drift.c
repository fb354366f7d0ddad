/* SPDX-License-Identifier: Apache-2.0 */
/*
 * all.drift.*: the recipe that was reviewed (env) against the pods that run.
 * Pods are matched to recipe services by the operator's
 * nvidia.com/dynamo-component label (= the service name), else by role when
 * one service has it.  Two directions:
 *   all.drift.recipe  a transport variable the recipe sets that a pod lacks
 *                     or has with another value: the review does not describe
 *                     what runs (warn);
 *   all.drift.image   one a pod has that the recipe does not set, i.e. baked
 *                     into the image or injected by the platform.  When it
 *                     chooses the transport (UCX_TLS, UCX_NET_DEVICES,
 *                     backend selectors...) the recipe review could not see
 *                     it, and this is how images break transports (an image
 *                     baking UCX_TLS=^cuda_ipc broke GB200, ai-dynamo/nixl#1110),
 *                     so its value is judged on each pod's own hardware by
 *                     the value rules node applies (env_varrules.h): ok when
 *                     right, a warn quoting the rule when not; the variables
 *                     no rule reads follow image_notes[] and judge_by_table().
 *                     Other variables are one ok note: images legitimately
 *                     carry defaults (NCCL_VERSION, NIXL_PLUGIN_DIR), and
 *                     warning on them would make every run `degraded`.
 * The env.vars warning for variables left to the image is resolved by the
 * same judgement (resolve_vars).
 * Pure: no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/redact.h"
#include "core/strbuf.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "fleet/fleet.h"
#include "env/env_analyze.h"
#include "env/env_varrules.h"
#include "fleet/fleet_desc.h"

const struct deployment *all_pick_deployment(const struct manifest_set *ms, const char *dgd)
{
	const struct deployment *only = NULL;
	size_t n_dgd = 0;
	for (size_t i = 0; i < ms->n_deps; i++) {
		const struct deployment *d = &ms->deps[i];
		bool is_dgd = d->kind && !strcmp(d->kind, "DynamoGraphDeployment");
		if (is_dgd && dgd && d->name && !strcmp(d->name, dgd))
			return d;
		if (is_dgd) {
			n_dgd++;
			only = d;
		}
	}
	return n_dgd == 1 ? only : NULL;
}

static bool is_worker_role(enum svc_role r)
{
	return r == ROLE_WORKER || r == ROLE_PREFILL || r == ROLE_DECODE;
}

static enum svc_role role_from(const char *pod_role)
{
	if (!strcmp(pod_role, "prefill"))
		return ROLE_PREFILL;
	if (!strcmp(pod_role, "decode"))
		return ROLE_DECODE;
	if (!strcmp(pod_role, "worker") || !strcmp(pod_role, "main"))
		return ROLE_WORKER;
	return ROLE_UNKNOWN;
}

/* The service pod p runs, and how it was matched. */
static const struct service *match(const struct deployment *d, const struct fleet_pod *p,
				   const char **how)
{
	if (p->component)
		for (size_t i = 0; i < d->n_svcs; i++)
			if (d->svcs[i].name && !strcasecmp(d->svcs[i].name, p->component)) {
				*how = "label";
				return &d->svcs[i];
			}
	enum svc_role want = role_from(p->role);
	const struct service *hit = NULL;
	size_t k = 0;
	for (size_t i = 0; want != ROLE_UNKNOWN && i < d->n_svcs; i++)
		if (d->svcs[i].role == want) {
			hit = &d->svcs[i];
			k++;
		}
	*how = "role";
	return k == 1 ? hit : NULL;
}

static bool chooses_transport(const char *name)
{
	static const char *const more[] = {
		"UCX_NET_DEVICES",
		"UCX_IB_GID_INDEX",
		"UCX_MAX_RNDV_RAILS",
		"NCCL_IB_DISABLE",
		"NCCL_NET",
		"NCCL_IB_HCA",
		"NCCL_SOCKET_IFNAME",
		"NCCL_P2P_DISABLE",
		"NCCL_NET_GDR_LEVEL",
		"FI_EFA_FORK_SAFE",
		"FI_HMEM_CUDA_USE_DMABUF",
		NULL,
	};
	if (fleet_var_must_match(name))
		return true;
	for (size_t i = 0; more[i]; i++)
		if (!strcmp(name, more[i]))
			return true;
	return false;
}

/* Match pods to services; report the matching.  svc_of[i] gets pod i's
 * service (NULL when none or not probed). */
static void check_match(struct ci_report *r, const struct deployment *d, const struct fleet_pod *p,
			size_t n, const struct service **svc_of)
{
	struct strbuf ok = STRBUF_INIT, bad = STRBUF_INIT;
	size_t matched = 0, issues = 0;
	for (size_t i = 0; i < n; i++) {
		const char *how = "";
		svc_of[i] = match(d, &p[i], &how);
		if (svc_of[i]) {
			matched++;
			if (matched <= 8)
				strbuf_joinf(&ok, ", ", "%s -> %s (by %s)", p[i].name,
					     svc_of[i]->name, how);
		} else {
			issues++;
			strbuf_joinf(&bad, "; ", "pod %s matches no service of %s", p[i].name,
				     d->name ? d->name : "the recipe");
		}
		if (!p[i].probed)
			svc_of[i] = NULL; /* nothing to compare */
	}
	for (size_t s = 0; s < d->n_svcs; s++) {
		if (!is_worker_role(d->svcs[s].role))
			continue;
		bool any = false;
		for (size_t i = 0; i < n && !any; i++) {
			const char *how;
			any = match(d, &p[i], &how) == &d->svcs[s];
		}
		if (!any) {
			issues++;
			strbuf_joinf(&bad, "; ", "worker service %s has no running pod",
				     d->svcs[s].name);
		}
	}
	if (issues) {
		struct ci_check *c =
			report_check(r, FLEET_CHECK(DRIFT_MATCH), CI_WARN, d->name, "%s%s%s",
				     bad.buf, matched ? "; matched: " : "", ok.buf);
		check_set_fix(c,
			      "run the recipe's services (nvidia.com/dynamo-component labels name "
			      "them), or point `all` at the recipe of this deployment");
	} else {
		report_check(r, FLEET_CHECK(DRIFT_MATCH), CI_OK, d->name,
			     "%zu pod%s matched to the recipe's services: %s%s", matched,
			     matched == 1 ? "" : "s", ok.buf, matched > 8 ? ", ..." : "");
	}
	strbuf_release(&ok);
	strbuf_release(&bad);
}

static void check_recipe_side(struct ci_report *r, const struct deployment *d,
			      const struct fleet_pod *p, size_t n, const struct service **svc_of)
{
	size_t found = 0, compared = 0, inline_skipped = 0;
	/* Per service and variable: the pods that differ, in one check.  Each
	 * service once, at its first pod (svc_of points into d->svcs): a scan
	 * of the pods before each pod would be quadratic in a fleet. */
	bool *done = xcalloc(d->n_svcs ? d->n_svcs : 1, sizeof(*done));
	for (size_t i = 0; i < n; i++) {
		const struct service *s = svc_of[i];
		if (!s || done[s - d->svcs])
			continue;
		done[s - d->svcs] = true;
		for (size_t e = 0; e < s->env.n; e++) {
			const struct env_var *v = &s->env.v[e];
			if (!v->name || !redact_is_transport_name(v->name))
				continue;
			if (v->origin == ENV_INLINE) {
				/* Exported by the container's shell command: pid 1's
				 * environment shows it only after an `exec`. */
				inline_skipped++;
				continue;
			}
			compared++;
			const char *want = v->value ? redact_value(v->name, v->value) : NULL;
			struct strbuf b = STRBUF_INIT;
			for (size_t j = i; j < n; j++) {
				if (svc_of[j] != s)
					continue;
				const char *have = fleet_pod_env(&p[j], v->name);
				if (!have)
					strbuf_joinf(&b, "; ", "pod %s does not have it",
						     p[j].name);
				else if (want && strcmp(want, have))
					strbuf_joinf(&b, "; ", "pod %s has %s=%s", p[j].name,
						     v->name, have);
			}
			if (b.len) {
				found++;
				struct strbuf subj = STRBUF_INIT;
				strbuf_addf(&subj, "%s: %s", s->name, v->name);
				struct ci_check *c = report_check(
					r, FLEET_CHECK(DRIFT_RECIPE), CI_WARN, subj.buf,
					"the recipe sets %s=%s for %s, but %s: the recipe that was "
					"reviewed is not what runs",
					v->name,
					want            ? want
					: v->value_from ? v->value_from
							: "(no value)",
					s->name, b.buf);
				if (v->loc.file)
					check_add_evidence(c, "%s:%d: %s", v->loc.file, v->loc.line,
							   v->name);
				check_set_fix(
					c, "re-apply the recipe (kubectl apply -f) or update it to "
					   "what runs, then restart the pods");
				strbuf_release(&subj);
			}
			strbuf_release(&b);
		}
	}
	free(done);
	if (!found)
		report_check(
			r, FLEET_CHECK(DRIFT_RECIPE), CI_OK, "recipe",
			"every transport variable the recipe sets (%zu) is in its pods with the "
			"same value%s",
			compared,
			inline_skipped ? "; variables exported inside the command line are not "
					 "compared (not visible in pid 1's environment)"
				       : "");
}

/* ---- judging an image's transport-choosing value ---- */

/*
 * The fabric the shared value rules see on pod p: what the fabric model
 * (rules/fabric.c, fabric_decide() over the pod's own readings) says can
 * carry KV, the same model `node` and `nixl` judge the pod by: the NICs
 * given to the pod with an active port per kind (a host NIC that sysfs
 * lists in a shared RDMA namespace is not the pod's), and the NVLink domain.
 * hw (the mask is the hardware, so a missing NIC bit means no RDMA device)
 * only when /sys/class/infiniband was read; a pod given NICs whose ports are
 * all down still has a NIC (InfiniBand assumed): a TCP-only value would keep
 * KV off it once the port is up, and node.rdma.ports reports the port.
 */
static struct varrule_ctx pod_ctx(const struct fleet_pod *p, const struct service *s)
{
	struct fabric_model fm;
	fabric_decide(&p->fabric, &fm);
	unsigned m = 0;
	if (fm.can[FABRIC_IB])
		m |= FAB_IB;
	if (fm.can[FABRIC_ROCE])
		m |= FAB_ROCE;
	if (fm.can[FABRIC_EFA] || p->efa)
		m |= FAB_EFA;
	if (p->rdma_known && p->fabric.nics_given_down && !(m & (FAB_IB | FAB_ROCE | FAB_EFA)))
		m |= FAB_IB;
	if (fm.mnnvl_domain)
		m |= FAB_MNNVL;
	return (struct varrule_ctx){
		.fabric = m,
		.hw = p->rdma_known,
		.gpu = true,
		.cross_pod = true,
		.nodes = s && s->node_count > 1 ? s->node_count : 0,
	};
}

/* What one pod's value of one variable is judged to be. */
struct judged {
	enum ci_status st; /* CI_OK or CI_WARN (a rule's fail is a warn here) */
	bool by_rule;      /* a value rule of env_varrules.c read it */
	char *msg;         /* the rule's finding, or the reason of the table */
	char *fix;         /* NULL when ok */
};

static void judged_release(struct judged *j)
{
	free(j->msg);
	free(j->fix);
	memset(j, 0, sizeof(*j));
}

static int sev(enum ci_status st)
{
	return st == CI_FAIL ? 3 : st == CI_WARN ? 2 : st == CI_OK ? 1 : 0;
}

/* Every value rule over pod p's variables; the findings of those that read
 * name, the worst first.  False when no rule read it. */
static bool judge_by_rules(const struct fleet_pod *p, const struct service *s, const char *name,
			   struct judged *j)
{
	struct var_view *vars = xcalloc(p->n_env ? p->n_env : 1, sizeof(*vars));
	for (size_t i = 0; i < p->n_env; i++)
		vars[i] = (struct var_view){
			.name = p->env[i].name,
			.value = p->env[i].value,
			.shown = redact_value(p->env[i].name,
					      p->env[i].value ? p->env[i].value : ""),
		};
	struct varrule_ctx x = pod_ctx(p, s);
	enum ci_status worst = CI_SKIPPED;
	struct strbuf msg = STRBUF_INIT;
	char *fix = NULL;
	for (int id = 0; id < VR_COUNT; id++) {
		struct varrule_res res;
		if (!varrule_eval((enum varrule_id)id, vars, p->n_env, &x, &res))
			continue;
		bool reads = false;
		for (size_t k = 0; k < res.n_ev && !reads; k++)
			reads = !strcmp(res.ev[k]->name, name);
		for (size_t k = 0; reads && k < res.n_note; k++) {
			const struct varrule_note *nt = &res.note[k];
			if (sev(nt->st) > sev(worst)) {
				worst = nt->st;
				strbuf_reset(&msg);
				free(fix);
				fix = nt->fix ? xstrdup(nt->fix) : NULL;
			} else if (nt->st != worst) {
				continue;
			}
			strbuf_joinstr(&msg, "; ", nt->msg);
		}
		varrule_res_release(&res);
	}
	free(vars);
	if (worst == CI_SKIPPED) {
		strbuf_release(&msg);
		free(fix);
		return false;
	}
	j->st = worst == CI_OK ? CI_OK : CI_WARN;
	j->by_rule = true;
	j->msg = strbuf_detach(&msg);
	j->fix = j->st == CI_OK ? NULL : fix;
	if (j->st == CI_OK)
		free(fix);
	return true;
}

/*
 * The transport-choosing variables no value rule reads, each decided on its
 * own (docs/checks.md, all.drift.image, keeps the table).  why: a careful
 * operator wants a warning only where an image's value can quietly take KV
 * off its fast path and nothing else in the run judges it; a variable some
 * other check of the same run judges (in each pod or across the fleet), or
 * one that tunes rather than chooses, is a note.
 */
static const struct {
	const char *name;
	const char *why;
} image_notes[] = {
	/* NCCL: "NCCL_SOCKET_IFNAME: Specifies which IP interfaces to use for
	 * communication" (NCCL's environment-variable docs): the bootstrap and
	 * the socket transport; its IB/RoCE transport picks HCAs by
	 * NCCL_IB_HCA, and NIXL does not read it at all. */
	{"NCCL_SOCKET_IFNAME",
	 "it picks the IP interface of NCCL's bootstrap and socket transport only, not the RDMA "
	 "path of KV or of NCCL over InfiniBand/RoCE (node.env.nccl.socket_ifname checks the "
	 "interface in each pod)"},
	{"UCX_IB_GID_INDEX",
	 "a RoCE GID index is a per-node fact: fleet.roce.gid compares the GID at that index "
	 "across the nodes and node.env.gid_index judges it in each pod"},
	{"NCCL_IB_HCA",
	 "it filters NCCL's HCAs, and node.env.nccl.ib_hca checks in each pod that the devices "
	 "it names exist and are active"},
	{"UCX_MAX_RNDV_RAILS",
	 "it sets how many rails one rendezvous transfer stripes over: bandwidth, not which "
	 "transport"},
	{"FI_EFA_FORK_SAFE",
	 "it makes libfabric keep registered memory safe across fork(): not which path KV takes"},
	{"FI_HMEM_CUDA_USE_DMABUF",
	 "it chooses how libfabric registers CUDA memory (dma-buf or peermem); node.gpudirect "
	 "and fleet.gpudirect.mode judge GPUDirect RDMA on each node"},
	/* only =n on MNNVL is a finding, and env_varrules.c reads it then */
	{"UCX_CUDA_IPC_ENABLE_MNNVL",
	 "only `n` turns multi-node NVLink off, and only on MNNVL (UCX's default is `try`)"},
};

static bool off_value(const char *v)
{
	static const char *const no[] = {"n", "no", "off", "0", "false", NULL};
	return v && str_in_ci(v, no);
}

/* The table and the few values judged here, for what no rule reads. */
static void judge_by_table(const struct fleet_pod *p, const char *name, const char *val,
			   struct judged *j)
{
	bool efa = strstr(p->link_layer ? p->link_layer : "", "EFA") || p->efa;
	bool fabric_lib = p->backend && !strcasecmp(p->backend, "LIBFABRIC");
	for (size_t i = 0; i < sizeof(image_notes) / sizeof(image_notes[0]); i++)
		if (!strcmp(name, image_notes[i].name)) {
			j->st = CI_OK;
			j->msg = xstrdup(image_notes[i].why);
			return;
		}
	if (!strcmp(name, "UCX_IB_GPU_DIRECT_RDMA")) {
		/* UCX's GPU_DIRECT_RDMA is a ternary defaulting to try; `n`
		 * is what nixl.ucx.gpudirect names as a cause of host staging */
		if (off_value(val)) {
			j->st = CI_WARN;
			j->msg = xasprintf("UCX_IB_GPU_DIRECT_RDMA=%s turns GPUDirect RDMA off in "
					   "UCX: GPU buffers are staged through host memory",
					   val);
			j->fix =
				xstrdup("remove UCX_IB_GPU_DIRECT_RDMA from the image (UCX's "
					"default `try` uses GPUDirect RDMA where the node has it)");
		} else {
			j->st = CI_OK;
			j->msg = xasprintf("UCX_IB_GPU_DIRECT_RDMA=%s does not turn GPUDirect off",
					   val);
		}
		return;
	}
	if (!strcmp(name, "FI_PROVIDER") || !strcmp(name, "FI_EFA_USE_DEVICE_RDMA")) {
		bool good = !strcmp(name, "FI_PROVIDER") ? !strcasecmp(val, "efa")
							 : env_truthy(val) && !off_value(val);
		if (efa && good) {
			j->st = CI_OK;
			j->msg =
				xasprintf("%s=%s is the value env.vars requires on EFA", name, val);
		} else if (!efa && !fabric_lib) {
			j->st = CI_OK;
			j->msg = xasprintf("only libfabric reads it, and the pod's NIXL backend is "
					   "%s (nixl.backend)",
					   p->backend ? p->backend : "not LIBFABRIC");
		} else {
			j->st = CI_WARN;
			j->msg = xasprintf("%s=%s on %s: no rule here judges that value", name, val,
					   efa ? "EFA" : "the LIBFABRIC backend");
			j->fix = xasprintf("set %s explicitly in the recipe (on EFA: %s), so that "
					   "the review and the pods agree",
					   name,
					   !strcmp(name, "FI_PROVIDER")
						   ? "FI_PROVIDER=efa"
						   : "FI_EFA_USE_DEVICE_RDMA=1");
		}
		return;
	}
	/* NCCL_NET_GDR_LEVEL, FI_HMEM, the backend selectors: a value can move
	 * KV or NCCL off GPUDirect or onto another backend, and no rule here
	 * reads it: the review must see it. */
	j->st = CI_WARN;
	j->msg = xstrdup("it chooses the transport, and no rule here judges its value");
	j->fix = xasprintf("set %s explicitly in the recipe (the value you want), so that the "
			   "review and the pods agree",
			   name);
}

/* Pod p's value of name, which its service s does not set, judged. */
static void judge_value(const struct fleet_pod *p, const struct service *s, const char *name,
			const char *val, struct judged *j)
{
	memset(j, 0, sizeof(*j));
	if (!judge_by_rules(p, s, name, j))
		judge_by_table(p, name, val, j);
}

/* One outcome and the pods that share it. */
struct verdict_group {
	const char *value;
	struct judged j;
	struct strbuf pods;
};

static void image_one(struct ci_report *r, const char *name, const struct fleet_pod *p, size_t n,
		      const struct service **svc_of)
{
	struct verdict_group *g = NULL;
	size_t ng = 0, cap = 0;
	enum ci_status st = CI_OK;
	bool by_rule = false;
	for (size_t j = 0; j < n; j++) {
		const char *v = svc_of[j] ? fleet_pod_env(&p[j], name) : NULL;
		if (!v || service_env_get(svc_of[j], name))
			continue;
		struct judged jd;
		judge_value(&p[j], svc_of[j], name, v, &jd);
		const char *shown = redact_value(name, v);
		size_t k = 0;
		while (k < ng && !(g[k].j.st == jd.st && !strcmp(g[k].value, shown) &&
				   !strcmp(g[k].j.msg, jd.msg)))
			k++;
		if (k == ng) {
			struct verdict_group *e = XPUSH(g, ng, cap);
			e->value = shown;
			e->j = jd;
			strbuf_init(&e->pods);
		} else {
			judged_release(&jd);
		}
		strbuf_joinstr(&g[k].pods, ", ", p[j].name);
		if (sev(g[k].j.st) > sev(st))
			st = g[k].j.st;
		by_rule |= g[k].j.by_rule;
	}
	if (!ng) {
		free(g);
		return;
	}
	struct strbuf d = STRBUF_INIT;
	const char *fix = NULL;
	bool rule_says = false; /* a value rule made the worst finding */
	for (size_t k = 0; k < ng; k++) {
		if (g[k].j.st != st)
			continue;
		if (!fix)
			fix = g[k].j.fix;
		rule_says |= g[k].j.by_rule;
		if (g[k].j.by_rule)
			strbuf_joinf(&d, "; ", "%s (pods %s)", g[k].j.msg, g[k].pods.buf);
		else
			strbuf_joinf(&d, "; ", "%s=%s (pods %s): %s", name, g[k].value,
				     g[k].pods.buf, g[k].j.msg);
	}
	if (st == CI_OK && by_rule) {
		report_check(r, FLEET_CHECK(DRIFT_IMAGE), CI_OK, name,
			     "%s is not set by the recipe but baked into the image (or injected by "
			     "the platform); judged right on the pods' hardware by the same rule "
			     "node applies: %s",
			     name, d.buf);
	} else if (st == CI_OK) {
		report_check(r, FLEET_CHECK(DRIFT_IMAGE), CI_OK, name,
			     "not set by the recipe but baked into the image (or injected by the "
			     "platform), noted, not a warning: %s",
			     d.buf);
	} else {
		struct ci_check *c = report_check(
			r, FLEET_CHECK(DRIFT_IMAGE), CI_WARN, name,
			"%s is not set by the recipe but baked into the image (or injected by the "
			"platform), which the recipe review could not see%s: %s",
			name,
			rule_says
				? ", and the rule node applies judges it wrong on the pods' hardware"
				: "",
			d.buf);
		if (rule_says && fix)
			check_set_fix(c, "override it in the recipe's env (or fix the image): %s",
				      fix);
		else if (fix)
			check_set_fix(c, "%s", fix);
	}
	strbuf_release(&d);
	for (size_t k = 0; k < ng; k++) {
		judged_release(&g[k].j);
		strbuf_release(&g[k].pods);
	}
	free(g);
}

/* A variable the pods have and the recipe does not set, with its pods. */
struct image_var {
	const char *name, *value; /* the first pod's (borrowed) */
	struct strbuf pods;       /* "a, b, c": every pod that has it so */
};

static void check_image_side(struct ci_report *r, const struct fleet_pod *p, size_t n,
			     const struct service **svc_of)
{
	/* One pass groups the variables by name, in first-seen order, with
	 * the pods of each: a scan of the pods per name would be quadratic in
	 * a fleet whose pods carry different names. */
	struct strmap by_name;
	strmap_init(&by_name);
	struct image_var *v = NULL;
	size_t nv = 0, cap = 0;
	for (size_t i = 0; i < n; i++) {
		if (!svc_of[i])
			continue;
		for (size_t e = 0; e < p[i].n_env; e++) {
			const char *name = p[i].env[e].name;
			if (service_env_get(svc_of[i], name))
				continue;
			size_t k = strmap_put(&by_name, name, nv);
			if (k == nv) {
				struct image_var *g = XPUSH(v, nv, cap);
				*g = (struct image_var){name, p[i].env[e].value, STRBUF_INIT};
			}
			strbuf_joinstr(&v[k].pods, ", ", p[i].name);
		}
	}
	strmap_release(&by_name);
	struct strbuf note = STRBUF_INIT;
	size_t judged = 0, noted = 0;
	for (size_t k = 0; k < nv; k++) {
		/* the transport-choosing names are a fixed few: one pass each */
		if (chooses_transport(v[k].name)) {
			judged++;
			image_one(r, v[k].name, p, n, svc_of);
		} else {
			noted++;
			strbuf_joinf(&note, ", ", "%s=%s (%s)", v[k].name,
				     redact_value(v[k].name, v[k].value), v[k].pods.buf);
		}
		strbuf_release(&v[k].pods);
	}
	free(v);
	if (noted)
		report_check(
			r, FLEET_CHECK(DRIFT_IMAGE), CI_OK, "image",
			"set in the pods but not by the recipe (image or platform defaults that "
			"do not choose the transport): %s",
			note.buf);
	else if (!judged)
		report_check(r, FLEET_CHECK(DRIFT_IMAGE), CI_OK, "image",
			     "every transport variable in the pods is set by the recipe");
	strbuf_release(&note);
}

/*
 * env.vars warns when a recipe leaves its critical transport variables to
 * the image.  Here the pods say what the image did: the warning becomes ok
 * when every probed pod of each such worker has the variables, or, for
 * UCX_TLS / UCX_NET_DEVICES / NCCL_IB_HCA on InfiniBand/RoCE, when the pod
 * leaves them unset and has an active RDMA NIC (UCX and NCCL then use every
 * transport and device they find).  Otherwise the warning stays, naming the
 * pods that lack them.
 */
static bool default_is_fine(const struct env_class *c, const struct fleet_pod *p, const char *name)
{
	return !(c->fabric & FAB_MNNVL) && (c->fabric & (FAB_IB | FAB_ROCE)) && p->rdma_path &&
	       (!strcmp(name, "UCX_TLS") || !strcmp(name, "UCX_NET_DEVICES") ||
		!strcmp(name, "NCCL_IB_HCA"));
}

static void resolve_vars(struct ci_report *r, const struct manifest_set *ms,
			 const struct deployment *d, const struct fleet_pod *p, size_t n,
			 const struct service **svc_of)
{
	struct env_class c;
	env_classify(ms, d, &c);
	struct ci_check *ck = NULL;
	for (size_t i = 0; i < r->n_checks && !ck; i++)
		if (!strcmp(r->checks[i].id, "env.vars") && r->checks[i].subject &&
		    !strcmp(r->checks[i].subject, c.label))
			ck = &r->checks[i];
	if (!ck || ck->status != CI_WARN) {
		env_class_release(&c);
		return;
	}
	struct strbuf ok = STRBUF_INIT, bad = STRBUF_INIT;
	for (size_t w = 0; w < c.n_w; w++) {
		const char *names[5];
		bool none;
		size_t nu = env_unset_critical(&c, &c.w[w], names, 5, &none);
		if (nu > 5)
			nu = 5;
		if (!nu)
			continue;
		const struct service *s = c.w[w].svc;
		size_t pods = 0;
		for (size_t i = 0; i < n; i++) {
			if (svc_of[i] != s)
				continue;
			pods++;
			for (size_t k = 0; k < nu; k++) {
				const char *v = fleet_pod_env(&p[i], names[k]);
				struct judged jd = {0};
				if (v)
					judge_value(&p[i], s, names[k], v, &jd);
				if (v && jd.st != CI_OK)
					/* present, but wrong on the pod's hardware:
					 * not a resolution */
					strbuf_joinf_capped(
						&bad, 600, "; ",
						"pod %s has %s=%s, which all.drift.image "
						"judges wrong on its hardware",
						p[i].name, names[k], redact_value(names[k], v));
				else if (v)
					strbuf_joinf_capped(&ok, 600, ", ", "%s=%s in %s", names[k],
							    redact_value(names[k], v), p[i].name);
				else if (default_is_fine(&c, &p[i], names[k]))
					strbuf_joinf_capped(
						&ok, 600, ", ",
						"%s unset in %s (UCX's default, RDMA NIC "
						"active)",
						names[k], p[i].name);
				else
					strbuf_joinf_capped(&bad, 600, "; ", "pod %s lacks %s",
							    p[i].name, names[k]);
				judged_release(&jd);
			}
		}
		if (!pods)
			strbuf_joinf_capped(&bad, 600, "; ", "no probed pod of %s",
					    s->name ? s->name : "?");
	}
	if (!bad.len && ok.len) {
		ck->status = CI_OK;
		free(ck->detail);
		ck->detail = xasprintf("resolved by the pods: %s (left to the image by the recipe; "
				       "all.drift.image judges the values the image sets)",
				       ok.buf);
		free(ck->fix);
		ck->fix = NULL;
	} else if (bad.len) {
		/* why: the env-side fix ("run all") is what this run is; say
		 * what the pods showed instead. */
		char *was = ck->detail;
		ck->detail = xasprintf("%s; the pods do not resolve it: %s", was, bad.buf);
		free(was);
		free(ck->fix);
		ck->fix =
			xstrdup("set the variables in the recipe: the pods lack them, or the "
				"image's values are wrong on their hardware (all.drift.image says "
				"which)");
		check_add_evidence(ck, "all: %s", bad.buf);
	}
	strbuf_release(&ok);
	strbuf_release(&bad);
	env_class_release(&c);
}

void all_check_drift(struct ci_report *r, const struct manifest_set *ms, const struct deployment *d,
		     const struct fleet_pod *p, size_t n)
{
	if (!d) {
		report_check(
			r, FLEET_CHECK(DRIFT_MATCH), CI_SKIPPED, "recipe",
			"the recipe has no single DynamoGraphDeployment matching the deployment: "
			"recipe and pods are not compared");
		return;
	}
	if (!n) {
		report_check(r, FLEET_CHECK(DRIFT_MATCH), CI_SKIPPED, d->name,
			     "no worker pod to compare with the recipe");
		return;
	}
	const struct service **svc_of = xcalloc(n, sizeof(*svc_of));
	check_match(r, d, p, n, svc_of);
	check_recipe_side(r, d, p, n, svc_of);
	check_image_side(r, p, n, svc_of);
	if (ms)
		resolve_vars(r, ms, d, p, n, svc_of);
	free(svc_of);
}
