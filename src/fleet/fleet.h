/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole deployments: `node`/`nixl --deployment NAME | -l SEL -n NS` and the
 * pod half of `all`.  ONE read-only `kubectl get pods -o json` lists the
 * pods; frontends and pods that are not Running are named and left out; each
 * remaining pod gets its ONE `kubectl exec` (probe_collect), up to --jobs at
 * once, each bounded by --timeout (all by --deadline, when given), and judged
 * as soon as its answer is in.  Each pod becomes a child report (the node
 * and/or nixl checks from the same transcript), and the
 * fleet checks compare the pods with each other: what no single-pod look can
 * see (prefill and decode disagreeing, nodes that differ, EFA placement).
 *
 *   fleet_plan.c     which listed pods are probed, and their roles (pure)
 *   fleet_probe.c    the worker pool (the only part that runs processes)
 * This header is the pure part (the checks link it without probe/);
 * fleet_run.h adds the pool and the orchestration.
 *   fleet_pod.c      struct fleet_pod: the per-pod summary the checks read (pure)
 *   fleet_checks.c   the fleet.* checks (pure)
 *   fleet_run.c      fleet_run: the orchestration
 *   fleet_render_text.c  the matrix text layout
 *   all_drift.c      all.drift.*: recipe versus pods (pure)
 *   fleet_desc.c     the descriptors (id, layer, critical) of fleet.* and all.drift.*
 * The verbs themselves are src/cmd/node.c, nixl.c and all.c; the runner
 * (src/cmd/run_verb.c) validates the options and renders the report.
 */
#ifndef CI_FLEET_H
#define CI_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/render.h"
#include "core/report.h"
#include "manifest/deploy_model.h"
#include "parse/kube_pods.h"
#include "rules/fabric.h"

enum fleet_kind {
	FLEET_NODE = 0,
	FLEET_NIXL,
	FLEET_ALL
};

/* ---- per-pod summary (fleet_pod.c) ---- */

struct fleet_var {
	char *name, *value; /* value as the probe returned it (secrets redacted) */
};

/* What the fleet checks know about one pod.  Plain data (tests build it by
 * hand); every string is owned.  Unknown readings are NULL / -1 / false. */
struct fleet_pod {
	char *name, *node; /* node: spec.nodeName, "" when not scheduled */
	char *role;        /* "prefill", "decode", "worker", or "" */
	char *component;   /* the nvidia.com/dynamo-component label, or NULL */
	bool probed;       /* a transcript was read: the fields below are valid */
	char *unreachable; /* when !probed: why (one line) */
	bool timed_out;

	bool rdma_known;  /* /sys/class/infiniband was read */
	int n_ports;      /* RDMA ports seen */
	int n_active;     /* of which ACTIVE */
	char *link_layer; /* active ports' link layers: "InfiniBand", "RoCE",
				  * "EFA", "InfiniBand+RoCE"; "none" without active ports */
	char *rate;       /* active ports' rates: "400 Gb/s", "200/400 Gb/s"; NULL */
	bool efa;         /* an EFA fabric */

	int n_gpus;      /* -1 when unknown */
	char *driver;    /* NVIDIA driver version, or NULL */
	char *gpudirect; /* "peermem", "dma-buf", "none", or NULL (unknown) */
	int gdrcopy;     /* 1 usable, 0 not, -1 unknown */

	/* RoCE GIDs of the data ports: each IPv4 RoCE v2 GID with its index
	 * ("::ffff:10.0.10.5" -> "0000:...:ffff:0a00:0a05"), for the fleet's
	 * address-clash and GID-index comparisons */
	struct fleet_gid {
		char *gid;
		int index;
	} * v4;
	size_t n_v4, cap_v4;
	char *gid_index_var; /* "NCCL_IB_GID_INDEX=3" when one is pinned, else NULL */
	char *mtu;           /* RoCE data ports' active_mtu set: "1024/4096"; NULL */
	char *fw;            /* data NICs' fw_ver set per card: "MT4129 28.42.1000"; NULL */
	char *cluster_uuid;  /* MNNVL: the first GPU's ClusterUUID and CliqueId; NULL off MNNVL */
	char *clique_id;
	bool rdma_path; /* the pod can move KV over an RDMA NIC (given, active) */
	/* The fabric model's input as the pod's probe read it (node_fabric_in:
	 * NICs given per kind, GPUs, links, fabric state, ClusterUUID, IMEX,
	 * UCX).  The drift and the fleet ask fabric_decide() over it, the same
	 * model node and nixl ask, so that the verbs cannot disagree.  Zero
	 * (TCP only, no NVLink domain) when the pod was not probed. */
	struct fabric_in fabric;

	char *ucx_version;  /* NULL: ucx_info not readable */
	char *nixl_version; /* NULL: no nixl Python package seen */
	char *backend;      /* "UCX", "LIBFABRIC", ...; NULL for a node-only look */

	struct fleet_var *env; /* transport variables, first value of each name */
	size_t n_env, cap_env;

	/* what moved during --observe (live/live.h); live_observed false otherwise */
	bool live_observed;
	bool live_nixl;                /* NIXL telemetry read at both ends of the window */
	double live_kv_tx, live_kv_rx; /* NIXL's byte counters' growth */
	double live_rdma, live_tcp;    /* RDMA port bytes, pod interface bytes */
	/* When its one exec started and ended on this machine's clock
	 * (run_now(), seconds; 0: not run): the pods' windows are compared by
	 * these, measured, not by --jobs alone. */
	double exec_start, exec_end;
};

