/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/ucx.h"

#include <strings.h>

#include "core/report.h"

static const struct ucx_version_rule rules[UCX_THRESHOLD_COUNT] = {
	[UCX_MIN_DMABUF] = {1, 14, "1.14", "DMA-BUF memory registration",
			    "openucx/ucx v1.14.0 NEWS: \"Added support for dmabuf\" "
			    "(uct_ib_md dmabuf registration)"},
	[UCX_MIN_MNNVL_IPC] = {1, 18, "1.18", "cuda_ipc over fabric handles (MNNVL)",
			       "openucx/ucx v1.18.0 src/uct/cuda/cuda_ipc "
			       "(CU_MEM_HANDLE_TYPE_FABRIC; UCX_CUDA_IPC_ENABLE_MNNVL=try)"},
	[UCX_MIN_NIXL_FULL] = {1, 19, "1.19", "full CUDA support in NIXL's UCX plugin",
			       "ai-dynamo/nixl src/utils/ucx (ucx_utils.cpp: NIXL_WARN \"UCX "
			       "version is less than 1.19, CUDA support is limited\")"},
};

const struct ucx_version_rule *ucx_rule(enum ucx_threshold t)
{
	return t < UCX_THRESHOLD_COUNT ? &rules[t] : &rules[0];
}

bool ucx_meets(enum ucx_threshold t, unsigned major, unsigned minor)
{
	const struct ucx_version_rule *r = ucx_rule(t);
	return major > r->major || (major == r->major && minor >= r->minor);
}

static const struct ucx_value_rule value_rules[UCX_VALUE_RULE_COUNT] = {
	[UCX_VR_TLS_NO_CUDA_COPY] =
		{CI_FAIL,
		 "VRAM is detected as host memory, so NIXL's UCX memReg refuses "
		 "it (NIXL_ERR_BACKEND)",
		 "add cuda_copy (and cuda_ipc) to UCX_TLS, or leave UCX_TLS unset",
		 "ai-dynamo/nixl src/plugins/ucx/ucx_utils.cpp nixlUcxContext::memReg "
		 "(PR #1385/#1393: fail when VRAM is seen as host); PR #1617 (fail on "
		 "a UCX_TLS without GPU support)"},
	[UCX_VR_GDR_OFF] =
		{CI_WARN,
		 "UCX never registers GPU memory with the NIC: GPU buffers are staged "
		 "through host memory (it works, several times slower)",
		 "remove UCX_IB_GPU_DIRECT_RDMA (UCX's default `try` uses GPUDirect RDMA "
		 "where the node has it)",
		 "openucx/ucx src/uct/ib/base/ib_md.c (GPU_DIRECT_RDMA ternary, default "
		 "try: no adds no CUDA memory type to the IB memory domain)"},
	[UCX_VR_FRONTEND_REACHABLE] =
		{CI_WARN,
		 "a lane may cross the frontend network: UCX counts every RoCE v2 address as "
		 "reachable from any port (UCX_IB_ROCE_LOCAL_SUBNET=n, the default)",
		 "or UCX_IB_ROCE_LOCAL_SUBNET=y so that only peers in a port's own subnet count "
		 "as reachable",
		 "openucx/ucx src/ucp/core/ucp_context.c (NET_DEVICES default all), "
		 "src/uct/ib/base/ib_iface.c (ROCE_LOCAL_SUBNET default n: \"every remote "
		 "RoCEv2 IP address is assumed to be reachable from any port\"), master 2026"},
};

const struct ucx_value_rule *ucx_value_rule(enum ucx_value_rule_id id)
{
	return id < UCX_VALUE_RULE_COUNT ? &value_rules[id] : &value_rules[0];
}

/* UCX's spellings of a boolean (ucs_config_sscanf_bool / _ternary), any case. */
static bool spelled(const char *v, const char *const *words)
{
	for (size_t i = 0; v && words[i]; i++)
		if (!strcasecmp(v, words[i]))
			return true;
	return false;
}

bool ucx_value_on(const char *v)
{
	static const char *const yes[] = {"y", "yes", "on", "1", "true", NULL};
	return spelled(v, yes);
}

bool ucx_value_off(const char *v)
{
	static const char *const no[] = {"n", "no", "off", "0", "false", NULL};
	return spelled(v, no);
}
