/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/smi_csv.h"
#include "parse/smi_error.h"
#include "parse/smi_nvlink.h"
#include "parse/smi_query.h"

static void nvlink_a100(void **state)
{
	struct smi_nvlink n;
	size_t i;

	(void)state;
	PARSE_FIXTURE(smi_nvlink_parse, n,
		      "nvidia-smi_nvlink_--status__a100_sxm4_12links_25GBs.txt", 0);
	assert_int_equal(n.ngpus, 8);
	for (i = 0; i < n.ngpus; i++) {
		assert_int_equal(n.gpus[i].index, (int)i);
		assert_int_equal(n.gpus[i].nlinks, 12);
		assert_true(n.gpus[i].links[11].gbps == 25.0);
	}
	assert_string_equal(n.gpus[0].name, "NVIDIA A100-SXM4-80GB");
	assert_string_equal(n.gpus[0].uuid, "GPU-5269b708-678a-b1a8-60f0-c90406537486");
	assert_int_equal(smi_nvlink_count_active(&n), 96);
	assert_int_equal(smi_nvlink_count_inactive(&n), 0);
	smi_nvlink_release(&n);
}

static void nvlink_h100_and_gb200(void **state)
{
	struct smi_nvlink n;

	(void)state;
	PARSE_FIXTURE(smi_nvlink_parse, n,
		      "nvidia-smi_nvlink_--status__h100_gpu0_18links_26.562GBs.txt", 0);
	assert_int_equal(n.ngpus, 1);
	assert_int_equal(n.gpus[0].nlinks, 18);
	assert_int_equal(n.gpus[0].links[17].num, 17);
	assert_true(n.gpus[0].links[0].gbps > 26.56 && n.gpus[0].links[0].gbps < 26.57);
	assert_string_equal(n.gpus[0].name, "NVIDIA H100 80GB HBM3");
	smi_nvlink_release(&n);

	PARSE_FIXTURE(smi_nvlink_parse, n, "nvidia-smi_nvlink_-s__gb200_18links_53.125GBs.txt", 0);
	assert_int_equal(n.ngpus, 2);
	assert_int_equal(n.gpus[0].nlinks, 18);
	assert_int_equal(n.gpus[1].nlinks, 2); /* the poster cut it with "..." */
	assert_true(n.gpus[1].links[1].gbps == 53.125);
	assert_string_equal(n.gpus[1].name, "NVIDIA GB200");
	assert_int_equal(smi_nvlink_count_active(&n), 20);
	smi_nvlink_release(&n);
}

static void nvlink_empty_and_inactive(void **state)
{
	struct smi_nvlink n;

	(void)state;
	PARSE_FIXTURE(smi_nvlink_parse, n, "nvidia-smi_nvlink_--status__a10_empty_no_nvlink.txt",
		      0);
	assert_true(n.empty);
	assert_int_equal(n.ngpus, 0);
	smi_nvlink_release(&n);

	PARSE_FIXTURE(smi_nvlink_parse, n, "nvidia-smi_nvlink_-s__h100_pcie_nhc_inactive_links.txt",
		      0);
	assert_int_equal(n.ngpus, 1);
	assert_int_equal(n.gpus[0].index, -1);
	assert_int_equal(n.gpus[0].nlinks, 5);
	assert_int_equal(n.gpus[0].links[0].num, 4);
	assert_int_equal(n.gpus[0].links[4].num, 16);
	assert_int_equal(smi_nvlink_count_inactive(&n), 5);
	assert_int_equal(smi_nvlink_count_active(&n), 0);
	smi_nvlink_release(&n);

	PARSE_STR(smi_nvlink_parse, n,
		  "GPU 3: NVIDIA H100 (UUID: GPU-x)\r\n\t Link 0: <inactive>\r\n"
		  "\t Link 1: \x1b[32m26.562 GB/s\x1b[0m\r\n\t Link 2: N/A",
		  0);
	assert_int_equal(n.gpus[0].index, 3);
	assert_false(n.gpus[0].links[0].active);
	assert_true(n.gpus[0].links[1].active);
	assert_false(n.gpus[0].links[2].active);
	smi_nvlink_release(&n);
	PARSE_STR(smi_nvlink_parse, n,
		  "Failed to initialize NVML: Driver/library version mismatch\n", -1);
	smi_nvlink_release(&n);
}

