/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/engines.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

/* Longest patterns first where one contains another (dynamo.vllm before
 * vllm). */
static const struct engine_entry entries[] = {
	{"dynamo.mocker", ENGINE_DYNAMO_MOCKER, "ai-dynamo/dynamo components/src/dynamo/mocker"},
	{"dynamo.vllm", ENGINE_DYNAMO_VLLM, "ai-dynamo/dynamo components/src/dynamo/vllm/main.py"},
	{"dynamo.sglang", ENGINE_DYNAMO_SGLANG,
	 "ai-dynamo/dynamo components/src/dynamo/sglang/main.py"},
	{"dynamo.trtllm", ENGINE_DYNAMO_TRTLLM,
	 "ai-dynamo/dynamo components/src/dynamo/trtllm/main.py"},
	{"vllm.entrypoints", ENGINE_VLLM,
	 "vllm-project/vllm vllm/entrypoints/openai/api_server.py, vllm/entrypoints/cli/main.py"},
	{"vllm serve", ENGINE_VLLM,
	 "vllm-project/vllm pyproject.toml [project.scripts] vllm = vllm.entrypoints.cli.main:main"},
	{"sglang.launch_server", ENGINE_SGLANG,
	 "sgl-project/sglang python/sglang/launch_server.py"},
	{"sglang serve", ENGINE_SGLANG,
	 "sgl-project/sglang python/pyproject.toml [project.scripts] sglang = sglang.cli.main:main"},
	{"trtllm-serve", ENGINE_TRTLLM,
	 "NVIDIA/TensorRT-LLM setup.py console_scripts trtllm-serve = tensorrt_llm.commands.serve"},
	{"tensorrt_llm.commands.serve", ENGINE_TRTLLM,
	 "NVIDIA/TensorRT-LLM tensorrt_llm/commands/serve.py"},
	{"nixlbench", ENGINE_TEST, "ai-dynamo/nixl benchmark/nixlbench"},
	{"ucx_perftest", ENGINE_TEST, "openucx/ucx src/tools/perf"},
};

const char *const engine_ray_source =
	"ray-project/ray python/ray/scripts/scripts.py (`ray start --head`, `--address`); "
	"vllm-project/vllm examples/online_serving/run_cluster.sh";

/* A command word: the word before " serve", back to a blank, quote or
 * separator; its basename or variable name ("$VLLM_RS", "${VLLM_BIN}",
 * "/usr/local/bin/vllm-rs"). */
static bool word_before_says(const char *start, const char *serve, const char *what)
{
	const char *e = serve;
	while (e > start && (e[-1] == '"' || e[-1] == '\''))
		e--;
	const char *b = e;
	while (b > start && !strchr(" \t\n;&|(`", b[-1]))
		b--;
	if (b == e || (size_t)(e - b) > 128)
		return false;
	for (const char *p = b; p + strlen(what) <= e; p++)
		if (!strncasecmp(p, what, strlen(what)))
			return true;
	return false;
}

enum engine_id engine_of_command(const char *cmd, const struct engine_entry **row)
{
	if (row)
		*row = NULL;
	if (!cmd)
		return ENGINE_NONE;
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
		size_t n = strlen(entries[i].pattern);
		for (const char *p = strstr(cmd, entries[i].pattern); p;
		     p = strstr(p + 1, entries[i].pattern)) {
			/* dynamo.sglang.utils.clear_namespace is a tool of the
			 * wrapper's package, not the engine */
			if (!strncmp(p + n, ".utils", 6))
				continue;
			if (row)
				*row = &entries[i];
			return entries[i].engine;
		}
	}
	/* the general rule: NAME serve, where NAME says the engine */
	for (const char *p = strstr(cmd, " serve"); p; p = strstr(p + 1, " serve")) {
		char after = p[6];
		if (after && !strchr(" \t\n\"'\\", after))
			continue;
		if (word_before_says(cmd, p, "vllm"))
			return ENGINE_VLLM;
		if (word_before_says(cmd, p, "sglang"))
			return ENGINE_SGLANG;
		if (word_before_says(cmd, p, "trtllm"))
			return ENGINE_TRTLLM;
	}
	return ENGINE_NONE;
}

