/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a deployment is, before any rule runs: aggregated or disaggregated,
 * single or multi-node, which engine, which KV backend each worker uses and
 * which fabric the recipe is written for.  Every decision keeps a one-line
 * "how" so that the report can say why (a recipe author must be able to
 * check each conclusion against their YAML).
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"
#include "env/env_analyze.h"
#include "rules/engines.h"
#include "rules/k8s.h"

static const char *svc_cmd(const struct service *s)
{
	return s->command_line ? s->command_line : "";
}

/* Dynamo's mocker (`python3 -m dynamo.mocker`) "simulates realistic token
 * generation timing without requiring actual model inference", for "testing
 * distributed system components without GPU resources" (ai-dynamo/dynamo
 * components/src/dynamo/mocker/README.md): no KV moves on any fabric. */
bool env_is_mocker(const struct service *s)
{
	return strstr(svc_cmd(s), "dynamo.mocker") != NULL;
}

static bool is_worker(const struct service *s)
{
	if (env_is_mocker(s))
		return false;
	switch (s->role) {
	case ROLE_WORKER:
	case ROLE_PREFILL:
	case ROLE_DECODE: return true;
	case ROLE_FRONTEND: return false;
	default:
		/* epp, planner... unless it holds GPUs or runs an engine */
		return s->gpus > 0 || strstr(svc_cmd(s), "dynamo.vllm") ||
		       strstr(svc_cmd(s), "dynamo.sglang") || strstr(svc_cmd(s), "dynamo.trtllm");
	}
}

const char *env_engine_name(enum env_engine e)
{
	switch (e) {
	case ENG_VLLM: return "vLLM";
	case ENG_SGLANG: return "SGLang";
	case ENG_TRTLLM: return "TRT-LLM";
	case ENG_OTHER: return "other";
	case ENG_MOCKER: return "mocker (simulated)";
	default: return "unknown engine";
	}
}

const char *env_mode_name(const struct env_class *c)
{
	if (c->workload)
		return c->mode == MODE_DISAGG ? "transfer workload" : "pod workload";
	return c->mode == MODE_DISAGG ? "disaggregated" : "aggregated";
}

static enum env_engine engine_of_text(const char *t)
{
	if (!t)
		return ENG_UNKNOWN;
	if (strcasestr(t, "sglang"))
		return ENG_SGLANG;
	if (strcasestr(t, "trtllm") || strcasestr(t, "tensorrt"))
		return ENG_TRTLLM;
	if (strcasestr(t, "vllm"))
		return ENG_VLLM;
	return ENG_UNKNOWN;
}

/* a device of any plugin: a NIC, an accelerator the model has no count for */
static bool has_extended_resource(const struct service *s)
{
	for (size_t i = 0; i < s->resources.n; i++)
		if (s->resources.v[i].key && strchr(s->resources.v[i].key, '/'))
			return true;
	return false;
}

static enum env_engine eng_of_id(enum engine_id id)
{
	switch (id) {
	case ENGINE_VLLM: return ENG_VLLM;
	case ENGINE_SGLANG: return ENG_SGLANG;
	case ENGINE_TRTLLM: return ENG_TRTLLM;
	default: return ENG_UNKNOWN;
	}
}

static void decide_engine(struct env_class *c)
{
	const struct deployment *d = c->dep;
	if (d->framework && (c->engine = engine_of_text(d->framework)) != ENG_UNKNOWN) {
		snprintf(c->engine_how, sizeof(c->engine_how), "backendFramework: %s",
			 d->framework);
		return;
	}
	/* Dynamo's wrappers first (they name the engine they run), then the
	 * engines' own entry points (rules/engines.c), then flags only one
	 * engine takes. */
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < d->n_svcs; i++) {
			const struct engine_entry *row = NULL;
			const char *cmd = svc_cmd(&d->svcs[i]);
			enum engine_id id =
				pass == 2 ? engine_of_flags(cmd) : engine_of_command(cmd, &row);
			bool wrapper = id == ENGINE_DYNAMO_VLLM || id == ENGINE_DYNAMO_SGLANG ||
				       id == ENGINE_DYNAMO_TRTLLM;
			enum env_engine e = eng_of_id(engine_family(id));
			if (e == ENG_UNKNOWN || (pass == 0 && !wrapper))
				continue;
			c->engine = e;
			const char *who = d->svcs[i].name ? d->svcs[i].name : "a container";
			if (wrapper)
				snprintf(c->engine_how, sizeof(c->engine_how),
					 "`python3 -m %s` in %s", row->pattern, who);
			else if (pass == 2)
				snprintf(c->engine_how, sizeof(c->engine_how),
					 "%s flags to the image's entrypoint in %s",
					 env_engine_name(e), who);
			else
				snprintf(c->engine_how, sizeof(c->engine_how), "%s in %s",
					 row ? row->pattern : "its `serve` command", who);
			return;
		}
	for (size_t i = 0; i < d->n_svcs; i++)
		if (env_is_mocker(&d->svcs[i])) {
			c->engine = ENG_MOCKER;
			snprintf(c->engine_how, sizeof(c->engine_how),
				 "`python3 -m dynamo.mocker` in %s",
				 d->svcs[i].name ? d->svcs[i].name : "a container");
			return;
		}
	for (size_t i = 0; i < d->n_svcs; i++) {
		const struct service *s = &d->svcs[i];
		if (s->role == ROLE_FRONTEND)
			continue;
		enum env_engine e = engine_of_text(s->image);
		if (e != ENG_UNKNOWN) {
			c->engine = e;
			snprintf(c->engine_how, sizeof(c->engine_how), "image %.100s", s->image);
			return;
		}
	}
	c->engine = ENG_UNKNOWN;
	snprintf(c->engine_how, sizeof(c->engine_how),
		 "no backendFramework, engine module or image name");
}

