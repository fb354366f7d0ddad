/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/fi_info.h"
#include "parse/pip_meta.h"
#include "parse/ucx_info.h"
#include "parse/ucx_tls.h"

static void ucx_v_1_16(void **state)
{
	struct ucx_version v;

	(void)state;
	PARSE_FIXTURE(ucx_version_parse, v, "ucx_info_-v__1.16.0_with_cuda_gdrcopy.txt", 0);
	assert_string_equal(v.version, "1.16.0");
	assert_int_equal(v.major, 1);
	assert_int_equal(v.minor, 16);
	assert_int_equal(v.patch, 0);
	assert_string_equal(v.library_path, "/opt/ml4sw/MPI/ucx-1.16.0/lib/libucs.so.0");
	assert_string_equal(v.api_version, "1.16.0");
	assert_string_equal(v.revision, "e4bb802");
	assert_non_null(strstr(v.configure, "--prefix=/opt/ml4sw/MPI/ucx-1.16.0"));
	assert_int_equal(v.cuda, UCX_OPT_WITH);
	assert_int_equal(v.gdrcopy, UCX_OPT_WITH);
	assert_int_equal(v.verbs, UCX_OPT_DEFAULT); /* auto-detected: not a failure */
	assert_int_equal(v.efa, UCX_OPT_DEFAULT);
	assert_true(ucx_version_at_least(&v, 1, 14, 0));
	assert_true(ucx_version_at_least(&v, 1, 16, 0));
	assert_false(ucx_version_at_least(&v, 1, 16, 1));
	assert_false(ucx_version_at_least(&v, 1, 22, 0));
	ucx_version_release(&v);
}

/* UCX <= 1.13 prints "# Version x" instead of "# Library version: x". */
static void ucx_v_1_13_debian(void **state)
{
	struct ucx_version v;

	(void)state;
	PARSE_FIXTURE(ucx_version_parse, v, "ucx_info_-v__debian12_ci_1.13.1.txt", 0);
	assert_string_equal(v.version, "1.13.1");
	assert_int_equal(v.minor, 13);
	assert_int_equal(v.verbs, UCX_OPT_WITH);
	assert_int_equal(v.cuda, UCX_OPT_DEFAULT);
	assert_false(ucx_version_at_least(&v, 1, 14, 0));
	ucx_version_release(&v);
}

static void ucx_v_synthetic(void **state)
{
	struct ucx_version v;

	(void)state;
	PARSE_STR(
		ucx_version_parse, v,
		"# Library version: 1.20.0\r\n"
		"# Configured with: --disable-logging --without-verbs --with-cuda-foo=/x "
		"--with-cuda=no --with-rdmacm --with-efa --with-mlx5-dv --with-knem=/opt/knem\r\n",
		0);
	assert_int_equal(v.verbs, UCX_OPT_WITHOUT);
	assert_int_equal(v.cuda, UCX_OPT_WITHOUT);
	assert_int_equal(v.rdmacm, UCX_OPT_WITH);
	assert_int_equal(v.efa, UCX_OPT_WITH);
	assert_int_equal(v.mlx5, UCX_OPT_WITH);
	assert_int_equal(v.knem, UCX_OPT_WITH);
	assert_int_equal(v.xpmem, UCX_OPT_DEFAULT);
	assert_int_equal(v.minor, 20);
	ucx_version_release(&v);
	PARSE_STR(ucx_version_parse, v,
		  "# UCT version=1.8.0 revision c30b7da\n"
		  "# configured with: --with-cuda=/usr/local/cuda --with-verbs\n",
		  0);
	assert_string_equal(v.version, "1.8.0");
	assert_string_equal(v.revision, "c30b7da");
	assert_int_equal(v.verbs, UCX_OPT_WITH);
	assert_int_equal(v.cuda, UCX_OPT_WITH);
	ucx_version_release(&v);
	PARSE_STR(ucx_version_parse, v, "bash: ucx_info: command not found\n", -1);
	assert_false(ucx_version_at_least(&v, 0, 0, 0));
	ucx_version_release(&v);
	PARSE_STR(ucx_version_parse, v, "# Library version: 1.1", 0);
	assert_int_equal(v.minor, 1);
	assert_int_equal(v.patch, 0);
	ucx_version_release(&v);
}

