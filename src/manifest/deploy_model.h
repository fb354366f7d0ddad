/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The deployment model the env checks reason about, built from YAML by
 * src/manifest (manifest_model.c: a pure function of the bytes; ytree.c: the
 * capped libyaml event reader; manifest_load.c: the only I/O) and consumed
 * by the env rules.
 * Every value keeps the file and line it came from.  Strings are owned by
 * the model; manifest_set_release() frees everything.
 */
#ifndef CI_DEPLOY_MODEL_H
#define CI_DEPLOY_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/yaml_limits.h"

struct src_loc {
	const char *file; /* points into manifest_set.files[]; NULL if unknown */
	int line;         /* 1-based; 0 if unknown */
};

enum env_origin {
	ENV_DEPLOYMENT, /* spec.envs / spec.env: every service */
	ENV_SERVICE,    /* services.<X>.envs (v1alpha1) */
	ENV_CONTAINER,  /* the main container's env[] */
	ENV_INLINE,     /* `export X=...`, `X=... cmd`, `env X=...` inside command/args
	                      (only names matching [A-Z_][A-Z0-9_]*) */
	ENV_CONFIGMAP,  /* through envFrom: configMapRef of a ConfigMap in the same
	                      file or folder; only names no other source set */
};

struct env_var {
	char *name;
	char *value;      /* literal value as written (numbers/bools as text); NULL
	                      for YAML null and when value_from is set, except that a
	                      configMapKeyRef to a ConfigMap in the same file/folder
	                      also gets the ConfigMap's literal here */
	char *value_from; /* "<secret NAME/KEY>", "<configmap NAME/KEY>", "<field PATH>", ... */
	enum env_origin origin;
	struct src_loc loc;
};

struct env_list {
	struct env_var *v;
	size_t n, cap;
};

enum svc_role {
	ROLE_UNKNOWN = 0,
	ROLE_FRONTEND,
	ROLE_WORKER,
	ROLE_PREFILL,
	ROLE_DECODE,
	ROLE_OTHER
};

struct kv { /* a key with a string value and where it was set */
	char *key;
	char *value;
	struct src_loc loc;
};

struct kv_list {
	struct kv *v;
	size_t n, cap;
};

/* One container of a worker's pod.  Which containers run beside the engine
 * matters: the engine may run in an extra container or a native sidecar,
 * and a container that is not the engine may still set transport variables
 * or request the NIC. */
enum ctr_kind {
	CTR_MAIN = 0, /* the operator's main container (v1alpha1 mainContainer,
	                      v1beta1 containers[name=main]; plain pods: each container) */
	CTR_EXTRA,    /* another entry of containers[] (extraPodSpec.containers) */
	CTR_SIDECAR,  /* initContainers[] with restartPolicy: Always (a Kubernetes
	                      native sidecar: runs for the pod's whole life) */
	CTR_INIT,     /* a plain init container: runs to completion before the
	                      others start, so nothing it sets reaches the engine */
};

struct container {
	char *name; /* as written, or "container-N" */
	enum ctr_kind kind;
	char *image;
	struct src_loc loc;
	/* Effective environment of this container: deployment-wide, service,
	 * its own env[], envFrom ConfigMaps, inline shell assignments. */
	struct env_list env;
	struct kv_list env_from;
	char *command_line; /* command + args joined by spaces, or NULL */
	struct src_loc command_loc;
	struct kv_list resources; /* this container's (main: with the DGD service's) */
	struct kv_list cap_add;   /* value: "container" or "pod" */
	bool privileged;
	struct src_loc privileged_loc;
	bool engine; /* its command runs an engine or a transfer test */
};

struct service {
	char *name;
	enum svc_role role; /* from componentType/subComponentType/type, else
	                                 from --disaggregation-mode / the name */
	char *role_source;  /* how the role was decided, for the report:
	                                 "componentType: worker", "subComponentType: prefill",
	                                 "type: decode", "--disaggregation-mode prefill",
	                                 "service name PrefillWorker" (only when the deployment
	                                 also has the other side), "not declared" */
	long replicas;      /* 1 when absent */
	long node_count;    /* multinode.nodeCount, 1 when absent */
	long gpus;          /* per pod: resources gpu / nvidia.com/gpu, 0 when absent */
	char *image;
	struct src_loc loc; /* where the service/component starts */

