/* SPDX-License-Identifier: Apache-2.0 */
/* The node checks: one descriptor each (id, layer, critical; see
 * struct check_desc in core/report.h), described in docs/checks.md. */
#ifndef CI_NODE_DESC_H
#define CI_NODE_DESC_H

#include <stddef.h>

#include "core/report.h"

enum node_check {
	NODE_CK_PROBE = 0,
	NODE_CK_RDMA_DEVICES,
	NODE_CK_RDMA_PORTS,
	NODE_CK_RDMA_UVERBS,
	NODE_CK_ROCE_GID,
	NODE_CK_EFA,
	NODE_CK_GPUDIRECT,
	NODE_CK_GDRCOPY,
	NODE_CK_NVLINK,
	NODE_CK_NVLINK_FABRIC,
	NODE_CK_MNNVL_IMEX,
	NODE_CK_GPU_NIC_AFFINITY,
	NODE_CK_MEMLOCK,
	NODE_CK_SHM,
	NODE_CK_ENV,
	NODE_CK_ENV_UCX_DEVICES_EXIST,
	NODE_CK_ENV_NCCL_IB_HCA,
	NODE_CK_ENV_NCCL_SOCKET_IFNAME,
	NODE_CK_ENV_GLOO_SOCKET_IFNAME,
	NODE_CK_ENV_GID_INDEX,
	NODE_CK_RDMA_MTU,
	NODE_CK_RDMA_SPEED,
	NODE_CK_PCIE_WIDTH,
	NODE_CK_RDMA_ERRORS,
	NODE_CK_MIG,
	NODE_CK_IOMMU,
	NODE_CK_ENV_UCX_TLS,
	NODE_CK_ENV_UCX_NET_DEVICES,
	NODE_CK_ENV_UCX_IB_ADDR_TYPE,
	NODE_CK_ENV_UCX_RNDV,
	NODE_CK_ENV_NCCL_IB,
	NODE_CK_ENV_KV,
	NODE_CK_ENV_UCX_FRONTEND,
	NODE_CK_COUNT,
};

extern const struct check_desc node_check_table[NODE_CK_COUNT];
/* The descriptor of one node check: NODE_CHECK(PROBE). */
#define NODE_CHECK(name) (&node_check_table[NODE_CK_##name])

/* The pod's value-rule checks (node.env.ucx.tls ... node.env.nccl.ib),
 * indexed by enum varrule_id, as env_check_pod_vars() takes them. */
#define NODE_VARRULE_CHECKS (&node_check_table[NODE_CK_ENV_UCX_TLS])

#endif
