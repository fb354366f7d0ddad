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

#endif
