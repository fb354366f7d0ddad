/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which of the listed pods are probed.  Frontends (and the operator's other
 * non-worker components) move no KV; pods that are not Running cannot be
 * exec'ed into.  Both are named in the report, never silently dropped.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "fleet/fleet.h"
#include "fleet/fleet_desc.h"

/* Component types of the Dynamo operator that are not KV workers. */
static bool not_worker_type(const char *t)
{
	static const char *const words[] = {"planner", "epp", NULL};
	for (size_t i = 0; t && words[i]; i++)
		if (!strcmp(t, words[i]))
			return true;
	return false;
}

static void role_of(const struct kube_pod *kp, char *buf, size_t len)
{
	const char *r = kp->sub_component_type && *kp->sub_component_type ? kp->sub_component_type
			: kp->component_type && *kp->component_type       ? kp->component_type
									  : "";
	snprintf(buf, len, "%s", r);
}

void fleet_plan_make(const struct kube_pod_list *l, struct fleet_plan *out)
{
	memset(out, 0, sizeof(*out));
	out->left_out = l->left_out;
	out->base = l->pods;
	for (size_t i = 0; i < l->n; i++) {
		const struct kube_pod *kp = &l->pods[i];
		struct fleet_plan_pod *pp = XPUSH(out->v, out->n, out->cap);
		memset(pp, 0, sizeof(*pp));
		pp->kp = kp;
		role_of(kp, pp->role, sizeof(pp->role));
		if (kp->component_type && !strcmp(kp->component_type, "frontend")) {
			pp->pick = FP_FRONTEND;
		} else if (not_worker_type(kp->component_type)) {
			pp->pick = FP_NOT_WORKER;
		} else if (!kp->phase || strcmp(kp->phase, "Running") || kp->deletion_timestamp) {
			pp->pick = FP_NOT_RUNNING;
			snprintf(pp->state, sizeof(pp->state), "%s%s",
				 kp->phase ? kp->phase : "no phase",
				 kp->deletion_timestamp ? ", terminating" : "");
		} else {
			pp->pick = FP_PROBE;
			out->n_probe++;
		}
	}
}

void fleet_plan_release(struct fleet_plan *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static const char *name_of(const struct fleet_plan *p, size_t i)
{
	return p->keys ? p->keys[p->v[i].kp - p->base] : p->v[i].kp->name;
}

static char *names_of(const struct fleet_plan *p, enum fleet_pick pick, size_t *count)
{
	size_t len = 1, k = 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].pick == pick)
			len += strlen(name_of(p, i)) + sizeof(p->v[i].state) + 8;
	char *s = xcalloc(len, 1);
	for (size_t i = 0; i < p->n; i++) {
		if (p->v[i].pick != pick)
			continue;
		if (k++)
			strcat(s, ", ");
		strcat(s, name_of(p, i));
		if (pick == FP_NOT_RUNNING) {
			strcat(s, " (");
			strcat(s, p->v[i].state);
			strcat(s, ")");
		}
	}
	*count = k;
	return s;
}

void fleet_plan_report(struct ci_report *r, const struct fleet_plan *p, const char *what)
{
	size_t nf, nw, nr;
	char *front = names_of(p, FP_FRONTEND, &nf);
	char *other = names_of(p, FP_NOT_WORKER, &nw);
	char *down = names_of(p, FP_NOT_RUNNING, &nr);
	size_t npre = 0, ndec = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (p->v[i].pick != FP_PROBE)
			continue;
		npre += !strcmp(p->v[i].role, "prefill");
		ndec += !strcmp(p->v[i].role, "decode");
	}
	struct strbuf left = STRBUF_INIT;
	if (nf)
		strbuf_addf(&left, "%zu frontend%s (%s)", nf, nf == 1 ? "" : "s", front);
	if (nw)
		strbuf_joinf(&left, ", ", "%zu pod%s that move no KV (%s)", nw, nw == 1 ? "" : "s",
			     other);
	if (!p->n_probe) {
		struct ci_check *c = report_check(r, FLEET_CHECK(PODS), CI_SKIPPED, what,
						  "no running worker pod matches%s%s%s",
						  p->n ? "" : " (no pod at all)",
						  left.len ? "; left out: " : "", left.buf);
		check_set_fix(c, "check the deployment name, the -l selector and -n namespace "
				 "(kubectl get pods -n NS -l SELECTOR)");
	} else {
		report_check_as(
			r, FLEET_CHECK(PODS), CI_OK, false, CI_LAYER_FABRIC, what,
			"%zu running worker pod%s to probe (%zu prefill, %zu decode, %zu other)%s%s",
			p->n_probe, p->n_probe == 1 ? "" : "s", npre, ndec,
			p->n_probe - npre - ndec, left.len ? "; left out: " : "", left.buf);
	}
	if (nr) {
		struct ci_check *c =
			report_check(r, FLEET_CHECK(PODS_NOT_RUNNING), CI_WARN, down,
				     "%zu worker pod%s not running, left out of the probe", nr,
				     nr == 1 ? " is" : "s are");
		check_set_fix(c, "kubectl describe pod the ones named: a worker that does not run "
				 "serves no KV, and the deployment is short of capacity");
	}
	if (p->left_out) {
		/* A cap that cuts says so: never a silent drop. */
		struct ci_check *c =
			report_check(r, FLEET_CHECK(PODS_CAPPED), CI_WARN, what,
				     "the pod list holds more than %d pods: %zu left out "
				     "of the probe",
				     KUBE_PODS_MAX, p->left_out);
		check_set_fix(c, "narrow the run with -l (a role, a component) so that each run "
				 "lists fewer pods");
	}
	strbuf_release(&left);
	free(front);
	free(other);
	free(down);
}