	/* Effective environment of the main container: deployment-wide, then
	 * service, then container, later wins (the overridden entries are
	 * dropped), then inline shell assignments from command/args. */
	struct env_list env;
	struct kv_list env_from; /* key: "secret"|"configmap", value: its name */

	char *command_line; /* command + args joined by spaces */
	struct src_loc command_loc;

	struct kv_list resources; /* limits and requests merged: "rdma/ib" -> "1",
	                                 "vpc.amazonaws.com/efa" -> "16", "gpu" -> "8" */
	struct kv_list cap_add;   /* securityContext.capabilities.add: key = capability as
	                                 written, value = "container" or "pod" */
	bool privileged;
	struct src_loc privileged_loc;
	bool host_ipc;
	bool host_network;
	struct kv_list host_paths;      /* volume name -> hostPath.path */
	char *shm_size;                 /* sharedMemory.size / sharedMemorySize / emptyDir Memory
	                                 mounted at /dev/shm ("" = present, size unknown) */
	struct kv_list resource_claims; /* claim name -> template name (ComputeDomain channel) */
	bool anti_affinity; /* podAntiAffinity or topologySpreadConstraints on hostname */

	/* Added by the manifest reader (additive): where the scalar fields above
	 * were set; line 0 when absent (defaulted). */
	struct src_loc role_loc, replicas_loc, node_count_loc, gpus_loc, image_loc;
	struct src_loc host_ipc_loc, host_network_loc, shm_loc, anti_affinity_loc;
	char *container; /* the engine container's name, or NULL (v1alpha1
	                                 mainContainer without a name) */

	/* Every container of the pod (additive).  The fields above describe
	 * the *engine container*: the first container whose command runs an
	 * engine (main first, then extra containers, then native sidecars),
	 * else the main one.  env, env_from, command_line, image and container
	 * are that container's; resources, cap_add, privileged and gpus are
	 * the union over the containers that run (main, extra, sidecars): a
	 * pod's NIC request or capability in any of them is read, and
	 * service_container_with() says which one it was. */
	struct container *ctrs;
	size_t n_ctrs, cap_ctrs;
	size_t engine_ctr; /* index into ctrs (0 when n_ctrs == 0) */
	/* True when env, env_from and command_line are the engine container's
	 * own lists and string (ctrs[engine_ctr]), held here as a view: not
	 * owned, never written through, and kept in step by the reader
	 * whenever it changes that container (manifest_set.c
	 * service_view_sync).  A model the size of its input does not keep
	 * the engine's environment and script twice. */
	bool ctr_view;
	/* Multi-node evidence for plain workloads: "--nnodes 2" and the like.
	 * node_count above is set from it. */
	char *nodes_how;
	/* Pod template labels the Dynamo operator sets
	 * (nvidia.com/dynamo-component-type, ...-sub-component-type), when an
	 * operator-rendered object is read. */
	struct kv_list labels;
	/* Anti-affinity detail: true when some podAntiAffinity term is
	 * required (requiredDuringSchedulingIgnoredDuringExecution) on
	 * kubernetes.io/hostname, or a hostname spread constraint says
	 * DoNotSchedule.  anti_affinity stays true for preferred rules too. */
	bool anti_affinity_required;
	/* How findings name the service: its name, with the engine
	 * container when that is not the main one ("Prefill (sidecar
	 * engine)", "Decode (container vllm)"); NULL: the name alone. */
	char *label;
	/* Pod template annotations (additive, capped): Multus and the clouds'
	 * CNIs attach networks through them (rules/k8s.c reads which). */
	struct kv_list annotations;
	/* A role label of a project that deploys disaggregated serving
	 * (llm-d.ai/role, ...: rules/k8s.c), when the template carries one. */
	char *role_label;
	/* The model the engine serves (--model, vllm serve's positional, SGLang
	 * --model-path), for grouping KV endpoints of one model; NULL. */
	char *model;
};

struct configmap {
	char *name;
	char *text; /* all data values concatenated, '\n'-separated */
	struct src_loc loc;
	struct kv_list data; /* data key -> value, each with its line (additive) */
};

