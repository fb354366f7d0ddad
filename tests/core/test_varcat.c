/* SPDX-License-Identifier: Apache-2.0 */
/* The variable catalogue table and its helpers. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/varcat.h"

static void test_table_well_formed(void **state)
{
	(void)state;
	assert_true(varcat_len > 0);
	for (size_t i = 0; i < varcat_len; i++) {
		const struct var_info *v = &varcat[i];
		assert_non_null(v->name);
		assert_true(*v->name);
		for (const char *p = v->name; *p; p++)
			if (!(isupper((unsigned char)*p) || isdigit((unsigned char)*p) ||
			      *p == '_' || (*p == '*' && !p[1])))
				fail_msg("bad variable name %s", v->name);
		assert_non_null(v->meaning);
		assert_true(*v->meaning);
		assert_non_null(v->rule);
		assert_true(*v->rule);
		assert_null(strchr(v->meaning, '\n'));
		assert_null(strchr(v->rule, '\n'));
		assert_true((v->critical_on & ~(unsigned)FAB_ANY) == 0);
		assert_string_not_equal(varcat_family_name(v->family), "?");
		for (size_t j = 0; j < i; j++)
			if (!strcmp(varcat[j].name, v->name))
				fail_msg("%s listed twice", v->name);
		assert_ptr_equal(varcat_lookup(v->name), v);
	}
}

static void test_lookup(void **state)
{
	(void)state;
	const struct var_info *v = varcat_lookup("UCX_TLS");
	assert_non_null(v);
	assert_int_equal(v->family, VF_UCX);
	assert_string_equal(v->name, "UCX_TLS");
	/* Which fabric makes which variable critical is the env rules' call;
	 * here only that the catalogue marks some variable critical at all. */
	unsigned any = 0;
	for (size_t i = 0; i < varcat_len; i++)
		any |= varcat[i].critical_on;
	assert_true(any != 0);
	v = varcat_lookup("NCCL_IB_HCA");
	assert_non_null(v);
	assert_int_equal(v->family, VF_NCCL);
	assert_null(varcat_lookup("NOT_A_VAR"));
	assert_null(varcat_lookup("ucx_tls"));
	assert_null(varcat_lookup(""));
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(varcat_family_name(VF_UCX), "ucx");
	assert_string_equal(varcat_family_name(VF_NIXL), "nixl");
	assert_string_equal(varcat_family_name(VF_NCCL), "nccl");
	assert_string_equal(varcat_family_name(VF_LIBFABRIC), "libfabric");
	assert_string_equal(varcat_family_name(VF_BACKEND), "backend");
	assert_string_equal(varcat_family_name(VF_MOONCAKE), "mooncake");
	assert_string_equal(varcat_family_name((enum var_family)42), "?");
	assert_string_equal(fabric_name(FAB_IB), "infiniband");
	assert_string_equal(fabric_name(FAB_ROCE), "roce");
	assert_string_equal(fabric_name(FAB_EFA), "efa");
	assert_string_equal(fabric_name(FAB_MNNVL), "mnnvl");
	assert_string_equal(fabric_name(FAB_NONE), "none");
}

static void test_fabric_mask(void **state)
{
	(void)state;
	char buf[64];
	assert_string_equal(fabric_mask_name(0, buf, sizeof(buf)), "-");
	assert_string_equal(fabric_mask_name(FAB_IB, buf, sizeof(buf)), "infiniband");
	assert_string_equal(fabric_mask_name(FAB_RDMA, buf, sizeof(buf)), "infiniband,roce");
	assert_string_equal(fabric_mask_name(FAB_EFA | FAB_IB, buf, sizeof(buf)), "infiniband,efa");
	assert_string_equal(fabric_mask_name(FAB_ANY, buf, sizeof(buf)),
			    "infiniband,roce,efa,mnnvl");
	/* A short buffer truncates cleanly, never overflows. */
	char small[12];
	memset(small, 'X', sizeof(small));
	const char *s = fabric_mask_name(FAB_ANY, small, sizeof(small));
	assert_ptr_equal(s, small);
	assert_true(strlen(s) < sizeof(small));
	assert_string_equal(s, "infiniband");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_well_formed),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_fabric_mask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
