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
 * the registered connectors that send KV from one engine to another. */
static const char *const transfer_connectors[] = {
	"NixlConnector", "P2pNcclConnector", "MooncakeConnector", "MoRIIOConnector", NULL,
};

const char *engine_kv_transfer_connector(const char *cmd)
{
	if (!cmd || !(strstr(cmd, "kv-transfer-config") || strstr(cmd, "kv_transfer_config")))
		return NULL;
	for (size_t i = 0; transfer_connectors[i]; i++)
		if (strstr(cmd, transfer_connectors[i]))
			return transfer_connectors[i];
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
