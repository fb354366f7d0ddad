/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/fabric.h"

#include "rules/ucx.h"

static const char *const names[FABRIC_PATH_COUNT] = {
	[FABRIC_IB] = "InfiniBand",
	[FABRIC_ROCE] = "RoCE",
	[FABRIC_EFA] = "EFA",
	[FABRIC_MNNVL] = "multi-node NVLink",
	[FABRIC_NVLINK] = "NVLink (inside the node)",
	[FABRIC_TCP] = "TCP",
};

const char *fabric_path_name(enum fabric_path p)
{
	return (unsigned)p < FABRIC_PATH_COUNT ? names[p] : "?";
}

const char *fabric_rule_source(void)
{
	/* The rows the model follows (docs/checks.md cites the same). */
	return "NVIDIA Fabric Manager user guide (GPU fabric state Not Started / In Progress / "
	       "Completed on NVSwitch systems, Hopper and later; N/A where the GPU has no "
	       "fabric probe); NVIDIA IMEX guide and dra-driver-nvidia-gpu ComputeDomain "
	       "(/dev/nvidia-caps-imex-channels/channel<N> for cross-node CUDA memory "
	       "import); openucx/ucx v1.18.0 src/uct/cuda/cuda_ipc (fabric handles); "
	       "k8s-rdma-shared-dev-plugin README (shared RDMA namespace: sysfs lists the "
	       "host's devices, only the uverbs nodes the pod was given open)";
}

static bool nvswitch_class(const struct fabric_in *in)
{
	if (in->cluster_uuid)
		return true;
	if (in->nvlink_all_pairs == FABRIC_YES && in->gpus >= 2)
		return true;
	if (in->nvlink_all_pairs == FABRIC_NO)
		return false;
	/* Links unreadable: only the form factor is left; a CPU name is not. */
	return in->nvswitch_form_factor;
}

static const char *mnnvl_gap(const struct fabric_in *in)
{
	if (!in->cluster_uuid)
		return "";
	if (!in->imex_channels)
		return "no IMEX channel in the pod";
	if (in->fabric == FGS_NOT_READY)
		return "the NVLink fabric is not Completed";
	if (in->ucx_cuda_ipc == FABRIC_NO)
		return "UCX lists no cuda_ipc";
	if ((in->ucx_major || in->ucx_minor) &&
	    !ucx_meets(UCX_MIN_MNNVL_IPC, in->ucx_major, in->ucx_minor))
		return "UCX is older than its fabric-handle cuda_ipc";
	return "";
}

void fabric_decide(const struct fabric_in *in, struct fabric_model *out)
{
	*out = (struct fabric_model){.kv = FABRIC_TCP, .mnnvl_gap = ""};
	out->nvswitch_class = nvswitch_class(in);
	out->mnnvl_domain = in->cluster_uuid;
	out->can[FABRIC_TCP] = true;
	out->can[FABRIC_IB] = in->ib_nics > 0;
	out->can[FABRIC_ROCE] = in->roce_nics > 0;
	out->can[FABRIC_EFA] = in->efa_nics > 0;
	out->can[FABRIC_NVLINK] = in->gpus >= 2 && (in->nvlink_all_pairs == FABRIC_YES ||
						    in->nvlinks_active > 0 || in->cluster_uuid);
	out->mnnvl_gap = mnnvl_gap(in);
	out->can[FABRIC_MNNVL] = in->cluster_uuid && !*out->mnnvl_gap;
	/* Inside an NVLink domain the KV of prefill and decode in that domain
	 * goes over NVLink (UCX cuda_ipc with fabric handles), whether or not
	 * the pod also has NICs: the pod is judged on MNNVL. */
	if (out->mnnvl_domain)
		out->kv = FABRIC_MNNVL;
	else if (out->can[FABRIC_EFA])
		out->kv = FABRIC_EFA;
	else if (out->can[FABRIC_IB])
		out->kv = FABRIC_IB;
	else if (out->can[FABRIC_ROCE])
		out->kv = FABRIC_ROCE;
	out->nic_optional = out->mnnvl_domain;
}
