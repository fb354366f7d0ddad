/* SPDX-License-Identifier: Apache-2.0 */
/*
 * references/interconnect-env-vars.md and varcat[] must agree: every row of
 * the "## Variables" table names a catalogue variable with the same family
 * and critical set, and every catalogue variable has a row.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "env_test_util.h"

#define DOC "references/interconnect-env-vars.md"

/* Cell i (0-based) of a "| a | b | c |" row, trimmed, backticks removed. */
static void cell(const char *row, int i, char *out, size_t len)
{
	const char *p = row;
	for (int k = 0; k <= i; k++) {
		p = strchr(p, '|');
		if (!p) {
			out[0] = '\0';
			return;
		}
		p++;
	}
	const char *e = strchr(p, '|');
	if (!e)
		e = p + strlen(p);
	while (p < e && (*p == ' ' || *p == '`'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '`'))
		e--;
	snprintf(out, len, "%.*s", (int)(e - p), p);
}

static void test_doc_matches_catalogue(void **state)
{
	FILE *f = fopen(DOC, "r");
	assert_non_null(f);
	char line[4096];
	bool in_table = false;
	size_t rows = 0;
	bool *seen = xcalloc(varcat_len, sizeof(bool));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "## ", 3))
			in_table = !strncmp(line, "## Variables", 12);
		if (!in_table || strncmp(line, "| `", 3))
			continue;
		char name[128], fam[32], crit[64], want[64];
		cell(line, 0, name, sizeof(name));
		cell(line, 1, fam, sizeof(fam));
		cell(line, 2, crit, sizeof(crit));
		const struct var_info *v = varcat_lookup(name);
		if (!v)
			fail_msg("%s: %s is not in varcat[]", DOC, name);
		if (strcmp(fam, varcat_family_name(v->family)))
			fail_msg("%s: family %s, varcat says %s", name, fam,
				 varcat_family_name(v->family));
		fabric_mask_name(v->critical_on, want, sizeof(want));
		if (strcmp(crit, want))
			fail_msg("%s: critical on %s, varcat says %s", name, crit, want);
		seen[v - varcat] = true;
		rows++;
	}
	fclose(f);
	for (size_t i = 0; i < varcat_len; i++)
		if (!seen[i])
			fail_msg("%s has no row in %s", varcat[i].name, DOC);
	free(seen);
	assert_int_equal(rows, varcat_len);
}

static void test_catalogue_sane(void **state)
{
	/* the rules rely on these critical sets */
	assert_int_equal(varcat_lookup("UCX_TLS")->critical_on, FAB_MNNVL);
	assert_int_equal(varcat_lookup("NCCL_IB_HCA")->critical_on, 0);
	assert_int_equal(varcat_lookup("FI_PROVIDER")->critical_on, FAB_EFA);
	for (size_t i = 0; i < varcat_len; i++) {
		assert_non_null(varcat[i].meaning);
		assert_non_null(varcat[i].rule);
		for (size_t j = i + 1; j < varcat_len; j++)
			assert_string_not_equal(varcat[i].name, varcat[j].name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doc_matches_catalogue),
		cmocka_unit_test(test_catalogue_sane),
	};
	return cmocka_run_group_tests_name("env_varcat_doc", tests, NULL, NULL);
}
