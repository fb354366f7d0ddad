/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/smi_p2p.h"
#include "parse/smi_topo.h"

static void topo_h100_8nic_spaces(void **state)
{
	struct smi_topo t;
	enum topo_link k;
	int i, nic;
	struct topo_cell c;

	(void)state;
	PARSE_FIXTURE(smi_topo_parse, t,
		      "nvidia-smi_topo_-m__h100_8gpu_nv18_8nic_legend_spaces.txt", 0);
	assert_int_equal(t.ndevs, 16);
	assert_int_equal(t.ngpus, 8);
	assert_int_equal(t.nnics, 8);
	assert_int_equal(t.nrows, 16);
	assert_string_equal(t.devs[0].name, "GPU0");
	assert_int_equal(t.devs[0].type, TOPO_DEV_GPU);
	assert_string_equal(t.devs[8].name, "NIC0");
	assert_int_equal(t.devs[8].type, TOPO_DEV_NIC);
	assert_string_equal(t.devs[8].nic_device, "mlx5_0");
	assert_string_equal(t.devs[15].nic_device, "mlx5_7");
	assert_string_equal(t.devs[0].cpu_affinity, "0-47,96-143");
	assert_string_equal(t.devs[0].numa_affinity, "0");
	assert_string_equal(t.devs[0].gpu_numa_id, "N/A");
	assert_string_equal(t.devs[7].cpu_affinity, "48-95,144-191");
	assert_string_equal(t.devs[7].numa_affinity, "1");
	assert_null(t.devs[8].cpu_affinity);
	c = smi_topo_cell(&t, 0, 0);
	assert_int_equal(c.kind, TOPO_SELF);
	c = smi_topo_cell(&t, 0, 1);
	assert_int_equal(c.kind, TOPO_NV);
	assert_int_equal(c.nvlinks, 18);
	assert_int_equal(smi_topo_cell(&t, 15, 15).kind, TOPO_SELF);
	assert_int_equal(smi_topo_cell(&t, 0, 12).kind, TOPO_SYS);
	assert_int_equal(smi_topo_cell(&t, 99, 0).kind, TOPO_UNKNOWN);
	assert_int_equal(smi_topo_nvlinks(&t, 2, 5), 18);
	assert_int_equal(smi_topo_nvlinks(&t, 2, 2), 0);
	assert_int_equal(smi_topo_min_nvlinks(&t), 18);
	for (i = 0; i < 8; i++) {
		nic = smi_topo_best_nic(&t, i, &k);
		assert_int_equal(k, TOPO_PIX);
		assert_int_equal(t.devs[nic].index, i);
	}
	assert_int_equal(smi_topo_find(&t, "mlx5_3"), 11);
	assert_int_equal(smi_topo_find(&t, "NIC3"), 11);
	assert_int_equal(smi_topo_find(&t, "mlx5_9"), -1);
	smi_topo_release(&t);
}

static void topo_h100_no_nic(void **state)
{
	struct smi_topo t;
	enum topo_link k;

	(void)state;
	PARSE_FIXTURE(smi_topo_parse, t, "nvidia-smi_topo_-m__h100_8gpu_nv18_no_nic_spaces.txt", 0);
	assert_int_equal(t.ngpus, 8);
	assert_int_equal(t.nnics, 0);
	assert_int_equal(smi_topo_min_nvlinks(&t), 18);
	assert_int_equal(smi_topo_best_nic(&t, 0, &k), -1);
	assert_string_equal(t.devs[4].cpu_affinity, "48-95,144-191");
	assert_string_equal(t.devs[4].gpu_numa_id, "N/A");
	smi_topo_release(&t);
}

