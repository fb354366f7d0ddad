/* SPDX-License-Identifier: Apache-2.0 */
/* Where the layer and criticality of every node check are decided. */
#include "node/node_desc.h"

#include "env/env_varrules.h"

const struct check_desc node_check_table[NODE_CK_COUNT] = {
	[NODE_CK_PROBE] = {"node.probe", CI_LAYER_FABRIC, true,
			   "the probe ran and its transcript was read"},
	[NODE_CK_RDMA_DEVICES] = {"node.rdma.devices", CI_LAYER_FABRIC, true,
				  "RDMA devices in /sys/class/infiniband"},
	[NODE_CK_RDMA_PORTS] = {"node.rdma.ports", CI_LAYER_FABRIC, true,
				"every RDMA port active, rates, LIDs, bonds"},
	[NODE_CK_RDMA_UVERBS] = {"node.rdma.uverbs", CI_LAYER_FABRIC, true,
				 "the pod can open its RDMA devices (uverbs, libibverbs)",
				 CI_DESC_SETTLED_BY_RDMA},
	[NODE_CK_ROCE_GID] = {"node.roce.gid", CI_LAYER_FABRIC, true,
			      "RoCE ports have a usable RoCE v2 GID"},
	[NODE_CK_EFA] =
		{"node.efa", CI_LAYER_FABRIC, true,
		 "libfabric sees the EFA devices, at versions NIXL and aws-ofi-nccl accept"},
	[NODE_CK_GPUDIRECT] = {"node.gpudirect", CI_LAYER_DRIVER, true,
			       "GPUDirect RDMA: nvidia-peermem or DMA-BUF"},
	[NODE_CK_GDRCOPY] = {"node.gdrcopy", CI_LAYER_DRIVER, false, "GDRCopy for small transfers"},
	[NODE_CK_NVLINK] = {"node.nvlink", CI_LAYER_FABRIC, false, "NVLink between the GPUs"},
	[NODE_CK_NVLINK_FABRIC] = {"node.nvlink.fabric", CI_LAYER_FABRIC, true,
				   "the NVLink fabric state (multi-node NVLink)"},
	[NODE_CK_MNNVL_IMEX] = {"node.mnnvl.imex", CI_LAYER_FABRIC, true,
				"IMEX channels for multi-node NVLink"},
	[NODE_CK_GPU_NIC_AFFINITY] = {"node.gpu_nic_affinity", CI_LAYER_TUNING, false,
				      "each GPU has a near RDMA NIC"},
	[NODE_CK_MEMLOCK] = {"node.memlock", CI_LAYER_ENV, true,
			     "the locked-memory limit RDMA registration needs",
			     CI_DESC_SETTLED_BY_RDMA},
	[NODE_CK_SHM] = {"node.shm", CI_LAYER_ENV, false, "/dev/shm size"},
	[NODE_CK_ENV] = {"node.env", CI_LAYER_ENV, false, "the transport variables the pod sets"},
	[NODE_CK_ENV_UCX_DEVICES_EXIST] = {"node.env.ucx.devices_exist", CI_LAYER_ENV, true,
					   "UCX_NET_DEVICES names devices this pod has"},
	[NODE_CK_ENV_NCCL_IB_HCA] = {"node.env.nccl.ib_hca", CI_LAYER_ENV, false,
				     "NCCL_IB_HCA selects devices this pod has"},
	[NODE_CK_ENV_NCCL_SOCKET_IFNAME] = {"node.env.nccl.socket_ifname", CI_LAYER_ENV, true,
					    "NCCL_SOCKET_IFNAME matches an interface that is up"},
	[NODE_CK_ENV_GLOO_SOCKET_IFNAME] = {"node.env.gloo.socket_ifname", CI_LAYER_ENV, true,
					    "GLOO_SOCKET_IFNAME matches an interface that is up"},
	[NODE_CK_ENV_GID_INDEX] =
		{"node.env.gid_index", CI_LAYER_ENV, true,
		 "a pinned GID index holds a RoCE v2 GID on the ports it applies to"},
	[NODE_CK_RDMA_MTU] = {"node.rdma.mtu", CI_LAYER_TUNING, false,
			      "RoCE data ports run the 4096-byte RDMA MTU"},
	[NODE_CK_RDMA_SPEED] = {"node.rdma.speed", CI_LAYER_TUNING, false,
				"InfiniBand ports trained at their card's speed on 4 lanes"},
	[NODE_CK_PCIE_WIDTH] = {"node.pcie.width", CI_LAYER_TUNING, false,
				"NIC and GPU PCIe links at their maximum width"},
	[NODE_CK_RDMA_ERRORS] = {"node.rdma.errors", CI_LAYER_FABRIC, false,
				 "port error counters do not grow (read twice, a second apart)"},
	[NODE_CK_MIG] = {"node.mig", CI_LAYER_DRIVER, false, "MIG is off on the worker's GPUs"},
	[NODE_CK_IOMMU] = {"node.iommu", CI_LAYER_TUNING, false,
			   "the IOMMU passes GPU/NIC DMA through; P2P allowed between GPUs"},
	[NODE_CK_ENV_UCX_TLS] = {"node.env.ucx.tls", CI_LAYER_ENV, true,
				 "the shared UCX_TLS rule on the pod's value"},
	[NODE_CK_ENV_UCX_NET_DEVICES] = {"node.env.ucx.net_devices", CI_LAYER_ENV, true,
					 "the shared UCX_NET_DEVICES rule on the pod's value"},
	[NODE_CK_ENV_UCX_IB_ADDR_TYPE] = {"node.env.ucx.ib_addr_type", CI_LAYER_ENV, true,
					  "the shared UCX_IB_ADDR_TYPE rule on the pod's value"},
	[NODE_CK_ENV_UCX_RNDV] = {"node.env.ucx.rndv", CI_LAYER_ENV, true,
				  "the shared UCX rendezvous rule on the pod's values"},
	[NODE_CK_ENV_NCCL_IB] = {"node.env.nccl.ib", CI_LAYER_ENV, true,
				 "the shared NCCL InfiniBand rule on the pod's values"},
	[NODE_CK_ENV_KV] = {"node.env.kv", CI_LAYER_ENV, false,
			    "engine and NCCL variables that break or slow the KV path"},
	[NODE_CK_ENV_UCX_FRONTEND] = {"node.env.ucx.frontend", CI_LAYER_ENV, false,
				      "UCX keeps off the frontend/management RoCE NIC"},
};

/* The value rules' checks sit in enum varrule_id's order. */
_Static_assert(NODE_CK_ENV_UCX_NET_DEVICES - NODE_CK_ENV_UCX_TLS == VR_UCX_NET_DEVICES &&
		       NODE_CK_ENV_UCX_IB_ADDR_TYPE - NODE_CK_ENV_UCX_TLS == VR_UCX_IB_ADDR_TYPE &&
		       NODE_CK_ENV_UCX_RNDV - NODE_CK_ENV_UCX_TLS == VR_UCX_RNDV &&
		       NODE_CK_ENV_NCCL_IB - NODE_CK_ENV_UCX_TLS == VR_NCCL_IB,
	       "node value-rule checks out of enum varrule_id order");
