/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The env checks: pure functions from a classified deployment to report_add
 * calls.  One check per (deployment, id); per-service findings are grouped
 * by message so that "prefill and decode both lack X" reads as one line.
 * docs/checks.md explains every id; keep the two in step.
 *
 * Severity policy (each warn or fail must be defensible to a recipe author):
 *  - fail: the recipe as written forces KV or NCCL onto a broken or TCP path
 *    (UCX_TLS without RDMA, only TCP devices, one worker denied the NIC the
 *    other has).
 *  - warn: a slow path, a known failure mode, or something the recipe leaves
 *    to the image/cluster that the node check must confirm.
 *  - skipped, not critical: the rule does not apply (aggregated, not UCX).
 *  - skipped, critical: the rule applies but the recipe cannot tell us.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/redact.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "env/env_desc.h"
#include "env/env_analyze.h"
#include "rules/engines.h"
#include "rules/k8s.h"
#include "rules/ucx.h"
#include "env/env_varrules.h"

/* ---- grouping helper ---- */

struct item {
	enum ci_status st;
	char *svc;
	char *msg;
};

struct acc {
	struct item *it;
	size_t n, cap;
	char **ev;
	size_t n_ev, cap_ev;
	char *fix; /* fix of the worst status seen */
	enum ci_status fix_st;
};

static int sev(enum ci_status st)
{
	return st == CI_FAIL ? 3 : st == CI_WARN ? 2 : st == CI_OK ? 1 : 0;
}