static void topo_della_empty_affinity(void **state)
{
	struct smi_topo t;
	enum topo_link k;
	int nic;

	(void)state;
	PARSE_FIXTURE(smi_topo_parse, t,
		      "nvidia-smi_topo_-m__h100_della_tabs_empty_cpu_affinity.txt", 0);
	assert_int_equal(t.ngpus, 8);
	assert_int_equal(t.nnics, 6);
	assert_int_equal(t.nrows, 14);
	assert_null(t.devs[0].cpu_affinity);
	assert_string_equal(t.devs[0].numa_affinity, "0");
	assert_string_equal(t.devs[0].gpu_numa_id, "N/A");
	assert_string_equal(t.devs[4].cpu_affinity, "1");
	assert_string_equal(t.devs[4].numa_affinity, "1");
	assert_string_equal(t.devs[13].nic_device, "mlx5_5");
	nic = smi_topo_best_nic(&t, 0, &k);
	assert_string_equal(t.devs[nic].name, "NIC0");
	assert_int_equal(k, TOPO_PIX);
	nic = smi_topo_best_nic(&t, 1, &k);
	assert_int_equal(k, TOPO_NODE);
	nic = smi_topo_best_nic(&t, 3, &k);
	assert_string_equal(t.devs[nic].nic_device, "mlx5_2");
	assert_int_equal(k, TOPO_PIX);
	nic = smi_topo_best_nic(&t, 6, &k);
	assert_string_equal(t.devs[nic].nic_device, "mlx5_5");
	assert_int_equal(smi_topo_min_nvlinks(&t), 18);
	smi_topo_release(&t);
}

static void topo_pcie_only(void **state)
{
	struct smi_topo t;

	(void)state;
	PARSE_FIXTURE(smi_topo_parse, t, "nvidia-smi_topo_-m__8gpu_pcie_only_sys_no_nic_tabs.txt",
		      0);
	assert_int_equal(t.ngpus, 8);
	assert_int_equal(t.nnics, 0);
	assert_int_equal(smi_topo_min_nvlinks(&t), 0);
	assert_int_equal(smi_topo_nvlinks(&t, 0, 1), 0);
	assert_int_equal(smi_topo_cell(&t, 3, 6).kind, TOPO_SYS);
	assert_string_equal(t.devs[5].cpu_affinity, "16-31,48-63");
	assert_string_equal(t.devs[5].numa_affinity, "1");
	assert_string_equal(t.devs[5].gpu_numa_id, "N/A");
	smi_topo_release(&t);
}

static void topo_rtx_phb_with_p2p_after(void **state)
{
	struct smi_topo t;

	(void)state;
	PARSE_FIXTURE(smi_topo_parse, t,
		      "nvidia-smi_topo_-m__2x_rtx5090_phb_and_p2p_matrix_tabs.txt", 0);
	assert_int_equal(t.ngpus, 2);
	assert_int_equal(t.nrows, 2); /* the -p2p matrix after it is not read */
	assert_int_equal(smi_topo_cell(&t, 0, 1).kind, TOPO_PHB);
	assert_int_equal(smi_topo_cell(&t, 1, 0).kind, TOPO_PHB);
	assert_string_equal(t.devs[1].cpu_affinity, "0-63");
	assert_string_equal(t.devs[1].gpu_numa_id, "N/A");
	assert_int_equal(smi_topo_min_nvlinks(&t), 0);
	smi_topo_release(&t);
}

