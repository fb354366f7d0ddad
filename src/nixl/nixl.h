/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nixl verb as a library: what one probe transcript says about NIXL and
 * UCX in a pod (nixl_facts_read, pure), the checks over those facts
 * (nixl_analyze, pure), and the next commands that prove the transfer path
 * (nixl_steps, pure).  Only the verb, src/cmd/nixl.c, talks to the system,
 * through probe_collect() (by the runner) and kube_get_pods().
 *
 *   nixl_facts.c   transcript -> struct nixl_facts (reuses node_facts_read)
 *   nixl_tls.c     UCX_TLS / UCX_NET_DEVICES semantics against ucx_info -d
 *   nixl_checks.c  the nixl.* checks
 *   nixl_steps.c   next commands, shell quoting, bandwidth expectations
 *   nixl_peer.c    choosing the peer pod from a `get pods` list
 */
#ifndef CI_NIXL_H
#define CI_NIXL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/report.h"
#include "core/strmap.h"
#include "node/node_facts.h"
#include "parse/pip_meta.h"
#include "parse/ucx_info.h"
#include "parse/kube_pods.h"
#include "parse/transcript.h"

/* Tools looked up on PATH by the probe (section `which`). */
enum nixl_tool {
	NT_NIXLBENCH = 0,
	NT_NIXL_TEST,
	NT_NIXL_EXAMPLE,
	NT_KVBENCH,
	NT_ETCDCTL,
	NT_UCX_PERFTEST,
	NT_UCX_INFO,
	NT_FI_INFO,
	NT_COUNT
};
const char *nixl_tool_name(enum nixl_tool t);

#define NIXL_MAX_PLUGINS     64
#define NIXL_MAX_PLUGIN_DIRS 16
#define NIXL_MAX_PY          8

struct nixl_plugin {
	char *name; /* "UCX" from libplugin_UCX.so */
	char *path;
};

struct nixl_py {
	char *name, *version, *path;
};

enum nixl_backend {
	NB_UCX = 0,
	NB_LIBFABRIC,
	NB_OTHER
};

struct nixl_facts {
	struct node_facts node; /* env, RDMA devices, fi_info, GPUs */

	bool have_which;
	char *tool_path[NT_COUNT]; /* NULL when not on PATH */

	struct tool_out ucx_v_t, ucx_d_t;
	bool have_ucxv, have_ucxd; /* parsed */
	struct ucx_version ucxv;
	struct ucx_devices ucxd;
	/* UCX's own log lines inside the ucx_info -d output (a pod with
	 * UCX_LOG_LEVEL=debug, or an old probe that did not quiet it): a CUDA
	 * module that failed to load is a fact, whatever else was listed. */
	char *ucx_cuda_missing; /* the log line, or NULL */

	bool have_plugins; /* the nixl:plugins section exists */
	char *plugin_dirs[NIXL_MAX_PLUGIN_DIRS];
	size_t n_plugin_dirs;
	struct nixl_plugin plugins[NIXL_MAX_PLUGINS];
	size_t n_plugins;

	bool have_python;
	struct nixl_py py[NIXL_MAX_PY];
	size_t n_py;

	/* derived */
	bool efa; /* an EFA fabric */
	char efa_how[160];
	bool mnnvl;
	enum nixl_backend backend;
	char backend_name[32]; /* "UCX", "LIBFABRIC", or the selector's word */
	char backend_how[256];
};

void nixl_facts_init(struct nixl_facts *f);
void nixl_facts_release(struct nixl_facts *f);
void nixl_facts_read(struct nixl_facts *f, const struct transcript *t);
const char *nixl_env(const struct nixl_facts *f, const char *name);
bool nixl_has_plugin(const struct nixl_facts *f, const char *name);

/* ---- nixl_tls.c: which listed transports UCX_NET_DEVICES filters ---- */
/* (UCX_TLS and UCX_NET_DEVICES themselves: parse/ucx_tls.h) */

/* Transports listed as network (Type: network, or RDMA/tcp when the
 * listing has no Type lines). */
bool nixl_tl_is_network(const struct ucx_tl *tl);

/* ---- targets, peers and the checks ---- */

enum nixl_kind {
	NK_LOCAL = 0,
	NK_SYSROOT,
	NK_REPLAY,
	NK_POD
};

