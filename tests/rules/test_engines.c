/* SPDX-License-Identifier: Apache-2.0 */
/* rules/engines: the engines' entry points through every launch form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "rules/engines.h"

static void test_entry_points(void **state)
{
	(void)state;
	const struct engine_entry *row = NULL;
	assert_int_equal(engine_of_command("vllm serve Qwen/Qwen3-0.6B", &row), ENGINE_VLLM);
	assert_non_null(row);
	assert_int_equal(engine_of_command("python3 -m vllm.entrypoints.openai.api_server", NULL),
			 ENGINE_VLLM);
	assert_int_equal(engine_of_command("sh -c python3 -m sglang.launch_server --tp 8", NULL),
			 ENGINE_SGLANG);
	assert_int_equal(engine_of_command("trtllm-serve serve /model", NULL), ENGINE_TRTLLM);
	assert_int_equal(engine_of_command("python3 -m dynamo.vllm --model m", NULL),
			 ENGINE_DYNAMO_VLLM);
	/* the wrapper package's tool is not the engine */
	assert_int_equal(engine_of_command("python3 -m dynamo.sglang.utils.clear_namespace && "
					   "python3 -m dynamo.frontend",
					   NULL),
			 ENGINE_NONE);
	assert_int_equal(engine_family(ENGINE_DYNAMO_TRTLLM), ENGINE_TRTLLM);
}

static void test_general_rule(void **state)
{
	(void)state;
	const struct engine_entry *row = (const struct engine_entry *)&row;
	/* a variable or a path holding the binary: its name says vllm */
	assert_int_equal(engine_of_command("bash -c exec \"$VLLM_RS\" serve m --port 8000", &row),
			 ENGINE_VLLM);
	assert_null(row);
	assert_int_equal(engine_of_command("exec /opt/vllm-rs/bin/vllm-rs serve m", NULL),
			 ENGINE_VLLM);
	assert_int_equal(engine_of_command("exec ${SGLANG_BIN} serve --model-path m", NULL),
			 ENGINE_SGLANG);
	assert_int_equal(engine_of_command("exec \"$APP\" serve", NULL), ENGINE_NONE);
	assert_int_equal(engine_of_command("python -m http.server", NULL), ENGINE_NONE);
	/* args only: the flags say whose entrypoint */
	assert_int_equal(engine_of_flags("--kv-transfer-config={\"kv_connector\":\"X\"}"),
			 ENGINE_VLLM);
	assert_int_equal(engine_of_flags("--disaggregation-transfer-backend nixl"), ENGINE_SGLANG);
}

static void test_ray(void **state)
{
	(void)state;
	bool head = false;
	assert_true(engine_ray_start("ray start --head --port=6379 --block", &head));
	assert_true(head);
	assert_true(engine_ray_start("ray start --address=$HEAD:6379 --block", &head));
	assert_false(head);
	assert_false(engine_ray_start("ray status", &head));
}

/* vLLM's registered connectors by what they do with KV; a name is matched
 * as a word, so the push/pull halves of NIXL are told from NixlConnector. */
static void test_kv_connectors(void **state)
{
	(void)state;
	assert_int_equal(engine_kv_connector("NixlConnector")->kind, KV_CONN_NIXL);
	assert_int_equal(engine_kv_connector("NixlPushConnector")->kind, KV_CONN_NIXL);
	assert_int_equal(engine_kv_connector("P2pNcclConnector")->kind, KV_CONN_TRANSFER);
	assert_int_equal(engine_kv_connector("ExampleConnector")->kind, KV_CONN_LOCAL);
	assert_int_equal(engine_kv_connector("SharedStorageConnector")->kind, KV_CONN_LOCAL);
	assert_int_equal(engine_kv_connector("OffloadingConnector")->kind, KV_CONN_LOCAL);
	assert_int_equal(engine_kv_connector("LMCacheConnectorV1")->kind, KV_CONN_STORE);
	assert_null(engine_kv_connector("MyOwnConnector"));
	assert_null(engine_kv_connector(NULL));
	assert_string_equal(
		engine_kv_transfer_connector("vllm serve m --kv-transfer-config "
					     "'{\"kv_connector\":\"NixlPushConnector\"}'"),
		"NixlPushConnector");
	assert_string_equal(
		engine_kv_transfer_connector(
			"vllm serve m --kv_transfer_config {\"kv_connector\":\"MooncakeConnector\"}"),
		"MooncakeConnector");
	assert_null(engine_kv_transfer_connector(
		"vllm serve m --kv-transfer-config '{\"kv_connector\":\"ExampleConnector\"}'"));
	assert_null(engine_kv_transfer_connector(
		"vllm serve m --kv-transfer-config '{\"kv_connector\":\"MooncakeStoreConnector\"}'"));
	assert_null(engine_kv_transfer_connector("vllm serve m NixlConnector"));
}

/* KServe fills an LLMInferenceService's `main` container: vllm serve, plus
 * VLLM_ADDITIONAL_ARGS; another container or kind gets nothing. */
static void test_default_launch(void **state)
{
	(void)state;
	const struct engine_default_launch *d =
		engine_default_launch("LLMInferenceService", "main");
	assert_non_null(d);
	assert_int_equal(engine_of_command(d->command, NULL), ENGINE_VLLM);
	assert_string_equal(d->args_env, "VLLM_ADDITIONAL_ARGS");
	assert_non_null(strstr(d->source, "kserve/kserve"));
	assert_null(engine_default_launch("LLMInferenceService", "sidecar"));
	assert_null(engine_default_launch("Deployment", "main"));
	assert_null(engine_default_launch(NULL, "main"));
}

static void test_command_relevant(void **state)
{
	(void)state;
	/* each row of relevant_cmds[], in a launch line of the shape users write */
	static const char *const yes[] = {
		"python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B",
		"nixlbench --etcd_endpoints http://etcd:2379 --backend UCX",
		"ucx_perftest -t tag_lat -m cuda peer-0",
		"ib_write_bw -d mlx5_0 --use_cuda=0 peer-0",
		"vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000",
		"python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B",
		"trtllm-serve nvidia/Llama-3.1-8B-Instruct-FP8 --backend pytorch",
	};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!engine_command_relevant(yes[i]))
			fail_msg("not relevant: %s", yes[i]);
	assert_false(engine_command_relevant("nginx -g 'daemon off;'"));
	assert_false(engine_command_relevant("python3 -m http.server 8080"));
	assert_false(engine_command_relevant(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_points),
		cmocka_unit_test(test_general_rule),
		cmocka_unit_test(test_ray),
		cmocka_unit_test(test_kv_connectors),
		cmocka_unit_test(test_command_relevant),
		cmocka_unit_test(test_default_launch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
