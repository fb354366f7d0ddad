/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/ibstat.h"
#include "parse/ibstatus.h"

static void ibstat_h100_all_active(void **state)
{
	struct ibstat s;
	const struct ibstat_ca *ca;
	size_t i, eth = 0;

	(void)state;
	PARSE_FIXTURE(ibstat_parse, s, "ibstat__h100_ndr_ib_plus_eth_all_active.txt", 0);
	assert_int_equal(s.ncas, 9);
	assert_false(s.panic);
	ca = ibstat_find(&s, "mlx5_0");
	assert_non_null(ca);
	assert_string_equal(ca->ca_type, "MT4129");
	assert_string_equal(ca->fw_ver, "28.41.1000");
	assert_int_equal(ca->nports_declared, 1);
	assert_true(ca->node_guid == 0x58a2e10300a7820eULL);
	assert_int_equal(ca->nports, 1);
	assert_int_equal(ca->ports[0].num, 1);
	assert_int_equal(ca->ports[0].state, IB_STATE_ACTIVE);
	assert_int_equal(ca->ports[0].phys_state, IB_PHYS_LINKUP);
	assert_true(ca->ports[0].rate_gbps == 400.0);
	assert_int_equal(ca->ports[0].base_lid, 128);
	assert_int_equal(ca->ports[0].sm_lid, 1);
	assert_true(ca->ports[0].port_guid == 0x58a2e10300a7820eULL);
	assert_int_equal(ca->ports[0].link_layer, IB_LL_INFINIBAND);
	assert_string_equal(ca->ports[0].state_text, "Active");
	for (i = 0; i < s.ncas; i++) {
		assert_int_equal(s.cas[i].nports, 1);
		assert_int_equal(s.cas[i].ports[0].state, IB_STATE_ACTIVE);
		eth += s.cas[i].ports[0].link_layer == IB_LL_ETHERNET;
	}
	assert_int_equal(eth, 1);
	assert_null(ibstat_find(&s, "mlx5_2"));
	ibstat_release(&s);
}

static void ibstat_h100_some_down(void **state)
{
	struct ibstat s;
	const struct ibstat_ca *ca;
	size_t i, down = 0, ib_active = 0;

	(void)state;
	PARSE_FIXTURE(ibstat_parse, s, "ibstat__h100_ib_some_down_disabled.txt", 0);
	assert_int_equal(s.ncas, 12);
	for (i = 0; i < s.ncas; i++) {
		const struct ibstat_port *p = &s.cas[i].ports[0];
		if (p->state == IB_STATE_DOWN) {
			down++;
			assert_int_equal(p->phys_state, IB_PHYS_DISABLED);
			assert_true(p->rate_gbps == 40.0);
		}
		if (p->state == IB_STATE_ACTIVE && p->link_layer == IB_LL_INFINIBAND)
			ib_active++;
	}
	assert_int_equal(down, 3);
	assert_int_equal(ib_active, 8);
	ca = ibstat_find(&s, "mlx5_7");
	assert_non_null(ca);
	assert_int_equal(ca->ports[0].state, IB_STATE_DOWN);
	assert_int_equal(ca->ports[0].link_layer, IB_LL_ETHERNET);
	ca = ibstat_find(&s, "mlx5_1");
	assert_string_equal(ca->ca_type, "MT4125");
	assert_true(ca->ports[0].rate_gbps == 100.0);
	ibstat_release(&s);
}

static void ibstat_a100_ib_plus_roce(void **state)
{
	struct ibstat s;
	const struct ibstat_ca *ca;

	(void)state;
	PARSE_FIXTURE(ibstat_parse, s, "ibstat__a100_hdr_ib_plus_roce_all_active.txt", 0);
	assert_int_equal(s.ncas, 9);
	ca = ibstat_find(&s, "mlx5_0");
	assert_int_equal(ca->ports[0].link_layer, IB_LL_ETHERNET);
	assert_int_equal(ca->ports[0].base_lid, 0);
	assert_string_equal(ca->ca_type, "MT4126");
	ca = ibstat_find(&s, "mlx5_1");
	assert_int_equal(ca->ports[0].link_layer, IB_LL_INFINIBAND);
	assert_int_equal(ca->ports[0].base_lid, 1369);
	assert_int_equal(ca->ports[0].sm_lid, 83);
	assert_true(ca->ports[0].rate_gbps == 200.0);
	ca = ibstat_find(&s, "mlx5_8");
	assert_non_null(ca);
	assert_int_equal(ca->ports[0].base_lid, 1396);
	ibstat_release(&s);
}

static void ibstat_ibpanic_after_devices(void **state)
{
	struct ibstat s;

	(void)state;
	PARSE_FIXTURE(ibstat_parse, s, "ibstat__a100_hdr_ibpanic_exit255.txt", 0);
	assert_int_equal(s.ncas, 8);
	assert_true(s.panic);
	assert_string_equal(s.panic_device, "mlx5_8");
	assert_non_null(strstr(s.panic_msg, "No such file or directory"));
	assert_int_equal(s.cas[7].ports[0].base_lid, 13305);
	assert_string_equal(s.cas[0].ca_type, "MT4124");
	assert_int_equal(s.cas[0].ports[0].base_lid, 13247);
	ibstat_release(&s);
}

static void ibstat_ibpanic_only(void **state)
{
	struct ibstat s;

	(void)state;
	PARSE_FIXTURE(ibstat_parse, s, "ibstat__azure_ibpanic_mlx5_an0_accelerated_networking.txt",
		      0);
	assert_int_equal(s.ncas, 0);
	assert_true(s.panic);
	assert_false(s.empty);
	assert_string_equal(s.panic_device, "mlx5_an0");
	ibstat_release(&s);
}

