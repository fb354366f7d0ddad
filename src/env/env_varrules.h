/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The per-variable value rules, written once and used by two verbs:
 *   env   the variables a recipe sets for one worker (src/env/env_rules.c
 *         groups the outcomes of every worker into one check per id);
 *   node  the variables really set in a probed pod (src/node/checks_env.c,
 *         through env_check_pod_vars()).
 * A rule reads only variable names and values plus where it runs (the
 * fabric, GPUs, how many nodes NCCL spans); what depends on the pod spec
 * (resources, roles, prefill/decode pairing) stays in env_rules.c, and what
 * needs the hardware (does mlx5_3 exist here?) stays in the node verb.
 * Pure: no I/O, no globals.  docs/checks.md
 * describes the outcomes; keep them in step.
 */
#ifndef CI_ENV_VARRULES_H
#define CI_ENV_VARRULES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/report.h"
#include "core/varcat.h"

/* One variable as a rule sees it. */
struct var_view {
	const char *name;
	const char *value; /* literal value; NULL when only a reference is known */
	const char *shown; /* how to print it (redacted, "<secret N/K>"); NULL: value */
	const char *where; /* "deploy.yaml:57", "pid 1 environment"; NULL: unknown */
	bool ref;          /* set from a reference (valueFrom, configMapKeyRef) */
};

/* Where the rules run. */
struct varrule_ctx {
	unsigned fabric; /* FAB_* mask */
	bool hw;         /* the mask is what this host's hardware shows, so a
			      * missing NIC bit means no RDMA device (node); else
			      * it is what a recipe suggests (env) */
	bool gpu;        /* the buffers are GPU memory (env: always) */
	bool cross_pod;  /* KV moves between pods */
	long nodes;      /* nodes one NCCL group spans; 0 when unknown */
};

enum varrule_id {
	VR_UCX_TLS = 0,      /* UCX_TLS (+ UCX_CUDA_IPC_ENABLE_MNNVL) */
	VR_UCX_NET_DEVICES,  /* UCX_NET_DEVICES: form, bonds, interfaces only */
	VR_UCX_IB_ADDR_TYPE, /* UCX_IB_ADDR_TYPE on cross-pod InfiniBand */
	VR_UCX_RNDV,         /* UCX_RNDV_THRESH, UCX_RNDV_SCHEME */
	VR_NCCL_IB,          /* NCCL_IB_DISABLE, NCCL_NET, NCCL_P2P_DISABLE */
	VR_COUNT,
};

/* One finding of a rule; a rule may make more than one (both RNDV knobs). */
struct varrule_note {
	enum ci_status st;
	char *msg;
	char *fix; /* NULL for ok */
};

struct varrule_res {
	struct varrule_note note[3];
	size_t n_note;
	const struct var_view *ev[3]; /* the variables it read, in order */
	size_t n_ev;
};

/* "ucx.tls", "ucx.net_devices", "ucx.ib_addr_type", "ucx.rndv", "nccl.ib" */
const char *varrule_suffix(enum varrule_id id);

/* The variable NAME in vars (the last one wins, as in an environment). */
const struct var_view *var_view_find(const struct var_view *vars, size_t n, const char *name);
/* "where: NAME=shown" (or "NAME=shown"), as evidence; caller frees. */
char *var_view_evidence(const struct var_view *v);

/* Apply one rule.  False when it has nothing to say: its variable is not
 * set (UCX_IB_ADDR_TYPE: when the fabric does not need it).  Release res
 * after a true return. */
bool varrule_eval(enum varrule_id id, const struct var_view *vars, size_t n,
		  const struct varrule_ctx *x, struct varrule_res *res);
void varrule_res_release(struct varrule_res *res);

/* Every rule over one pod's variables: one check checks[rule] (the
 * caller's descriptors, indexed by enum varrule_id) per rule whose
 * variables are set (an unset variable says nothing about a
 * real pod: UCX and NCCL then use every device they find).  subject NULL:
 * the first variable the rule read.  Evidence names each variable with
 * where it was read. */
void env_check_pod_vars(struct ci_report *r, const char *subject, const struct var_view *vars,
			size_t n, const struct varrule_ctx *x, const struct check_desc *checks);

#endif