static void acc_note(struct acc *a, enum ci_status st, const char *svc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void acc_note(struct acc *a, enum ci_status st, const char *svc, const char *fmt, ...)
{
	struct item *i = XPUSH(a->it, a->n, a->cap);
	i->st = st;
	i->svc = xstrdup(svc ? svc : "(unnamed)");
	va_list ap;
	va_start(ap, fmt);
	i->msg = xvasprintf(fmt, ap);
	va_end(ap);
}

static void acc_fix(struct acc *a, enum ci_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void acc_fix(struct acc *a, enum ci_status st, const char *fmt, ...)
{
	if (a->fix && sev(st) <= sev(a->fix_st))
		return;
	free(a->fix);
	va_list ap;
	va_start(ap, fmt);
	a->fix = xvasprintf(fmt, ap);
	va_end(ap);
	a->fix_st = st;
}

static void acc_ev(struct acc *a, struct src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void acc_ev(struct acc *a, struct src_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *body = xvasprintf(fmt, ap);
	va_end(ap);
	char *line = loc.file ? (loc.line ? xasprintf("%s:%d: %s", loc.file, loc.line, body)
					  : xasprintf("%s: %s", loc.file, body))
			      : xstrdup(body);
	free(body);
	for (size_t i = 0; i < a->n_ev; i++)
		if (!strcmp(a->ev[i], line)) {
			free(line);
			return;
		}
	if (a->n_ev < 24)
		*XPUSH(a->ev, a->n_ev, a->cap_ev) = line;
	else
		free(line);
}

/* The caps of one grouped detail: the services that share a finding, and
 * the whole line. */
#define ACC_SVCS_CAP   384
#define ACC_DETAIL_CAP 1536

/* Emit the grouped check and free the accumulator.  Returns NULL when
 * nothing was noted. */
static struct ci_check *acc_emit(struct acc *a, struct ci_report *r, const struct check_desc *ck,
				 const char *subject)
{
	struct ci_check *c = NULL;
	if (a->n) {
		enum ci_status worst = a->it[0].st;
		for (size_t i = 1; i < a->n; i++)
			if (sev(a->it[i].st) > sev(worst))
				worst = a->it[i].st;
		/* Bounded, and saying so: a recipe with many services that all
		 * differ would otherwise make a detail no terminal shows. */
		struct strbuf buf = STRBUF_INIT, svcs = STRBUF_INIT;
		bool *done = xcalloc(a->n, sizeof(bool));
		for (size_t i = 0; i < a->n; i++) {
			if (done[i] || a->it[i].st != worst)
				continue;
			strbuf_reset(&svcs);
			for (size_t j = i; j < a->n; j++) {
				if (done[j] || a->it[j].st != worst ||
				    strcmp(a->it[j].msg, a->it[i].msg))
					continue;
				done[j] = true;
				bool dup = false;
				for (size_t k = i; k < j; k++)
					if (a->it[k].st == worst &&
					    !strcmp(a->it[k].msg, a->it[i].msg) &&
					    !strcmp(a->it[k].svc, a->it[j].svc))
						dup = true;
				if (dup)
					continue;
				strbuf_joinf_capped(&svcs, ACC_SVCS_CAP, ", ", "%s", a->it[j].svc);
			}
			strbuf_joinf_capped(&buf, ACC_DETAIL_CAP, "; ", "%s: %s", svcs.buf,
					    a->it[i].msg);
		}
		free(done);
		c = report_check(r, ck, worst, subject, "%s", buf.buf);
		strbuf_release(&buf);
		strbuf_release(&svcs);
		if (a->fix && (worst == CI_WARN || worst == CI_FAIL))
			check_set_fix(c, "%s", a->fix);
		for (size_t i = 0; i < a->n_ev; i++)
			check_add_evidence(c, "%s", a->ev[i]);
	}
	for (size_t i = 0; i < a->n; i++) {
		free(a->it[i].svc);
		free(a->it[i].msg);
	}
	free(a->it);
	for (size_t i = 0; i < a->n_ev; i++)
		free(a->ev[i]);
	free(a->ev);
	free(a->fix);
	memset(a, 0, sizeof(*a));
	return c;
}

/* ---- helpers ---- */

/* The service as findings name it: with its engine container when that
 * is not the main one (deploy_model.h, service.label). */
static const char *svc_name(const struct service *s)
{
	return s->label ? s->label : s->name ? s->name : "(unnamed)";
}

static const char *shown(const struct env_var *v)
{
	if (!v)
		return "(not set)";
	if (v->value_from)
		return v->value_from;
	return redact_value(v->name, v->value ? v->value : "");
}

static void ev_var(struct acc *a, const struct env_var *v)
{
	if (v)
		acc_ev(a, v->loc, "%s=%s", v->name, shown(v));
}

/* A device-plugin resource of a NIC: a row of rules/k8s.c, or an extended
 * resource whose name says RDMA, HCA, RoCE, InfiniBand, SR-IOV or EFA. */
static bool has_rdma_resource(const struct service *s, const char **which)
{
	for (size_t i = 0; i < s->resources.n; i++) {
		const char *k = s->resources.v[i].key;
		if (k && k8s_resource_fabric(k, NULL) != K8S_NET_NONE) {
			if (which)
				*which = k;
			return true;
		}
	}
	return false;
}

/* An RDMA device resource, else a DRA claim of a NIC (*which: its name). */
static bool worker_nic(const struct env_worker *w, const char **which, bool *claim)
{
	*claim = false;
	if (has_rdma_resource(w->svc, which))
		return true;
	if (w->nic_claim) {
		*claim = true;
		if (which)
			*which = w->nic_claim;
		return true;
	}
	return false;
}

static bool has_ib_mount(const struct service *s)
{
	for (size_t i = 0; i < s->host_paths.n; i++)
		if (s->host_paths.v[i].value &&
		    !strncmp(s->host_paths.v[i].value, "/dev/infiniband", 15))
			return true;
	return false;
}

static bool is_kv_worker(const struct env_worker *w)
{
	return w->kv.path != KV_NONE;
}

static const char *role_word(const struct service *s)
{
	switch (s->role) {
	case ROLE_PREFILL: return "prefill";
	case ROLE_DECODE: return "decode";
	default: return "worker";
	}
}

static bool is_role(const struct env_worker *w, enum svc_role role)
{
	if (w->svc->role == role)
		return true;
	const char *cmd = w->svc->command_line ? w->svc->command_line : "";
	const char *want = role == ROLE_PREFILL ? "prefill" : "decode";
	if (role == ROLE_PREFILL && strstr(cmd, "--is-prefill-worker"))
		return true;
	char *m = cmdline_flag_value(cmd, "--disaggregation-mode");
	bool yes = m && !strcasecmp(m, want);
	free(m);
	return yes;
}

/* ---- env.mode / env.transport / env.fabric ---- */

static void check_mode(struct ci_report *r, const struct env_class *c)
{
	char fab[64], be[64];
	env_fabric_summary(c->fabric, fab, sizeof(fab));
	env_backend_summary(c, be, sizeof(be));
	char nodes[64];
	if (c->multinode)
		snprintf(nodes, sizeof(nodes), "multi-node (%ld nodes/worker)", c->max_nodes);
	else
		snprintf(nodes, sizeof(nodes), "single-node workers");
	char kv[160] = "";
	if (c->mode == MODE_DISAGG) {
		/* the first KV worker's decision, with its assumption */
		for (size_t i = 0; i < c->n_w; i++)
			if (is_kv_worker(&c->w[i])) {
				const struct worker_kv *k = &c->w[i].kv;
				snprintf(kv, sizeof(kv), ", KV backend %s%s", be,
					 k->assumed ? " (assumed: see env.backend)" : "");
				break;
			}
	}
	struct ci_check *ck =
		report_check(r, ENV_CHECK(MODE), CI_OK, c->label, "%s%s, %s, %s%s, fabric: %s",
			     env_mode_name(c), c->cross_pod ? " (KV crosses pods)" : "", nodes,
			     env_engine_name(c->engine), kv, fab);
	const struct deployment *d = c->dep;
	if (d->loc.file)
		check_add_evidence(ck, "%s:%d: %s %s", d->loc.file, d->loc.line,
				   d->kind ? d->kind : "workload", d->name ? d->name : "");
	check_add_evidence(ck, "mode: %s", c->mode_how);
	check_add_evidence(ck, "engine: %s", c->engine_how);
	check_add_evidence(ck, "fabric: %s", c->fabric_how);
	for (size_t i = 0; i < c->n_w; i++) {
		const struct service *s = c->w[i].svc;
		if (s->node_count > 1 && s->nodes_how)
			check_add_evidence(ck, "%s: %ld nodes (%s)", svc_name(s), s->node_count,
					   s->nodes_how);
		else if (s->node_count > 1)
			check_add_evidence(ck, "%s: multinode.nodeCount %ld", svc_name(s),
					   s->node_count);
		if (is_kv_worker(&c->w[i]))
			check_add_evidence(ck, "%s (%s): %s", svc_name(s), role_word(s),
					   c->w[i].kv.how);
	}
}

/* Every KV worker's connector keeps KV within its node or writes it to
 * files (vLLM's ExampleConnector, CPU offload): nothing crosses pods over a
 * network the recipe could give.  The first such connector, else NULL. */
static const char *kv_stays_local(const struct env_class *c)
{
	const char *name = NULL;
	for (size_t i = 0; i < c->n_w; i++) {
		const struct env_worker *w = &c->w[i];
		if (!is_kv_worker(w))
			continue;
		const struct kv_connector *row =
			w->kv.path == KV_OTHER ? engine_kv_connector(w->kv.nixl_backend) : NULL;
		if (!row || row->kind != KV_CONN_LOCAL)
			return NULL;
		name = row->name;
	}
	return name;
}

static void check_fabric(struct ci_report *r, const struct env_class *c)
{
	char fab[64];
	env_fabric_summary(c->fabric, fab, sizeof(fab));
	if (c->fabric) {
		struct ci_check *ok =
			report_check(r, ENV_CHECK(FABRIC), CI_OK, c->label, "%s", c->fabric_how);
		if (c->other_res[0])
			check_add_evidence(ok, "also requested, naming no fabric: %s",
					   c->other_res);
		return;
	}
	const char *local = c->multinode ? NULL : kv_stays_local(c);
	if (local) {
		report_na(r, ENV_CHECK(FABRIC), c->label,
			  "KV goes through %s, which keeps it in files or host memory (vLLM's "
			  "kv_connector/factory.py): no network carries KV between the pods, so no "
			  "fabric is needed for it",
			  local);
		return;
	}
	const char *what =
		c->mode == MODE_DISAGG
			? (c->multinode
				   ? "KV between the prefill and decode pods and NCCL between nodes"
				   : "KV between the prefill and decode pods")
			: "NCCL between the nodes of a worker";
	struct ci_check *ck = report_check(
		r, ENV_CHECK(FABRIC), CI_WARN, c->label,
		"the recipe requests no RDMA device, /dev/infiniband mount or ComputeDomain and sets no "
		"fabric variable: the path of %s depends on what the cluster injects, else TCP%s%s%s%s",
		what,
		strstr(c->fabric_how, "is named -efa")
			? " (an image named -efa is a hint, not EFA: the pods request no "
			  "vpc.amazonaws.com/efa)"
			: "",
		c->other_res[0] ? " (they request " : "", c->other_res,
		c->other_res[0] ? ", whose names say no RDMA, RoCE, InfiniBand, SR-IOV or EFA)"
				: "");
	check_set_fix(ck,
		      "request the NIC in the workers' pod spec (rdma/ib, vpc.amazonaws.com/efa, "
		      "networking.gke.io.networks/rdma-N, a ComputeDomain claim) or confirm the "
		      "cluster injects it with `check_interconnect node`");
	check_add_evidence(ck, "fabric: %s", c->fabric_how);
}

/* ---- env.backend ---- */

/* A NIXL worker (UCX or LIBFABRIC): what its engine flags and fabric say
 * about the backend it picked. */
static void backend_nixl(struct acc *a, const struct env_class *c, const struct env_worker *w,
			 const char *sn, const char *word)
{
	if (w->kv.refuses == KV_NO_CONNECTOR_DECODE) {
		/* warn, not fail: the worker starts and serves; what it does
		 * with the prefill worker's KV without a connector is vLLM's
		 * business, and none of it is NIXL */
		acc_note(a, CI_WARN, sn,
			 "vLLM decode worker without --kv-transfer-config on %s: Dynamo 1.0 "
			 "and later set no KV connector (\"the default is no longer nixl\"), so "
			 "this worker has no NixlConnector to receive the prefill worker's KV "
			 "(Dynamo's own examples were fixed for this, ai-dynamo/dynamo#11467)",
			 w->kv.refuse_why);
		acc_fix(a, CI_WARN,
			"give the decode worker the prefill worker's --kv-transfer-config, "
			"e.g. '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'");
	} else if (w->kv.refuses) {
		bool v1 = w->kv.refuses == KV_REFUSE_PREFILL;
		acc_note(a, v1 ? CI_FAIL : CI_WARN, sn,
			 "vLLM prefill worker without --kv-transfer-config%s: Dynamo "
			 "1.0 and later refuse to start it (ValueError \"When using "
			 "--disaggregation-mode prefill, you must explicitly provide "
			 "--kv-transfer-config\"); %s",
			 v1 ? " does not start" : "", w->kv.refuse_why);
		acc_fix(a, v1 ? CI_FAIL : CI_WARN,
			"give the prefill worker --kv-transfer-config "
			"'{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'");
	} else if (w->kv.host_buffer) {
		acc_note(a, CI_WARN, sn,
			 "%s with kv_buffer_device \"cpu\" (%s): correct, but vLLM's "
			 "NixlConnector then stages every KV transfer through host "
			 "memory (use_host_buffer): no GPUDirect RDMA",
			 word, w->kv.how);
		acc_fix(a, CI_WARN,
			"use \"kv_buffer_device\":\"cuda\" (the default) unless the "
			"device memory cannot be registered with the NIC");
	} else if (*w->kv.host_staging) {
		acc_note(a, CI_WARN, sn,
			 "%s with %s (%s): correct, but SGLang's NIXL connector then "
			 "writes every KV transfer through pinned host memory (HOST "
			 "staging: prefill packs a host slot, decode scatters from a host "
			 "ring): no GPUDirect RDMA",
			 word, w->kv.host_staging, w->kv.how);
		acc_fix(a, CI_WARN,
			"unset SGLANG_NIXL_HOST_STAGING_MB (0 turns HOST staging off: NIXL "
			"writes GPU to GPU) unless the GPU memory cannot be registered with "
			"the NIC");
	} else if (w->uses_ucx && (c->fabric & FAB_EFA)) {
		acc_note(a, CI_WARN, sn,
			 "%s on EFA (%s): UCX gives no GPUDirect RDMA on EFA "
			 "with kernel >= 6.8; NIXL's LIBFABRIC backend is the EFA path",
			 word, w->kv.how);
		acc_fix(a, CI_WARN,
			"select NIXL's LIBFABRIC backend: vLLM "
			"kv_connector_extra_config {\"backends\":[\"LIBFABRIC\"]}, SGLang "
			"SGLANG_DISAGGREGATION_NIXL_BACKEND=LIBFABRIC, TRT-LLM "
			"TRTLLM_NIXL_KVCACHE_BACKEND=LIBFABRIC");
	} else if (w->uses_libfabric && c->fabric && !(c->fabric & FAB_EFA)) {
		char fab[64];
		env_fabric_summary(c->fabric, fab, sizeof(fab));
		acc_note(a, CI_WARN, sn,
			 "%s on %s (%s): NIXL's libfabric backend is the EFA "
			 "path; UCX is the tested backend on this fabric",
			 word, fab, w->kv.how);
		acc_fix(a, CI_WARN,
			"use NIXL's UCX backend on %s (drop LIBFABRIC from the "
			"backends)",
			fab);
	} else {
		acc_note(a, CI_OK, sn, "%s (%s)", word, w->kv.how);
	}
}

static void check_backend(struct ci_report *r, const struct env_class *c)
{
	struct acc a = {0};
	bool unknown = false;
	for (size_t i = 0; i < c->n_w; i++) {
		const struct env_worker *w = &c->w[i];
		if (!is_kv_worker(w))
			continue;
		const char *sn = svc_name(w->svc);
		char word[48];
		env_kv_word(w, word, sizeof(word));
		acc_ev(&a, w->kv.loc, "%s: %s", sn, w->kv.how);
		switch (w->kv.path) {
		case KV_UNKNOWN:
			unknown = true;
			acc_note(&a, CI_SKIPPED, sn, "%s", w->kv.how);
			break;
		case KV_MOONCAKE:
			acc_note(
				&a, CI_OK, sn,
				"Mooncake (%s); its RDMA devices come from "
				"--disaggregation-ib-device and MC_* variables, so the UCX rules do not apply",
				w->kv.how);
			break;
		case KV_OTHER:
			acc_note(&a, CI_OK, sn,
				 "%s (%s): not NIXL, so the UCX/libfabric rules do not apply", word,
				 w->kv.how);
			break;
		default: backend_nixl(&a, c, w, sn, word);
		}
	}
	/* A worker whose backend cannot be read makes the check skipped
	 * (critical: unknown), whatever the other workers use, unless one
	 * has a finding of its own. */
	bool finding = false;
	for (size_t i = 0; i < a.n; i++)
		finding |= a.it[i].st == CI_WARN || a.it[i].st == CI_FAIL;
	for (size_t i = 0; unknown && !finding && i < a.n; i++)
		if (a.it[i].st == CI_OK)
			a.it[i].st = CI_SKIPPED;
	struct ci_check *ck = acc_emit(&a, r, ENV_CHECK(BACKEND), c->label);
	if (ck && unknown && ck->status == CI_SKIPPED)
		check_set_fix(
			ck,
			"name the KV backend explicitly (--kv-transfer-config, "
			"--disaggregation-transfer-backend or cache_transceiver_config.backend)");
}

/* ---- env.pair.agree ---- */

/* Variables that legitimately differ between the two sides: logging,
 * telemetry, debugging, per-pod endpoints, and device names (a per-node
 * property: heterogeneous prefill/decode hardware names its NICs
 * differently and still shares the fabric). */
static bool pair_ignored(const char *n)
{
	return strstr(n, "LOG_LEVEL") || strstr(n, "DEBUG") || !strncmp(n, "NIXL_TELEMETRY_", 15) ||
	       !strncmp(n, "NIXL_SIDE_CHANNEL_", 18) || !strcmp(n, "UCX_NET_DEVICES") ||
	       !strcmp(n, "UCX_LOG_FILE");
}

static bool pair_family(const char *n)
{
	return !strncmp(n, "UCX_", 4) || !strncmp(n, "NIXL_", 5) || !strncmp(n, "FI_", 3);
}

/* Whether two workers' KV paths share a backend: equal paths, or NIXL on
 * both with a backend of one in the other's list ("UCX+LIBFABRIC"). */
static bool kv_common_backend(const struct env_worker *p, const struct env_worker *d)
{
	if (p->kv.path != d->kv.path)
		return false;
	if (p->kv.path != KV_NIXL)
		return !strcasecmp(p->kv.nixl_backend, d->kv.nixl_backend);
	char a[sizeof(p->kv.nixl_backend)];
	snprintf(a, sizeof(a), "%s", p->kv.nixl_backend);
	for (char *save = NULL, *t = strtok_r(a, "+", &save); t; t = strtok_r(NULL, "+", &save)) {
		char b[sizeof(d->kv.nixl_backend)];
		snprintf(b, sizeof(b), "%s", d->kv.nixl_backend);
		for (char *s2 = NULL, *u = strtok_r(b, "+", &s2); u; u = strtok_r(NULL, "+", &s2))
			if (!strcasecmp(t, u))
				return true;
	}
	return false;
}

/* What comparing every prefill/decode pair found. */
struct pair_tally {
	struct acc a;
	size_t compared, diffs;
	bool unreadable, no_connector;
	bool ignored; /* a side sets a variable that is not compared */
};

static bool no_connector(const struct env_worker *w)
{
	return w->kv.refuses == KV_REFUSE_PREFILL || w->kv.refuses == KV_NO_CONNECTOR_DECODE;
}

/* One pair's KV backends: an unreadable one is env.backend's skipped, not
 * a difference. */
static void pair_backends(struct pair_tally *t, const struct env_class *c,
			  const struct env_worker *p, const struct env_worker *d)
{
	char wp[48], wd[48];
	env_kv_word(p, wp, sizeof(wp));
	env_kv_word(d, wd, sizeof(wd));
	bool readable = p->kv.path != KV_UNKNOWN && d->kv.path != KV_UNKNOWN;
	/* a vLLM worker on Dynamo >= 1.0 without --kv-transfer-config has no
	 * connector at all: env.backend says so; there is nothing to compare */
	bool none = no_connector(p) || no_connector(d);
	t->unreadable |= !readable && !none;
	t->no_connector |= none;
	if (!readable || none || !strcmp(wp, wd))
		return;
	t->diffs++;
	/* Two NIXL agents with no backend in common cannot transfer at all;
	 * with one in common they differ in what else they may use. */
	bool common = kv_common_backend(p, d);
	acc_note(&t->a, common ? CI_WARN : CI_FAIL, c->label,
		 "KV backend differs: %s on prefill %s vs %s on decode %s%s", wp, svc_name(p->svc),
		 wd, svc_name(d->svc),
		 common ? "" : ": no backend in common, so no KV can move between them");
	if (!common)
		acc_fix(&t->a, CI_FAIL,
			"give prefill and decode the same KV backend "
			"(the same connector and NIXL backends list)");
	acc_ev(&t->a, p->kv.loc, "%s: %s", svc_name(p->svc), p->kv.how);
	acc_ev(&t->a, d->kv.loc, "%s: %s", svc_name(d->svc), d->kv.how);
}

/* One pair's transport variables: every name set on either side, once. */
static void pair_vars(struct pair_tally *t, const struct env_class *c, const struct env_worker *p,
		      const struct env_worker *d)
{
	const char *seen[128];
	size_t n_seen = 0;
	const struct env_list *lists[2] = {&p->svc->env, &d->svc->env};
	for (int side = 0; side < 2; side++)
		for (size_t k = 0; k < lists[side]->n; k++) {
			const char *name = lists[side]->v[k].name;
			if (!name || !pair_family(name))
				continue;
			if (pair_ignored(name)) {
				t->ignored = true;
				continue;
			}
			bool dup = false;
			for (size_t s = 0; s < n_seen; s++)
				if (!strcmp(seen[s], name))
					dup = true;
			if (dup)
				continue;
			if (n_seen < 128)
				seen[n_seen++] = name;
			t->compared++;
			const struct env_var *vp = service_env_get(p->svc, name);
			const struct env_var *vd = service_env_get(d->svc, name);
			if (!strcmp(shown(vp), shown(vd)))
				continue;
			t->diffs++;
			acc_note(&t->a, CI_WARN, c->label,
				 "%s differs: %s on prefill %s vs %s on decode %s", name, shown(vp),
				 svc_name(p->svc), shown(vd), svc_name(d->svc));
			ev_var(&t->a, vp);
			ev_var(&t->a, vd);
		}
}

static void check_pair(struct ci_report *r, const struct env_class *c)
{
	const struct env_worker *pre[16], *dec[16];
	size_t np = 0, nd = 0;
	for (size_t i = 0; i < c->n_w; i++) {
		const struct env_worker *w = &c->w[i];
		if (!is_kv_worker(w))
			continue;
		if (is_role(w, ROLE_PREFILL) && np < 16)
			pre[np++] = w;
		else if (is_role(w, ROLE_DECODE) && nd < 16)
			dec[nd++] = w;
	}
	if (!np || !nd)
		return;
	struct pair_tally t = {0};
	for (size_t pi = 0; pi < np; pi++)
		for (size_t di = 0; di < nd; di++) {
			pair_backends(&t, c, pre[pi], dec[di]);
			pair_vars(&t, c, pre[pi], dec[di]);
		}
	struct acc *a = &t.a;
	const char *side = t.no_connector ? "one side has no KV connector (see env.backend)"
			   : t.unreadable ? "the KV backend cannot be read on one side (see "
					    "env.backend)"
					  : NULL;
	if (!t.diffs && t.compared)
		acc_note(a, CI_OK, c->label, "%s%s on %zu UCX/NIXL/libfabric variable%s",
			 side ? side : "prefill and decode agree on the KV backend and",
			 side ? "; prefill and decode agree" : "", t.compared,
			 t.compared == 1 ? "" : "s");
	else if (!t.diffs && !side && t.ignored)
		/* why: "set no variable" next to the UCX_NET_DEVICES the same
		 * run lists would contradict it */
		acc_note(a, CI_OK, c->label,
			 "prefill and decode agree on the KV backend; the UCX/NIXL/libfabric "
			 "variables they set are per node or per pod (devices, logging, side "
			 "channels) and not compared");
	else if (!t.diffs)
		acc_note(a, CI_OK, c->label, "%s",
			 side ? side
			      : "prefill and decode agree on the KV backend and set no "
				"UCX/NIXL/libfabric variable");
	acc_fix(a, CI_WARN,
		"set the same UCX/NIXL values and backend on prefill and decode "
		"(both ends of a NIXL transfer must pick the same transports)");
	/* the subject already names the deployment: drop the "label: " prefix */
	for (size_t i = 0; i < a->n; i++) {
		free(a->it[i].svc);
		a->it[i].svc = xstrdup("prefill/decode");
	}
	acc_emit(a, r, ENV_CHECK(PAIR_AGREE), c->label);
}

/* ---- env.vars: fabric-critical variables missing ---- */

/* Names with a check of their own, so env.vars does not warn twice. */
static bool own_check(const char *n)
{
	return !strcmp(n, "UCX_IB_ADDR_TYPE");
}

static unsigned effective_fabric(const struct env_class *c)
{
	/* On MNNVL the KV path is cuda_ipc over NVLink: the NIC variables
	 * stop being critical there. */
	return (c->fabric & FAB_MNNVL) ? FAB_MNNVL : c->fabric;
}

size_t env_unset_critical(const struct env_class *c, const struct env_worker *w, const char **out,
			  size_t cap, bool *none_set)
{
	const char *set[5];
	size_t n = 0;
	bool mnnvl = c->fabric & FAB_MNNVL;
	if (w->uses_ucx && !mnnvl && (c->fabric & (FAB_IB | FAB_ROCE))) {
		set[n++] = "UCX_TLS";
		set[n++] = "UCX_NET_DEVICES";
		if (w->svc->node_count > 1)
			set[n++] = "NCCL_IB_HCA";
	}
	/* On MNNVL UCX_TLS left unset is right: UCX's defaults try cuda_ipc over
	 * fabric handles (rules/ucx.c UCX_MIN_MNNVL_IPC); a value that cuts
	 * cuda_ipc is env.ucx.tls's. */
	if (w->uses_libfabric && (c->fabric & FAB_EFA)) {
		set[n++] = "FI_PROVIDER";
		set[n++] = "FI_EFA_USE_DEVICE_RDMA";
	}
	size_t k = 0, unset = 0;
	for (size_t i = 0; i < n; i++) {
		if (service_env_get(w->svc, set[i]))
			continue;
		unset++;
		if (k < cap)
			out[k++] = set[i];
	}
	*none_set = n && unset == n;
	return unset;
}

/* A worker that sets none of its fabric's critical variables: the
 * original skill's documented symptom ("env reports every critical variable
 * missing"), with `node` as the next step. */
static void vars_none_set(struct acc *a, const struct env_class *c, const struct env_worker *w,
			  const char *fab, const char *const *unset, size_t nu)
{
	struct strbuf names = STRBUF_INIT;
	for (size_t k = 0; k < nu && k < 5; k++)
		strbuf_joinstr(&names, ", ", unset[k]);
	acc_note(a, CI_WARN, svc_name(w->svc),
		 "sets none of the critical transport variables on %s (%s): the "
		 "transport is left to the image; they may be baked into it or "
		 "injected by the operator, and `check_interconnect node` (or `all`) "
		 "reads the pod's real values%s",
		 fab, names.buf,
		 (c->fabric & FAB_MNNVL) && w->uses_ucx
			 ? " (GB200 images that bake UCX_TLS=^cuda_ipc fail with "
			   "\"failed to select lane\", ai-dynamo/nixl#1110)"
			 : "");
	acc_fix(a, CI_WARN,
		"read the pods' real values with `check_interconnect all RECIPE "
		"--deployment NAME -n NS` (or set %s in the recipe)",
		names.buf);
	strbuf_release(&names);
}

/* A worker that sets some: name the missing ones, and on IB/RoCE the
 * transports and devices left for UCX to pick. */
static void vars_some_set(struct acc *a, const struct env_class *c, const struct env_worker *w,
			  unsigned eff, const char *fab, size_t *applicable)
{
	struct strbuf missing = STRBUF_INIT, present = STRBUF_INIT, defaulted = STRBUF_INIT;
	for (size_t k = 0; k < varcat_len; k++) {
		const struct var_info *v = &varcat[k];
		if (!(v->critical_on & eff) || own_check(v->name))
			continue;
		bool relevant = (v->family == VF_UCX && w->uses_ucx) ||
				(v->family == VF_LIBFABRIC && w->uses_libfabric) ||
				(v->family == VF_NCCL && w->svc->node_count > 1);
		if (!relevant)
			continue;
		(*applicable)++;
		const struct env_var *e = service_env_get(w->svc, v->name);
		if (!e && (eff & FAB_MNNVL) && !strcmp(v->name, "UCX_TLS")) {
			strbuf_joinstr(&defaulted, ", ", v->name);
			continue;
		}
		strbuf_joinstr(e ? &present : &missing, ", ", v->name);
		if (e)
			ev_var(a, e);
	}
	/* On IB/RoCE a recipe that pins neither transports nor devices
	 * is portable, not wrong: UCX picks rc/cuda and the HCAs itself.
	 * Say so, and leave the effective values to the node check. */
	struct strbuf unpinned = STRBUF_INIT;
	if (w->uses_ucx && !(c->fabric & FAB_MNNVL) && (c->fabric & (FAB_IB | FAB_ROCE))) {
		static const char *const pins[] = {"UCX_TLS", "UCX_NET_DEVICES"};
		(*applicable)++;
		for (size_t k = 0; k < 2; k++) {
			const struct env_var *e = service_env_get(w->svc, pins[k]);
			if (!e) {
				strbuf_joinstr(&unpinned, ", ", pins[k]);
			} else {
				strbuf_joinstr(&present, ", ", pins[k]);
				ev_var(a, e);
			}
		}
	}
	if (missing.len) {
		bool mn_tls = (eff & FAB_MNNVL) && strstr(missing.buf, "UCX_TLS");
		acc_note(
			a, CI_WARN, svc_name(w->svc),
			"%s not set in the recipe (%s); the image may set %s%s; "
			"`check_interconnect node` reads the pod's real environment",
			missing.buf, fab, strchr(missing.buf, ',') ? "them" : "it",
			mn_tls ? " (GB200 images that bake UCX_TLS=^cuda_ipc fail with \"failed to "
				 "select lane\", ai-dynamo/nixl#1110)"
			       : "");
		acc_fix(a, CI_WARN,
			"set %s in the workers' env for %s, or confirm the image's "
			"values with `check_interconnect node`",
			missing.buf, fab);
	} else if (present.len || unpinned.len || defaulted.len) {
		char dflt[200] = "";
		if (defaulted.len)
			snprintf(dflt, sizeof(dflt),
				 "%s%.40s left to UCX's defaults, right on MNNVL (cuda_ipc over "
				 "fabric handles is tried by default from UCX %s)",
				 present.len || unpinned.len ? "; " : "", defaulted.buf,
				 ucx_rule(UCX_MIN_MNNVL_IPC)->text);
		acc_note(a, CI_OK, svc_name(w->svc), "%s%s%s%s%s%s", present.len ? "set: " : "",
			 present.buf, present.len && unpinned.len ? "; " : "",
			 unpinned.len ? "not pinned, UCX picks them itself (the node check "
					"reads the effective values): "
				      : "",
			 unpinned.buf, dflt);
	}
	strbuf_release(&defaulted);
	strbuf_release(&missing);
	strbuf_release(&present);
	strbuf_release(&unpinned);
}

static void check_vars(struct ci_report *r, const struct env_class *c)
{
	unsigned eff = effective_fabric(c);
	char fab[64];
	env_fabric_summary(c->fabric, fab, sizeof(fab));
	if (!eff) {
		report_na(r, ENV_CHECK(VARS), c->label,
			  "no fabric visible, so no variable is critical (see env.fabric)");
		return;
	}
	struct acc a = {0};
	size_t applicable = 0;
	for (size_t i = 0; i < c->n_w; i++) {
		const struct env_worker *w = &c->w[i];
		const char *unset[5];
		bool none_set;
		size_t nu = env_unset_critical(c, w, unset, 5, &none_set);
		if (none_set) {
			applicable++;
			vars_none_set(&a, c, w, fab, unset, nu);
		} else {
			vars_some_set(&a, c, w, eff, fab, &applicable);
		}
	}
	if (!applicable) {
		report_na(r, ENV_CHECK(VARS), c->label,
			  "no variable is critical for this backend on %s", fab);
		acc_emit(&a, r, ENV_CHECK(VARS), c->label);
		return;
	}
	acc_emit(&a, r, ENV_CHECK(VARS), c->label);
}

/* ---- env.ucx.*, env.nccl.ib: the shared value rules (env_varrules.c) ---- */

/* A worker's variables as the shared rules read them; `where` is the
 * file:line that evidence lines start with. */
struct svc_vars {
	struct var_view *v;
	char **where;
	size_t n;
};

static void svc_vars_init(struct svc_vars *sv, const struct service *s)
{
	const struct env_list *l = &s->env;
	sv->n = l->n;
	sv->v = xcalloc(l->n ? l->n : 1, sizeof(*sv->v));
	sv->where = xcalloc(l->n ? l->n : 1, sizeof(*sv->where));
	for (size_t i = 0; i < l->n; i++) {
		const struct env_var *e = &l->v[i];
		const struct src_loc *loc = &e->loc;
		if (loc->file)
			sv->where[i] = loc->line ? xasprintf("%s:%d", loc->file, loc->line)
						 : xstrdup(loc->file);
		sv->v[i] = (struct var_view){
			.name = e->name,
			.value = e->value,
			.shown = shown(e),
			.where = sv->where[i],
			.ref = e->value_from != NULL,
		};
	}
}

static void svc_vars_release(struct svc_vars *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->where[i]);
	free(sv->where);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

/* Run one shared rule on a worker and add what it found to the group,
 * under the worker's name.  False when the rule had nothing to say. */
static bool acc_rule(struct acc *a, enum varrule_id id, const struct env_class *c,
		     const struct env_worker *w)
{
	struct svc_vars sv;
	svc_vars_init(&sv, w->svc);
	/* A recipe: the fabric is what its pod spec suggests, KV buffers
	 * are GPU memory. */
	struct varrule_ctx x = {
		.fabric = c->fabric,
		.hw = false,
		.gpu = true,
		.cross_pod = c->cross_pod,
		.nodes = w->svc->node_count,
	};
	struct varrule_res res;
	bool any = varrule_eval(id, sv.v, sv.n, &x, &res);
	if (any) {
		for (size_t i = 0; i < res.n_ev; i++) {
			char *e = var_view_evidence(res.ev[i]);
			acc_ev(a, (struct src_loc){0}, "%s", e);
			free(e);
		}
		for (size_t i = 0; i < res.n_note; i++) {
			acc_note(a, res.note[i].st, svc_name(w->svc), "%s", res.note[i].msg);
			if (res.note[i].fix)
				acc_fix(a, res.note[i].st, "%s", res.note[i].fix);
		}
		varrule_res_release(&res);
	}
	svc_vars_release(&sv);
	return any;
}

static bool any_ucx(const struct env_class *c)
{
	for (size_t i = 0; i < c->n_w; i++)
		if (c->w[i].uses_ucx)
			return true;
	return false;
}

/* One grouped check of a shared rule over the UCX workers. */
static struct acc ucx_var_rule(const struct env_class *c, enum varrule_id id)
{
	struct acc a = {0};
	for (size_t i = 0; i < c->n_w; i++)
		if (c->w[i].uses_ucx)
			acc_rule(&a, id, c, &c->w[i]);
	return a;
}

static void check_ucx(struct ci_report *r, const struct env_class *c)
{
	struct acc a = ucx_var_rule(c, VR_UCX_TLS);
	if (!a.n)
		report_na(r, ENV_CHECK(UCX_TLS), c->label,
			  "UCX_TLS is not set in the recipe: UCX uses every transport it finds "
			  "(see env.vars)");
	else
		acc_emit(&a, r, ENV_CHECK(UCX_TLS), c->label);
	static const enum varrule_id more[] = {VR_UCX_NET_DEVICES, VR_UCX_IB_ADDR_TYPE,
					       VR_UCX_RNDV};
	for (size_t k = 0; k < sizeof(more) / sizeof(more[0]); k++) {
		a = ucx_var_rule(c, more[k]);
		acc_emit(&a, r, env_varrule_check(more[k]), c->label);
	}
}

/* NCCL between the nodes of a worker that spans several. */
static void check_nccl(struct ci_report *r, const struct env_class *c)
{
	struct acc a = {0};
	for (size_t i = 0; i < c->n_w; i++)
		if (c->w[i].svc->node_count > 1)
			acc_rule(&a, VR_NCCL_IB, c, &c->w[i]);
	acc_emit(&a, r, ENV_CHECK(NCCL_IB), c->label);
}

/* ---- env.pod.* ---- */

static bool transport_worker(const struct env_worker *w)
{
	return is_kv_worker(w) || w->svc->node_count > 1;
}

/* The NIC plumbing matters when the NIC carries the traffic: on MNNVL the
 * KV path is NVLink, and a NIC fabric guessed from a variable alone (a GID
 * index) does not make the recipe need an RDMA device. */
static bool nic_plumbing_applies(const struct env_class *c)
{
	if (!(c->fabric & (FAB_IB | FAB_ROCE | FAB_EFA)))
		return false;
	if (!(c->fabric & FAB_MNNVL))
		return true;
	for (size_t i = 0; i < c->n_w; i++) {
		bool claim;
		if (worker_nic(&c->w[i], NULL, &claim) || has_ib_mount(c->w[i].svc))
			return true;
	}
	return false;
}

static const char *ctr_name(const struct container *k)
{
	return k && k->name ? k->name : "main";
}

/* Whether container k (that requests a device, adds a capability, is
 * privileged) is not the one that runs the engine, when the engine's
 * container is known by its command: Kubernetes applies devices and
 * securityContext per container. */
static bool elsewhere(const struct service *s, const struct container *k)
{
	const struct container *e = service_engine_container(s);
	return k && e && e->engine && k != e;
}

static const struct container *privileged_container(const struct service *s)
{
	for (size_t i = 0; i < s->n_ctrs; i++)
		if (s->ctrs[i].kind != CTR_INIT && s->ctrs[i].privileged)
			return &s->ctrs[i];
	return NULL;
}

static void check_pod_rdma(struct ci_report *r, const struct env_class *c)
{
	if (!nic_plumbing_applies(c))
		return;
	const char *other = NULL, *other_res = NULL;
	for (size_t i = 0; i < c->n_w && !other; i++) {
		const char *res;
		bool claim;
		if (transport_worker(&c->w[i]) && worker_nic(&c->w[i], &res, &claim)) {
			other = svc_name(c->w[i].svc);
			other_res = res;
		}
	}
	struct acc a = {0};
	for (size_t i = 0; i < c->n_w; i++) {
		const struct env_worker *w = &c->w[i];
		if (!transport_worker(w))
			continue;
		const struct service *s = w->svc;
		const char *sn = svc_name(s);
		const char *res = NULL;
		const struct container *k = NULL;
		if (has_rdma_resource(s, &res) &&
		    elsewhere(s, (k = service_container_with_resource(s, res)))) {
			/* A device plugin mounts the device into the container
			 * that requests it, not into the pod. */
			acc_note(&a, CI_WARN, sn,
				 "%s is requested by container %s, not by the engine's container "
				 "%s: a device plugin gives the device only to the container that "
				 "requests it",
				 res, ctr_name(k), ctr_name(service_engine_container(s)));
			acc_ev(&a, k->loc, "%s: container %s requests %s", sn, ctr_name(k), res);
			acc_fix(&a, CI_WARN, "request %s in the container that runs the engine",
				res);
		} else if (has_rdma_resource(s, &res) && !strcmp(res, "vpc.amazonaws.com/efa") &&
			   !s->privileged && w->uses_libfabric) {
			/* Dynamo's EFA guide: "privileged: true is required for NIXL
			 * to register CUDA VRAM with the EFA NIC via fi_mr_reg.
			 * IPC_LOCK alone is insufficient."  Upstream's own examples
			 * lack it, hence a warn. */
			acc_note(
				&a, CI_WARN, sn,
				"requests %s but is not privileged: Dynamo's EFA guide requires "
				"privileged: true for NIXL to register GPU memory with the EFA NIC "
				"(fi_mr_reg; \"IPC_LOCK alone is insufficient\")",
				res);
			acc_ev(&a, s->loc, "%s: resource %s", sn, res);
			acc_fix(&a, CI_WARN,
				"set securityContext.privileged: true on the EFA workers (Dynamo's "
				"EFA on EKS guide, Step 5)");
		} else if (has_rdma_resource(s, &res)) {
			acc_note(&a, CI_OK, sn, "requests %s", res);
			acc_ev(&a, s->loc, "%s: resource %s", sn, res);
		} else if (w->nic_claim) {
			acc_note(&a, CI_OK, sn, "claims an RDMA NIC through DRA (claim %s)",
				 w->nic_claim);
		} else if (has_ib_mount(s)) {
			acc_note(&a, CI_OK, sn, "mounts /dev/infiniband from the host");
		} else if (s->privileged) {
			acc_note(&a, CI_OK, sn, "privileged (sees the host's devices)");
			acc_ev(&a, s->privileged_loc, "%s: privileged: true", sn);
		} else if (other) {
			acc_note(
				&a, CI_FAIL, sn,
				"requests no RDMA device while %s requests %s: this "
				"worker cannot open the NIC, so its KV falls back to TCP or the NIXL "
				"backend fails",
				other, other_res);
			acc_fix(&a, CI_FAIL,
				"give every prefill/decode worker the same RDMA resource (%s)",
				other_res);
		} else {
			acc_note(&a, CI_WARN, sn,
				 "no RDMA resource, /dev/infiniband mount or privileged "
				 "mode, though the recipe targets an RDMA fabric");
			acc_fix(&a, CI_WARN,
				"request the RDMA resource your cluster exposes (rdma/ib, "
				"rdma/shared_ib, vpc.amazonaws.com/efa...) in the workers");
		}
	}
	acc_emit(&a, r, ENV_CHECK(POD_RDMA), c->label);
}

static void check_pod_memlock(struct ci_report *r, const struct env_class *c)
{
	if (!nic_plumbing_applies(c))
		return;
	struct acc a = {0};
	for (size_t i = 0; i < c->n_w; i++) {
		const struct env_worker *w = &c->w[i];
		if (!transport_worker(w))
			continue;
		const struct service *s = w->svc;
		const char *sn = svc_name(s);
		char *ul = cmdline_ulimit_l(s->command_line);
		bool ul_ok = ul && (!strcasecmp(ul, "unlimited") || !strcasecmp(ul, "infinity"));
		const struct container *k = NULL;
		if ((service_has_cap(s, "IPC_LOCK") &&
		     elsewhere(s, (k = service_container_with_cap(s, "IPC_LOCK")))) ||
		    (!service_has_cap(s, "IPC_LOCK") && s->privileged &&
		     elsewhere(s, (k = privileged_container(s))))) {
			acc_note(&a, CI_WARN, sn,
				 "%s is given to container %s, not to the engine's container %s: "
				 "capabilities apply per container, so the engine's locked memory "
				 "stays capped",
				 k->privileged ? "privileged mode" : "IPC_LOCK", ctr_name(k),
				 ctr_name(service_engine_container(s)));
			acc_ev(&a, k->loc, "%s: container %s", sn, ctr_name(k));
			acc_fix(&a, CI_WARN,
				"add IPC_LOCK to the securityContext of the container that runs "
				"the engine");
		} else if (service_has_cap(s, "IPC_LOCK")) {
			acc_note(&a, CI_OK, sn, "IPC_LOCK capability");
		} else if (s->privileged) {
			acc_note(&a, CI_OK, sn, "privileged");
		} else if (ul_ok && service_has_cap(s, "SYS_RESOURCE")) {
			acc_note(&a, CI_OK, sn,
				 "`ulimit -l unlimited` in the command, with SYS_RESOURCE to raise "
				 "the hard limit");
			acc_ev(&a, s->command_loc, "%s: ulimit -l %s", sn, ul);
		} else if (ul_ok) {
			/* setrlimit(2): an unprivileged process may raise its soft
			 * limit only up to the hard limit; raising the hard limit
			 * needs CAP_SYS_RESOURCE. */
			acc_note(&a, CI_WARN, sn,
				 "`ulimit -l unlimited` without SYS_RESOURCE or privileged: it "
				 "only raises the soft limit up to the hard limit the container "
				 "runtime sets, and fails when the "
				 "hard limit is lower");
			acc_ev(&a, s->command_loc, "%s: ulimit -l %s", sn, ul);
			acc_fix(&a, CI_WARN,
				"add IPC_LOCK (memlock then does not apply to RDMA registration) "
				"or SYS_RESOURCE beside the `ulimit -l unlimited`");
		} else if (ul) {
			acc_note(&a, CI_WARN, sn,
				 "`ulimit -l %s` caps locked memory below what RDMA "
				 "registration of the KV cache needs",
				 ul);
			acc_ev(&a, s->command_loc, "%s: ulimit -l %s", sn, ul);
			acc_fix(&a, CI_WARN,
				"use `ulimit -l unlimited` or add the IPC_LOCK capability");
		} else {
			acc_note(
				&a, CI_WARN, sn,
				"no IPC_LOCK, privileged or `ulimit -l unlimited`: a "
				"container memlock default (64 KiB to 64 MiB) makes ibv_reg_mr fail with "
				"ENOMEM or disables UCX's IB transports, unless the node's runtime sets "
				"it unlimited");
			acc_fix(&a, CI_WARN,
				"add securityContext.capabilities.add: [IPC_LOCK] to the "
				"workers (or run `ulimit -l unlimited` before the engine)");
		}
		free(ul);
	}
	acc_emit(&a, r, ENV_CHECK(POD_MEMLOCK), c->label);
}

static void check_pod_anti_affinity(struct ci_report *r, const struct env_class *c)
{
	if (!(c->fabric & FAB_EFA) || c->mode != MODE_DISAGG)
		return;
	/* A pod that takes every GPU of a node cannot share it: 8 GPUs on
	 * p5/p6, 4 on the GB200/GB300 (MNNVL) nodes. */
	long whole = (c->fabric & FAB_MNNVL) ? 4 : 8;
	struct acc a = {0};
	for (size_t i = 0; i < c->n_w; i++) {
		const struct env_worker *w = &c->w[i];
		if (!is_kv_worker(w))
			continue;
		const struct service *s = w->svc;
		const char *sn = svc_name(s);
		if (s->anti_affinity_required) {
			acc_note(&a, CI_OK, sn,
				 "required pod anti-affinity (or a DoNotSchedule hostname spread) "
				 "keeps prefill and decode apart");
			acc_ev(&a, s->anti_affinity_loc, "%s: anti-affinity", sn);
		} else if (s->gpus >= whole || s->node_count > 1) {
			acc_note(&a, CI_OK, sn,
				 "takes whole nodes (%ld GPUs%s), so prefill and decode "
				 "cannot share one",
				 s->gpus, s->node_count > 1 ? ", multi-node" : "");
		} else if (s->anti_affinity) {
			acc_note(&a, CI_WARN, sn,
				 "only a preferred anti-affinity (or a ScheduleAnyway spread): the "
				 "scheduler still puts prefill and decode on one node when it is "
				 "short of nodes, where EFA transfers stall (fi_read EAGAIN)");
			acc_ev(&a, s->anti_affinity_loc, "%s: preferred anti-affinity", sn);
			acc_fix(&a, CI_WARN,
				"make the podAntiAffinity requiredDuringSchedulingIgnoredDuringExecution "
				"(topologyKey kubernetes.io/hostname)");
		} else {
			acc_note(
				&a, CI_WARN, sn,
				"no anti-affinity: with %ld GPU%s per pod, prefill and "
				"decode can land on one node, where EFA transfers stall (fi_read EAGAIN)",
				s->gpus, s->gpus == 1 ? "" : "s");
			acc_fix(&a, CI_WARN,
				"add a podAntiAffinity (topologyKey kubernetes.io/hostname) "
				"that keeps prefill and decode pods on different nodes");
		}
	}
	acc_emit(&a, r, ENV_CHECK(POD_ANTI_AFFINITY), c->label);
}

/* Bytes of a Kubernetes quantity ("80Gi", "512Mi", "1G"); -1 if unreadable. */
static long long quantity_bytes(const char *q)
{
	if (!q || !*q)
		return -1;
	char *end;
	double v = strtod(q, &end);
	if (end == q || v < 0)
		return -1;
	static const struct {
		const char *sfx;
		double mul;
	} units[] = {
		{"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
		{"k", 1e3},     {"K", 1e3},        {"M", 1e6},           {"G", 1e9},
		{"T", 1e12},    {"", 1.0},
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].sfx))
			return (long long)(v * units[i].mul);
	return -1;
}

static void check_pod_shm(struct ci_report *r, const struct env_class *c)
{
	struct acc a = {0};
	for (size_t i = 0; i < c->n_w; i++) {
		const struct service *s = c->w[i].svc;
		if (!transport_worker(&c->w[i]) || s->gpus < 2)
			continue;
		const char *sn = svc_name(s);
		long long b = quantity_bytes(s->shm_size);
		if (!s->shm_size) {
			/* The Dynamo operator mounts a /dev/shm of its own on DGD
			 * workers; only a bare pod keeps the 64 MiB default. */
			if (c->workload) {
				acc_note(&a, CI_WARN, sn,
					 "%ld GPUs and no /dev/shm volume: the 64 MiB "
					 "default is too small for NCCL and UCX shared memory",
					 s->gpus);
				acc_fix(&a, CI_WARN,
					"mount an emptyDir {medium: Memory} at /dev/shm");
			}
		} else if (b >= 0 && b < (1LL << 30)) {
			acc_note(&a, CI_WARN, sn,
				 "/dev/shm of %s for %ld GPUs: NCCL and UCX need more", s->shm_size,
				 s->gpus);
			acc_ev(&a, s->shm_loc, "%s: shared memory %s", sn, s->shm_size);
			acc_fix(&a, CI_WARN,
				"give /dev/shm at least a few GiB (sharedMemory.size)");
		}
	}
	acc_emit(&a, r, ENV_CHECK(POD_SHM), c->label);
}

/* ---- per deployment ---- */

void env_check_deployment(struct ci_report *r, const struct manifest_set *ms,
			  const struct env_class *c)
{
	(void)ms;
	check_mode(r, c);
	if (!c->n_w && c->n_mock) {
		/* Nothing crosses a fabric: the verdict is ready, not unknown. */
		report_check(
			r, ENV_CHECK(TRANSPORT), CI_SKIPPED, c->label,
			"every worker runs Dynamo's mocker (`python3 -m dynamo.mocker` in %s%s): "
			"it simulates an engine without GPUs or NIXL, so no KV or NCCL traffic "
			"crosses the fabric and there is nothing to check",
			c->mock_name ? c->mock_name : "?", c->n_mock > 1 ? " and others" : "");
		return;
	}
	if (!c->n_w) {
		/* Not a verdict on any transport: say so (critical skipped, so
		 * the run is unknown, never ready). */
		struct ci_check *ck = report_check(
			r, ENV_CHECK(DEPLOYMENT), CI_SKIPPED, c->label,
			"no worker service (only frontend, router or planner components): "
			"no KV transfer or NCCL traffic to check, so nothing here can be "
			"trusted or distrusted");
		check_set_fix(ck, "point env at the manifest that defines the workers");
		return;
	}
	if (!c->transport_used) {
		report_check(r, ENV_CHECK(TRANSPORT), CI_SKIPPED, c->label,
			     "aggregated single-node deployment: no KV transfer between pods");
		return;
	}
	if (c->mode != MODE_DISAGG)
		report_check(
			r, ENV_CHECK(TRANSPORT), CI_SKIPPED, c->label,
			"aggregated deployment: no KV transfer between pods; only the checks for "
			"workers that span nodes apply");
	check_fabric(r, c);
	if (c->mode == MODE_DISAGG) {
		check_backend(r, c);
		check_pair(r, c);
	}
	check_vars(r, c);
	if (c->mode == MODE_DISAGG && any_ucx(c)) {
		check_ucx(r, c);
	}
	check_nccl(r, c);
	check_pod_rdma(r, c);
	check_pod_memlock(r, c);
	check_pod_anti_affinity(r, c);
	check_pod_shm(r, c);
}