static const char *disagg_mode_flag(const struct service *s)
{
	const char *cmd = svc_cmd(s);
	const char *p = strstr(cmd, "--disaggregation-mode");
	if (!p)
		return NULL;
	p += strlen("--disaggregation-mode");
	while (*p == ' ' || *p == '=' || *p == '"' || *p == '\'')
		p++;
	if (!strncasecmp(p, "prefill", 7))
		return "prefill";
	if (!strncasecmp(p, "decode", 6))
		return "decode";
	return NULL;
}

/* The prefill/decode markers of a deployment's services (gather). */
struct role_scan {
	size_t pre, dec, flagged, declared_dec;
	const char *pname, *dname; /* the first prefill and decode services */
	const char *pre_how;       /* the marker the recipe uses */
};

static void scan_roles(const struct deployment *d, struct role_scan *rs)
{
	*rs = (struct role_scan){0};
	for (size_t i = 0; i < d->n_svcs; i++) {
		const struct service *s = &d->svcs[i];
		if (env_is_mocker(s))
			continue; /* a simulated prefill moves no KV */
		const char *flag = disagg_mode_flag(s);
		bool old_prefill = strstr(svc_cmd(s), "--is-prefill-worker") != NULL;
		rs->flagged += flag != NULL || old_prefill;
		bool p = s->role == ROLE_PREFILL || old_prefill ||
			 (flag && !strcmp(flag, "prefill"));
		bool q = s->role == ROLE_DECODE || (flag && !strcmp(flag, "decode"));
		rs->declared_dec += s->role == ROLE_DECODE && !flag;
		if (p) {
			rs->pre++;
			rs->pname = rs->pname ? rs->pname : s->name;
			/* Name the marker the recipe really uses: vLLM/Dynamo
			 * workers say --is-prefill-worker, SGLang/TRT-LLM say
			 * --disaggregation-mode prefill. */
			if (!rs->pre_how)
				rs->pre_how = flag             ? "--disaggregation-mode"
					      : old_prefill    ? "--is-prefill-worker"
					      : s->role_source ? s->role_source
							       : "role";
		}
		if (q) {
			rs->dec++;
			rs->dname = rs->dname ? rs->dname : s->name;
			if (!rs->pre_how && flag)
				rs->pre_how = "--disaggregation-mode";
		}
	}
}

/* No prefill side: aggregated, and why; a plain workload that runs a
 * transfer test moves data between pods all the same. */
static void decide_aggregated(struct env_class *c, const struct role_scan *rs)
{
	const struct deployment *d = c->dep;
	c->mode = MODE_AGG;
	for (size_t i = 0; i < d->n_svcs; i++) {
		if (strstr(svc_cmd(&d->svcs[i]), "--disaggregation-mode encode")) {
			snprintf(
				c->mode_how, sizeof(c->mode_how),
				"encode worker %s apart "
				"(--disaggregation-mode encode): multimodal embeddings cross pods, "
				"the KV cache stays in the prefill+decode worker",
				d->svcs[i].name ? d->svcs[i].name : "?");
			return;
		}
	}
	if (rs->declared_dec) {
		snprintf(c->mode_how, sizeof(c->mode_how),
			 "decode role on %s but no prefill service "
			 "and no --disaggregation-mode: the worker serves both phases",
			 rs->dname ? rs->dname : "?");
		return;
	}
	snprintf(c->mode_how, sizeof(c->mode_how), "no prefill/decode role");
	for (size_t i = 0; c->workload && i < d->n_svcs; i++) {
		const struct service *s = &d->svcs[i];
		const char *cmd = svc_cmd(s);
		if (strstr(cmd, "nixlbench") || strstr(cmd, "ucx_perftest") ||
		    strstr(cmd, "ib_write_bw") || strstr(cmd, "ib_read_bw")) {
			c->mode = MODE_DISAGG;
			c->cross_pod = true;
			snprintf(c->mode_how, sizeof(c->mode_how), "a transfer test runs in %s",
				 s->name ? s->name : "the pod");
			return;
		}
	}
}

static void decide_mode(struct env_class *c)
{
	struct role_scan rs;
	scan_roles(c->dep, &rs);
	/* A decode role alone, without a prefill side or the engine flag, is
	 * an aggregated worker: recipes label their single worker "decode"
	 * (qwen3-32b/vllm/agg-round-robin) and the engine then serves both
	 * phases itself. */
	if (!rs.pre && !rs.flagged) {
		decide_aggregated(c, &rs);
		/* A workload whose engine has a KV connector that moves KV between
		 * engines is a KV endpoint, with or without a role: its peer is
		 * another workload, in this input or not. */
		for (size_t i = 0; c->workload && c->mode == MODE_AGG && i < c->dep->n_svcs; i++) {
			const struct service *s = &c->dep->svcs[i];
			const char *kc = engine_kv_transfer_connector(svc_cmd(s));
			if (!kc)
				continue;
			c->mode = MODE_DISAGG;
			c->cross_pod = true;
			snprintf(c->mode_how, sizeof(c->mode_how),
				 "KV endpoint %s (--kv-transfer-config %s%s%s): its peer is "
				 "another pod",
				 s->name ? s->name : "?", kc, s->role_source ? ", role " : "",
				 s->role_source ? s->role_source : "");
		}
		return;
	}
	c->mode = MODE_DISAGG;
	snprintf(c->mode_how, sizeof(c->mode_how), "%s%s%s%s%s (%s)", rs.pre ? "prefill " : "",
		 rs.pre ? (rs.pname ? rs.pname : "?") : "", rs.pre && rs.dec ? ", " : "",
		 rs.dec ? "decode " : "", rs.dec ? (rs.dname ? rs.dname : "?") : "",
		 rs.pre_how ? rs.pre_how : "role");
	/* Separate services are separate pods; only a service that holds
	 * both roles keeps KV inside one pod. */
	c->cross_pod = true;
}

