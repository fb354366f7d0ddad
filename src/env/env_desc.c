/* SPDX-License-Identifier: Apache-2.0 */
/* Where the layer, criticality and source of every env check are decided. */
#include "env/env_desc.h"

/* Every env check judges one deployment: that is the noun of its subjects. */
#define ENV_DESC(id, layer, critical, summary, source)                \
	{                                                             \
		id, layer, critical, summary, source, 0, "deployment" \
	}

const struct check_desc env_check_table[ENV_CK_COUNT] = {
	[ENV_CK_INPUT] = ENV_DESC("env.input", CI_LAYER_ENV, false,
				  "every path given can be read and parsed as YAML",
				  "libyaml (yaml/libyaml) src/parser.c, YAML 1.1"),
	[ENV_CK_DEPLOYMENT] = ENV_DESC(
		"env.deployment", CI_LAYER_ENV, true,
		"a deployment the rules can judge (a worker with an image or command)",
		"ai-dynamo/dynamo deploy/cloud/operator/config/crd/bases/nvidia.com_dynamographdeployments.yaml@v0.5.1"),
	[ENV_CK_MODE] = ENV_DESC("env.mode", CI_LAYER_ENV, false,
				 "aggregated or disaggregated, multi-node, engine",
				 "ai-dynamo/dynamo components/src/dynamo/vllm/args.py"),
	[ENV_CK_TRANSPORT] = ENV_DESC(
		"env.transport", CI_LAYER_ENV, false, "the KV transfer path the recipe implies",
		"ai-dynamo/dynamo docs/architecture/disagg_serving.md@v0.5.1"),
	[ENV_CK_FABRIC] =
		ENV_DESC("env.fabric", CI_LAYER_FABRIC, true, "the fabric the pod spec asks for",
			 "vllm-project/vllm vllm/distributed/kv_transfer/kv_connector/factory.py"),
	[ENV_CK_BACKEND] =
		ENV_DESC("env.backend", CI_LAYER_ENV, true,
			 "the KV connector and NIXL backend the engine is given",
			 "vllm vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py"),
	[ENV_CK_PAIR_AGREE] = ENV_DESC(
		"env.pair.agree", CI_LAYER_ENV, true,
		"prefill and decode agree on the transport settings",
		"ai-dynamo/nixl src/core/nixl_agent.cpp@v1.4.0 (\"no potential backend found to be able to do the transfer\")"),
	[ENV_CK_VARS] = ENV_DESC("env.vars", CI_LAYER_ENV, true,
				 "transport variables a disaggregated recipe needs",
				 "openucx/ucx src/uct/cuda/cuda_ipc@v1.18.0"),
	[ENV_CK_UCX_TLS] = ENV_DESC("env.ucx.tls", CI_LAYER_ENV, true,
				    "UCX_TLS keeps a transport that can carry KV between pods",
				    "openucx/ucx src/uct/cuda/cuda_ipc/cuda_ipc_md.c@v1.18.0"),
	[ENV_CK_UCX_NET_DEVICES] = ENV_DESC("env.ucx.net_devices", CI_LAYER_ENV, true,
					    "UCX_NET_DEVICES names devices in a usable form",
					    "openucx/ucx src/ucp/core/ucp_context.c@v1.18.0"),
	[ENV_CK_UCX_IB_ADDR_TYPE] = ENV_DESC("env.ucx.ib_addr_type", CI_LAYER_ENV, true,
					     "UCX_IB_ADDR_TYPE on cross-pod InfiniBand",
					     "openucx/ucx src/uct/ib/base/ib_iface.c@v1.18.0"),
	[ENV_CK_UCX_RNDV] =
		ENV_DESC("env.ucx.rndv", CI_LAYER_ENV, true, "UCX rendezvous threshold and scheme",
			 "ai-dynamo/nixl src/plugins/ucx/ucx_utils.cpp@v1.4.0"),
	[ENV_CK_NCCL_IB] = ENV_DESC(
		"env.nccl.ib", CI_LAYER_ENV, true,
		"NCCL keeps InfiniBand between the nodes of a worker",
		"NVIDIA NCCL user guide, Environment Variables (NCCL_IB_DISABLE, NCCL_NET, NCCL_P2P_DISABLE)"),
	[ENV_CK_POD_RDMA] =
		ENV_DESC("env.pod.rdma", CI_LAYER_FABRIC, true,
			 "the worker pods request RDMA devices", "kubernetes.io, Device Plugins"),
	[ENV_CK_POD_MEMLOCK] = ENV_DESC("env.pod.memlock", CI_LAYER_FABRIC, true,
					"the worker pods may lock memory for RDMA", "setrlimit(2)"),
	[ENV_CK_POD_ANTI_AFFINITY] = ENV_DESC(
		"env.pod.anti_affinity", CI_LAYER_FABRIC, true,
		"placement keeps prefill and decode where the fabric reaches",
		"kubernetes.io, Assigning Pods to Nodes (requiredDuringSchedulingIgnoredDuringExecution)"),
	[ENV_CK_POD_SHM] =
		ENV_DESC("env.pod.shm", CI_LAYER_TUNING, false, "shared memory for the engine",
			 "kubernetes.io, Volumes (emptyDir medium Memory)"),
};

/* The value rules' checks sit in enum varrule_id's order. */
_Static_assert(ENV_CK_UCX_NET_DEVICES - ENV_CK_UCX_TLS == VR_UCX_NET_DEVICES &&
		       ENV_CK_UCX_IB_ADDR_TYPE - ENV_CK_UCX_TLS == VR_UCX_IB_ADDR_TYPE &&
		       ENV_CK_UCX_RNDV - ENV_CK_UCX_TLS == VR_UCX_RNDV &&
		       ENV_CK_NCCL_IB - ENV_CK_UCX_TLS == VR_NCCL_IB,
	       "env value-rule checks out of enum varrule_id order");

const struct check_desc *env_varrule_check(enum varrule_id id)
{
	return &env_check_table[ENV_CK_UCX_TLS + id];
}