static void query_h100_fabric_completed(void **state)
{
	struct smi_query q;
	size_t i;

	(void)state;
	PARSE_FIXTURE(smi_query_parse, q,
		      "nvidia-smi_-q__h100_535.183.01_fabric_completed_success.txt", 0);
	assert_string_equal(q.driver_version, "535.183.01");
	assert_string_equal(q.cuda_version, "12.2");
	assert_int_equal(q.attached_gpus, 8);
	assert_int_equal(q.ngpus, 8);
	assert_string_equal(q.gpus[0].bus_id, "00000000:53:00.0");
	assert_string_equal(q.gpus[7].bus_id, "00000000:CA:00.0");
	assert_string_equal(q.gpus[0].uuid, "GPU-566e6f65-c38e-b12f-4824-6944218668b9");
	for (i = 0; i < q.ngpus; i++) {
		assert_string_equal(q.gpus[i].product_name, "NVIDIA H100 80GB HBM3");
		assert_true(q.gpus[i].fabric.present);
		assert_string_equal(q.gpus[i].fabric.state, "Completed");
		assert_string_equal(q.gpus[i].fabric.status, "Success");
		assert_null(q.gpus[i].fabric.clique_id);
		assert_true(smi_fabric_completed(&q.gpus[i].fabric));
		assert_true(smi_fabric_no_cluster(&q.gpus[i].fabric));
		/* MIG Mode and PCI > GPU Link Info > Link Width */
		assert_string_equal(q.gpus[i].mig_current, "Disabled");
		assert_false(smi_gpu_mig_enabled(&q.gpus[i]));
		assert_int_equal(q.gpus[i].link_width_max, 16);
		assert_int_equal(q.gpus[i].link_width_cur, 16);
	}
	smi_query_release(&q);
}

static void query_mig_and_narrow_link(void **state)
{
	struct smi_query q;

	(void)state;
	/* the shape of the real H100 output, with MIG on and a x8 link */
	PARSE_STR(smi_query_parse, q,
		  "==============NVSMI LOG==============\n\n"
		  "GPU 00000000:53:00.0\n"
		  "    Product Name                          : NVIDIA H100 80GB HBM3\n"
		  "    MIG Mode\n"
		  "        Current                           : Enabled\n"
		  "        Pending                           : Enabled\n"
		  "    PCI\n"
		  "        Bus                               : 0x53\n"
		  "        GPU Link Info\n"
		  "            PCIe Generation\n"
		  "                Max                       : 5\n"
		  "                Current                   : 1\n"
		  "            Link Width\n"
		  "                Max                       : 16x\n"
		  "                Current                   : 8x\n"
		  "        Bridge Chip\n"
		  "            Type                          : N/A\n",
		  0);
	assert_int_equal(q.ngpus, 1);
	assert_true(smi_gpu_mig_enabled(&q.gpus[0]));
	assert_int_equal(q.gpus[0].link_width_max, 16);
	assert_int_equal(q.gpus[0].link_width_cur, 8);
	smi_query_release(&q);
}

