/* SPDX-License-Identifier: Apache-2.0 */
/*
 * UCX: the versions that change which KV path UCX can take.  One row per
 * threshold, each with the source it follows (docs/checks.md cites the same).
 * A version appears here and nowhere else: checks and texts read the row.
 */
#ifndef CI_RULES_UCX_H
#define CI_RULES_UCX_H

#include <stdbool.h>

enum ucx_threshold {
	UCX_MIN_DMABUF,    /* DMA-BUF registration (GPUDirect without peermem) */
	UCX_MIN_MNNVL_IPC, /* cuda_ipc over fabric handles (multi-node NVLink) */
	UCX_MIN_NIXL_FULL, /* NIXL's UCX plugin stops warning "CUDA support is limited" */
	UCX_THRESHOLD_COUNT,
};

struct ucx_version_rule {
	unsigned major, minor;
	const char *text;   /* "1.14": for messages */
	const char *what;   /* what the version brings */
	const char *source; /* project, file, version */
};

const struct ucx_version_rule *ucx_rule(enum ucx_threshold t);
/* major.minor at least the threshold's */
bool ucx_meets(enum ucx_threshold t, unsigned major, unsigned minor);

/* UCX value rules: one fact, one status, in every verb (env, node, nixl, all).
 * Each row: the status, the words the checks print, the source. */
enum ucx_value_rule_id {
	/* UCX_TLS keeps RDMA but not cuda_copy, on a GPU pod: UCX's cuda_copy
	 * memory domain is the one that detects CUDA memory, so without it
	 * VRAM is classified as host memory and NIXL's memReg fails. */
	UCX_VR_TLS_NO_CUDA_COPY,
	/* UCX_IB_GPU_DIRECT_RDMA off: UCX's IB memory domain never registers
	 * GPU memory, so GPU buffers are staged through host memory. */
	UCX_VR_GDR_OFF,
	/* A frontend/management RoCE NIC the pod can open, left in reach of
	 * UCX: with UCX's defaults every remote RoCE v2 address is reachable
	 * from any port, so a lane may cross the frontend network. */
	UCX_VR_FRONTEND_REACHABLE,
	UCX_VALUE_RULE_COUNT,
};

struct ucx_value_rule {
	int status;       /* enum ci_status (core/report.h) */
	const char *what; /* the consequence, printed by every verb */
	const char *fix;
	const char *source;
};

const struct ucx_value_rule *ucx_value_rule(enum ucx_value_rule_id id);
/* UCX's ternary/boolean "off" spellings (ucs_config_sscanf_ternary / bool):
 * n, no, off, 0, false, any case. */
bool ucx_value_off(const char *v);
/* ... and its "on" spellings: y, yes, on, 1, true, any case. */
bool ucx_value_on(const char *v);

#endif