/* ---- fabric ---- */

struct fab_acc {
	unsigned mask;
	char how[4][256]; /* indexed by bit position */
	char hint[192];   /* what suggests a fabric without making it one */
	bool ib_unsure;   /* the IB bit is an RDMA NIC whose link layer is not said */
};

static int fab_bit(unsigned f)
{
	return f == FAB_IB ? 0 : f == FAB_ROCE ? 1 : f == FAB_EFA ? 2 : 3;
}

/* what: e.g. "rdma/ib resource"; who: the service */
static void fab_add(struct fab_acc *a, unsigned f, const char *what, const char *who)
{
	int b = fab_bit(f);
	if (a->mask & f)
		return;
	a->mask |= f;
	snprintf(a->how[b], sizeof(a->how[b]), "%s on %s", what, who ? who : "a worker");
}

/* What a DRA resource claim of s gives the pod, by the device classes of
 * its template (manifest_claim_kind): only a ComputeDomain or IMEX channel
 * is MNNVL; a GPU claim is a GPU, a NIC claim a NIC.  A template the input
 * does not define is read by its name only when that says ComputeDomain or
 * IMEX (the operator and the ComputeDomain driver name the channel template
 * so), and named as a hint. */
static enum claim_kind claim_of(const struct manifest_set *ms, const struct kv *claim, bool *hint)
{
	const char *tmpl = claim->value && *claim->value ? claim->value : claim->key;
	enum claim_kind k = manifest_claim_kind(ms, tmpl);
	*hint = false;
	if (k == CLAIM_UNKNOWN && tmpl &&
	    (strcasestr(tmpl, "compute-domain") || strcasestr(tmpl, "computedomain") ||
	     strcasestr(tmpl, "imex"))) {
		*hint = true;
		return CLAIM_MNNVL;
	}
	return k;
}

const char *env_nic_claim(const struct manifest_set *ms, const struct service *s)
{
	for (size_t i = 0; i < s->resource_claims.n; i++) {
		bool hint;
		if (claim_of(ms, &s->resource_claims.v[i], &hint) == CLAIM_NIC)
			return s->resource_claims.v[i].key;
	}
	return NULL;
}

/* The networks a pod template attaches (Multus, a cloud's CNI): an RDMA
 * network when the annotation, or the NetworkAttachmentDefinition it names,
 * says RDMA, RoCE, InfiniBand or SR-IOV. */
static void fabric_from_networks(struct fab_acc *a, const struct manifest_set *ms,
				 const struct service *s)
{
	/* a device resource names the NIC already: the network is the same one */
	if (a->mask & (FAB_IB | FAB_ROCE | FAB_EFA))
		return;
	for (size_t i = 0; i < s->annotations.n; i++) {
		const struct kv *an = &s->annotations.v[i];
		const struct k8s_name_row *row = k8s_network_annotation(an->key);
		if (!row || !an->value)
			continue;
		enum k8s_net net = k8s_name_fabric(an->value);
		const char *nad = NULL;
		for (size_t j = 0; net == K8S_NET_NONE && j < ms->nads.n; j++)
			if (ms->nads.v[j].key && strstr(an->value, ms->nads.v[j].key) &&
			    (net = k8s_name_fabric(ms->nads.v[j].value)) != K8S_NET_NONE)
				nad = ms->nads.v[j].key;
		if (net == K8S_NET_NONE)
			continue;
		char what[200];
		snprintf(what, sizeof(what), "%.40s %.40s%s%.40s (%.12s network%.20s)", row->what,
			 an->key, nad ? " naming " : "", nad ? nad : "", k8s_net_name(net),
			 net == K8S_NET_RDMA ? ", InfiniBand or RoCE" : "");
		what[sizeof(what) - 1] = '\0';
		if (net == K8S_NET_RDMA)
			a->ib_unsure = true;
		fab_add(a,
			net == K8S_NET_ROCE  ? FAB_ROCE
			: net == K8S_NET_EFA ? FAB_EFA
					     : FAB_IB,
			what, s->name);
		return;
	}
}

static void fabric_from_service(struct fab_acc *a, const struct manifest_set *ms,
				const struct deployment *d, const struct service *s)
{
	const char *who = s->name;
	for (size_t i = 0; i < s->resources.n; i++) {
		const char *k = s->resources.v[i].key;
		if (!k)
			continue;
		char what[150];
		const struct k8s_name_row *row = NULL;
		enum k8s_net net = k8s_resource_fabric(k, &row);
		/* a name no row knows is read by the general rule, and said so */
		snprintf(what, sizeof(what), "%.70s resource%s", k,
			 row                   ? ""
			 : net == K8S_NET_RDMA ? " (named RDMA: InfiniBand or RoCE, not said which)"
					       : " (its name says the fabric)");
		if (net == K8S_NET_RDMA && !(a->mask & FAB_IB))
			a->ib_unsure = true;
		if (net == K8S_NET_RDMA || net == K8S_NET_IB)
			fab_add(a, FAB_IB, what, who);
		else if (net == K8S_NET_EFA)
			fab_add(a, FAB_EFA, what, who);
		else if (net == K8S_NET_ROCE)
			fab_add(a, FAB_ROCE, what, who);
	}
	for (size_t i = 0; i < s->host_paths.n; i++)
		if (s->host_paths.v[i].value &&
		    !strncmp(s->host_paths.v[i].value, "/dev/infiniband", 15) &&
		    !(a->mask & (FAB_ROCE | FAB_EFA)))
			fab_add(a, FAB_IB, "/dev/infiniband hostPath", who);
	bool mnnvl_claim = false;
	for (size_t i = 0; i < s->resource_claims.n; i++) {
		const struct kv *cl = &s->resource_claims.v[i];
		bool hint;
		if (claim_of(ms, cl, &hint) != CLAIM_MNNVL)
			continue;
		char what[128];
		snprintf(what, sizeof(what), "resource claim %.40s (%s%.40s)",
			 cl->key ? cl->key : "",
			 hint ? "template not in the input, by its name: "
			      : "ComputeDomain channel ",
			 cl->value ? cl->value : "");
		fab_add(a, FAB_MNNVL, what, who);
		mnnvl_claim = true;
	}
	if (!mnnvl_claim && d->has_compute_domain && is_worker(s) && !s->resource_claims.n)
		fab_add(a, FAB_MNNVL, "a ComputeDomain in the file", who);
}

