/* SPDX-License-Identifier: Apache-2.0 */
/* rules/engines, rules/gdrcopy and the UCX value rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "core/report.h"
#include "rules/engine_vars.h"
#include "rules/gdrcopy.h"
#include "rules/ucx.h"

static void test_side_channel(void **state)
{
	(void)state;
	struct fabric_model m = {0};
	const struct engine_var_rule *r;
	r = engine_var_judge("VLLM_NIXL_SIDE_CHANNEL_HOST", "localhost", &m);
	assert_non_null(r);
	assert_int_equal(r->status, CI_FAIL);
	assert_non_null(engine_var_judge("VLLM_NIXL_SIDE_CHANNEL_HOST", "127.0.0.1", &m));
	assert_non_null(engine_var_judge("VLLM_NIXL_SIDE_CHANNEL_HOST", "0.0.0.0", &m));
	assert_non_null(engine_var_judge("VLLM_NIXL_SIDE_CHANNEL_HOST", "::1", &m));
	assert_null(engine_var_judge("VLLM_NIXL_SIDE_CHANNEL_HOST", "10.0.3.7", &m));
	assert_null(engine_var_judge("VLLM_NIXL_SIDE_CHANNEL_HOST", "prefill-0.svc", &m));
}

static void test_cumem_on_mnnvl_only(void **state)
{
	(void)state;
	struct fabric_model m = {0};
	assert_null(engine_var_judge("NCCL_CUMEM_ENABLE", "0", &m));
	m.mnnvl_domain = true;
	const struct engine_var_rule *r = engine_var_judge("NCCL_CUMEM_ENABLE", "0", &m);
	assert_non_null(r);
	assert_int_equal(r->status, CI_WARN);
	assert_null(engine_var_judge("NCCL_CUMEM_ENABLE", "1", &m));
	for (const struct engine_var_rule *k = engine_var_rules(); k->name; k++)
		assert_true(strlen(k->source) > 20);
}

static void test_gdrcopy_direction(void **state)
{
	(void)state;
	/* gdr_open: an older library on a newer driver works */
	assert_int_equal(gdrcopy_compat("2.5", "2.4"), GDRCOPY_COMPAT_OK);
	assert_int_equal(gdrcopy_compat("2.4.1", "2.4"), GDRCOPY_COMPAT_OK);
	assert_int_equal(gdrcopy_compat("2.3", "2.4"), GDRCOPY_COMPAT_LIB_NEWER);
	assert_int_equal(gdrcopy_compat("1.3", "2.4"), GDRCOPY_COMPAT_BROKEN);
	assert_int_equal(gdrcopy_compat(NULL, "2.4"), GDRCOPY_COMPAT_UNKNOWN);
}

static void test_ucx_value_rows(void **state)
{
	(void)state;
	assert_int_equal(ucx_value_rule(UCX_VR_TLS_NO_CUDA_COPY)->status, CI_FAIL);
	assert_int_equal(ucx_value_rule(UCX_VR_GDR_OFF)->status, CI_WARN);
	assert_true(ucx_value_off("no"));
	assert_true(ucx_value_off("N"));
	assert_true(ucx_value_off("0"));
	assert_false(ucx_value_off("try"));
	assert_false(ucx_value_off(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_channel),
		cmocka_unit_test(test_cumem_on_mnnvl_only),
		cmocka_unit_test(test_gdrcopy_direction),
		cmocka_unit_test(test_ucx_value_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