static void query_titanv_na(void **state)
{
	struct smi_query q;
	const struct smi_fabric *f;

	(void)state;
	PARSE_FIXTURE(smi_query_parse, q,
		      "nvidia-smi_-q__titanv_560.35.03_fabric_na_cliqueid_clusteruuid.txt", 0);
	assert_string_equal(q.driver_version, "560.35.03");
	assert_string_equal(q.cuda_version, "12.6");
	assert_int_equal(q.attached_gpus, 1);
	assert_int_equal(q.ngpus, 1);
	assert_string_equal(q.gpus[0].product_name, "NVIDIA TITAN V");
	assert_string_equal(q.gpus[0].uuid, "GPU-f4c353ff-b56c-c1de-bcb9-7dad861b589a");
	f = &q.gpus[0].fabric;
	assert_true(f->present);
	assert_string_equal(f->state, "N/A");
	assert_string_equal(f->clique_id, "N/A");
	assert_string_equal(f->cluster_uuid, "N/A");
	assert_string_equal(f->health_bandwidth, "N/A");
	assert_null(f->health_summary);
	assert_false(smi_fabric_completed(f));
	assert_true(smi_fabric_no_cluster(f));
	assert_true(smi_is_na(f->state));
	smi_query_release(&q);
}

static void query_gb200_grep_excerpt(void **state)
{
	struct smi_query q;
	const struct smi_fabric *f;

	(void)state;
	PARSE_FIXTURE(smi_query_parse, q,
		      "nvidia-smi_-q_fabric__gb200_completed_unhealthy_clique2_grepC3.txt", 0);
	assert_null(q.driver_version);
	assert_int_equal(q.ngpus, 1);
	assert_null(q.gpus[0].bus_id);
	f = &q.gpus[0].fabric;
	assert_string_equal(f->state, "Completed");
	assert_string_equal(f->status, "Success");
	assert_string_equal(f->clique_id, "2");
	assert_string_equal(f->cluster_uuid, "dc6e40c4-d722-4357-9ba6-5291dd461278");
	assert_string_equal(f->health_summary, "Unhealthy");
	assert_string_equal(f->health_bandwidth, "Full");
	assert_true(smi_fabric_completed(f));
	assert_false(smi_fabric_no_cluster(f));
	smi_query_release(&q);
}

static void query_edge(void **state)
{
	struct smi_query q;

	(void)state;
	PARSE_STR(smi_query_parse, q, "", -1);
	smi_query_release(&q);
	PARSE_STR(smi_query_parse, q, "bash: nvidia-smi: command not found\n", -1);
	smi_query_release(&q);
	PARSE_STR(smi_query_parse, q,
		  "Driver Version : 570.1\r\nGPU 00000000:01:00.0\r\n"
		  "    Product Name : X\r\n    Fabric\r\n        State : In Progress\r\n"
		  "        ClusterUUID : 00000000-0000-0000-0000-000000000000\r\n"
		  "    Clocks Event Reasons\r\n        State : Active\r\n",
		  0);
	assert_int_equal(q.ngpus, 1);
	assert_string_equal(q.gpus[0].fabric.state, "In Progress");
	assert_true(smi_fabric_no_cluster(&q.gpus[0].fabric));
	assert_false(smi_fabric_completed(&q.gpus[0].fabric));
	smi_query_release(&q);
	/* the value column cut off mid-line */
	PARSE_STR(smi_query_parse, q, "    Fabric\n        State  :", 0);
	assert_string_equal(q.gpus[0].fabric.state, "");
	smi_query_release(&q);
}