static void fabric_hints(struct fab_acc *a, const struct service *s)
{
	const char *who = s->name;
	const struct env_var *v;
	if ((v = service_env_get(s, "FI_PROVIDER")) && v->value && strcasestr(v->value, "efa"))
		fab_add(a, FAB_EFA, "FI_PROVIDER=efa", who);
	/* An image named -efa says what it was built for, not what the pod
	 * gets: a hint, never the fabric. */
	if (s->image && strstr(s->image, "-efa") && !a->hint[0])
		snprintf(a->hint, sizeof(a->hint),
			 "image %.120s is named -efa (a hint, not evidence)", s->image);
	if ((v = service_env_get(s, "UCX_CUDA_IPC_ENABLE_MNNVL")) && env_truthy(v->value))
		fab_add(a, FAB_MNNVL, "UCX_CUDA_IPC_ENABLE_MNNVL", who);
	if ((v = service_env_get(s, "NCCL_MNNVL_ENABLE")) && env_truthy(v->value))
		fab_add(a, FAB_MNNVL, "NCCL_MNNVL_ENABLE", who);
	if ((v = service_env_get(s, "MC_FORCE_MNNVL")) && env_truthy(v->value))
		fab_add(a, FAB_MNNVL, "MC_FORCE_MNNVL", who);
	/* an RDMA NIC of unsaid link layer beside a RoCE GID setting is RoCE */
	if (a->ib_unsure && (a->mask & FAB_IB) && !(a->mask & FAB_ROCE) &&
	    ((v = service_env_get(s, "UCX_IB_GID_INDEX")) ||
	     (v = service_env_get(s, "NCCL_IB_GID_INDEX")))) {
		char what[256];
		snprintf(what, sizeof(what), "%.200s, RoCE by %s", a->how[0], v->name);
		a->mask &= ~(unsigned)FAB_IB;
		a->mask |= FAB_ROCE;
		snprintf(a->how[1], sizeof(a->how[1]), "%s", what);
		a->ib_unsure = false;
	}
	if (!(a->mask & (FAB_IB | FAB_ROCE | FAB_EFA))) {
		if (service_env_get(s, "UCX_IB_GID_INDEX") ||
		    service_env_get(s, "NCCL_IB_GID_INDEX") ||
		    service_env_get(s, "UCX_IB_ROCE_REACHABILITY_MODE"))
			fab_add(a, FAB_ROCE, "a RoCE GID setting", who);
		else if (((v = service_env_get(s, "UCX_NET_DEVICES")) && v->value &&
			  strstr(v->value, "mlx5")) ||
			 ((v = service_env_get(s, "NCCL_IB_HCA")) && v->value && *v->value))
			fab_add(a, FAB_IB, v->name, who);
	}
}

/* Whose pod spec says the fabric: the workers, and in a plain workload any
 * pod that runs an engine, holds a GPU or requests a device (a Neuron or
 * other accelerator pod beside its EFA devices). */
static bool fabric_worker(const struct env_class *c, const struct service *s)
{
	if (is_worker(s))
		return true;
	return c->workload && s->role != ROLE_FRONTEND && !env_is_mocker(s) &&
	       ((s->n_ctrs && s->ctrs[s->engine_ctr].engine) || has_extended_resource(s));
}

static void decide_fabric(const struct manifest_set *ms, struct env_class *c)
{
	const struct deployment *d = c->dep;
	struct fab_acc a = {0};
	/* Resources first: a device request is stronger than a variable. */
	for (size_t i = 0; i < d->n_svcs; i++)
		if (fabric_worker(c, &d->svcs[i]))
			fabric_from_service(&a, ms, d, &d->svcs[i]);
	for (size_t i = 0; i < d->n_svcs; i++)
		if (fabric_worker(c, &d->svcs[i]))
			fabric_from_networks(&a, ms, &d->svcs[i]);
	c->other_res[0] = '\0';
	for (size_t i = 0; i < d->n_svcs; i++)
		for (size_t j = 0; j < d->svcs[i].resources.n; j++) {
			const char *k = d->svcs[i].resources.v[j].key;
			size_t used = strlen(c->other_res);
			if (k && k8s_resource_unrecognised(k) && !strstr(c->other_res, k) &&
			    used + strlen(k) + 3 < sizeof(c->other_res))
				snprintf(c->other_res + used, sizeof(c->other_res) - used, "%s%s",
					 used ? ", " : "", k);
		}
	for (size_t i = 0; i < d->n_svcs; i++)
		if (fabric_worker(c, &d->svcs[i]))
			fabric_hints(&a, &d->svcs[i]);
	/* A NIC claimed through DRA (rdma-dranet...) is an RDMA NIC whose link
	 * layer the class does not say: InfiniBand unless a variable says
	 * RoCE.  Read as InfiniBand, and said to be a reading: no env rule
	 * tells InfiniBand from RoCE (both take the same UCX and NCCL rules),
	 * and node reads the port's real link layer. */
	for (size_t i = 0; i < d->n_svcs && !(a.mask & (FAB_IB | FAB_ROCE | FAB_EFA)); i++) {
		const char *nc =
			fabric_worker(c, &d->svcs[i]) ? env_nic_claim(ms, &d->svcs[i]) : NULL;
		if (nc) {
			char what[160];
			snprintf(what, sizeof(what),
				 "NIC resource claim %.60s (InfiniBand or RoCE: the claim does not "
				 "say which)",
				 nc);
			fab_add(&a, FAB_IB, what, d->svcs[i].name);
		}
	}
	/* GKE's RDMA networks are RoCE; a generic rdma/ resource beside them
	 * is the same NICs. */
	if ((a.mask & FAB_ROCE) && (a.mask & FAB_IB) && strstr(a.how[0], "rdma/"))
		a.mask &= ~(unsigned)FAB_IB;
	c->fabric = a.mask;
	c->fabric_how[0] = '\0';
	size_t used = 0;
	for (int b = 0; b < 4; b++) {
		if (!(a.mask & (1u << b)))
			continue;
		int n = snprintf(c->fabric_how + used, sizeof(c->fabric_how) - used, "%s%s: %s",
				 used ? "; " : "", fabric_name((enum ci_fabric)(1u << b)),
				 a.how[b]);
		if (n < 0 || (size_t)n >= sizeof(c->fabric_how) - used)
			break;
		used += (size_t)n;
	}
	if (!used)
		snprintf(
			c->fabric_how, sizeof(c->fabric_how),
			"no RDMA resource, /dev/infiniband mount, ComputeDomain or fabric variable%s%s",
			a.hint[0] ? "; " : "", a.hint);
}

