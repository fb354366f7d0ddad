/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GPUDirect RDMA as UCX and NCCL detect it, judged ONCE for node.gpudirect,
 * nixl.ucx.gpudirect and fleet.gpudirect.mode (pure, facts in).
 *
 * Order of evidence (docs/checks.md cites each):
 *  - nvidia_peermem / nv_peer_mem loaded and registered with MLNX_OFED's
 *    ib_core (/sys/kernel/mm/memory_peers): both UCX and NCCL use it;
 *  - efa_nv_peermem on an EFA node: UCX's EFA memory domain checks
 *    /sys/module/efa_nv_peermem; EFA nodes never have memory_peers;
 *  - DMA-BUF: kernel >= 5.12 with the NVIDIA open kernel module, UCX >= 1.14
 *    and rdma-core with ibv_reg_dmabuf_mr (libibverbs ABI 1.12, rdma-core 34)
 *    where the transcript shows them;
 *  - nvidia_peermem loaded WITHOUT memory_peers: UCX still uses it
 *    (/sys/module/nvidia_peermem), NCCL reports "GPU Direct RDMA Disabled":
 *    a warning, not host staging;
 *  - nothing: host staging (GPU -> CPU -> NIC), the same status everywhere.
 */
#ifndef CI_NODE_GPUDIRECT_H
#define CI_NODE_GPUDIRECT_H

#include "core/report.h"
#include "node/node_facts.h"

enum gdr_mode {
	GDR_MODE_UNKNOWN = 0,  /* nothing readable */
	GDR_MODE_PEERMEM,      /* nvidia_peermem/nv_peer_mem + memory_peers */
	GDR_MODE_EFA_PEERMEM,  /* efa_nv_peermem on an EFA node */
	GDR_MODE_DMABUF,       /* the DMA-BUF prerequisites hold */
	GDR_MODE_PEERMEM_BARE, /* nvidia_peermem without memory_peers */
	GDR_MODE_STAGING,      /* none: host staging */
};

struct gdr_view {
	enum gdr_mode mode;
	enum ci_status status; /* ok, warn (bare peermem, staging), skipped (unknown) */
	const char *name;      /* the fleet's word: "peermem", "efa_nv_peermem",
				   * "dma-buf", "peermem without memory_peers",
				   * "host staging"; NULL when unknown */
	char detail[400];      /* one line for node.gpudirect */
	char fix[320];         /* "" when nothing to fix */
	char dmabuf[240];      /* the DMA-BUF prerequisites as read, for evidence */
};

void node_gpudirect_view(const struct node_facts *f, struct gdr_view *v);

/* Host staging works, slowly: ONE status and ONE phrase wherever it is
 * found (the kernel side in node.gpudirect, UCX's memory domains in
 * nixl.ucx.gpudirect, the fleet's comparison). */
enum ci_status node_host_staging_status(void);
const char *node_host_staging_words(void);

#endif