static void csv_outputs(void **state)
{
	struct smi_csv c;
	double d;

	(void)state;
	PARSE_FIXTURE(smi_csv_parse, c,
		      "nvidia-smi_--query-gpu__h100nvl_name_deviceid_csv_noheader.txt", 0);
	assert_int_equal(c.nrows, 1);
	assert_int_equal(c.header.nfields, 0);
	assert_string_equal(smi_csv_field(&c, 0, 0), "NVIDIA H100 NVL");
	assert_string_equal(smi_csv_field(&c, 0, 1), "0x232110DE");
	assert_null(smi_csv_field(&c, 0, 2));
	assert_null(smi_csv_field(&c, 1, 0));
	smi_csv_release(&c);

	PARSE_FIXTURE(smi_csv_parse, c,
		      "nvidia-smi_--query-gpu__rtx2080_many_fields_csv_noheader_nounits.txt", 0);
	assert_int_equal(c.nrows, 1);
	assert_int_equal(c.rows[0].nfields, 19);
	assert_string_equal(smi_csv_field(&c, 0, 6), "GeForce RTX 2080");
	assert_string_equal(smi_csv_field(&c, 0, 5), "440.64");
	assert_string_equal(smi_csv_field(&c, 0, 10), "N/A");
	assert_true(smi_is_na(smi_csv_field(&c, 0, 10)));
	assert_false(smi_csv_number(smi_csv_field(&c, 0, 10), &d));
	assert_true(smi_csv_number(smi_csv_field(&c, 0, 3), &d));
	assert_true(d == 7979.0);
	assert_string_equal(smi_csv_field(&c, 0, 18), "P2");
	smi_csv_release(&c);

	PARSE_STR(smi_csv_parse, c,
		  "name, memory.total [MiB]\r\nNVIDIA A100, 81920 MiB\r\nNVIDIA A100, 81920 MiB",
		  0);
	assert_int_equal(c.header.nfields, 2);
	assert_string_equal(c.header.fields[1], "memory.total [MiB]");
	assert_int_equal(c.nrows, 2);
	assert_true(smi_csv_number(smi_csv_field(&c, 1, 1), &d) && d == 81920.0);
	smi_csv_release(&c);
	PARSE_STR(smi_csv_parse, c, "", -1);
	smi_csv_release(&c);
	PARSE_STR(smi_csv_parse, c, "sh: 1: nvidia-smi: not found\n", -1);
	smi_csv_release(&c);
}

static enum smi_error classify_fixture(const char *name)
{
	size_t len;
	char *b = fixture_body(name, &len);
	enum smi_error e = smi_error_classify(b, len);

	free(b);
	return e;
}

static void error_outputs(void **state)
{
	(void)state;
	assert_int_equal(classify_fixture("nvidia-smi__command_not_found_container.txt"),
			 SMI_MISSING_TOOL);
	assert_int_equal(classify_fixture("nvidia-smi__sh_1_not_found_pod_logs.txt"),
			 SMI_MISSING_TOOL);
	assert_int_equal(classify_fixture("docker_run__oci_create_nvidia-smi_not_in_path.txt"),
			 SMI_MISSING_TOOL);
	assert_int_equal(classify_fixture("nvidia-smi__couldnt_find_libnvidia-ml.txt"),
			 SMI_LIBRARY_MISSING);
	assert_int_equal(
		classify_fixture(
			"nvidia-smi_-q__titanv_560.35.03_fabric_na_cliqueid_clusteruuid.txt"),
		SMI_OK);
	assert_int_equal(
		classify_fixture("nvidia-smi_topo_-m__h100_8gpu_nv18_8nic_legend_spaces.txt"),
		SMI_OK);
	assert_int_equal(
		smi_error_classify(
			"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure...",
			80),
		SMI_DRIVER_FAILED);
	assert_int_equal(smi_error_classify("No devices were found\n", 22), SMI_NO_DEVICES);
	assert_int_equal(
		smi_error_classify("Failed to initialize NVML: Driver/library version mismatch\n",
				   59),
		SMI_DRIVER_MISMATCH);
	assert_int_equal(smi_error_classify("", 0), SMI_OK);
	assert_string_equal(smi_error_name(SMI_LIBRARY_MISSING), "library-missing");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nvlink_a100),
		cmocka_unit_test(nvlink_h100_and_gb200),
		cmocka_unit_test(nvlink_empty_and_inactive),
		cmocka_unit_test(query_h100_fabric_completed),
		cmocka_unit_test(query_mig_and_narrow_link),
		cmocka_unit_test(query_titanv_na),
		cmocka_unit_test(query_gb200_grep_excerpt),
		cmocka_unit_test(query_edge),
		cmocka_unit_test(csv_outputs),
		cmocka_unit_test(error_outputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
