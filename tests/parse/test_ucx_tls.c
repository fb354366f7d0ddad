/* SPDX-License-Identifier: Apache-2.0 */
/* The one UCX transport vocabulary (parse/ucx_tls.c), against the aliases
 * and list rules of UCX's ucp_context.c. */
#include "t.h"

#include "parse/ucx_tls.h"

static bool alias_has(const char *alias, const char *tl)
{
	const char *const *a = ucx_tls_alias(alias);
	for (size_t i = 0; a && a[i]; i++)
		if (!strcmp(a[i], tl))
			return true;
	return false;
}

static void aliases(void **state)
{
	(void)state;
	assert_true(alias_has("rc", "rc_mlx5") && alias_has("rc", "rc_verbs"));
	assert_false(alias_has("rc", "ud_mlx5")); /* only as ud_mlx5:aux */
	assert_true(alias_has("rc_x", "rc_mlx5") && !alias_has("rc_x", "rc_verbs"));
	assert_true(alias_has("rc_v", "rc_verbs") && !alias_has("rc_v", "rc_mlx5"));
	assert_true(alias_has("dc", "dc_mlx5") && alias_has("dc_x", "dc_mlx5"));
	assert_true(alias_has("ud", "ud_verbs") && alias_has("ud", "ud_mlx5"));
	assert_true(alias_has("ib", "dc_mlx5") && alias_has("ib", "ud_verbs"));
	assert_true(alias_has("sm", "cma") && alias_has("shm", "knem"));
	assert_true(alias_has("mm", "posix") && !alias_has("mm", "cma"));
	assert_true(alias_has("cuda", "cuda_copy") && alias_has("cuda", "cuda_ipc") &&
		    alias_has("cuda", "gdr_copy"));
	assert_true(alias_has("rocm", "rocm_ipc") && alias_has("ze", "ze_copy"));
	assert_null(ucx_tls_alias("rc_mlx5"));
	assert_null(ucx_tls_alias("tcp"));
	assert_null(ucx_tls_alias("rdmacm")); /* a connection manager */
	assert_null(ucx_tls_alias(NULL));
}

static void sets(void **state)
{
	(void)state;
	static const char *const rdma[] = {"rc_verbs", "rc_mlx5",  "dc_mlx5", "ud_verbs",
					   "ud_mlx5",  "gga_mlx5", "srd",     "rc",
					   "rc_x",     "dc",       "ud",      "ib"};
	for (size_t i = 0; i < sizeof(rdma) / sizeof(rdma[0]); i++)
		assert_true(ucx_tl_is_rdma(rdma[i]));
	static const char *const not_rdma[] = {"tcp",  "cuda_ipc", "rdmacm", "posix", "sm",
					       "cuda", "self",     "rc_mlx", "RC",    ""};
	for (size_t i = 0; i < sizeof(not_rdma) / sizeof(not_rdma[0]); i++)
		assert_false(ucx_tl_is_rdma(not_rdma[i]));
	assert_false(ucx_tl_is_rdma(NULL));
	assert_true(ucx_tl_is_cuda("cuda_copy") && ucx_tl_is_cuda("gdr_copy") &&
		    ucx_tl_is_cuda("cuda"));
	assert_false(ucx_tl_is_cuda("rocm_copy") || ucx_tl_is_cuda("tcp") || ucx_tl_is_cuda(NULL));
}

