/* SPDX-License-Identifier: Apache-2.0 */
/* rules/efa.c against the upstream facts it cites, and parse/efa_packages.c
 * on the EFA installer's real records (tests/fixtures/node/outputs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse/efa_packages.h"
#include "rules/efa.h"

static void ver_is(struct efa_ver v, unsigned a, unsigned b, unsigned c)
{
	assert_true(v.known);
	assert_int_equal(v.major, a);
	assert_int_equal(v.minor, b);
	assert_int_equal(v.patch, c);
}

static void test_versions(void **state)
{
	(void)state;
	ver_is(efa_ver_parse("1.18.2amzn1.0"), 1, 18, 2);
	ver_is(efa_ver_parse("1.19.0-1"), 1, 19, 0);
	ver_is(efa_ver_parse("2.1.0"), 2, 1, 0);
	ver_is(efa_ver_parse("1.22"), 1, 22, 0);
	assert_false(efa_ver_parse("amzn").known);
	assert_false(efa_ver_parse("").known);
	/* OFI_VERSION_DEF_PROV: FI_VERSION(MAJOR * 100 + MINOR, REVISION * 10) */
	ver_is(efa_ver_from_provider("122.0"), 1, 22, 0);
	ver_is(efa_ver_from_provider("116.10"), 1, 16, 1);
	ver_is(efa_ver_from_provider("201.0"), 2, 1, 0);
	assert_false(efa_ver_from_provider("2.0").known); /* the old efa provider's own */
}

static void test_ofi_rows(void **state)
{
	(void)state;
	struct efa_ver v = efa_ver_parse("1.7.4");
	assert_null(efa_ofi_nccl_needs(&v));
	v = efa_ver_parse("1.8.0");
	assert_string_equal(efa_ofi_nccl_needs(&v)->needs_text, "1.18.0");
	v = efa_ver_parse("1.12.1");
	assert_string_equal(efa_ofi_nccl_needs(&v)->needs_text, "1.18.0");
	v = efa_ver_parse("1.13.0");
	assert_string_equal(efa_ofi_nccl_needs(&v)->needs_text, "1.22.0");
	v = efa_ver_parse("1.19.0-1");
	assert_string_equal(efa_ofi_nccl_needs(&v)->needs_text, "1.22.0");
	assert_true(efa_pkg_is_libfabric("libfabric-aws"));
	assert_true(efa_pkg_is_libfabric("libfabric1-aws"));
	assert_false(efa_pkg_is_libfabric("libfabric-aws-devel"));
	assert_false(efa_pkg_is_libfabric("libfabric-bin"));
	assert_true(efa_pkg_is_ofi_nccl("libnccl-ofi"));
	assert_true(efa_ofi_nccl_lib("/opt/amazon/ofi-nccl/lib/libnccl-net-ofi.so"));
	assert_false(efa_ofi_nccl_lib("/usr/lib/libnccl-net.so"));
}

static const char *nixl_version; /* the image's NIXL, NULL: unknown */
static bool nixl_absent;         /* the image holds no NIXL */

static enum ci_status judge(const char *lf, const char *ofi, bool memops_off, char *detail,
			    size_t n)
{
	struct efa_in in = {0};
	in.nixl = efa_ver_parse(nixl_version);
	in.nixl_absent = nixl_absent;
	if (lf) {
		in.libfabric = efa_ver_parse(lf);
		snprintf(in.libfabric_text, sizeof(in.libfabric_text), "%s", lf);
		snprintf(in.libfabric_how, sizeof(in.libfabric_how), "test");
	}
	if (ofi) {
		in.ofi_nccl = efa_ver_parse(ofi);
		snprintf(in.ofi_nccl_text, sizeof(in.ofi_nccl_text), "%s", ofi);
	}
	in.sync_memops_off = memops_off;
	struct efa_judgement j;
	efa_judge(&in, &j);
	if (detail)
		snprintf(detail, n, "%s", j.detail);
	if (j.st == CI_FAIL || j.st == CI_WARN)
		assert_true(*j.fix);
	return j.st;
}

