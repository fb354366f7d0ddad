/* SPDX-License-Identifier: Apache-2.0 */
/* rules/fabric: which paths carry KV, and what is judged, from small inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "rules/fabric.h"

/* A GB200 NVL72 tray pod: 4 GPUs in a domain, IMEX, Completed fabric. */
static struct fabric_in gb200(void)
{
	return (struct fabric_in){.gpus = 4,
				  .nvlinks_active = 72,
				  .fabric = FGS_COMPLETED,
				  .cluster_uuid = true,
				  .imex_channels = 1,
				  .ucx_major = 1,
				  .ucx_minor = 19,
				  .ucx_cuda_ipc = FABRIC_YES,
				  .nics_read = true};
}

static void test_mnnvl_without_nic(void **state)
{
	(void)state;
	struct fabric_in in = gb200();
	in.nics_not_given = 4; /* shared RDMA namespace: the host's NICs in sysfs */
	struct fabric_model m;
	fabric_decide(&in, &m);
	assert_int_equal(m.kv, FABRIC_MNNVL);
	assert_true(m.can[FABRIC_MNNVL]);
	assert_false(m.can[FABRIC_IB]);
	assert_true(m.nic_optional);
	assert_true(m.nvswitch_class);
	assert_string_equal(m.mnnvl_gap, "");
}

static void test_mnnvl_gaps(void **state)
{
	(void)state;
	struct fabric_model m;
	struct fabric_in in = gb200();
	in.imex_channels = 0;
	fabric_decide(&in, &m);
	assert_false(m.can[FABRIC_MNNVL]);
	assert_int_equal(m.kv, FABRIC_MNNVL); /* still judged on MNNVL: it fails there */
	in = gb200();
	in.ucx_minor = 17; /* fabric-handle cuda_ipc from 1.18 (rules/ucx.c) */
	fabric_decide(&in, &m);
	assert_false(m.can[FABRIC_MNNVL]);
	in.ucx_minor = 18;
	fabric_decide(&in, &m);
	assert_true(m.can[FABRIC_MNNVL]);
	in = gb200();
	in.fabric = FGS_NOT_READY;
	fabric_decide(&in, &m);
	assert_false(m.can[FABRIC_MNNVL]);
	in = gb200();
	in.ucx_cuda_ipc = FABRIC_NO;
	fabric_decide(&in, &m);
	assert_false(m.can[FABRIC_MNNVL]);
	in = gb200();
	in.ucx_major = in.ucx_minor = 0; /* UCX unknown: no claim */
	fabric_decide(&in, &m);
	assert_true(m.can[FABRIC_MNNVL]);
}

static void test_grace_without_nvswitch(void **state)
{
	(void)state;
	/* GH200: one GPU, no ClusterUUID, fabric N/A: nothing to read */
	struct fabric_in in = {.gpus = 1, .fabric = FGS_NA, .ib_nics = 1, .nics_read = true};
	struct fabric_model m;
	fabric_decide(&in, &m);
	assert_false(m.nvswitch_class);
	assert_false(m.mnnvl_domain);
	assert_int_equal(m.kv, FABRIC_IB);
	assert_false(m.nic_optional);
	assert_false(m.can[FABRIC_NVLINK]);
}

static void test_nvswitch_by_links(void **state)
{
	(void)state;
	struct fabric_model m;
	struct fabric_in in = {.gpus = 8, .nvlink_all_pairs = FABRIC_YES, .roce_nics = 8};
	fabric_decide(&in, &m);
	assert_true(m.nvswitch_class);
	assert_true(m.can[FABRIC_NVLINK]);
	assert_int_equal(m.kv, FABRIC_ROCE);
	/* links read and not all pairs: an SXM name does not override them */
	in.nvlink_all_pairs = FABRIC_NO;
	in.nvswitch_form_factor = true;
	fabric_decide(&in, &m);
	assert_false(m.nvswitch_class);
	/* links unreadable: the form factor is all there is */
	in.nvlink_all_pairs = FABRIC_UNKNOWN;
	fabric_decide(&in, &m);
	assert_true(m.nvswitch_class);
}

static void test_kinds_and_tcp(void **state)
{
	(void)state;
	struct fabric_model m;
	struct fabric_in in = {.gpus = 8, .efa_nics = 32, .ib_nics = 0};
	fabric_decide(&in, &m);
	assert_int_equal(m.kv, FABRIC_EFA);
	in = (struct fabric_in){.gpus = 1, .nics_not_given = 8};
	fabric_decide(&in, &m);
	assert_int_equal(m.kv, FABRIC_TCP);
	assert_true(m.can[FABRIC_TCP]);
	assert_false(m.nic_optional);
	assert_string_equal(fabric_path_name(FABRIC_MNNVL), "multi-node NVLink");
	assert_true(strlen(fabric_rule_source()) > 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mnnvl_without_nic),
		cmocka_unit_test(test_mnnvl_gaps),
		cmocka_unit_test(test_grace_without_nvswitch),
		cmocka_unit_test(test_nvswitch_by_links),
		cmocka_unit_test(test_kinds_and_tcp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
