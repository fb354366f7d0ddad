/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The env verb's analysis: from a manifest_set (the deployment model) to
 * checks and facts in a ci_report.  Pure: no I/O, no globals.  Split in
 *   env_classify.c  what each deployment is (mode, engine, backend, fabric)
 *   env_rules.c     the checks
 *   env_varrules.c  the per-variable value rules, shared with the node verb
 *   env_facts.c     the transport variables seen
 *   env_text.c      small string parsers (UCX_TLS, device lists, flags)
 */
#ifndef CI_ENV_ANALYZE_H
#define CI_ENV_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/report.h"
#include "core/varcat.h"
#include "manifest/deploy_model.h"

enum env_mode {
	MODE_AGG = 0,
	MODE_DISAGG
};
enum env_engine {
	ENG_UNKNOWN = 0,
	ENG_VLLM,
	ENG_SGLANG,
	ENG_TRTLLM,
	ENG_OTHER,
	ENG_MOCKER, /* dynamo.mocker: a simulated engine */
};

/* The KV path one worker uses. */
enum kv_path {
	KV_NONE = 0, /* aggregated: no KV transfer */
	KV_UNKNOWN,  /* disaggregated but the backend cannot be read */
	KV_NIXL,     /* NIXL, see nixl_backend */
	KV_UCX,      /* TRT-LLM's own UCX transceiver */
	KV_MOONCAKE, /* SGLang's Mooncake transfer engine (MC_*) */
	KV_OTHER,    /* another connector (LMCache, ...) */
};

struct worker_kv {
	enum kv_path path;
	char nixl_backend[32]; /* "UCX", "LIBFABRIC", ... (KV_NIXL) */
	bool assumed;          /* decided from a default, not from the recipe */
	char how[256];         /* one line: how it was decided */
	struct src_loc loc;    /* where it was read (command, env var, ConfigMap) */
	/* vLLM without --kv-transfer-config (env_classify.c,
	 * vllm_no_connector); why: what was read. */
	enum kv_refuse {
		KV_REFUSE_NONE = 0,
		KV_REFUSE_UNKNOWN,      /* prefill; the tag does not say the version */
		KV_REFUSE_PREFILL,      /* prefill on Dynamo >= 1.0: does not start */
		KV_NO_CONNECTOR_DECODE, /* decode on Dynamo >= 1.0: no connector */
	} refuses;
	char refuse_why[192];
	/* vLLM kv_buffer_device "cpu": KV is staged through host memory */
	bool host_buffer;
	/* SGLang's NIXL connector with SGLANG_NIXL_HOST_STAGING_MB > 0: the same
	 * through pinned host slots; "SGLANG_NIXL_HOST_STAGING_MB=512", else "" */
	char host_staging[80];
};

/* One worker-like service of a deployment with what was decided about it. */
struct env_worker {
	const struct service *svc;
	struct worker_kv kv;
	const char *nic_claim; /* a DRA claim of an RDMA NIC (env_nic_claim), or NULL */
	bool uses_ucx;         /* KV goes through UCX (NIXL UCX or TRT-LLM UCX) */
	bool uses_libfabric;
};

struct env_class {
	const struct deployment *dep;
	char *label; /* subject used in checks: the name (+ file when ambiguous) */
	enum env_mode mode;
	char mode_how[256];
	bool multinode; /* some worker spans nodes (nodeCount > 1) */
	long max_nodes;
	bool cross_pod; /* KV moves between pods (prefill and decode apart) */
	bool workload;  /* a plain pod workload, not a DGD */
	enum env_engine engine;
	char engine_how[160];
	unsigned fabric; /* FAB_* mask */
	char fabric_how[320];
	/* extended resources the workers request that name no fabric and no
	 * known accelerator (rules/k8s.c): shown, never silently ignored */
	char other_res[200];
	struct env_worker *w; /* workers (role worker/prefill/decode/unknown with a command) */
	size_t n_w;
	bool transport_used;   /* disaggregated, or a worker spans nodes */
	size_t n_mock;         /* services that run dynamo.mocker (not in w[]) */
	const char *mock_name; /* the first of them */
};

void env_classify(const struct manifest_set *ms, const struct deployment *d, struct env_class *c);
void env_class_release(struct env_class *c);

/* Short words for reports and the recipes table. */
const char *env_mode_name(const struct env_class *c); /* "aggregated", "disaggregated" */
const char *env_engine_name(enum env_engine e);
/* "NIXL/UCX", "NIXL/LIBFABRIC", "UCX", "Mooncake", "none", "unknown", "mixed" */
void env_backend_summary(const struct env_class *c, char *buf, size_t len);
/* One worker's KV path in a word: "NIXL/UCX", "Mooncake"... */
void env_kv_word(const struct env_worker *w, char *buf, size_t len);
/* "InfiniBand+MNNVL", "none visible" */
void env_fabric_summary(unsigned fabric, char *buf, size_t len);