enum engine_id engine_of_flags(const char *args)
{
	if (!args)
		return ENGINE_NONE;
	if (strstr(args, "--kv-transfer-config") || strstr(args, "--kv_transfer_config"))
		return ENGINE_VLLM;
	if (strstr(args, "--disaggregation-transfer-backend") ||
	    strstr(args, "--disaggregation-bootstrap-port"))
		return ENGINE_SGLANG;
	return ENGINE_NONE;
}

/* vllm-project/vllm vllm/distributed/kv_transfer/kv_connector/factory.py:
 * every name register_connector() gives, and what its module does with KV
 * (the module's own docstring and transport).  SharedStorageConnector is
 * ExampleConnector's name before v0.11 (the same module, renamed). */
#define VLLM_FACTORY "vllm-project/vllm vllm/distributed/kv_transfer/kv_connector/factory.py"
static const struct kv_connector kv_connectors[] = {
	{"NixlConnector", KV_CONN_NIXL, VLLM_FACTORY " v0.9-v0.12 (v1/nixl_connector.py)"},
	{"NixlPullConnector", KV_CONN_NIXL, VLLM_FACTORY " main 2026 (the pull half of nixl)"},
	{"NixlPushConnector", KV_CONN_NIXL, VLLM_FACTORY " main 2026 (the push half of nixl)"},
	{"P2pNcclConnector", KV_CONN_TRANSFER, VLLM_FACTORY " v0.9 on (v1/p2p: NCCL send/recv)"},
	{"MooncakeConnector", KV_CONN_TRANSFER,
	 VLLM_FACTORY " v0.11 on (Mooncake's transfer engine)"},
	{"MoRIIOConnector", KV_CONN_TRANSFER, VLLM_FACTORY " v0.12 on (AMD MoRI-IO)"},
	{"ExampleConnector", KV_CONN_LOCAL,
	 VLLM_FACTORY
	 " v0.11 on (v1/example_connector.py: safetensors files under shared_storage_path)"},
	{"SharedStorageConnector", KV_CONN_LOCAL,
	 VLLM_FACTORY " v0.9-v0.10 (v1/shared_storage_connector.py, the same files)"},
	{"ExampleHiddenStatesConnector", KV_CONN_LOCAL, VLLM_FACTORY " main 2026 (an example)"},
	{"OffloadingConnector", KV_CONN_LOCAL,
	 VLLM_FACTORY " v0.11 on (v1/offloading_connector.py: CPU)"},
	{"SimpleCPUOffloadConnector", KV_CONN_LOCAL, VLLM_FACTORY " main 2026 (CPU offload)"},
	{"DecodeBenchConnector", KV_CONN_LOCAL,
	 VLLM_FACTORY " v0.12 on (fills KV for decode benchmarks; moves none)"},
	{"LMCacheConnectorV1", KV_CONN_STORE, VLLM_FACTORY " v0.9 on (LMCache's own backends)"},
	{"LMCacheMPConnector", KV_CONN_STORE, VLLM_FACTORY " main 2026 (LMCache, multi-process)"},
	{"MooncakeStoreConnector", KV_CONN_STORE, VLLM_FACTORY " (Mooncake's distributed store)"},
	{"HF3FSKVConnector", KV_CONN_STORE, VLLM_FACTORY " main 2026 (DeepSeek 3FS)"},
	{"FlexKVConnectorV1", KV_CONN_STORE, VLLM_FACTORY " main 2026 (FlexKV)"},
};

const struct kv_connector *engine_kv_connector(const char *name)
{
	for (size_t i = 0; name && i < sizeof(kv_connectors) / sizeof(kv_connectors[0]); i++)
		if (!strcmp(kv_connectors[i].name, name))
			return &kv_connectors[i];
	return NULL;
}

/* A registered name in cmd, as a word (NixlConnector is not found in
 * NixlPushConnector's text, nor the reverse). */
static bool names_word(const char *cmd, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(cmd, name); p; p = strstr(p + 1, name)) {
		bool left = p == cmd || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
		if (left && right)
			return true;
	}
	return false;
}