struct deployment {
	char *name;
	char *kind; /* DynamoGraphDeployment, Deployment, Pod, ... */
	char *api_version;
	char *framework; /* spec.backendFramework, or NULL */
	struct src_loc loc;
	struct env_list env; /* deployment-wide (already merged into services) */
	struct service *svcs;
	size_t n_svcs, cap_svcs;
	bool has_compute_domain; /* a ComputeDomain in the same file */
	int doc_index;           /* 0-based document number in its file (additive) */
	/* Plain workloads that the reader paired (a prefill Deployment and a
	 * decode Deployment of the same folder, roles from their engine
	 * flags) are moved into the first one; the others keep no service
	 * and name it here. */
	char *paired_with;
	/* What kind of object a non-DGD workload came from when it is the
	 * operator's rendering (Grove PodCliqueSet, LWS with Dynamo labels). */
	bool operator_rendered;
	char *ns; /* metadata.namespace, or NULL (additive) */
	/* A workload CRD the model reads by its pod templates (StormService,
	 * ModelService, RayService...), not by a schema it knows (additive). */
	bool generic;
	/* The kustomize overlay (its folder) that lists this deployment's folder
	 * as a base (resources: ../../base): the base alone is not what is
	 * applied (additive). */
	char *kustomize_overlay;
};

/* A resource claim template the input defines, or the channel template a
 * ComputeDomain creates: its name and the device classes it requests. */
struct claim_template {
	char *name;
	char *classes;       /* "gpu.nvidia.com,rdma-dranet",
	                                 "compute-domain-default-channel.nvidia.com" */
	bool compute_domain; /* created by a ComputeDomain's channel */
	struct src_loc loc;
};

enum diag_severity {
	DIAG_NOTE = 0,
	DIAG_WARN,
	DIAG_ERROR
};

/* A problem reading the input: reported as a finding, never fatal to the run. */
struct diag {
	enum diag_severity severity;
	char *file;
	int line, col; /* 0 when not applicable */
	char *message; /* one line */
};

struct manifest_set {
	char **files; /* every file read, as given/found */
	size_t n_files, cap_files;
	struct deployment *deps;
	size_t n_deps, cap_deps;
	struct configmap *cms;
	size_t n_cms, cap_cms;
	size_t n_compute_domains;
	struct claim_template *claims; /* additive */
	size_t n_claims, cap_claims;
	struct diag *diags;
	size_t n_diags, cap_diags;
	size_t max_files;             /* folder walk cap (--max-files); 0: MANIFEST_MAX_FILES */
	struct manifest_names *names; /* deployment names, sorted once (manifest_name_count) */
	/* Multus NetworkAttachmentDefinitions of the input: name -> spec.config
	 * (additive). */
	struct kv_list nads;
	/* kustomize: each folder a Kustomization lists in resources/bases ->
	 * the folder of that Kustomization (additive). */
	struct kv_list kbases;
	/* kustomize overlays the caller rendered or tried to: overlay folder
	 * -> "" (rendered: its output was parsed as one more stream) or why
	 * it was not (additive; manifest_kustomize_note). */
	struct kv_list krendered;
};

void manifest_set_init(struct manifest_set *ms);
void manifest_set_release(struct manifest_set *ms);
/* Free deployment DEP's services and environment, keeping its name, kind,
 * namespace and location: for a caller that has judged it and reads it no
 * more (env_analyze_release), so that the model of a large tree and its
 * report are never both whole. */
void manifest_release_services(struct manifest_set *ms, size_t dep);

/* Caps: bigger files are skipped with a DIAG_ERROR (a truncated prefix would
 * only produce a bogus syntax error), deeper nesting or more nodes stop the
 * file with a DIAG_ERROR, keeping the documents before. */
#define MANIFEST_MAX_FILE_BYTES     YAML_MAX_FILE_BYTES /* core/yaml_limits.h */
#define MANIFEST_MAX_FILES          20000u              /* YAML files read per folder walk */
#define MANIFEST_MAX_DEPTH          YAML_MAX_DEPTH
#define MANIFEST_MAX_NODES          YAML_MAX_NODES /* per file, as written */
#define MANIFEST_MAX_EXPANDED       200000u        /* per document, aliases expanded */
#define MANIFEST_MAX_EXPANDED_BYTES (16u << 20)
#define MANIFEST_MAX_KBASES         1024u /* (base, overlay) rows of kustomize */