/* The name of a resource claim of s whose template requests an RDMA NIC
 * (a DRA network device class), or NULL. */
const char *env_nic_claim(const struct manifest_set *ms, const struct service *s);

/* The transport variables that are critical for worker w on c's fabric
 * (UCX on InfiniBand/RoCE: UCX_TLS, UCX_NET_DEVICES, and NCCL_IB_HCA when
 * it spans nodes; UCX on MNNVL: UCX_TLS; libfabric on EFA: FI_PROVIDER,
 * FI_EFA_USE_DEVICE_RDMA) that the recipe leaves unset, into out (static
 * strings, at most cap).  *none_set: the recipe sets none of them (the
 * transport is left to the image).  Returns how many are unset. */
size_t env_unset_critical(const struct env_class *c, const struct env_worker *w, const char **out,
			  size_t cap, bool *none_set);

/* Whether s runs Dynamo's mocker, which simulates an engine and moves no KV. */
bool env_is_mocker(const struct service *s);

/* Whether a deployment is worth reporting (DGDs always; plain workloads
 * only with GPUs, transport variables, an engine or a transfer test). */
bool env_relevant(const struct deployment *d);

/* Add every check and fact for the set (input diags, deployments). */
void env_analyze(struct ci_report *r, const struct manifest_set *ms, const char *target);
/* The same, and each deployment's services are released as soon as it is
 * judged (manifest_release_services): env's checks of one deployment read
 * only it and the set's ConfigMaps, networks and names, and the report
 * holds copies.  For a caller done with the model (cmd/env.c); `all`
 * compares the deployments afterwards and keeps them. */
void env_analyze_release(struct ci_report *r, struct manifest_set *ms, const char *target);

/* Pieces, exposed for the unit tests. */
void env_report_inputs(struct ci_report *r, const struct manifest_set *ms);
void env_check_deployment(struct ci_report *r, const struct manifest_set *ms,
			  const struct env_class *c);
/* The variables each of c's services sets, as report facts (the table -v
 * and JSON print); from the one classification env_analyze() made. */
void env_report_facts(struct ci_report *r, const struct env_class *c);

/* ---- env_text.c: small parsers (pure, bounded) ---- */

struct tls_info {
	bool exclude; /* "^a,b": everything but */
	bool rdma, cuda, cuda_ipc, cuda_copy, tcp, empty;
	bool excl_rdma_all; /* exclusion list that removes every RDMA transport */
	bool excl_cuda_ipc;
};
void ucx_tls_parse(const char *value, struct tls_info *t);

/* Problems of a UCX_NET_DEVICES value: bits below; first_bad names an entry. */
enum {
	NETDEV_BONDED = 1,
	NETDEV_MALFORMED = 2,
	NETDEV_EMPTY = 4,
	NETDEV_TCP_ONLY = 8,
	NETDEV_DYNAMIC = 16
};
unsigned ucx_net_devices_check(const char *value, char *first_bad, size_t len);

/* Value of `--flag X`, `--flag=X`, quoted or not, in a command line; a JSON
 * object value is returned whole (balanced braces).  NULL when absent;
 * caller frees. */
char *cmdline_flag_value(const char *cmd, const char *flag);
/* `$VAR`, `${VAR}` or `$(VAR)` (optionally quoted) resolved from the
 * service env, following a configMapKeyRef into a ConfigMap of the input;
 * otherwise a copy of the value.  *loc (may be NULL) gets where the value
 * came from.  Caller frees. */
char *resolve_env_ref(const struct manifest_set *ms, const struct service *s, const char *value,
		      struct src_loc *loc);
/* The text of ConfigMap NAME key KEY in the input, or NULL. */
const struct kv *configmap_entry(const struct manifest_set *ms, const char *name, const char *key);
/* Value of `key: X` / `"key": "X"` inside the block that follows `section`
 * in a YAML or JSON text (TRT-LLM engine configs).  NULL when absent. */
char *config_section_value(const char *text, const char *section, const char *key,
			   int *line_in_text);
/* Value of a top-level-ish `key: X` line (YAML) or `"key": X` (JSON) in an
 * engine config text.  NULL when absent. */
char *config_key_value(const char *text, const char *key, int *line_in_text);
/* The engine config file a worker loads (--config / --extra-engine-args
 * FILE), found as a ConfigMap data key of that basename in the input. */
const char *engine_config_text(const struct manifest_set *ms, const struct service *s,
			       struct src_loc *loc);
/* The Dynamo version of an ai-dynamo runtime image by its tag
 * ("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.1" -> 1, 0): false when the
 * image is not a Dynamo image or its tag is not a version ("latest"). */
bool dynamo_image_version(const char *image, int *major, int *minor);
/* Find `ulimit -l X` in a command line; returns X (caller frees) or NULL. */
char *cmdline_ulimit_l(const char *cmd);
/* True when s equals any of the words in a NULL-terminated list (ASCII case-insensitive). */
bool str_in_ci(const char *s, const char *const *words);
bool env_truthy(const char *v);

#endif