static void test_judge(void **state)
{
	(void)state;
	char d[640];
	assert_int_equal(judge(NULL, NULL, false, d, sizeof(d)), CI_SKIPPED);
	/* below NIXL's fi_getinfo API version: the backend cannot start */
	assert_int_equal(judge("1.17.0", NULL, false, d, sizeof(d)), CI_FAIL);
	assert_non_null(strstr(d, "-FI_ENOSYS"));
	assert_non_null(strstr(d, "SYNC_MEMOPS"));
	/* 1.18.x: below NIXL's documented minimum, and sync memops at MR time */
	assert_int_equal(judge("1.18.2amzn1.0", NULL, false, d, sizeof(d)), CI_WARN);
	assert_non_null(strstr(d, "1.21.0"));
	assert_non_null(strstr(d, "SYNC_MEMOPS"));
	/* FI_EFA_SET_CUDA_SYNC_MEMOPS=0 takes the second finding away */
	assert_int_equal(judge("1.18.2amzn1.0", NULL, true, d, sizeof(d)), CI_WARN);
	assert_null(strstr(d, "SYNC_MEMOPS"));
	/* 1.19.1 no longer sets it in fi_mr_reg (bc6c52c1f) */
	assert_int_equal(judge("1.19.1", NULL, false, d, sizeof(d)), CI_WARN);
	assert_null(strstr(d, "SYNC_MEMOPS"));
	assert_int_equal(judge("1.21.0", NULL, false, d, sizeof(d)), CI_OK);
	/* aws-ofi-nccl 1.13+ refuses the efa provider below libfabric 1.22 */
	assert_int_equal(judge("1.21.0", "1.19.0", false, d, sizeof(d)), CI_WARN);
	assert_non_null(strstr(d, "aws-ofi-nccl 1.19.0"));
	assert_int_equal(judge("1.22.0amzn5.0", "1.19.0", false, d, sizeof(d)), CI_OK);
	assert_int_equal(judge("2.1.0amzn5.0", "1.16.2", false, d, sizeof(d)), CI_OK);
	/* NIXL 0.7.x asked for API 1.9 and documented no minimum: 1.16.1 only
	 * keeps its sync-memops risk */
	nixl_version = "0.7.1";
	assert_int_equal(judge("1.16.1", NULL, false, d, sizeof(d)), CI_WARN);
	assert_null(strstr(d, "-FI_ENOSYS"));
	assert_int_equal(judge("1.19.1", NULL, false, d, sizeof(d)), CI_OK);
	nixl_version = "0.8.0";
	assert_int_equal(judge("1.17.0", NULL, false, d, sizeof(d)), CI_FAIL);
	assert_int_equal(judge("1.19.1", NULL, false, d, sizeof(d)), CI_OK); /* min from 0.9 */
	nixl_version = "1.4.0";
	assert_int_equal(judge("1.19.1", NULL, false, d, sizeof(d)), CI_WARN);
	nixl_version = NULL;
	/* No NIXL in the image: NIXL's rows are silent, libfabric's and
	 * aws-ofi-nccl's own still speak, and the fix names their version */
	nixl_absent = true;
	assert_int_equal(judge("1.17.0", NULL, false, d, sizeof(d)), CI_WARN);
	assert_null(strstr(d, "-FI_ENOSYS"));
	assert_non_null(strstr(d, "SYNC_MEMOPS"));
	assert_int_equal(judge("1.19.1", NULL, false, d, sizeof(d)), CI_OK);
	assert_non_null(strstr(d, "no NIXL in the image"));
	assert_int_equal(judge("1.19.1", "1.19.0", false, d, sizeof(d)), CI_WARN);
	assert_non_null(strstr(d, "aws-ofi-nccl 1.19.0"));
	nixl_absent = false;
}

static char *slurp_output(const char *name, size_t *len)
{
	char path[256];
	snprintf(path, sizeof(path), "tests/fixtures/node/outputs/%s", name);
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	static char buf[8192];
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	char *body = strstr(buf, "# ---\n");
	assert_non_null(body);
	body += 6;
	*len = strlen(body);
	return body;
}

static const struct efa_pkg *find(const struct efa_packages *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->pkgs[i].name, name))
			return &p->pkgs[i];
	return NULL;
}

static void test_packages(void **state)
{
	(void)state;
	struct efa_packages *p = calloc(1, sizeof(*p));
	size_t len;
	char *b = slurp_output("efa_installed_packages__1.22.0_rhel8_libfabric_1.17.0.txt", &len);
	assert_int_equal(efa_packages_parse(b, len, p), 0);
	assert_string_equal(p->installer, "1.22.0");
	assert_false(p->debug);
	assert_int_equal(p->n, 16);
	assert_string_equal(find(p, "libfabric-aws")->version, "1.17.0");
	assert_string_equal(find(p, "libfabric-aws-devel")->version, "1.17.0");
	assert_string_equal(find(p, "efa-config")->version, "1.13");
	b = slurp_output("efa_installed_packages__1.5.1_ubuntu_libfabric1_1.8.0.txt", &len);
	assert_int_equal(efa_packages_parse(b, len, p), 0);
	assert_string_equal(p->installer, "1.5.1");
	assert_string_equal(find(p, "libfabric1")->version, "1.8.0amzn1.0");
	assert_string_equal(find(p, "efa")->version, "1.3.0-1.amzn1");
	/* not the installer's file */
	assert_int_equal(efa_packages_parse("hello\n", 6, p), -1);
	assert_int_equal(efa_packages_parse("", 0, p), -1);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_ofi_rows),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_packages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