enum nixl_peer_state {
	PEER_NONE = 0,      /* not looked for (local target without --peer) */
	PEER_GIVEN,         /* --peer */
	PEER_FOUND,         /* discovered by the one `get pods` */
	PEER_NOT_FOUND,     /* looked, none fits: why says */
	PEER_LOOKUP_FAILED, /* `get pods` failed: why says */
};

/* The pod whose role the peer must have, chosen from a `get pods` list. */
struct nixl_peer_choice {
	enum nixl_peer_state state;  /* PEER_FOUND or PEER_NOT_FOUND */
	const struct kube_pod *self; /* the probed pod in the list; may be NULL */
	const struct kube_pod *peer; /* PEER_FOUND */
	char why[512];               /* one line: why this peer, or why none */
};
/* Pure: pick the peer of pod `self_name` in l (same DGD label, the other
 * sub-component type; Running, ready, not terminating; another node
 * preferred; then by name).  One pick: it builds a nixl_peer_index and
 * releases it (linear in l); for a pick per pod of l use the index. */
void nixl_pick_peer(const struct kube_pod_list *l, const char *self_name,
		    struct nixl_peer_choice *out);

/* The lookups every pick needs, built once per `get pods` list, so that a
 * pick per pod (a nixl or all fleet run) is linear in the pods, not
 * quadratic: the pods by name (the first of a name, as kube_pods_find) and,
 * per DGD label, the workers of each role (prefill, decode, any) with their
 * counts and the few candidates any pick can choose (nixl_peer.c says why
 * three per tier are enough).  Borrows l: l must outlive the index and stay
 * unchanged. */
struct nixl_peer_tier {
	const struct kube_pod *first, *second; /* by (name, list order) */
	const struct kube_pod *other_node;     /* the first not on first's node */
};
struct nixl_peer_group {
	size_t n, n_down;            /* members; of those, not Running or terminating */
	struct nixl_peer_tier ready; /* Running, not terminating, every container ready */
	struct nixl_peer_tier up;    /* Running, not terminating, not ready */
};
struct nixl_peer_dgd {
	struct nixl_peer_group prefill, decode, any; /* any: every worker */
};
struct nixl_peer_index {
	const struct kube_pod_list *list;
	struct strmap by_name; /* pod name -> index in list */
	struct strmap by_dgd;  /* "NS/DGD label" -> index in dgds */
	struct nixl_peer_dgd *dgds;
	size_t n_dgds, cap_dgds;
	char **dgd_keys; /* the by_dgd keys (owned: a map's key outlives it) */
};
void nixl_peer_index_init(struct nixl_peer_index *ix, const struct kube_pod_list *l);
void nixl_peer_index_release(struct nixl_peer_index *ix);
/* nixl_pick_peer through the index: the same choice and the same why. */
void nixl_peer_pick(const struct nixl_peer_index *ix, const char *self_name,
		    struct nixl_peer_choice *out);
/* The same for a pod of the list known already (a fleet's: its name alone
 * may be another namespace's pod's too, under -A); self_name words the
 * why when self is NULL.  The peer is always of self's namespace. */
void nixl_peer_pick_pod(const struct nixl_peer_index *ix, const struct kube_pod *self,
			const char *self_name, struct nixl_peer_choice *out);

struct nixl_target {
	enum nixl_kind kind;
	const char *namespace_, *pod, *container, *context, *kubeconfig;
	const char *peer; /* pod name (pod target) or host (local) */
	enum nixl_peer_state peer_state;
	const char *peer_why;
	/* from the get pods list when known; NULL otherwise */
	const char *pod_ip, *pod_role, *pod_node, *dgd;
	const char *peer_ip, *peer_role, *peer_node;
	/* node's checks are in the same report (all): the facts node judges
	 * (memlock, the NVLink fabric, IMEX) are not judged twice */
	bool node_judged;
};

/* Every nixl.* check (and the transport variables as facts). */
void nixl_analyze(struct ci_report *r, const struct nixl_facts *f, const struct nixl_target *t,
		  const char *subject);
/* The next commands (report_add_step). */
void nixl_steps(struct ci_report *r, const struct nixl_facts *f, const struct nixl_target *t);

/* POSIX shell single-quoting: 'it'\''s'.  Always quotes (also "" -> '').
 * Caller frees. */
char *shell_quote(const char *s);
/* Expected point-to-point bandwidth of one RDMA port at `gbps`, in GB/s. */
void nixl_expect_gbs(double gbps, double *low, double *high);

#endif