static void ucx_d_cx6_no_gpudirect(void **state)
{
	struct ucx_devices d;
	const struct ucx_md *md;
	const char *names[16];
	size_t n;

	(void)state;
	PARSE_FIXTURE(ucx_devices_parse, d, "ucx_info_-d__cx6_hdr_ib_cuda_gdrcopy_no_peermem.txt",
		      0);
	assert_int_equal(d.nmds, 10);
	assert_int_equal(d.ntls, 15);
	assert_int_equal(d.ncms, 2);
	assert_string_equal(d.cms[0], "tcp");
	assert_string_equal(d.cms[1], "rdmacm");
	assert_int_equal(d.nlog_lines, 0);
	md = ucx_devices_md(&d, "mlx5_0");
	assert_non_null(md);
	assert_string_equal(md->component, "ib");
	assert_int_equal(md->nmem_types, 1);
	assert_string_equal(md->mem_types[0].name, "host");
	assert_string_equal(md->mem_types[0].flags, "access,reg,cache");
	assert_false(md->no_devices);
	assert_false(ucx_md_has_mem_type(md, "cuda"));
	assert_true(ucx_devices_md(&d, "mlx5_1")->no_devices);
	md = ucx_devices_md(&d, "cuda_cpy");
	assert_int_equal(md->nmem_types, 3);
	assert_string_equal(md->mem_types[1].name, "cuda");
	assert_string_equal(md->mem_types[1].flags, "access,alloc,reg,detect");
	assert_string_equal(md->mem_types[2].name, "cuda-managed");
	assert_true(ucx_devices_has_transport(&d, "cuda_copy"));
	assert_true(ucx_devices_has_transport(&d, "cuda_ipc"));
	assert_true(ucx_devices_has_transport(&d, "gdr_copy"));
	assert_true(ucx_devices_has_transport(&d, "rc_mlx5"));
	assert_false(ucx_devices_has_transport(&d, "knem"));
	assert_true(ucx_devices_has_rdma(&d));
	n = ucx_devices_rdma_transports(&d, names, 16);
	assert_int_equal(n, 5);
	assert_string_equal(names[0], "dc_mlx5");
	assert_string_equal(names[4], "ud_mlx5");
	assert_int_equal(ucx_devices_rdma_transports(&d, names, 2), 2);
	assert_string_equal(d.tls[1].transport, "tcp");
	assert_string_equal(d.tls[1].device, "ens21f0");
	assert_string_equal(d.tls[1].md, "tcp");
	assert_string_equal(d.tls[1].type, "network");
	assert_string_equal(d.tls[9].transport, "dc_mlx5");
	assert_string_equal(d.tls[9].device, "mlx5_0:1");
	assert_string_equal(d.tls[9].md, "mlx5_0");
	/* the ground truth for GPUDirect RDMA: only host memory here */
	assert_false(ucx_devices_md_has_cuda(&d, "mlx5_0"));
	assert_false(ucx_devices_md_has_cuda(&d, "mlx5_0:1"));
	assert_false(ucx_devices_rdma_md_has_cuda(&d));
	ucx_devices_release(&d);
}

static void ucx_d_debug_log_interleaved(void **state)
{
	struct ucx_devices d;
	size_t len;
	char *body = fixture_body("ucx_info_-d__debug_log_libuct_cuda_missing.txt", &len);
	char *joined;
	const char *tail = "#\n# Memory domain: mlx5_0\n#     Component: ib\n"
			   "#         memory types: host (access,reg,cache)\n#\n"
			   "#      Transport: rc_verbs\n#         Device: mlx5_0:1\n";

	(void)state;
	/* the excerpt ends before the listing: log lines only */
	assert_int_equal(ucx_devices_parse(body, len, &d), -1);
	assert_int_equal(d.nlog_lines, 8);
	assert_int_equal(d.nmds, 0);
	ucx_devices_release(&d);
	/* the same log followed by a listing: the log lines do not disturb it */
	joined = malloc(len + strlen(tail) + 1);
	memcpy(joined, body, len);
	strcpy(joined + len, tail);
	PARSE_STR(ucx_devices_parse, d, joined, 0);
	assert_int_equal(d.nlog_lines, 8);
	assert_int_equal(d.nmds, 1);
	assert_int_equal(d.ntls, 1);
	assert_false(ucx_devices_has_transport(&d, "cuda_copy"));
	ucx_devices_release(&d);
	free(joined);
	free(body);
}

