/* SPDX-License-Identifier: Apache-2.0 */
/* The env verb's small string parsers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "env_test_util.h"

static void test_tls(void **state)
{
	struct tls_info t;
	ucx_tls_parse("rc_x,rc,cuda_copy,cuda_ipc", &t);
	assert_true(t.rdma && t.cuda && t.cuda_ipc && !t.tcp && !t.exclude);
	ucx_tls_parse("tcp,cuda_copy", &t);
	assert_false(t.rdma);
	assert_true(t.cuda && t.tcp);
	ucx_tls_parse(" ^cuda_ipc ", &t);
	assert_true(t.exclude && t.rdma && !t.cuda_ipc && t.cuda);
	ucx_tls_parse("^rc,dc,ud", &t);
	assert_true(t.excl_rdma_all && !t.rdma);
	ucx_tls_parse("^ib", &t);
	assert_false(t.rdma);
	ucx_tls_parse("cuda_copy,cuda_ipc,tcp", &t);
	assert_true(!t.rdma && t.cuda_ipc);
	ucx_tls_parse("all", &t);
	assert_true(t.rdma && t.cuda);
	ucx_tls_parse("ib,rc,ud,rc_verbs,ud_verbs,ze_copy", &t);
	assert_true(t.rdma && !t.cuda);
	ucx_tls_parse("", &t);
	assert_true(t.empty);
	ucx_tls_parse(",,,", &t);
	assert_true(t.empty);
	/* "\\name" is UCX's strict transport name (ucp_context.c): it never
	 * expands an alias, and an unknown name selects nothing. */
	ucx_tls_parse("\\rc_mlx5,cuda_copy", &t);
	assert_true(t.rdma && t.cuda);
	ucx_tls_parse("\\rc,cuda", &t);
	assert_true(!t.rdma && t.cuda);
	ucx_tls_parse("rc\\inter,cuda", &t);
	assert_true(!t.rdma && t.cuda);
	/* a deny list of every InfiniBand transport but by other names */
	ucx_tls_parse("^rc_mlx5,rc_verbs,dc_mlx5,ud", &t);
	assert_true(t.excl_rdma_all && !t.rdma);
	ucx_tls_parse("^rc_mlx5", &t);
	assert_true(t.rdma && !t.excl_rdma_all);
}

static void test_net_devices(void **state)
{
	char bad[80];
	assert_int_equal(ucx_net_devices_check("mlx5_0:1,mlx5_1:1", bad, sizeof(bad)), 0);
	assert_int_equal(ucx_net_devices_check("all", bad, sizeof(bad)), 0);
	assert_int_equal(ucx_net_devices_check("mlx5_bond_0:1", bad, sizeof(bad)), NETDEV_BONDED);
	assert_string_equal(bad, "mlx5_bond_0:1");
	assert_int_equal(ucx_net_devices_check("mlx5_0", bad, sizeof(bad)), NETDEV_MALFORMED);
	assert_string_equal(bad, "mlx5_0");
	assert_true(ucx_net_devices_check("mlx5_0:x", bad, sizeof(bad)) & NETDEV_MALFORMED);
	assert_true(ucx_net_devices_check("mlx5_0:1,,mlx5_1:1", bad, sizeof(bad)) &
		    NETDEV_MALFORMED);
	assert_int_equal(ucx_net_devices_check("eth0", bad, sizeof(bad)), NETDEV_TCP_ONLY);
	assert_int_equal(ucx_net_devices_check("eth0,mlx5_0:1", bad, sizeof(bad)), 0);
	assert_int_equal(ucx_net_devices_check("  ", bad, sizeof(bad)), NETDEV_EMPTY);
	assert_int_equal(ucx_net_devices_check("${UCX_NET_DEVICES}", bad, sizeof(bad)),
			 NETDEV_DYNAMIC);
}

static void test_flags(void **state)
{
	char *v = cmdline_flag_value(
		"python3 -m dynamo.vllm --kv-transfer-config "
		"'{\"kv_connector\":\"NixlConnector\",\"x\":{\"y\":1}}' --block-size 64",
		"--kv-transfer-config");
	assert_string_equal(v, "{\"kv_connector\":\"NixlConnector\",\"x\":{\"y\":1}}");
	free(v);
	v = cmdline_flag_value("a --kv-transfer-config=\"${KV_TRANSFER_CONFIG}\" b",
			       "--kv-transfer-config");
	assert_string_equal(v, "${KV_TRANSFER_CONFIG}");
	free(v);
	v = cmdline_flag_value("a --disaggregation-transfer-backend nixl --x",
			       "--disaggregation-transfer-backend");
	assert_string_equal(v, "nixl");
	free(v);
	/* a longer flag with the same prefix is not the flag */
	assert_null(cmdline_flag_value("a --kv-transfer-config-file x", "--kv-transfer-config"));
	assert_null(cmdline_flag_value(NULL, "--x"));
	v = cmdline_flag_value("--flag", "--flag");
	assert_string_equal(v, "");
	free(v);
	/* unbalanced JSON is returned as is, bounded */
	v = cmdline_flag_value("--kv-transfer-config {\"a\":", "--kv-transfer-config");
	assert_string_equal(v, "{\"a\":");
	free(v);
	/* a config file's key */
	v = cmdline_flag_value("kv-transfer-config: |-\n  {\"kv_connector\": \"NixlConnector\"}\n",
			       "kv-transfer-config");
	assert_string_equal(v, "{\"kv_connector\": \"NixlConnector\"}");
	free(v);
}

