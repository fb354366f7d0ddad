/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/engine_vars.h"

#include <string.h>
#include <strings.h>

#include "core/report.h"

enum {
	ROW_SIDE_CHANNEL,
	ROW_CUMEM,
	ROW_COUNT
};

static const struct engine_var_rule rows[ROW_COUNT + 1] = {
	[ROW_SIDE_CHANNEL] =
		{"VLLM_NIXL_SIDE_CHANNEL_HOST", CI_FAIL,
		 "it is the address vLLM's NixlConnector advertises for its NIXL "
		 "handshake, and a peer in another pod cannot reach a loopback or "
		 "unspecified address: the handshake fails and no KV is transferred",
		 "set it to the pod IP (status.podIP through the downward API), or "
		 "leave it to the Dynamo operator, which sets it",
		 "vllm-project/vllm vllm/envs.py (VLLM_NIXL_SIDE_CHANNEL_HOST, default "
		 "\"localhost\"); ai-dynamo/dynamo PR #1327 (multi-node fix)"},
	[ROW_CUMEM] = {"NCCL_CUMEM_ENABLE", CI_WARN,
		       "NCCL's multi-node NVLink (MNNVL) path needs cuMem allocations: with "
		       "NCCL_CUMEM_ENABLE=0 NCCL's collectives leave NVLink between the nodes "
		       "of the domain (NIXL's KV path is not affected)",
		       "remove NCCL_CUMEM_ENABLE=0 on multi-node NVLink systems",
		       "NVIDIA/nccl src/init.cc (MNNVL requires cuMem: ncclCuMemEnable() is "
		       "checked before MNNVL is enabled); NCCL env docs NCCL_MNNVL_ENABLE"},
	{0},
};

const struct engine_var_rule *engine_var_rules(void)
{
	return rows;
}

bool engine_host_loopback(const char *v)
{
	if (!v || !*v)
		return false;
	return !strcasecmp(v, "localhost") || !strncmp(v, "127.", 4) || !strcmp(v, "::1") ||
	       !strcmp(v, "[::1]") || !strcmp(v, "0.0.0.0") || !strcmp(v, "::");
}

const struct engine_var_rule *engine_var_judge(const char *name, const char *value,
					       const struct fabric_model *m)
{
	if (!name || !value)
		return NULL;
	if (!strcmp(name, rows[ROW_SIDE_CHANNEL].name))
		return engine_host_loopback(value) ? &rows[ROW_SIDE_CHANNEL] : NULL;
	if (!strcmp(name, rows[ROW_CUMEM].name))
		return m && m->mnnvl_domain && !strcmp(value, "0") ? &rows[ROW_CUMEM] : NULL;
	return NULL;
}