void fleet_pod_init(struct fleet_pod *p, const char *name, const char *node, const char *role,
		    const char *component);
void fleet_pod_release(struct fleet_pod *p);
void fleet_pod_set_env(struct fleet_pod *p, const char *name, const char *value);
const char *fleet_pod_env(const struct fleet_pod *p, const char *name);
/* Fill the probed fields from a transcript (pure).  with_nixl: read UCX,
 * NIXL and the backend too. */
struct transcript;
void fleet_pod_read(struct fleet_pod *p, const struct transcript *t, bool with_nixl);
/* The same from facts already read. */
struct nixl_facts;
void fleet_pod_from_facts(struct fleet_pod *p, const struct nixl_facts *f, bool with_nixl);

/* ---- the fleet checks (fleet_checks.c), pure over the pods ---- */

/* Variables whose values prefill and decode must agree on: they choose the
 * transport or the backend at both ends of a KV transfer. */
bool fleet_var_must_match(const char *name);

void fleet_check_unreachable(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_env_drift(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_ucx_version(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_nixl_version(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_backend(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_rdma_ports(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_rdma_rate(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_link_layer(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_gpus(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_driver(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_gpudirect_mode(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_gdrcopy(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_efa_colocated(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_rdma_mtu(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_nic_fw(struct ci_report *r, const struct fleet_pod *p, size_t n);
/* fleet_fabric.c: RoCE GID clashes and pinned indexes; MNNVL domains */
void fleet_check_roce_gid(struct ci_report *r, const struct fleet_pod *p, size_t n);
void fleet_check_mnnvl_domain(struct ci_report *r, const struct fleet_pod *p, size_t n);
/* fleet_live.c: pods observed in one window (--observe) */
/* The pods' windows compared (fleet_live.c); jobs: --jobs, the most execs
 * (and so windows) at once.  Called by fleet_run after fleet_checks_run. */
void fleet_check_live(struct ci_report *r, const struct fleet_pod *p, size_t n, size_t jobs);
/* All of the above for `kind` (the UCX/NIXL ones need FLEET_NIXL or
 * FLEET_ALL; the hardware ones FLEET_NODE or FLEET_ALL). */
void fleet_checks_run(struct ci_report *r, enum fleet_kind kind, const struct fleet_pod *p,
		      size_t n);
/* fleet_checks_run's table, in run order (fleet_checks.c). */
enum fleet_step_runs {
	FLEET_ANY = 0,
	FLEET_NX,
	FLEET_HW
};
struct fleet_step {
	const struct check_desc *desc;
	void (*run)(struct ci_report *r, const struct fleet_pod *p, size_t n);
	enum fleet_step_runs runs; /* every run, nixl/all runs, node/all runs */
};
extern const struct fleet_step fleet_steps[];
extern const size_t fleet_steps_len;

/* ---- which pods (fleet_plan.c), pure ---- */

enum fleet_pick {
	FP_PROBE = 0,
	FP_FRONTEND,
	FP_NOT_WORKER,
	FP_NOT_RUNNING
};

struct fleet_plan_pod {
	const struct kube_pod *kp; /* into the list */
	enum fleet_pick pick;
	char role[32];  /* "prefill", "decode", "worker", "" */
	char state[96]; /* FP_NOT_RUNNING: "Pending", "Running, terminating" */
};

struct fleet_plan {
	struct fleet_plan_pod *v;
	size_t n, cap;
	size_t n_probe;
	size_t left_out;             /* pods the list's cap dropped (KUBE_PODS_MAX) */
	const struct kube_pod *base; /* the list's pods, that v[].kp points into */
	char *const *keys;           /* how the report names pod i of the list (NS/POD
				      * under -A); NULL: its name */
};

void fleet_plan_make(const struct kube_pod_list *l, struct fleet_plan *out);
void fleet_plan_release(struct fleet_plan *p);
/* Add fleet.pods, fleet.pods.not_running and fleet.pods.capped. */
void fleet_plan_report(struct ci_report *r, const struct fleet_plan *p, const char *what);

/* The text layout of a fleet report (the matrix), for report_finish_as();
 * JSON is the core renderer's. */
void fleet_render_text(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		       const struct render_opts *o);
/* Free what fleet_render_text never reads of a child report when it shows
 * two pods or more without -v (fleet_render_text.c says what it reads), so
 * that a big fleet holds per pod what its text report needs.  The steps are
 * the caller's (fleet_run lifts one pod's).  Output unchanged. */
void fleet_text_trim_child(struct ci_report *c);
/* The matrix column of a check id ("rdma", "gpudirect", ...), or NULL when
 * it is in no column. */
const char *fleet_group_of(const char *check_id);

/* ---- all: recipe versus pods (all_drift.c), pure ---- */

/* The recipe deployment that the pods run: the one named `dgd`, else the
 * only DynamoGraphDeployment; NULL when none fits. */
const struct deployment *all_pick_deployment(const struct manifest_set *ms, const char *dgd);
void all_check_drift(struct ci_report *r, const struct manifest_set *ms, const struct deployment *d,
		     const struct fleet_pod *p, size_t n);

#endif