/* Parse one file's bytes (pure: no I/O) into ms.  `name` is used for
 * locations.  Invalid YAML, alias bombs, excessive nesting... become diags;
 * the documents before the error are kept. */
void manifest_parse_bytes(struct manifest_set *ms, const char *name, const char *buf, size_t len);

/* Read a path (a file, or a folder searched recursively for .yaml and .yml files,
 * symlink loops and huge files handled) and parse what it finds.  Problems
 * become diags.  Returns false when the path itself cannot be read (a
 * DIAG_ERROR then says why).  Folders: entries are visited in byte order;
 * names starting with '.' (.git, .kustomize-matrix.yaml) are skipped: they
 * are tooling state or generator input, never a manifest that is applied.
 * A file given explicitly is parsed whatever its name. */
bool manifest_load_path(struct manifest_set *ms, const char *path);

/* How many deployments in ms carry `name`.  The sorted index is built on
 * the first call after deployments were added (n log n once, log n per
 * call), so labelling every deployment stays n log n, not n^2. */
size_t manifest_name_count(const struct manifest_set *ms, const char *name);

/* What manifest_load_path does after reading: ConfigMaps across the files
 * of a folder, and prefill/decode pairs of plain workloads (see
 * deployment.paired_with).  For input read otherwise (a stream). */
void manifest_finish(struct manifest_set *ms, size_t first_dep);

/* Read one YAML stream from fd (standard input: `kubectl get dgd X -o yaml
 * | check_interconnect env -`) under the file cap; NAME is used for
 * locations.  False (with a diag) when fd cannot be read. */
bool manifest_load_fd(struct manifest_set *ms, const char *name, int fd);

/* The kustomize overlays to render: each folder whose Kustomization lists a
 * base folder and that no Kustomization of the input lists as a base in
 * turn (an overlay of an overlay renders through the outer one).  Fills
 * out (pointers into ms) in input order, at most max; returns the count. */
size_t manifest_kustomize_overlays(const struct manifest_set *ms, const char **out, size_t max);
/* Record what rendering OVERLAY gave: "" rendered, else why not. */
void manifest_kustomize_note(struct manifest_set *ms, const char *overlay, const char *outcome);
/* What manifest_kustomize_note recorded for OVERLAY, or NULL: not tried. */
const char *manifest_kustomize_outcome(const struct manifest_set *ms, const char *overlay);

/* Zero every line number of the deployments from first_dep on: for live
 * objects read from the API server, where a line of kubectl's rendering
 * means nothing to the user (the object's name is the location). */
void manifest_drop_lines(struct manifest_set *ms, size_t first_dep);

/* Lookups used by the rules.  service_has_cap ignores case and a CAP_
 * prefix, and is true for any capability when ALL was added. */
const struct env_var *service_env_get(const struct service *s, const char *name);
const char *service_resource_get(const struct service *s, const char *key);
bool service_has_cap(const struct service *s, const char *cap);

/* The container of s that requests resource KEY / adds capability CAP /
 * is privileged, or NULL.  For findings that must name the container. */
const struct container *service_container_with_resource(const struct service *s, const char *key);
const struct container *service_container_with_cap(const struct service *s, const char *cap);
const struct container *service_engine_container(const struct service *s);

/* What a resource claim of s asks for: the device classes of its template
 * when the input defines the template (a ResourceClaimTemplate, or the
 * channel template of a ComputeDomain), else NULL. */
const struct claim_template *manifest_claim_template(const struct manifest_set *ms,
						     const char *template_name);
enum claim_kind {
	CLAIM_UNKNOWN = 0, /* its template is not in the input */
	CLAIM_MNNVL,       /* a ComputeDomain channel or an IMEX channel */
	CLAIM_GPU,         /* gpu.nvidia.com, gpu.intel.com, ... */
	CLAIM_NIC,         /* an RDMA/network device class */
	CLAIM_OTHER,
};
enum claim_kind manifest_claim_kind(const struct manifest_set *ms, const char *template_name);

/* The engine flag that decides a plain workload's role, as the model read
 * it: "--disaggregation-mode prefill", "kv_role kv_producer",
 * "--server_role CONTEXT"...; ROLE_UNKNOWN when none. */
enum svc_role manifest_role_from_command(const char *cmdline, char *how, size_t howsz);

#endif