static void ucx_d_synthetic(void **state)
{
	struct ucx_devices d;

	(void)state;
	/* GPUDirect present; TCP-only box; CRLF; mid-block log line */
	PARSE_STR(ucx_devices_parse, d,
		  "# Memory domain: mlx5_2\r\n#     Component: ib\r\n"
		  "#         memory types: host (access,reg,cache), cuda (reg)\r\n"
		  "[1.0] [h:1:0] ib_md.c:1 UCX  DEBUG mlx5_2: cuda GPUDirect RDMA is enabled\r\n"
		  "#      Transport: rc_mlx5\r\n#         Device: mlx5_2:1\r\n"
		  "#      Transport: srd\r\n#         Device: efa_0:1\r\n",
		  0);
	assert_true(ucx_devices_md_has_cuda(&d, "mlx5_2"));
	assert_true(ucx_devices_md_has_cuda(&d, "mlx5_2:1"));
	assert_false(ucx_devices_md_has_cuda(&d, "mlx5_9"));
	assert_true(ucx_devices_rdma_md_has_cuda(&d));
	assert_int_equal(d.nlog_lines, 1);
	assert_int_equal(d.mds[0].nmem_types, 2);
	assert_string_equal(d.mds[0].mem_types[1].flags, "reg");
	ucx_devices_release(&d);

	PARSE_STR(ucx_devices_parse, d,
		  "# Memory domain: tcp\n#     Component: tcp\n"
		  "#      Transport: tcp\n#         Device: eth0\n"
		  "#      Transport: tcp\n#         Device: lo\n"
		  "# Memory domain: posix\n#      Transport: posix\n#         Device: memory\n",
		  0);
	assert_false(ucx_devices_has_rdma(&d));
	assert_int_equal(d.ntls, 3);
	ucx_devices_release(&d);

	PARSE_STR(ucx_devices_parse, d, "", -1);
	ucx_devices_release(&d);
	/* truncated in the middle of a memory types list */
	PARSE_STR(ucx_devices_parse, d, "# Memory domain: x\n# memory types: host (acc", 0);
	assert_string_equal(d.mds[0].mem_types[0].name, "host");
	ucx_devices_release(&d);
	assert_true(ucx_tl_is_rdma("rc_verbs"));
	assert_true(ucx_tl_is_rdma("ud_mlx5"));
	assert_true(ucx_tl_is_rdma("dc"));
	assert_true(ucx_tl_is_rdma("srd"));
	assert_false(ucx_tl_is_rdma("tcp"));
	assert_false(ucx_tl_is_rdma("cuda_ipc"));
	assert_false(ucx_tl_is_rdma("rdmacm"));
	assert_false(ucx_tl_is_rdma(NULL));
}

static void ucx_pwe_not_a_listing(void **state)
{
	struct ucx_devices d;

	(void)state;
	PARSE_FIXTURE(ucx_devices_parse, d, "ucx_info_-pwe__components_knem_gdr_copy_cuda_head.txt",
		      -1);
	ucx_devices_release(&d);
}