static void lists(void **state)
{
	(void)state;
	assert_true(ucx_tls_allows(NULL, "rc_mlx5"));
	assert_true(ucx_tls_allows("  ", "rc_mlx5"));
	assert_true(ucx_tls_allows("all", "srd"));
	assert_true(ucx_tls_allows(" rc_x , cuda_copy ", "rc_mlx5"));
	assert_false(ucx_tls_allows("rc", "ud_mlx5"));
	assert_false(ucx_tls_allows("RC", "rc_mlx5"));  /* no case folding */
	assert_false(ucx_tls_allows("rc_", "rc_mlx5")); /* no prefixes */
	/* strict names */
	assert_true(ucx_tls_allows("\\rc_mlx5", "rc_mlx5"));
	assert_false(ucx_tls_allows("\\rc", "rc_mlx5"));
	assert_false(ucx_tls_allows("\\rc", "rc"));
	/* auxiliary only: no data */
	assert_false(ucx_tls_allows("rc_mlx5:aux", "rc_mlx5"));
	assert_true(ucx_tls_allows("^ud_mlx5:aux", "ud_mlx5"));
	/* deny lists */
	assert_false(ucx_tls_allows("^rc,dc,ud", "rc_mlx5"));
	assert_true(ucx_tls_allows("^rc,dc,ud", "tcp"));
	assert_true(ucx_tls_allows("^rc", "dc_mlx5"));
	assert_false(ucx_tls_allows("^ib", "rc_verbs"));
	assert_false(ucx_tls_allows("^all", "tcp"));
	assert_true(ucx_tls_is_deny("  ^cuda_ipc") && !ucx_tls_is_deny("cuda_ipc") &&
		    !ucx_tls_is_deny(NULL));
	assert_true(ucx_tls_is_empty("") && ucx_tls_is_empty(" , ,") && !ucx_tls_is_empty(NULL) &&
		    !ucx_tls_is_empty("tcp"));
	/* an entry too long to be a name is ignored, never truncated into one */
	char big[UCX_TLS_MAX_ENTRY + 16];
	memset(big, 'x', sizeof(big) - 1);
	memcpy(big, "rc_mlx5", 7);
	big[sizeof(big) - 1] = '\0';
	assert_false(ucx_tls_allows(big, "rc_mlx5"));
}

static void rdma_and_cuda_left(void **state)
{
	(void)state;
	assert_true(ucx_tls_allows_rdma("rc,cuda_copy"));
	assert_true(ucx_tls_allows_rdma("srd,cuda_copy"));
	assert_true(ucx_tls_allows_rdma("^cuda_ipc"));
	assert_true(ucx_tls_allows_rdma("^rc_mlx5"));   /* rc_verbs, dc, ud stay */
	assert_false(ucx_tls_allows_rdma("^rc,dc,ud")); /* srd: EFA only */
	assert_false(ucx_tls_allows_rdma("^ib"));
	assert_false(ucx_tls_allows_rdma("tcp,cuda_copy,cuda_ipc"));
	assert_false(ucx_tls_allows_rdma("gga_mlx5"));
	assert_true(ucx_tls_allows_cuda("cuda"));
	assert_true(ucx_tls_allows_cuda("^cuda_ipc"));
	assert_false(ucx_tls_allows_cuda("^cuda"));
	assert_false(ucx_tls_allows_cuda("rc,tcp"));
}

static void net_devices(void **state)
{
	(void)state;
	assert_true(ucx_net_devices_allows(NULL, "mlx5_0:1"));
	assert_true(ucx_net_devices_allows("all", "mlx5_0:1"));
	assert_true(ucx_net_devices_allows("mlx5_1:1, mlx5_0:1", "mlx5_0:1"));
	assert_false(ucx_net_devices_allows("mlx5_0", "mlx5_0:1"));
	/* no deny form for devices (UCX reads plain names): "^x" selects nothing */
	assert_false(ucx_net_devices_allows("^mlx5_1:1", "mlx5_0:1"));
	assert_false(ucx_net_devices_allows("^mlx5_0:1", "mlx5_0:1"));
	assert_false(ucx_net_devices_allows("^all", "mlx5_0:1"));
	assert_true(ucx_net_devices_allows("^mlx5_1:1,mlx5_0:1", "mlx5_0:1"));
}

/* UCX warns about a device named twice and aborts above 64 entries. */
static void net_devices_count_and_twice(void **state)
{
	(void)state;
	char dup[64] = "";
	assert_int_equal(ucx_net_devices_count(NULL), 0);
	assert_int_equal(ucx_net_devices_count("mlx5_0:1, ,mlx5_1:1,"), 2);
	assert_false(ucx_net_devices_duplicate("mlx5_0:1,mlx5_1:1", dup, sizeof(dup)));
	assert_false(ucx_net_devices_duplicate(NULL, dup, sizeof(dup)));
	assert_true(ucx_net_devices_duplicate("mlx5_0:1, mlx5_1:1 ,mlx5_0:1", dup, sizeof(dup)));
	assert_string_equal(dup, "mlx5_0:1");
	/* a bare name and dev:port are different entries, as UCX compares them */
	assert_false(ucx_net_devices_duplicate("mlx5_0,mlx5_0:1", dup, sizeof(dup)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aliases),     cmocka_unit_test(sets),
		cmocka_unit_test(lists),       cmocka_unit_test(rdma_and_cuda_left),
		cmocka_unit_test(net_devices), cmocka_unit_test(net_devices_count_and_twice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