static void ibstat_edge_cases(void **state)
{
	struct ibstat s;
	const char *crlf_noindent =
		"CA 'mlx5_3'\r\nCA type: MT4129\r\nPort 1:\r\nState: Polling\r\n"
		"Physical state: Polling\r\nRate: 10\r\nLink layer: InfiniBand";
	const char *ansi = "\x1b[1mCA 'mlx5_0'\x1b[0m\n\tPort 1:\n\t\tState: \x1b[31mDown\x1b[0m\n";
	const char *trunc = "CA 'mlx5_0'\n\tCA type: MT41\n\tPort 1:\n\t\tState: Act";

	(void)state;
	PARSE_STR(ibstat_parse, s, "", 0);
	assert_true(s.empty);
	ibstat_release(&s);
	PARSE_STR(ibstat_parse, s, "  \n\n", 0);
	assert_true(s.empty);
	ibstat_release(&s);
	PARSE_STR(ibstat_parse, s, "hello world\n", -1);
	ibstat_release(&s);
	PARSE_STR(ibstat_parse, s, crlf_noindent, 0);
	assert_int_equal(s.ncas, 1);
	assert_string_equal(s.cas[0].ca_type, "MT4129");
	assert_int_equal(s.cas[0].ports[0].state, IB_STATE_UNKNOWN);
	assert_int_equal(s.cas[0].ports[0].phys_state, IB_PHYS_POLLING);
	assert_true(s.cas[0].ports[0].rate_gbps == 10.0);
	ibstat_release(&s);
	PARSE_STR(ibstat_parse, s, ansi, 0);
	assert_string_equal(s.cas[0].name, "mlx5_0");
	assert_int_equal(s.cas[0].ports[0].state, IB_STATE_DOWN);
	ibstat_release(&s);
	PARSE_STR(ibstat_parse, s, trunc, 0);
	assert_int_equal(s.cas[0].nports, 1);
	assert_int_equal(s.cas[0].ports[0].state, IB_STATE_UNKNOWN);
	assert_string_equal(s.cas[0].ports[0].state_text, "Act");
	ibstat_release(&s);
	/* NUL bytes inside the output are dropped */
	assert_int_equal(ibstat_parse("CA 'ml\0x5_9'\n", 13, &s), 0);
	assert_string_equal(s.cas[0].name, "mlx5_9");
	ibstat_release(&s);
}

static void ibstatus_a100(void **state)
{
	struct ibstatus s;
	size_t i;

	(void)state;
	PARSE_FIXTURE(ibstatus_parse, s, "ibstatus__a100_hdr_all_active.txt", 0);
	assert_int_equal(s.nports, 9);
	assert_string_equal(s.ports[0].device, "mlx5_0");
	assert_int_equal(s.ports[0].port, 1);
	assert_string_equal(s.ports[0].default_gid, "fe80:0000:0000:0000:0015:5dff:fd34:11eb");
	assert_int_equal(s.ports[0].base_lid, 0x33bf);
	assert_int_equal(s.ports[0].sm_lid, 1);
	assert_int_equal(s.ports[0].state, IB_STATE_ACTIVE);
	assert_int_equal(s.ports[0].phys_state, IB_PHYS_LINKUP);
	assert_true(s.ports[0].rate.gbps == 200.0);
	assert_int_equal(s.ports[0].rate.width, 4);
	assert_string_equal(s.ports[0].rate.speed, "HDR");
	assert_int_equal(s.ports[0].link_layer, IB_LL_INFINIBAND);
	for (i = 0; i < 8; i++)
		assert_false(s.ports[i].gid_unknown);
	assert_string_equal(s.ports[8].device, "mlx5_8");
	assert_true(s.ports[8].gid_unknown);
	assert_int_equal(s.ports[8].base_lid, 0);
	assert_int_equal(s.ports[8].link_layer, IB_LL_ETHERNET);
	assert_true(s.ports[8].rate.gbps == 40.0);
	ibstatus_release(&s);
}

static void ibstatus_edge(void **state)
{
	struct ibstatus s;

	(void)state;
	PARSE_STR(ibstatus_parse, s, "", 0);
	assert_true(s.empty);
	ibstatus_release(&s);
	PARSE_STR(ibstatus_parse, s, "garbage: 1\n", -1);
	ibstatus_release(&s);
	PARSE_STR(ibstatus_parse, s,
		  "Infiniband device 'mlx5_4' port 2 status:\r\nstate: 1: DOWN\r\n"
		  "phys state: 3: Disabled\r\nrate: 10 Gb/sec (4X SDR)",
		  0);
	assert_int_equal(s.nports, 1);
	assert_int_equal(s.ports[0].port, 2);
	assert_int_equal(s.ports[0].state, IB_STATE_DOWN);
	assert_int_equal(s.ports[0].phys_state, IB_PHYS_DISABLED);
	assert_string_equal(s.ports[0].rate.speed, "SDR");
	ibstatus_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ibstat_h100_all_active),
		cmocka_unit_test(ibstat_h100_some_down),
		cmocka_unit_test(ibstat_a100_ib_plus_roce),
		cmocka_unit_test(ibstat_ibpanic_after_devices),
		cmocka_unit_test(ibstat_ibpanic_only),
		cmocka_unit_test(ibstat_edge_cases),
		cmocka_unit_test(ibstatus_a100),
		cmocka_unit_test(ibstatus_edge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