static void topo_edge(void **state)
{
	struct smi_topo t;
	enum topo_link k;
	int nic;
	/* old driver: NIC columns named after the device; ANSI; CRLF */
	const char *old = "\x1b[4m\tGPU0\tGPU1\tmlx5_0\tmlx5_1\tCPU Affinity\x1b[0m\r\n"
			  "GPU0\t X \tNV2\tPXB\tSOC\t0-11\r\n"
			  "GPU1\tNV2\t X \tSOC\tPIX\t0-11\r\n"
			  "mlx5_0\tPXB\tSOC\t X \tSOC\r\n";
	/* a paste that lost all indentation */
	const char *flat = "GPU0 GPU1 CPU Affinity\nGPU0 X NV4 0-7\nGPU1 NV4 X 0-7\n";

	(void)state;
	PARSE_STR(smi_topo_parse, t, old, 0);
	assert_int_equal(t.ngpus, 2);
	assert_int_equal(t.nnics, 2);
	assert_string_equal(t.devs[2].nic_device, "mlx5_0");
	assert_int_equal(smi_topo_nvlinks(&t, 0, 1), 2);
	nic = smi_topo_best_nic(&t, 1, &k);
	assert_string_equal(t.devs[nic].name, "mlx5_1");
	assert_int_equal(k, TOPO_PIX);
	nic = smi_topo_best_nic(&t, 0, &k);
	assert_string_equal(t.devs[nic].name, "mlx5_0");
	assert_int_equal(k, TOPO_PXB);
	assert_string_equal(t.devs[0].cpu_affinity, "0-11");
	smi_topo_release(&t);

	PARSE_STR(smi_topo_parse, t, flat, 0);
	assert_int_equal(t.ngpus, 2);
	assert_int_equal(smi_topo_min_nvlinks(&t), 4);
	smi_topo_release(&t);

	PARSE_STR(smi_topo_parse, t, "", -1);
	smi_topo_release(&t);
	PARSE_STR(smi_topo_parse, t, "GPU0 X NV4\n", -1);
	smi_topo_release(&t);
	/* truncated in the middle of a row */
	PARSE_STR(smi_topo_parse, t, "\tGPU0\tGPU1\tGPU2\nGPU0\t X \tNV1", 0);
	assert_int_equal(smi_topo_cell(&t, 0, 1).nvlinks, 1);
	assert_int_equal(smi_topo_cell(&t, 0, 2).kind, TOPO_UNKNOWN);
	assert_int_equal(smi_topo_min_nvlinks(&t), 0);
	smi_topo_release(&t);
	assert_int_equal(topo_cell_parse("NV18").nvlinks, 18);
	assert_int_equal(topo_cell_parse("NVX").kind, TOPO_UNKNOWN);
	assert_int_equal(topo_cell_parse("NV0").kind, TOPO_UNKNOWN);
	assert_string_equal(topo_link_name(TOPO_NODE), "NODE");
}

/* `topo -p2p rw` of the RTX 5090 fixture: GNS between the two GPUs. */
static void p2p_rtx_gns(void **state)
{
	struct smi_p2p p;
	size_t len;
	char *body =
		fixture_body("nvidia-smi_topo_-m__2x_rtx5090_phb_and_p2p_matrix_tabs.txt", &len);
	char *part;

	(void)state;
	part = fixture_part(body, 1, &len);
	assert_non_null(part);
	assert_int_equal(smi_p2p_parse(part, len, &p), 0);
	assert_int_equal(p.ngpus, 2);
	assert_int_equal(p.index[1], 1);
	assert_int_equal(p.cell[0][0], P2P_SELF);
	assert_int_equal(p.cell[0][1], P2P_GNS);
	assert_int_equal(p.cell[1][0], P2P_GNS);
	assert_true(p2p_status_blocked(P2P_GNS));
	assert_false(p2p_status_blocked(P2P_OK));
	smi_p2p_release(&p);
	free(part);
	free(body);

	PARSE_STR(smi_p2p_parse, p, " \tGPU0\tGPU1\t\n GPU0\tX\tNS\t\n GPU1\tOK\tX\t\n", 0);
	assert_int_equal(p.cell[0][1], P2P_NS);
	assert_int_equal(p.cell[1][0], P2P_OK);
	assert_string_equal(p2p_status_name(P2P_NS), "NS");
	smi_p2p_release(&p);
	PARSE_STR(smi_p2p_parse, p, "", -1);
	smi_p2p_release(&p);
	PARSE_STR(smi_p2p_parse, p, "GPU0 X OK\n", -1); /* no header */
	smi_p2p_release(&p);
	PARSE_STR(smi_p2p_parse, p, "\tGPU0\tGPU1\nGPU1\tOK\tX\nGPU7\tOK\tOK\nGPU0\tX", 0);
	assert_int_equal(p.cell[1][0], P2P_OK);
	assert_int_equal(p.cell[0][1], P2P_UNKNOWN); /* truncated row */
	smi_p2p_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(topo_h100_8nic_spaces),
		cmocka_unit_test(topo_h100_no_nic),
		cmocka_unit_test(topo_della_empty_affinity),
		cmocka_unit_test(topo_pcie_only),
		cmocka_unit_test(topo_rtx_phb_with_p2p_after),
		cmocka_unit_test(topo_edge),
		cmocka_unit_test(p2p_rtx_gns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
