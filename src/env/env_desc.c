/* SPDX-License-Identifier: Apache-2.0 */
/* Where the layer and criticality of every env check are decided. */
#include "env/env_desc.h"

/* Every env check judges one deployment: that is the noun of its subjects. */
#define ENV_DESC(id, layer, critical, summary)                \
	{                                                     \
		id, layer, critical, summary, 0, "deployment" \
	}

const struct check_desc env_check_table[ENV_CK_COUNT] = {
	[ENV_CK_INPUT] = ENV_DESC("env.input", CI_LAYER_ENV, false,
				  "every path given can be read and parsed as YAML"),
	[ENV_CK_DEPLOYMENT] =
		ENV_DESC("env.deployment", CI_LAYER_ENV, true,
			 "a deployment the rules can judge (a worker with an image or command)"),
	[ENV_CK_MODE] = ENV_DESC("env.mode", CI_LAYER_ENV, false,
				 "aggregated or disaggregated, multi-node, engine"),
	[ENV_CK_TRANSPORT] = ENV_DESC("env.transport", CI_LAYER_ENV, false,
				      "the KV transfer path the recipe implies"),
	[ENV_CK_FABRIC] =
		ENV_DESC("env.fabric", CI_LAYER_FABRIC, true, "the fabric the pod spec asks for"),
	[ENV_CK_BACKEND] = ENV_DESC("env.backend", CI_LAYER_ENV, true,
				    "the KV connector and NIXL backend the engine is given"),
	[ENV_CK_PAIR_AGREE] = ENV_DESC("env.pair.agree", CI_LAYER_ENV, true,
				       "prefill and decode agree on the transport settings"),
	[ENV_CK_VARS] = ENV_DESC("env.vars", CI_LAYER_ENV, true,
				 "transport variables a disaggregated recipe needs"),
	[ENV_CK_UCX_TLS] = ENV_DESC("env.ucx.tls", CI_LAYER_ENV, true,
				    "UCX_TLS keeps a transport that can carry KV between pods"),
	[ENV_CK_UCX_NET_DEVICES] = ENV_DESC("env.ucx.net_devices", CI_LAYER_ENV, true,
					    "UCX_NET_DEVICES names devices in a usable form"),
	[ENV_CK_UCX_IB_ADDR_TYPE] = ENV_DESC("env.ucx.ib_addr_type", CI_LAYER_ENV, true,
					     "UCX_IB_ADDR_TYPE on cross-pod InfiniBand"),
	[ENV_CK_UCX_RNDV] =
		ENV_DESC("env.ucx.rndv", CI_LAYER_ENV, true, "UCX rendezvous threshold and scheme"),
	[ENV_CK_NCCL_IB] = ENV_DESC("env.nccl.ib", CI_LAYER_ENV, true,
				    "NCCL keeps InfiniBand between the nodes of a worker"),
	[ENV_CK_POD_RDMA] = ENV_DESC("env.pod.rdma", CI_LAYER_FABRIC, true,
				     "the worker pods request RDMA devices"),
	[ENV_CK_POD_MEMLOCK] = ENV_DESC("env.pod.memlock", CI_LAYER_FABRIC, true,
					"the worker pods may lock memory for RDMA"),
	[ENV_CK_POD_ANTI_AFFINITY] =
		ENV_DESC("env.pod.anti_affinity", CI_LAYER_FABRIC, true,
			 "placement keeps prefill and decode where the fabric reaches"),
	[ENV_CK_POD_SHM] =
		ENV_DESC("env.pod.shm", CI_LAYER_TUNING, false, "shared memory for the engine"),
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