static void fi_info_outputs(void **state)
{
	struct fi_info f;

	(void)state;
	PARSE_FIXTURE(fi_info_parse, f, "fi_info_-p_efa__eks_g5_mpirun_tagged_output.txt", 0);
	assert_int_equal(f.n, 2);
	assert_int_equal(f.getinfo_error, 0);
	assert_int_equal(f.v[0].rank, 1);
	assert_int_equal(f.v[1].rank, 0);
	assert_string_equal(f.v[0].provider, "efa");
	assert_string_equal(f.v[0].fabric, "efa");
	assert_string_equal(f.v[0].domain, "rdmap197s0-rdm");
	assert_string_equal(f.v[0].version, "116.10");
	assert_string_equal(f.v[0].type, "FI_EP_RDM");
	assert_string_equal(f.v[1].protocol, "FI_PROTO_EFA");
	assert_true(fi_info_has_provider(&f, "efa"));
	assert_false(fi_info_has_provider(&f, "verbs"));
	fi_info_release(&f);

	PARSE_FIXTURE(fi_info_parse, f, "fi_info_-p_efa__fi_getinfo_-61_no_efa.txt", 0);
	assert_int_equal(f.n, 0);
	assert_int_equal(f.getinfo_error, -61);
	assert_true(f.no_data);
	fi_info_release(&f);
	PARSE_FIXTURE(fi_info_parse, f, "fi_info__fi_getinfo_-61_no_data_available_variant.txt", 0);
	assert_true(f.no_data);
	fi_info_release(&f);

	/* interleaved ranks; untagged block */
	PARSE_STR(fi_info_parse, f,
		  "[1,0]<stdout>:provider: efa\n[1,1]<stdout>:provider: efa\n"
		  "[1,0]<stdout>:    domain: a-rdm\n[1,1]<stdout>:    domain: b-rdm\n"
		  "provider: shm\r\n    fabric: shm\r\n",
		  0);
	assert_int_equal(f.n, 3);
	assert_string_equal(f.v[0].domain, "a-rdm");
	assert_string_equal(f.v[1].domain, "b-rdm");
	assert_int_equal(f.v[2].rank, -1);
	assert_string_equal(f.v[2].fabric, "shm");
	fi_info_release(&f);
	PARSE_STR(fi_info_parse, f, "", -1);
	fi_info_release(&f);
	PARSE_STR(fi_info_parse, f, "[1,0]<stdout>", -1);
	fi_info_release(&f);
}

static void pip_metadata(void **state)
{
	struct pip_meta m;

	(void)state;
	PARSE_STR(pip_meta_parse, m,
		  "Metadata-Version: 2.1\r\nName: nixl\r\nVersion: 0.7.1\r\n"
		  "Summary: NIXL Python API\r\nRequires-Python: >=3.9\r\n"
		  "Requires-Dist: torch\r\nRequires-Dist: numpy; extra == \"x\"\r\n"
		  "Description-Content-Type: text/markdown\r\n\r\n"
		  "# NIXL\r\nName: not-a-header\r\n",
		  0);
	assert_string_equal(m.name, "nixl");
	assert_string_equal(m.version, "0.7.1");
	assert_string_equal(m.summary, "NIXL Python API");
	assert_string_equal(m.requires_python, ">=3.9");
	assert_int_equal(m.nrequires, 2);
	assert_string_equal(m.requires_dist[1], "numpy; extra == \"x\"");
	pip_meta_release(&m);
	PARSE_STR(pip_meta_parse, m,
		  "Name: nixl-cu12\nVersion: 0.6.0\nLicense: Apache-2.0\n"
		  "        continued license text\n",
		  0);
	assert_string_equal(m.name, "nixl-cu12");
	pip_meta_release(&m);
	PARSE_STR(pip_meta_parse, m, "Name: nixl\n", -1);
	assert_string_equal(m.name, "nixl");
	pip_meta_release(&m);
	PARSE_STR(pip_meta_parse, m, "", -1);
	pip_meta_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ucx_v_1_16),
		cmocka_unit_test(ucx_v_1_13_debian),
		cmocka_unit_test(ucx_v_synthetic),
		cmocka_unit_test(ucx_d_cx6_no_gpudirect),
		cmocka_unit_test(ucx_d_debug_log_interleaved),
		cmocka_unit_test(ucx_d_synthetic),
		cmocka_unit_test(ucx_pwe_not_a_listing),
		cmocka_unit_test(fi_info_outputs),
		cmocka_unit_test(pip_metadata),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
