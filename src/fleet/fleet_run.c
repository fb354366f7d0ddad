/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fleet_run(): one `get pods`, one exec per worker pod in parallel, one
 * child report per pod from that pod's transcript, and the fleet checks.
 * --timeout bounds each kubectl call (the listing, each pod's round trip);
 * --deadline, when given, is fixed once before the listing and bounds the
 * whole run: every call after it gets at most the time that is left.  Each
 * pod is judged as its answer comes in and its transcript freed; what stays
 * is its child report and its fleet_pod summary (what the fleet checks
 * compare).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "core/xalloc.h"
#include "fleet/fleet_run.h"
#include "fleet/fleet_desc.h"
#include "live/live.h"
#include "nixl/nixl.h"
#include "nixl/nixl_desc.h"
#include "node/node.h"
#include "node/node_checks.h"
#include "node/node_desc.h"
#include "probe/kube_get_pods.h"
#include "probe/run_command.h"

char *fleet_selector(const struct fleet_target *ft)
{
	if (ft->deployment && ft->selector)
		return xasprintf("%s=%s,%s", KUBE_LABEL_DGD, ft->deployment, ft->selector);
	if (ft->deployment)
		return xasprintf("%s=%s", KUBE_LABEL_DGD, ft->deployment);
	return xstrdup(ft->selector ? ft->selector : "");
}

char *fleet_target_name(const struct fleet_target *ft)
{
	if (ft->all_namespaces)
		return ft->deployment
			       ? xasprintf("deployment %s in every namespace", ft->deployment)
			       : xasprintf("pods -l %s in every namespace", ft->selector);
	if (ft->deployment)
		return xasprintf("deployment %s in namespace %s", ft->deployment,
				 ft->probe.namespace_);
	return xasprintf("pods -l %s in namespace %s", ft->selector, ft->probe.namespace_);
}

void fleet_result_release(struct fleet_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		fleet_pod_release(&res->pods[i]);
	free(res->pods);
	free(res->selector);
	free(res->error);
	memset(res, 0, sizeof(*res));
}

/* node and nixl both list the pod's transport variables as facts; `all`
 * runs both on one transcript, so keep each (name, value, source) once. */
static void dedupe_facts(struct ci_report *r)
{
	size_t k = 0;
	for (size_t i = 0; i < r->n_facts; i++) {
		struct ci_fact *f = &r->facts[i];
		bool dup = false;
		for (size_t j = 0; j < k && !dup; j++)
			dup = !strcmp(r->facts[j].name, f->name) &&
			      !strcmp(r->facts[j].value, f->value) &&
			      !strcmp(r->facts[j].source, f->source);
		if (dup) {
			free(f->name);
			free(f->value);
			free(f->subject);
			free(f->source);
		} else {
			r->facts[k++] = *f;
		}
	}
	r->n_facts = k;
}

static char *timeout_line(const struct fleet_target *ft, const char *target,
			  const struct fleet_job *j)
{
	double t = probe_target_timeout(&ft->probe);
	if (!j->started)
		return xasprintf("%s was not probed: the --deadline (%g s) passed before its "
				 "turn (raise --deadline or --jobs)",
				 target, ft->deadline_s);
	if (j->deadline_bound)
		return xasprintf(
			"kubectl exec into %s did not answer before the --deadline (%g s); "
			"kubectl was stopped",
			target, ft->deadline_s);
	return xasprintf("kubectl exec into %s did not answer within --timeout (%g s); "
			 "kubectl was stopped",
			 target, t);
}

struct pod_ctx {
	const struct fleet_target *ft;
	enum fleet_kind kind;
	const struct nixl_peer_index *peers;
	const struct fleet_plan_pod *pp;
	struct fleet_job *job;
	const char **peer; /* out: the pair test's peer (its key), or NULL */
	const struct kube_pod_list *list;
	char *const *keys; /* each listed pod's key (fleet_job.key), by list index */
};

/* One pod's child report and summary, from its one transcript. */
static void judge_pod(const struct pod_ctx *x, struct ci_report *child, struct fleet_pod *fp)
{
	const struct kube_pod *kp = x->pp->kp;
	const char *ns = x->job->namespace_ ? x->job->namespace_ : x->ft->probe.namespace_;
	char *target = xasprintf("pod %s/%s", ns, kp->name);
	const struct check_desc *probe_ck =
		x->kind == FLEET_NIXL ? NIXL_CHECK(PROBE) : NODE_CHECK(PROBE);
	const char *verb = x->kind == FLEET_NIXL ? "nixl" : x->kind == FLEET_NODE ? "node" : "all";

	report_init(child, verb, target);
	child->child_label =
		*x->pp->role ? xasprintf("%s on %s", x->pp->role,
					 kp->node_name ? kp->node_name : "no node")
			     : xasprintf("on %s", kp->node_name ? kp->node_name : "no node");
	fleet_pod_init(fp, x->job->key, kp->node_name, x->pp->role, kp->component);
	fp->exec_start = x->job->t_start;
	fp->exec_end = x->job->t_end;

	struct probe_outcome *out = &x->job->out;
	if (!x->job->started || out->err != PROBE_OK) {
		char *msg =
			!x->job->started || out->err == PROBE_TIMEOUT
				? timeout_line(x->ft, target, x->job)
				: xstrdup(out->message ? out->message : probe_error_name(out->err));
		struct ci_check *k = report_check(child, probe_ck, CI_SKIPPED, NULL, "%s", msg);
		/* The fleet's own deadline cut it: a different fix from a pod
		 * that did not answer within --timeout. */
		if (!x->job->started || (out->err == PROBE_TIMEOUT && x->job->deadline_bound))
			check_set_fix(k, "raise --deadline (or --jobs), or look at the pods that "
					 "answer slowly (kubectl describe pod), and run again");
		else if (probe_error_fix(out->err))
			check_set_fix(k, "%s", probe_error_fix(out->err));
		fp->unreachable = msg;
		fp->timed_out = !x->job->started || out->err == PROBE_TIMEOUT;
		free(target);
		return;
	}

	/* One read of the transcript serves the node, nixl and fleet checks
	 * (the nixl facts hold the node facts). */
	struct nixl_facts f;
	nixl_facts_init(&f);
	nixl_facts_read(&f, &out->t);
	if (x->kind != FLEET_NIXL)
		node_analyze_facts(child, &f.node, target);
	if (x->kind != FLEET_NODE) {
		struct nixl_peer_choice pc;
		memset(&pc, 0, sizeof(pc));
		nixl_peer_pick_pod(x->peers, kp, kp->name, &pc);
		struct nixl_target t = {
			.kind = NK_POD,
			.namespace_ = ns, /* the peer's too: a pick stays in its namespace */
			.pod = kp->name,
			.container = x->ft->probe.container,
			.context = x->ft->probe.context,
			.kubeconfig = x->ft->probe.kubeconfig,
			.peer_state = pc.state,
			.peer_why = pc.why,
			.pod_ip = kp->pod_ip,
			.pod_role = kp->sub_component_type,
			.pod_node = kp->node_name,
			.dgd = kp->dgd,
			.node_judged = x->kind == FLEET_ALL,
		};
		if (pc.peer) {
			*x->peer = x->keys[pc.peer - x->list->pods];
			t.peer = pc.peer->name;
			t.peer_ip = pc.peer->pod_ip;
			t.peer_role = pc.peer->sub_component_type;
			t.peer_node = pc.peer->node_name;
		}
		nixl_analyze(child, &f, &t, target);
		/* nixl alone: the live checks when asked (all has them from node) */
		if (x->kind == FLEET_NIXL && live_facts_asked(&f.node.live)) {
			node_fabric_in(&f.node, &f.node.live.fabric);
			f.node.live.have_fabric = true;
			live_checks_run(child, &f.node.live, "engine");
		}
		nixl_steps(child, &f, &t);
		dedupe_facts(child);
	}
	fleet_pod_from_facts(fp, &f, x->kind != FLEET_NODE);
	nixl_facts_release(&f);
	free(target);
}

struct judge_ctx {
	const struct fleet_target *ft;
	enum fleet_kind kind;
	const struct nixl_peer_index *peers; /* built once: a pick per pod */
	const struct fleet_plan_pod **pps;
	const struct kube_pod_list *list;
	char *const *keys; /* by list index: POD, or NS/POD under -A */
	struct ci_report *children;
	struct fleet_pod *pods;
	size_t n;
	/* trim: only the text layout reads the children, and it shows every
	 * check of a single pod; the steps kept are those lift_steps can take
	 * (the first prefill pod's, the first pod's: indices, n for none) */
	bool trim;
	size_t steps_prefill, steps_any;
	/* The pair test never names a pod that did not answer: each child's
	 * peer, the pods by name (index in pods) and which were judged; the
	 * first children (prefill, any) whose peer had answered when they
	 * were judged keep their steps too, for when the first ones' peers
	 * turn out not to answer. */
	const char **peer;
	bool *judged;
	struct strmap slot;
	size_t safe_prefill, safe_any;
};

enum answer {
	ANSWER_NO,
	ANSWER_YES,
	ANSWER_PENDING
};

/* Whether child i's peer answered (yes when it has none: the steps then
 * name no other pod); pending while the peer is not judged yet. */
static enum answer peer_answered(const struct judge_ctx *jc, size_t i)
{
	if (!jc->peer[i])
		return ANSWER_YES;
	size_t k = strmap_get(&jc->slot, jc->peer[i]);
	if (k == STRMAP_NONE)
		return ANSWER_NO; /* not probed at all (not ready, not a worker) */
	if (!jc->judged[k])
		return ANSWER_PENDING;
	return jc->pods[k].probed ? ANSWER_YES : ANSWER_NO;
}

static void drop_steps(struct ci_report *c)
{
	for (size_t i = 0; i < c->n_steps; i++) {
		free(c->steps[i].description);
		free(c->steps[i].command);
	}
	free(c->steps);
	c->steps = NULL;
	c->n_steps = c->cap_steps = 0;
}

/* Keep child i's steps only while it is the first (in listing order) of
 * the pods lift_steps would pick from; drop those it displaces. */
static void keep_steps(struct judge_ctx *jc, size_t i)
{
	if (!jc->children[i].n_steps)
		return;
	size_t was_p = jc->steps_prefill, was_a = jc->steps_any;
	size_t was_sp = jc->safe_prefill, was_sa = jc->safe_any;
	bool prefill = !strcmp(jc->pods[i].role, "prefill");
	if (prefill && i < jc->steps_prefill)
		jc->steps_prefill = i;
	if (i < jc->steps_any)
		jc->steps_any = i;
	if (peer_answered(jc, i) == ANSWER_YES) {
		if (prefill && i < jc->safe_prefill)
			jc->safe_prefill = i;
		if (i < jc->safe_any)
			jc->safe_any = i;
	}
	size_t cand[5] = {i, was_p, was_a, was_sp, was_sa};
	for (size_t k = 0; k < 5; k++)
		if (cand[k] < jc->n && cand[k] != jc->steps_prefill && cand[k] != jc->steps_any &&
		    cand[k] != jc->safe_prefill && cand[k] != jc->safe_any)
			drop_steps(&jc->children[cand[k]]);
}

/* The checks array at its size: a fleet holds thousands of them. */
static void shrink_checks(struct ci_report *c)
{
	if (c->cap_checks > c->n_checks && c->n_checks) {
		c->checks = xrealloc(c->checks, c->n_checks * sizeof(*c->checks));
		c->cap_checks = c->n_checks;
	}
}

/* fleet_probe_all's callback, on this thread, as each pod's answer comes
 * in: judge it into its own slot (the report keeps the listing's order,
 * whatever order the answers came in) and free the transcript. */
/* --bundle: what a pod answered, as the replay reads it back: its
 * transcript (secret-free, as --save-probe keeps it), or why it has none. */
static void bundle_pod(const struct judge_ctx *jc, const struct fleet_job *job)
{
	char *name = xasprintf("probe/pods/%s", job->key);
	if (job->started && job->out.err == PROBE_OK && job->out.raw) {
		size_t len = 0;
		char *saved = probe_transcript_saved(job->out.raw, job->out.raw_len, &len);
		bundle_add(jc->ft->bundle, name, saved, len);
		free(saved);
	} else {
		json_t *j = json_pack("{s:b,s:b,s:i,s:s?}", "started", job->started,
				      "deadline_bound", job->deadline_bound, "error",
				      (int)job->out.err, "message", job->out.message);
		char *s = j ? json_dumps(j, JSON_PRESERVE_ORDER) : NULL;
		char *err = xasprintf("%s.error", name);
		if (s)
			bundle_add(jc->ft->bundle, err, s, strlen(s));
		free(err);
		free(s);
		json_decref(j);
	}
	free(name);
}

/* --replay BUNDLE: pod `job->pod`'s outcome as the bundle holds it. */
static void replay_pod(const struct fleet_target *ft, struct fleet_job *job)
{
	memset(&job->out, 0, sizeof(job->out));
	char *name = xasprintf("probe/pods/%s", job->key);
	char *err = xasprintf("%s.error", name);
	const struct bundle_entry *t = bundle_find(ft->replay, name);
	const struct bundle_entry *e = bundle_find(ft->replay, err);
	job->started = true;
	if (t) {
		struct probe_target pt = ft->probe;
		pt.replay_data = t->data;
		pt.replay_len = t->len;
		pt.replay_target = name;
		probe_collect(&pt, NULL, &job->out);
	} else {
		json_t *j = e ? json_loadb(e->data, e->len, 0, NULL) : NULL;
		json_t *m = json_object_get(j, "message");
		job->started = !j || json_is_true(json_object_get(j, "started"));
		job->deadline_bound = json_is_true(json_object_get(j, "deadline_bound"));
		int code = (int)json_integer_value(json_object_get(j, "error"));
		job->out.err = j && code > 0 ? (enum probe_error)code : PROBE_BAD_TRANSCRIPT;
		job->out.message = json_is_string(m) ? xstrdup(json_string_value(m))
				   : j               ? NULL
				       : xasprintf("the bundle holds nothing for pod %s", job->key);
		json_decref(j);
	}
	free(err);
	free(name);
}

static void judge_one(void *ctx, size_t i, struct fleet_job *job)
{
	struct judge_ctx *jc = ctx;
	if (jc->ft->bundle)
		bundle_pod(jc, job);
	struct pod_ctx x = {.ft = jc->ft,
			    .kind = jc->kind,
			    .peers = jc->peers,
			    .pp = jc->pps[i],
			    .job = job,
			    .peer = &jc->peer[i],
			    .list = jc->list,
			    .keys = jc->keys};
	judge_pod(&x, &jc->children[i], &jc->pods[i]);
	jc->judged[i] = true;
	probe_outcome_release(&job->out);
	if (jc->trim) {
		fleet_text_trim_child(&jc->children[i]);
		keep_steps(jc, i);
	}
	shrink_checks(&jc->children[i]);
}

/* The pair test is the same for every prefill/decode pair: show the first
 * prefill pod's commands once at the top, of a pod whose peer answered
 * (every pod is judged by now); none when no pair answered. */
static void lift_steps(struct ci_report *r, const struct judge_ctx *jc)
{
	const struct ci_report *pick = NULL;
	for (size_t i = 0; i < r->n_children && !pick; i++)
		if (r->children[i].n_steps && !strcmp(jc->pods[i].role, "prefill") &&
		    peer_answered(jc, i) == ANSWER_YES)
			pick = &r->children[i];
	for (size_t i = 0; i < r->n_children && !pick; i++)
		if (r->children[i].n_steps && peer_answered(jc, i) == ANSWER_YES)
			pick = &r->children[i];
	for (size_t i = 0; pick && i < pick->n_steps; i++)
		report_add_step(r, pick->steps[i].description, pick->steps[i].command);
}

int fleet_run(const struct fleet_target *ft, enum fleet_kind kind, struct ci_report *out,
	      struct fleet_result *res)
{
	double now = run_now(), timeout = probe_target_timeout(&ft->probe);
	double deadline = ft->deadline_s > 0 ? now + ft->deadline_s : 0;
	double list_by = deadline > 0 && deadline < now + timeout ? deadline : now + timeout;
	char *sel = fleet_selector(ft);
	char *what = ft->deployment ? xasprintf("deployment %s", ft->deployment)
				    : xasprintf("selector %s", sel);

	struct kube_pod_list list;
	kube_pod_list_init(&list);
	char *msg = NULL;
	enum probe_error e = PROBE_OK;
	if (ft->replay) {
		const struct bundle_entry *pl = bundle_find(ft->replay, "probe/pods.json");
		if (!pl || kube_pods_parse(pl->data, pl->len, &list)) {
			e = PROBE_BAD_TRANSCRIPT;
			msg = xstrdup("the bundle holds no pod list (probe/pods.json)");
		}
	} else {
		e = kube_get_pods(&ft->probe, ft->probe.namespace_, sel, list_by, &list, &msg,
				  NULL);
	}
	if (e != PROBE_OK) {
		const char *m = msg ? msg : probe_error_name(e);
		if (res)
			res->error = xstrdup(m);
		struct ci_check *c = report_check(out, FLEET_CHECK(PODS), CI_SKIPPED, what,
						  "the pods could not be listed: %s", m);
		check_set_fix(c,
			      "check kubectl's access to the namespace (kubectl get pods -n NS)");
		free(msg);
		free(what);
		free(sel);
		kube_pod_list_release(&list);
		return e == PROBE_BAD_TARGET ? CI_EXIT_USAGE : CI_EXIT_UNKNOWN;
	}

	if (ft->bundle) {
		char *dump = kube_pods_dump(&list);
		if (dump)
			bundle_add(ft->bundle, "probe/pods.json", dump, strlen(dump));
		free(dump);
	}
	/* Each pod's name in the report, the bundle and the pair test: under
	 * -A the same name may be two namespaces' pods, so NS/POD, as kubectl
	 * get -A shows the namespace beside the name. */
	char **keys = xcalloc(list.n ? list.n : 1, sizeof(*keys));
	for (size_t i = 0; i < list.n; i++)
		keys[i] =
			ft->all_namespaces
				? xasprintf("%s/%s",
					    list.pods[i].namespace_ ? list.pods[i].namespace_ : "",
					    list.pods[i].name)
				: xstrdup(list.pods[i].name);
	struct fleet_plan plan;
	fleet_plan_make(&list, &plan);
	plan.keys = keys;
	fleet_plan_report(out, &plan, what);

	size_t n = plan.n_probe;
	struct fleet_job *jobs = xcalloc(n ? n : 1, sizeof(*jobs));
	const struct fleet_plan_pod **pps = xcalloc(n ? n : 1, sizeof(*pps));
	for (size_t i = 0, k = 0; i < plan.n; i++)
		if (plan.v[i].pick == FP_PROBE) {
			pps[k] = &plan.v[i];
			jobs[k].pod = plan.v[i].kp->name;
			jobs[k].key = keys[plan.v[i].kp - list.pods];
			jobs[k++].namespace_ = ft->all_namespaces ? plan.v[i].kp->namespace_ : NULL;
		}
	struct fleet_pod *pods = xcalloc(n ? n : 1, sizeof(*pods));
	struct ci_report *children = xcalloc(n ? n : 1, sizeof(*children));
	/* One index for every pod's peer: a scan of the list per pod would
	 * make a 10,000-pod nixl or all run quadratic (nixl_peer.c). */
	struct nixl_peer_index peers;
	memset(&peers, 0, sizeof(peers));
	if (kind != FLEET_NODE)
		nixl_peer_index_init(&peers, &list);
	struct judge_ctx jc = {.ft = ft,
			       .kind = kind,
			       .peers = &peers,
			       .pps = pps,
			       .list = &list,
			       .keys = keys,
			       .children = children,
			       .pods = pods,
			       .n = n,
			       .trim = ft->text_summary && n >= 2,
			       .steps_prefill = n,
			       .steps_any = n,
			       .peer = xcalloc(n ? n : 1, sizeof(const char *)),
			       .judged = xcalloc(n ? n : 1, sizeof(bool)),
			       .safe_prefill = n,
			       .safe_any = n};
	strmap_init(&jc.slot);
	for (size_t i = 0; i < n; i++)
		strmap_put(&jc.slot, jobs[i].key, i);
	if (ft->replay) {
		for (size_t i = 0; i < n; i++) {
			replay_pod(ft, &jobs[i]);
			judge_one(&jc, i, &jobs[i]);
		}
	} else {
		fleet_probe_all(ft, jobs, n, deadline, judge_one, &jc);
	}
	/* Every pod is judged: a pair test whose peer did not answer is no
	 * command to give (it would point nixlbench at a dead pod). */
	for (size_t i = 0; i < n; i++)
		if (children[i].n_steps && peer_answered(&jc, i) != ANSWER_YES)
			drop_steps(&children[i]);
	fleet_checks_run(out, kind, pods, n);
	fleet_check_live(out, pods, n, ft->jobs > 0 ? (size_t)ft->jobs : 1);
	for (size_t i = 0; i < n; i++)
		report_adopt_child(out, &children[i]);
	if (kind != FLEET_NODE)
		lift_steps(out, &jc);
	strmap_release(&jc.slot);
	free(jc.peer);
	free(jc.judged);

	if (res) {
		res->pods = pods;
		res->n = n;
		res->selector = sel;
		sel = NULL;
	} else {
		for (size_t i = 0; i < n; i++)
			fleet_pod_release(&pods[i]);
		free(pods);
	}
	free(children);
	free(jobs);
	free(pps);
	nixl_peer_index_release(&peers);
	fleet_plan_release(&plan);
	for (size_t i = 0; i < list.n; i++)
		free(keys[i]);
	free(keys);
	kube_pod_list_release(&list);
	free(what);
	free(sel);
	return 0;
}
