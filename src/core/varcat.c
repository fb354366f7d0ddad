/* SPDX-License-Identifier: Apache-2.0 */
#include "core/varcat.h"

#include <stdio.h>
#include <string.h>

/* The table.  Keep references/interconnect-env-vars.md in step (a test
 * compares them). */
const struct var_info varcat[] = {
	{"UCX_TLS", VF_UCX, FAB_MNNVL, "transports UCX may use (^ excludes)",
	 "fail if no RDMA transport is left (tcp-only, ^rc,dc,ud) or, on MNNVL, cuda_ipc is cut without a NIC path; warn without a CUDA transport; missing: warn on MNNVL with UCX (an image-baked ^cuda_ipc breaks it), noted on IB/RoCE"},
	{"UCX_NET_DEVICES", VF_UCX, 0, "devices UCX may use (dev:port list)",
	 "fail if only network interfaces are named; warn on bonded mlx5_bond_* or malformed entries; missing: noted only (device names are per cluster); node checks each device exists"},
	{"UCX_IB_ADDR_TYPE", VF_UCX, 0,
	 "address type of IB/RoCE endpoints (deprecated in UCX: UCX_IB_IS_GLOBAL forces global routing)",
	 "unset is fine (auto); warn on ib_local/ib_site_local across pods; never recommends eth"},
	{"UCX_IB_GPU_DIRECT_RDMA", VF_UCX, 0, "let the NIC read GPU memory directly (yes/no)",
	 "reported; node checks GPUDirect (peermem/dmabuf) really works"},
	{"UCX_RNDV_SCHEME", VF_UCX, 0, "rendezvous protocol (get_zcopy, put_zcopy, auto)",
	 "warn on get_zcopy with UCX on EFA (crash on kernel >= 6.8)"},
	{"UCX_RNDV_THRESH", VF_UCX, 0, "message size from which rendezvous (zero-copy) is used",
	 "reported; inf is what NIXL's UCX plugin sets itself (NIXL's RMA transfers ignore it)"},
	{"UCX_IB_GID_INDEX", VF_UCX, 0, "RoCE GID table index",
	 "reported; marks the fabric as RoCE; hard-coding can break RoCE v2 (node checks the GID)"},
	{"UCX_IB_ROCE_REACHABILITY_MODE", VF_UCX, 0,
	 "how RoCE endpoints decide they can reach each other",
	 "reported; marks the fabric as RoCE"},
	{"UCX_IB_REG_METHODS", VF_UCX, 0, "memory registration methods (rcache, odp, direct)",
	 "reported"},
	{"UCX_CUDA_IPC_ENABLE_MNNVL", VF_UCX, 0,
	 "let cuda_ipc cross nodes over multi-node NVLink (default try since UCX 1.18)",
	 "missing is fine; set to n while UCX_TLS relies on cuda_ipc on MNNVL: warn"},
	{"UCX_MEMTYPE_CACHE", VF_UCX, 0, "cache of memory types (host/GPU) of buffers", "reported"},
	{"UCX_RC_TIMEOUT", VF_UCX, 0, "RC transport retransmission timeout", "reported"},
	{"UCX_KEEPALIVE_INTERVAL", VF_UCX, 0, "endpoint keepalive interval", "reported"},
	{"UCX_MAX_RNDV_RAILS", VF_UCX, 0, "number of NICs one rendezvous transfer may stripe over",
	 "reported"},
	{"UCX_MEMLOCK_LIMIT", VF_UCX, 0, "memlock limit below which UCX disables its IB transports",
	 "reported; node reads the real ulimit -l"},
	{"UCX_RCACHE_MAX_UNRELEASED", VF_UCX, 0, "registration cache entries kept before release",
	 "reported"},
	{"UCX_LOG_LEVEL", VF_UCX, 0, "UCX log verbosity", "reported"},
	{"NIXL_PLUGIN_DIR", VF_NIXL, 0, "where NIXL loads its backend plugins from",
	 "reported; node checks the UCX/LIBFABRIC plugins exist"},
	{"NIXL_LOG_LEVEL", VF_NIXL, 0, "NIXL log verbosity", "reported"},
	{"NIXL_ETCD_ENDPOINTS", VF_NIXL, 0, "etcd used for NIXL metadata exchange",
	 "reported; must agree on prefill and decode"},
	{"NIXL_ETCD_NAMESPACE", VF_NIXL, 0, "etcd namespace of NIXL metadata",
	 "reported; must agree on prefill and decode"},
	{"NIXL_TELEMETRY_ENABLE", VF_NIXL, 0, "NIXL transfer telemetry", "reported"},
	{"NIXL_LIBFABRIC_USE_DEVICE_RDMA", VF_NIXL, 0, "NIXL libfabric backend: use device RDMA",
	 "reported"},
	{"NCCL_IB_DISABLE", VF_NCCL, 0, "1 turns NCCL's InfiniBand/RoCE transport off",
	 "warn when 1 on a worker that spans nodes (off MNNVL): NCCL between nodes over TCP"},
	{"NCCL_NET", VF_NCCL, 0, "forces NCCL's network plugin (IB, Socket)",
	 "warn on Socket for a worker that spans nodes (off MNNVL)"},
	{"NCCL_IB_HCA", VF_NCCL, 0, "HCAs NCCL may use (^ excludes, = exact)",
	 "reported, never required (NCCL finds HCAs itself; no official recipe sets it); node checks each entry exists"},
	{"NCCL_SOCKET_IFNAME", VF_NCCL, 0, "NCCL bootstrap interface",
	 "reported; node checks the interface exists (wrong = init hang)"},
	{"NCCL_NET_GDR_LEVEL", VF_NCCL, 0, "how far apart NIC and GPU may be for GPUDirect RDMA",
	 "reported"},
	{"NCCL_P2P_LEVEL", VF_NCCL, 0, "how far apart GPUs may be for peer-to-peer", "reported"},
	{"NCCL_P2P_DISABLE", VF_NCCL, 0, "1 turns NVLink/PCIe peer access off",
	 "warn when 1 on a worker that spans nodes"},
	{"NCCL_IB_GID_INDEX", VF_NCCL, 0, "RoCE GID index for NCCL",
	 "reported; marks the fabric as RoCE; hard-coding can break RoCE (ai-dynamo/dynamo#814)"},
	{"NCCL_DMABUF_ENABLE", VF_NCCL, 0, "GPUDirect RDMA through dma-buf", "reported"},
	{"NCCL_MNNVL_ENABLE", VF_NCCL, 0, "NCCL over multi-node NVLink",
	 "reported; marks the fabric as MNNVL"},
	{"NCCL_CUMEM_ENABLE", VF_NCCL, 0, "cuMem-based buffers (needed by MNNVL)", "reported"},
	{"NCCL_NVLS_ENABLE", VF_NCCL, 0, "NVLink SHARP collectives", "reported"},
	{"NCCL_CROSS_NIC", VF_NCCL, 0, "let rings use different NICs on each node", "reported"},
	{"NCCL_DEBUG", VF_NCCL, 0, "NCCL logging (INFO shows NET/IB vs NET/Socket)", "reported"},
	{"FI_PROVIDER", VF_LIBFABRIC, FAB_EFA, "libfabric provider (efa)",
	 "missing: warn on EFA with NIXL LIBFABRIC; efa marks the fabric as EFA"},
	{"FI_EFA_USE_DEVICE_RDMA", VF_LIBFABRIC, FAB_EFA, "EFA device RDMA (GPUDirect) on",
	 "missing: warn on EFA with NIXL LIBFABRIC"},
	{"FI_HMEM", VF_LIBFABRIC, 0, "libfabric heterogeneous memory (cuda)", "reported"},
	{"FI_HMEM_CUDA_USE_DMABUF", VF_LIBFABRIC, 0, "CUDA memory registration through dma-buf",
	 "reported"},
	{"FI_EFA_FORK_SAFE", VF_LIBFABRIC, 0, "EFA fork safety", "reported"},
	{"FI_EFA_ENABLE_SHM_TRANSFER", VF_LIBFABRIC, 0, "libfabric shm for same-node peers",
	 "reported"},
	{"SGLANG_DISAGGREGATION_NIXL_BACKEND", VF_BACKEND, 0,
	 "SGLang NIXL backend (UCX, LIBFABRIC)",
	 "decides the KV backend with --disaggregation-transfer-backend nixl; must agree on prefill and decode"},
	{"TRTLLM_NIXL_KVCACHE_BACKEND", VF_BACKEND, 0, "TRT-LLM NIXL backend (UCX, LIBFABRIC)",
	 "decides the KV backend with cache_transceiver_config NIXL"},
	{"TRTLLM_USE_NIXL_KVCACHE", VF_BACKEND, 0, "TRT-LLM: NIXL KV transceiver",
	 "decides the KV backend when no cache_transceiver_config.backend is named"},
	{"TRTLLM_USE_UCX_KVCACHE", VF_BACKEND, 0, "TRT-LLM: UCX KV transceiver",
	 "decides the KV backend when no cache_transceiver_config.backend is named"},
	{"DYN_KVBM_NIXL_BACKEND_UCX", VF_BACKEND, 0, "KVBM offload over NIXL UCX",
	 "reported (KV block manager, not the prefill/decode transfer)"},
	{"DYN_KVBM_NIXL_BACKEND_LIBFABRIC", VF_BACKEND, 0, "KVBM offload over NIXL LIBFABRIC",
	 "reported (KV block manager, not the prefill/decode transfer)"},
	{"MC_FORCE_MNNVL", VF_MOONCAKE, 0, "Mooncake: transfer over multi-node NVLink",
	 "reported; marks the fabric as MNNVL"},
};
const size_t varcat_len = sizeof(varcat) / sizeof(varcat[0]);

const struct var_info *varcat_lookup(const char *name)
{
	for (size_t i = 0; i < varcat_len; i++)
		if (!strcmp(varcat[i].name, name))
			return &varcat[i];
	return NULL;
}

const char *varcat_family_name(enum var_family f)
{
	static const char *const names[] = {"ucx",       "nixl",    "nccl",
					    "libfabric", "backend", "mooncake"};
	return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

const char *fabric_name(enum ci_fabric f)
{
	switch (f) {
	case FAB_IB: return "infiniband";
	case FAB_ROCE: return "roce";
	case FAB_EFA: return "efa";
	case FAB_MNNVL: return "mnnvl";
	default: return "none";
	}
}

const char *fabric_mask_name(unsigned mask, char *buf, size_t len)
{
	static const enum ci_fabric all[] = {FAB_IB, FAB_ROCE, FAB_EFA, FAB_MNNVL};
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < 4; i++) {
		if (!(mask & all[i]))
			continue;
		int n = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
				 fabric_name(all[i]));
		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0'; /* drop a truncated name, keep whole ones */
			break;
		}
		used += (size_t)n;
	}
	if (!used)
		snprintf(buf, len, "-");
	return buf;
}