void env_fabric_summary(unsigned fabric, char *buf, size_t len)
{
	static const struct {
		unsigned f;
		const char *n;
	} names[] = {
		{FAB_IB, "InfiniBand"},
		{FAB_ROCE, "RoCE"},
		{FAB_EFA, "EFA"},
		{FAB_MNNVL, "MNNVL"},
	};
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < 4; i++) {
		if (!(fabric & names[i].f))
			continue;
		int n = snprintf(buf + used, len - used, "%s%s", used ? "+" : "", names[i].n);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	if (!used)
		snprintf(buf, len, "none visible");
}

/* ---- KV backend per worker ---- */

static void kv_set(struct worker_kv *k, enum kv_path p, const char *backend, bool assumed,
		   struct src_loc loc, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void kv_set(struct worker_kv *k, enum kv_path p, const char *backend, bool assumed,
		   struct src_loc loc, const char *fmt, ...)
{
	k->path = p;
	snprintf(k->nixl_backend, sizeof(k->nixl_backend), "%s", backend ? backend : "");
	k->assumed = assumed;
	k->loc = loc;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(k->how, sizeof(k->how), fmt, ap);
	va_end(ap);
}

/* NixlConnector somewhere in a kv-transfer-config object (MultiConnector
 * nests connectors); backends from kv_connector_extra_config.backends. */
static bool json_find_nixl(json_t *j, char *backends, size_t len, int depth)
{
	if (!j || depth > 8)
		return false;
	if (json_is_object(j)) {
		const char *conn = json_string_value(json_object_get(j, "kv_connector"));
		const struct kv_connector *row = engine_kv_connector(conn);
		if (row && row->kind == KV_CONN_NIXL) {
			json_t *extra = json_object_get(j, "kv_connector_extra_config");
			json_t *be = extra ? json_object_get(extra, "backends") : NULL;
			backends[0] = '\0';
			size_t used = 0, i;
			json_t *it;
			json_array_foreach(be, i, it)
			{
				const char *s = json_string_value(it);
				if (!s)
					continue;
				int n = snprintf(backends + used, len - used, "%s%s",
						 used ? "+" : "", s);
				if (n < 0 || (size_t)n >= len - used)
					break;
				used += (size_t)n;
			}
			return true;
		}
		const char *k;
		json_t *v;
		json_object_foreach(j, k,
				    v) if (json_find_nixl(v, backends, len, depth + 1)) return true;
	} else if (json_is_array(j)) {
		size_t i;
		json_t *v;
		json_array_foreach(j, i,
				   v) if (json_find_nixl(v, backends, len, depth + 1)) return true;
	}
	return false;
}

/*
 * From Dynamo 1.0 dynamo.vllm sets no KV connector of its own: its argument
 * handling (ai-dynamo/dynamo components/src/dynamo/vllm/args.py,
 * update_dynamo_config_with_engine) clears the old --connector list and
 *   - refuses to start a prefill worker that has no --kv-transfer-config:
 *     ValueError("--connector is deprecated and the default is no longer
 *     nixl. When using --disaggregation-mode prefill, you must explicitly
 *     provide --kv-transfer-config ..."); --is-prefill-worker is mapped to
 *     the same mode;
 *   - starts a decode worker without one, with no connector at all: nothing
 *     there receives the prefill worker's KV through NIXL.  Dynamo's own
 *     examples had that gap and were fixed by adding the flag to the decode
 *     workers (ai-dynamo/dynamo#11467, #11468).
 * Judged only on what is visible: the engine's command (the image's
 * entrypoint is not read) and the image tag of an ai-dynamo image (an older
 * tag still defaulted to NIXL).
 */
static void vllm_no_connector(const struct service *s, struct worker_kv *k)
{
	const char *cmd = svc_cmd(s);
	char *mode = cmdline_flag_value(cmd, "--disaggregation-mode");
	bool prefill = (mode && !strcasecmp(mode, "prefill")) || strstr(cmd, "--is-prefill-worker");
	bool decode = mode && !strcasecmp(mode, "decode");
	free(mode);
	/* the engine config file may hold kv_transfer_config */
	if ((!prefill && !decode) || !strstr(cmd, "dynamo.vllm") ||
	    strstr(cmd, "--engine-config-json"))
		return;
	int ma, mi;
	const struct dynamo_release *cut = dynamo_no_default_connector();
	bool tagged = dynamo_image_version(s->image, &ma, &mi);
	if (!tagged) {
		/* a tag that names no release (a placeholder, a private build, no
		 * image) is judged by the newest release's behaviour, and said so */
		ma = dynamo_newest()->major;
		mi = dynamo_newest()->minor;
	}
	if (ma > cut->major || (ma == cut->major && mi >= cut->minor)) {
		k->refuses = prefill ? KV_REFUSE_PREFILL : KV_NO_CONNECTOR_DECODE;
		snprintf(
			k->how, sizeof(k->how),
			"no --kv-transfer-config: no connector (Dynamo %d.%d no longer defaults to "
			"NIXL)",
			ma, mi);
		if (tagged)
			snprintf(k->refuse_why, sizeof(k->refuse_why),
				 "Dynamo %d.%d by the image tag (%.100s)", ma, mi, s->image);
		else
			snprintf(k->refuse_why, sizeof(k->refuse_why),
				 "the image tag (%.100s) names no Dynamo release: judged by the "
				 "newest, Dynamo %s",
				 s->image ? s->image : "no image", dynamo_newest()->text);
	}
}

static void kv_vllm(const struct manifest_set *ms, const struct service *s, struct worker_kv *k)
{
	char *raw = cmdline_flag_value(svc_cmd(s), "--kv-transfer-config");
	/* vLLM's FlexibleArgumentParser turns '_' into '-' in a long option's
	 * name (vllm/utils/argparse_utils.py), so both spellings are the flag */
	if (!raw)
		raw = cmdline_flag_value(svc_cmd(s), "--kv_transfer_config");
	struct src_loc loc = s->command_loc;
	if (!raw) {
		const char *cfg = engine_config_text(ms, s, &loc);
		const char *at = cfg ? strstr(cfg, "kv-transfer-config") : NULL;
		if (!at && cfg)
			at = strstr(cfg, "kv_transfer_config");
		if (at)
			raw = cmdline_flag_value(at, at[2] == '-' ? "kv-transfer-config"
								  : "kv_transfer_config");
	}
	if (!raw) {
		kv_set(k, KV_NIXL, "UCX", true, s->command_loc,
		       "no --kv-transfer-config: assumed NixlConnector with NIXL's default UCX backend");
		vllm_no_connector(s, k);
		return;
	}
	char *val = resolve_env_ref(ms, s, raw, &loc);
	json_error_t err;
	json_t *j = json_loads(val, JSON_DISABLE_EOF_CHECK, &err);
	char be[32] = "";
	/* vLLM's NixlConnector stages KV through host buffers when
	 * kv_buffer_device is "cpu" (use_host_buffer, nixl_connector.py) */
	const char *kbd = json_string_value(json_object_get(j, "kv_buffer_device"));
	k->host_buffer = kbd && !strcasecmp(kbd, "cpu");
	if (j && json_find_nixl(j, be, sizeof(be), 0)) {
		if (be[0])
			kv_set(k, KV_NIXL, be, false, loc,
			       "--kv-transfer-config NixlConnector, backends %s", be);
		else
			kv_set(k, KV_NIXL, "UCX", false, loc,
			       "--kv-transfer-config NixlConnector, no backends named: NIXL's default UCX");
	} else if (j) {
		const char *conn = json_string_value(json_object_get(j, "kv_connector"));
		kv_set(k, KV_OTHER, conn ? conn : "?", false, loc,
		       "--kv-transfer-config kv_connector %s", conn ? conn : "(none)");
	} else if (strstr(val, "NixlConnector")) {
		const char *b = strstr(val, "LIBFABRIC") ? "LIBFABRIC" : "UCX";
		kv_set(k, KV_NIXL, b, false, loc, "--kv-transfer-config names NixlConnector (%s)",
		       b);
	} else if (val[0] == '$' || (val[0] == '"' && val[1] == '$')) {
		/* present, but from a variable the input does not define */
		kv_set(k, KV_UNKNOWN, NULL, false, loc,
		       "--kv-transfer-config comes from %.60s, which the input does not set: the "
		       "connector cannot be read",
		       val);
	} else {
		kv_set(k, KV_UNKNOWN, NULL, false, loc,
		       "--kv-transfer-config %.60s is not readable JSON", val);
	}
	json_decref(j);
	free(val);
	free(raw);
}

/*
 * SGLang's NIXL connector stages KV through pinned host memory when
 * SGLANG_NIXL_HOST_STAGING_MB is non-zero: NixlKVManager reads it
 * (`host_mb = envs.SGLANG_NIXL_HOST_STAGING_MB.get()`, `if host_mb:` ...
 * HostStaging), and nixl/host_staging.py "NIXL WRITEs through pinned host
 * memory": prefill packs rows into a pinned slot, decode scatters them from
 * a pinned ring (sgl-project/sglang python/sglang/srt/disaggregation/nixl/).
 * Only a literal number is read; a reference or `$VAR` is not judged.
 */
static void sglang_host_staging(const struct service *s, struct worker_kv *k)
{
	const struct env_var *v = service_env_get(s, "SGLANG_NIXL_HOST_STAGING_MB");
	if (!v || !v->value || v->value_from || strchr(v->value, '$'))
		return;
	char *end = NULL;
	long mb = strtol(v->value, &end, 10);
	if (end == v->value || *end || mb <= 0)
		return;
	snprintf(k->host_staging, sizeof(k->host_staging), "SGLANG_NIXL_HOST_STAGING_MB=%ld", mb);
}

static void kv_sglang(const struct manifest_set *ms, const struct service *s, struct worker_kv *k)
{
	char *tb = cmdline_flag_value(svc_cmd(s), "--disaggregation-transfer-backend");
	char *val = tb ? resolve_env_ref(ms, s, tb, NULL) : NULL;
	free(tb);
	struct src_loc cfg_loc = s->command_loc;
	bool from_cfg = false;
	if (!val) {
		/* SGLang's --config FILE holds the same options as keys */
		const char *cfg = engine_config_text(ms, s, &cfg_loc);
		int line = 0;
		val = cfg ? config_key_value(cfg, "disaggregation-transfer-backend", &line) : NULL;
		if (val) {
			from_cfg = true;
			if (cfg_loc.line && line > 0)
				cfg_loc.line += line;
		}
	}
	const char *src = from_cfg ? "disaggregation-transfer-backend (--config)"
				   : "--disaggregation-transfer-backend";
	if (val && !strcasecmp(val, "nixl")) {
		sglang_host_staging(s, k);
		const struct env_var *v = service_env_get(s, "SGLANG_DISAGGREGATION_NIXL_BACKEND");
		if (v && v->value && *v->value)
			kv_set(k, KV_NIXL, v->value, false, v->loc,
			       "%s nixl, SGLANG_DISAGGREGATION_NIXL_BACKEND=%s", src, v->value);
		else
			kv_set(k, KV_NIXL, "UCX", false, cfg_loc,
			       "%s nixl, NIXL's default UCX backend", src);
	} else if (val && !strcasecmp(val, "mooncake")) {
		kv_set(k, KV_MOONCAKE, NULL, false, cfg_loc, "%s mooncake", src);
	} else if (val && *val) {
		kv_set(k, KV_OTHER, val, false, cfg_loc, "%s %s", src, val);
	} else {
		/* SGLang's ServerArgs default is mooncake and Dynamo's wrapper
		 * passes it through (ai-dynamo/dynamo#4095 dropped the flag from
		 * the DeepSeek-R1 recipes precisely to get Mooncake). */
		kv_set(k, KV_MOONCAKE, NULL, true, s->command_loc,
		       "no --disaggregation-transfer-backend: assumed mooncake, SGLang's default");
	}
	free(val);
}

const char *engine_config_text(const struct manifest_set *ms, const struct service *s,
			       struct src_loc *loc)
{
	static const char *const flags[] = {"--extra-engine-args", "--config", "--config-file",
					    NULL};
	for (size_t f = 0; flags[f]; f++) {
		char *raw = cmdline_flag_value(svc_cmd(s), flags[f]);
		char *path = raw ? resolve_env_ref(ms, s, raw, NULL) : NULL;
		free(raw);
		if (!path)
			continue;
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		for (size_t i = 0; i < ms->n_cms; i++)
			for (size_t k = 0; k < ms->cms[i].data.n; k++) {
				const struct kv *e = &ms->cms[i].data.v[k];
				if (e->key && e->value && *base && !strcmp(e->key, base)) {
					*loc = e->loc;
					free(path);
					return e->value;
				}
			}
		free(path);
	}
	return NULL;
}

/* The engine config text of a TRT-LLM worker: its config file; else a
 * ConfigMap named after the role; else inline text in the command. */
static const char *trtllm_config(const struct manifest_set *ms, const struct service *s,
				 struct src_loc *loc)
{
	const char *text = engine_config_text(ms, s, loc);
	if (text)
		return text;
	const char *role = s->role == ROLE_PREFILL  ? "prefill"
			   : s->role == ROLE_DECODE ? "decode"
						    : NULL;
	for (size_t i = 0; role && i < ms->n_cms; i++)
		if (ms->cms[i].name && strstr(ms->cms[i].name, role) && ms->cms[i].text &&
		    strstr(ms->cms[i].text, "cache_transceiver_config")) {
			*loc = ms->cms[i].loc;
			return ms->cms[i].text;
		}
	if (strstr(svc_cmd(s), "cache_transceiver_config")) {
		*loc = s->command_loc;
		return svc_cmd(s);
	}
	return NULL;
}

static void kv_trtllm(const struct manifest_set *ms, const struct service *s, struct worker_kv *k)
{
	struct src_loc loc = s->command_loc;
	const struct env_var *nb = service_env_get(s, "TRTLLM_NIXL_KVCACHE_BACKEND");
	const struct env_var *use_nixl = service_env_get(s, "TRTLLM_USE_NIXL_KVCACHE");
	const struct env_var *use_ucx = service_env_get(s, "TRTLLM_USE_UCX_KVCACHE");
	const char *nixl_be = nb && nb->value && *nb->value ? nb->value : "UCX";
	const char *text = trtllm_config(ms, s, &loc);
	int line = 0;
	char *be = text ? config_section_value(text, "cache_transceiver_config", "backend", &line)
			: NULL;
	if (be && text != svc_cmd(s) && loc.line && line > 0)
		loc.line += line - 1;
	if (be && !strcasecmp(be, "NIXL")) {
		kv_set(k, KV_NIXL, nixl_be, false, loc, "cache_transceiver_config.backend NIXL%s%s",
		       nb ? ", TRTLLM_NIXL_KVCACHE_BACKEND=" : "", nb ? nixl_be : "");
	} else if (be && !strcasecmp(be, "UCX")) {
		kv_set(k, KV_UCX, "UCX", false, loc, "cache_transceiver_config.backend UCX");
	} else if (be && !strcasecmp(be, "MPI")) {
		kv_set(k, KV_OTHER, "MPI", false, loc, "cache_transceiver_config.backend MPI");
	} else if (use_nixl && env_truthy(use_nixl->value)) {
		kv_set(k, KV_NIXL, nixl_be, false, use_nixl->loc, "TRTLLM_USE_NIXL_KVCACHE=%s",
		       use_nixl->value);
	} else if (use_ucx && env_truthy(use_ucx->value)) {
		kv_set(k, KV_UCX, "UCX", false, use_ucx->loc, "TRTLLM_USE_UCX_KVCACHE=%s",
		       use_ucx->value);
	} else {
		/* DEFAULT lets TRT-LLM pick its transceiver (UCX or NIXL by
		 * version); both drive UCX unless told otherwise. */
		if (be)
			kv_set(k, KV_NIXL, nixl_be, true, loc,
			       "cache_transceiver_config.backend %s: "
			       "TRT-LLM's default transceiver, assumed UCX underneath",
			       be);
		else
			kv_set(k, KV_NIXL, nixl_be, true, loc,
			       "no cache_transceiver_config.backend: "
			       "assumed TRT-LLM's default transceiver over UCX");
	}
	free(be);
}

static void decide_kv(const struct manifest_set *ms, struct env_class *c, struct env_worker *w)
{
	const struct service *s = w->svc;
	if (c->mode != MODE_DISAGG) {
		w->kv.path = KV_NONE;
		return;
	}
	enum env_engine e = c->engine;
	/* A per-service entry point beats the deployment's framework field. */
	enum env_engine own = eng_of_id(engine_family(engine_of_command(svc_cmd(s), NULL)));
	if (own != ENG_UNKNOWN)
		e = own;
	switch (e) {
	case ENG_VLLM: kv_vllm(ms, s, &w->kv); break;
	case ENG_SGLANG: kv_sglang(ms, s, &w->kv); break;
	case ENG_TRTLLM: kv_trtllm(ms, s, &w->kv); break;
	default:
		if (strstr(svc_cmd(s), "nixlbench")) {
			char *b = cmdline_flag_value(svc_cmd(s), "--backend");
			kv_set(&w->kv, KV_NIXL, b && *b ? b : "UCX", !(b && *b), s->command_loc,
			       "nixlbench --backend %s", b && *b ? b : "(default UCX)");
			free(b);
		} else if (strstr(svc_cmd(s), "ucx_perftest")) {
			kv_set(&w->kv, KV_UCX, "UCX", false, s->command_loc, "ucx_perftest");
		} else {
			kv_set(&w->kv, KV_UNKNOWN, NULL, false, s->command_loc,
			       "engine unknown: KV backend not decided");
		}
	}
	w->uses_ucx = (w->kv.path == KV_NIXL && !strcasecmp(w->kv.nixl_backend, "UCX")) ||
		      w->kv.path == KV_UCX;
	w->uses_libfabric = w->kv.path == KV_NIXL && strcasestr(w->kv.nixl_backend, "LIBFABRIC");
}

static char *make_label(const struct manifest_set *ms, const struct deployment *d)
{
	const char *name = d->name && *d->name ? d->name : "(unnamed)";
	/* Two deployments of one name (a recipe's variants) are told apart by
	 * their file; the count comes from a sorted index, not a scan per
	 * deployment (that made `env` quadratic in the tree). */
	size_t same = d->name ? manifest_name_count(ms, d->name) : 0;
	if (same > 1 && d->loc.file) {
		const char *base = strrchr(d->loc.file, '/');
		return xasprintf("%s [%s]", name, base ? base + 1 : d->loc.file);
	}
	return xstrdup(name);
}

void env_classify(const struct manifest_set *ms, const struct deployment *d, struct env_class *c)
{
	memset(c, 0, sizeof(*c));
	c->dep = d;
	c->label = make_label(ms, d);
	c->workload = !d->kind || strcmp(d->kind, "DynamoGraphDeployment");
	decide_engine(c);
	decide_mode(c);
	decide_fabric(ms, c);
	c->max_nodes = 1;
	size_t cap = 0;
	for (size_t i = 0; i < d->n_svcs; i++) {
		const struct service *s = &d->svcs[i];
		if (env_is_mocker(s)) {
			if (!c->n_mock++)
				c->mock_name = s->name;
			continue;
		}
		if (!is_worker(s) && !(c->workload && s->role != ROLE_FRONTEND))
			continue;
		/* a workload's pod that runs no engine and holds no GPU (a router,
		 * a proxy, a gateway) moves no KV and opens no NIC */
		if (!is_worker(s) && s->gpus <= 0 &&
		    !(s->n_ctrs && s->ctrs[s->engine_ctr].engine) && !has_extended_resource(s))
			continue;
		struct env_worker *w = XPUSH(c->w, c->n_w, cap);
		memset(w, 0, sizeof(*w));
		w->svc = s;
		w->nic_claim = env_nic_claim(ms, s);
		if (s->node_count > c->max_nodes)
			c->max_nodes = s->node_count;
		decide_kv(ms, c, w);
	}
	c->multinode = c->max_nodes > 1;
	c->transport_used = c->mode == MODE_DISAGG || c->multinode;
}

void env_class_release(struct env_class *c)
{
	free(c->label);
	free(c->w);
	memset(c, 0, sizeof(*c));
}

void env_kv_word(const struct env_worker *w, char *buf, size_t len)
{
	switch (w->kv.path) {
	case KV_NIXL: snprintf(buf, len, "NIXL/%s", w->kv.nixl_backend); break;
	case KV_UCX: snprintf(buf, len, "UCX"); break;
	case KV_MOONCAKE: snprintf(buf, len, "Mooncake"); break;
	case KV_OTHER:
		snprintf(buf, len, "%s", w->kv.nixl_backend[0] ? w->kv.nixl_backend : "other");
		break;
	case KV_UNKNOWN: snprintf(buf, len, "unknown"); break;
	default: snprintf(buf, len, "none"); break;
	}
}

void env_backend_summary(const struct env_class *c, char *buf, size_t len)
{
	char first[48] = "", cur[48];
	bool mixed = false;
	for (size_t i = 0; i < c->n_w; i++) {
		if (c->w[i].kv.path == KV_NONE)
			continue;
		env_kv_word(&c->w[i], cur, sizeof(cur));
		if (!first[0])
			snprintf(first, sizeof(first), "%s", cur);
		else if (strcmp(first, cur))
			mixed = true;
	}
	if (mixed)
		snprintf(buf, len, "mixed");
	else
		snprintf(buf, len, "%s", first[0] ? first : "none");
}
