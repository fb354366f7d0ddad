/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/ucx.h"

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