static void test_config_values(void **state)
{
	int line = 0;
	char *v = config_section_value(
		"backend: pytorch\ncache_transceiver_config:\n  max_tokens: 8\n"
		"  backend: UCX\nother:\n  backend: NO\n",
		"cache_transceiver_config", "backend", &line);
	assert_string_equal(v, "UCX");
	assert_int_equal(line, 4);
	free(v);
	v = config_section_value("cache_transceiver_config:\n  max_tokens: 8\nbackend: pytorch\n",
				 "cache_transceiver_config", "backend", NULL);
	assert_null(v);
	v = config_section_value("{\"cache_transceiver_config\": {\"backend\": \"NIXL\"}}",
				 "cache_transceiver_config", "backend", NULL);
	assert_string_equal(v, "NIXL");
	free(v);
	v = config_key_value("tp: 8\ndisaggregation-transfer-backend: nixl\n",
			     "disaggregation-transfer-backend", &line);
	assert_string_equal(v, "nixl");
	assert_int_equal(line, 2);
	free(v);
	assert_null(config_key_value("# disaggregation-transfer-backend x\n",
				     "disaggregation-transfer-backend", NULL));
}

static void test_ulimit(void **state)
{
	char *v = cmdline_ulimit_l("ulimit -n 1048576 && ulimit -l unlimited && python3");
	assert_string_equal(v, "unlimited");
	free(v);
	v = cmdline_ulimit_l("ulimit -Sl 65536; exec x");
	assert_string_equal(v, "65536");
	free(v);
	assert_null(cmdline_ulimit_l("ulimit -n 1024"));
	assert_null(cmdline_ulimit_l(NULL));
}

static void test_resolve(void **state)
{
	struct manifest_set ms;
	manifest_set_init(&ms);
	struct deployment *d = tu_dep(&ms, "x", NULL);
	struct service *s = tu_svc(d, "w", ROLE_WORKER, 1, 1, NULL);
	tu_env(s, "A", "alpha", 3);
	struct env_var *b = tu_env(s, "B", NULL, 4);
	b->value_from = xstrdup("<configmap cm/key>");
	struct configmap *cm = XPUSH(ms.cms, ms.n_cms, ms.cap_cms);
	memset(cm, 0, sizeof(*cm));
	cm->name = xstrdup("cm");
	tu_kv(&cm->data, "key", "from-configmap");
	struct src_loc loc = {0};
	char *v = resolve_env_ref(&ms, s, "\"${A}\"", &loc);
	assert_string_equal(v, "alpha");
	assert_int_equal(loc.line, 3);
	free(v);
	v = resolve_env_ref(&ms, s, "$(B)", NULL);
	assert_string_equal(v, "from-configmap");
	free(v);
	v = resolve_env_ref(&ms, s, "$NOPE", NULL);
	assert_string_equal(v, "$NOPE");
	free(v);
	v = resolve_env_ref(&ms, s, "literal", NULL);
	assert_string_equal(v, "literal");
	free(v);
	manifest_set_release(&ms);
}

static void test_dynamo_image_version(void **state)
{
	(void)state;
	int ma = -1, mi = -1;
	assert_true(dynamo_image_version("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.1", &ma, &mi));
	assert_int_equal(ma, 1);
	assert_int_equal(mi, 0);
	assert_true(dynamo_image_version(
		"nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.0-deepseek-v4-cuda13-dev.3", &ma, &mi));
	assert_int_equal(ma, 1);
	assert_int_equal(mi, 2);
	assert_true(
		dynamo_image_version("nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.9.1", &ma, &mi));
	assert_int_equal(ma, 0);
	/* not a version, not a Dynamo image, no tag, a registry port */
	assert_false(
		dynamo_image_version("nvcr.io/nvidia/ai-dynamo/vllm-runtime:latest", &ma, &mi));
	assert_false(dynamo_image_version("registry.example.com/engine:1.4", &ma, &mi));
	assert_false(dynamo_image_version("nvcr.io/nvidia/ai-dynamo/vllm-runtime", &ma, &mi));
	assert_false(dynamo_image_version("localhost:5000/ai-dynamo/vllm-runtime", &ma, &mi));
	assert_false(dynamo_image_version(NULL, &ma, &mi));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tls),
		cmocka_unit_test(test_net_devices),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_config_values),
		cmocka_unit_test(test_ulimit),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_dynamo_image_version),
	};
	return cmocka_run_group_tests_name("env_text", tests, NULL, NULL);
}