const char *engine_kv_transfer_connector(const char *cmd)
{
	if (!cmd || !(strstr(cmd, "kv-transfer-config") || strstr(cmd, "kv_transfer_config")))
		return NULL;
	for (size_t i = 0; i < sizeof(kv_connectors) / sizeof(kv_connectors[0]); i++)
		if ((kv_connectors[i].kind == KV_CONN_NIXL ||
		     kv_connectors[i].kind == KV_CONN_TRANSFER) &&
		    names_word(cmd, kv_connectors[i].name))
			return kv_connectors[i].name;
	return NULL;
}

static const struct dynamo_release no_default_connector = {
	1, 0, "1.0",
	"ai-dynamo/dynamo v1.0.0 components/src/dynamo/vllm/args.py "
	"(update_dynamo_config_with_engine: \"the default is no longer nixl\")"};
static const struct dynamo_release newest = {
	1, 5, "1.5",
	"the newest release in the official recipe tree (shared/fixtures/recipes: "
	"nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0-*)"};

const struct dynamo_release *dynamo_no_default_connector(void)
{
	return &no_default_connector;
}

const struct dynamo_release *dynamo_newest(void)
{
	return &newest;
}

/* KServe's LLMInferenceService fills its `main` container from the
 * LLMInferenceServiceConfig templates: `vllm serve /mnt/models` with the
 * model's served name, and the newer templates append the container's
 * VLLM_ADDITIONAL_ARGS (where its samples put --kv_transfer_config). */
static const struct engine_default_launch default_launches[] = {
	{"LLMInferenceService", "main", "vllm serve /mnt/models", "VLLM_ADDITIONAL_ARGS",
	 "kserve/kserve config/llmisvcconfig/config-llm-template.yaml (@01a639ac), "
	 "config-llm-prefill-template.yaml; VLLM_ADDITIONAL_ARGS in its llmisvc samples"},
};

const struct engine_default_launch *engine_default_launch(const char *kind, const char *container)
{
	for (size_t i = 0;
	     kind && container && i < sizeof(default_launches) / sizeof(default_launches[0]); i++)
		if (!strcmp(default_launches[i].kind, kind) &&
		    !strcmp(default_launches[i].container, container))
			return &default_launches[i];
	return NULL;
}

enum engine_id engine_family(enum engine_id e)
{
	switch (e) {
	case ENGINE_DYNAMO_VLLM: return ENGINE_VLLM;
	case ENGINE_DYNAMO_SGLANG: return ENGINE_SGLANG;
	case ENGINE_DYNAMO_TRTLLM: return ENGINE_TRTLLM;
	default: return e;
	}
}

bool engine_ray_start(const char *cmd, bool *head)
{
	const char *p = cmd ? strstr(cmd, "ray start") : NULL;
	if (head)
		*head = false;
	if (!p)
		return false;
	if (head)
		*head = strstr(p, "--head") != NULL;
	return strstr(p, "--head") || strstr(p, "--address");
}

/*
 * Command fragments that make a plain workload one the transport matters
 * to (env_relevant): an engine or a transfer test.  Each row's source:
 */
static const char *const relevant_cmds[] = {
	"dynamo.", /* ai-dynamo/dynamo, components/src/dynamo: python -m dynamo.vllm and the like */
	"nixlbench",            /* ai-dynamo/nixl, benchmark/nixlbench */
	"ucx_perftest",         /* openucx/ucx, src/tools/perf */
	"_bw ",                 /* linux-rdma/perftest: ib_write_bw, ib_read_bw */
	"vllm serve",           /* vllm-project/vllm, vllm/entrypoints/cli/serve.py */
	"sglang.launch_server", /* sgl-project/sglang, python/sglang/launch_server.py */
	"trtllm-serve",         /* NVIDIA/TensorRT-LLM, tensorrt_llm/commands/serve.py */
	NULL,
};

bool engine_command_relevant(const char *cmdline)
{
	for (size_t k = 0; cmdline && relevant_cmds[k]; k++)
		if (strstr(cmdline, relevant_cmds[k]))
			return true;
	return false;
}
