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
 *                     into the image or injected by the platform.  A warning
 *                     when it chooses the transport (UCX_TLS, UCX_NET_DEVICES,
 *                     backend selectors...): the recipe review could not see
 *                     it, and this is how images break transports (an image
 *                     baking UCX_TLS=^cuda_ipc broke GB200, ai-dynamo/nixl#1110).
 *                     Otherwise ok with a note: images legitimately carry
 *                     defaults (NCCL_VERSION, NIXL_PLUGIN_DIR), and warning on
 *                     them would make every run `degraded`.
 * Pure: no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/redact.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "fleet/fleet.h"
#include "env/env_analyze.h"
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

static void check_recipe_side(struct ci_report *r, const struct fleet_pod *p, size_t n,
			      const struct service **svc_of)
{
	size_t found = 0, compared = 0, inline_skipped = 0;
	/* Per service and variable: the pods that differ, in one check. */
	for (size_t i = 0; i < n; i++) {
		const struct service *s = svc_of[i];
		if (!s)
			continue;
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = svc_of[j] != s;
		if (!first)
			continue;
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

static void check_image_side(struct ci_report *r, const struct fleet_pod *p, size_t n,
			     const struct service **svc_of)
{
	struct strbuf note = STRBUF_INIT;
	size_t warned = 0, noted = 0;
	const char **seen = NULL;
	size_t n_seen = 0, cap = 0;
	for (size_t i = 0; i < n; i++) {
		if (!svc_of[i])
			continue;
		for (size_t e = 0; e < p[i].n_env; e++) {
			const char *name = p[i].env[e].name;
			if (service_env_get(svc_of[i], name))
				continue;
			bool dup = false;
			for (size_t k = 0; k < n_seen && !dup; k++)
				dup = !strcmp(seen[k], name);
			if (dup)
				continue;
			*XPUSH(seen, n_seen, cap) = name;
			/* Every pod that has it without its service setting it. */
			struct strbuf pods = STRBUF_INIT;
			size_t k = 0;
			for (size_t j = i; j < n; j++) {
				if (svc_of[j] && fleet_pod_env(&p[j], name) &&
				    !service_env_get(svc_of[j], name)) {
					k++;
					strbuf_joinstr(&pods, ", ", p[j].name);
				}
			}
			const char *val = p[i].env[e].value;
			if (chooses_transport(name)) {
				warned++;
				struct ci_check *c = report_check(
					r, FLEET_CHECK(DRIFT_IMAGE), CI_WARN, name,
					"%s=%s is set in pod%s %s but not by the recipe: baked into the "
					"image or injected by the platform, and it chooses the transport, "
					"which the recipe review could not see",
					name, val, k == 1 ? "" : "s", pods.buf);
				check_set_fix(
					c,
					"set %s explicitly in the recipe (the value you want), "
					"so that the review and the pods agree",
					name);
			} else {
				noted++;
				strbuf_joinf(&note, ", ", "%s=%s (%s)", name, val, pods.buf);
			}
			strbuf_release(&pods);
		}
	}
	if (noted)
		report_check(
			r, FLEET_CHECK(DRIFT_IMAGE), CI_OK, "image",
			"set in the pods but not by the recipe (image or platform defaults that "
			"do not choose the transport): %s",
			note.buf);
	else if (!warned)
		report_check(r, FLEET_CHECK(DRIFT_IMAGE), CI_OK, "image",
			     "every transport variable in the pods is set by the recipe");
	strbuf_release(&note);
	free(seen);
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
				if (v)
					strbuf_joinf_capped(&ok, 600, ", ", "%s=%s in %s", names[k],
							    v, p[i].name);
				else if (default_is_fine(&c, &p[i], names[k]))
					strbuf_joinf_capped(
						&ok, 600, ", ",
						"%s unset in %s (UCX's default, RDMA NIC "
						"active)",
						names[k], p[i].name);
				else
					strbuf_joinf_capped(&bad, 600, "; ", "pod %s lacks %s",
							    p[i].name, names[k]);
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
				       "all.drift.image says which of them choose the transport)",
				       ok.buf);
		free(ck->fix);
		ck->fix = NULL;
	} else if (bad.len) {
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
	check_recipe_side(r, p, n, svc_of);
	check_image_side(r, p, n, svc_of);
	if (ms)
		resolve_vars(r, ms, d, p, n, svc_of);
	free(svc_of);
}
