/* SPDX-License-Identifier: Apache-2.0 */
/* rules/ucx: the version rows and their comparison. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "rules/ucx.h"

static void test_rows_are_whole(void **state)
{
	(void)state;
	for (int t = 0; t < UCX_THRESHOLD_COUNT; t++) {
		const struct ucx_version_rule *r = ucx_rule((enum ucx_threshold)t);
		char text[16];
		snprintf(text, sizeof(text), "%u.%u", r->major, r->minor);
		/* the text printed in messages is the version compared */
		assert_string_equal(r->text, text);
		assert_non_null(r->what);
		assert_true(strlen(r->source) > 10);
	}
}

static void test_thresholds(void **state)
{
	(void)state;
	/* DMA-BUF registration arrived in UCX 1.14 */
	assert_false(ucx_meets(UCX_MIN_DMABUF, 1, 13));
	assert_true(ucx_meets(UCX_MIN_DMABUF, 1, 14));
	assert_true(ucx_meets(UCX_MIN_DMABUF, 2, 0));
	/* fabric-handle cuda_ipc (MNNVL) in 1.18 */
	assert_false(ucx_meets(UCX_MIN_MNNVL_IPC, 1, 17));
	assert_true(ucx_meets(UCX_MIN_MNNVL_IPC, 1, 18));
	/* NIXL's plugin stops warning from 1.19 */
	assert_false(ucx_meets(UCX_MIN_NIXL_FULL, 1, 18));
	assert_true(ucx_meets(UCX_MIN_NIXL_FULL, 1, 19));
	assert_false(ucx_meets(UCX_MIN_NIXL_FULL, 0, 99));
}

/* UCX's boolean spellings, both ways, and the frontend row whole. */
static void test_booleans(void **state)
{
	(void)state;
	assert_true(ucx_value_on("y"));
	assert_true(ucx_value_on("YES"));
	assert_true(ucx_value_on("1"));
	assert_false(ucx_value_on("n"));
	assert_false(ucx_value_on("try"));
	assert_false(ucx_value_on(NULL));
	assert_true(ucx_value_off("no"));
	assert_true(ucx_value_off("False"));
	assert_false(ucx_value_off("y"));
	assert_false(ucx_value_off(NULL));
	const struct ucx_value_rule *r = ucx_value_rule(UCX_VR_FRONTEND_REACHABLE);
	assert_non_null(strstr(r->source, "ROCE_LOCAL_SUBNET"));
	assert_non_null(strstr(r->fix, "UCX_IB_ROCE_LOCAL_SUBNET=y"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_are_whole),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_booleans),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
