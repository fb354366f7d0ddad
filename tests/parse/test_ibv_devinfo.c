/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/ibv_devinfo.h"

static void devinfo_h200_roce_bond(void **state)
{
	struct ibv_devinfo d;
	const struct ibv_device *dev;
	size_t i;

	(void)state;
	PARSE_FIXTURE(ibv_devinfo_parse, d, "ibv_devinfo__h200_cx7_roce_plus_bond_all_active.txt",
		      0);
	assert_int_equal(d.ndevs, 11);
	assert_false(d.no_devices);
	assert_int_equal(d.hcas_found, -1);
	dev = ibv_devinfo_find(&d, "mlx5_0");
	assert_non_null(dev);
	assert_string_equal(dev->transport, "InfiniBand (0)");
	assert_string_equal(dev->fw_ver, "28.42.1000");
	assert_string_equal(dev->node_guid, "e09d:7303:000d:1fc0");
	assert_string_equal(dev->board_id, "MT_0000000838");
	assert_int_equal(dev->vendor_part_id, 4129);
	assert_int_equal(dev->phys_port_cnt, 1);
	assert_int_equal(dev->nports, 1);
	assert_int_equal(dev->ports[0].state, IB_STATE_ACTIVE);
	assert_int_equal(dev->ports[0].max_mtu, 4096);
	assert_int_equal(dev->ports[0].link_layer, IB_LL_ETHERNET);
	for (i = 0; i < d.ndevs; i++) {
		assert_int_equal(d.devs[i].ports[0].state, IB_STATE_ACTIVE);
		assert_int_equal(d.devs[i].ports[0].link_layer, IB_LL_ETHERNET);
	}
	dev = ibv_devinfo_find(&d, "mlx5_bond_0");
	assert_non_null(dev);
	assert_int_equal(dev->vendor_part_id, 4127);
	assert_int_equal(dev->ports[0].active_mtu, 1024);
	assert_string_equal(d.devs[3].hca_id, "mlx5_10");
	ibv_devinfo_release(&d);
}

static void devinfo_vv_tabs(void **state)
{
	struct ibv_devinfo d;
	const struct ibv_device *dev;

	(void)state;
	PARSE_FIXTURE(ibv_devinfo_parse, d,
		      "ibv_devinfo_-vv__cx6_hdr_ib_active_and_disabled_tabs.txt", 0);
	assert_int_equal(d.ndevs, 2);
	dev = ibv_devinfo_find(&d, "mlx5_0");
	assert_int_equal(dev->vendor_part_id, 4123);
	assert_string_equal(dev->fw_ver, "20.37.1700");
	assert_int_equal(dev->nports, 1);
	assert_int_equal(dev->ports[0].state, IB_STATE_ACTIVE);
	assert_int_equal(dev->ports[0].phys_state, IB_PHYS_LINKUP);
	assert_int_equal(dev->ports[0].port_lid, 4);
	assert_int_equal(dev->ports[0].sm_lid, 1);
	assert_int_equal(dev->ports[0].link_layer, IB_LL_INFINIBAND);
	assert_string_equal(dev->ports[0].active_width, "4X (2)");
	assert_string_equal(dev->ports[0].active_speed, "50.0 Gbps (64)");
	assert_int_equal(dev->ports[0].ngids, 1);
	assert_string_equal(dev->ports[0].gids[0], "fe80:0000:0000:0000:88e9:a4ff:ff25:a462");
	dev = ibv_devinfo_find(&d, "mlx5_1");
	assert_int_equal(dev->ports[0].state, IB_STATE_DOWN);
	assert_int_equal(dev->ports[0].phys_state, IB_PHYS_DISABLED);
	assert_int_equal(dev->ports[0].port_lid, 65535);
	assert_string_equal(dev->ports[0].active_speed, "invalid speed (0)");
	ibv_devinfo_release(&d);
}

static void devinfo_no_devices(void **state)
{
	struct ibv_devinfo d;

	(void)state;
	PARSE_FIXTURE(ibv_devinfo_parse, d, "ibv_devinfo__no_ib_devices_found.txt", 0);
	assert_true(d.no_devices);
	assert_int_equal(d.ndevs, 0);
	assert_int_equal(d.no_driver_warnings, 2);
	ibv_devinfo_release(&d);
}

static void devinfo_list_zero(void **state)
{
	struct ibv_devinfo d;

	(void)state;
	PARSE_FIXTURE(ibv_devinfo_parse, d, "ibv_devinfo_-l__no_userspace_driver_0_hcas.txt", 0);
	assert_int_equal(d.hcas_found, 0);
	assert_int_equal(d.nnames, 0);
	assert_int_equal(d.no_driver_warnings, 5);
	assert_false(d.no_devices);
	ibv_devinfo_release(&d);
}

static void devinfo_edge(void **state)
{
	struct ibv_devinfo d;

	(void)state;
	PARSE_STR(ibv_devinfo_parse, d, "2 HCAs found:\n\tmlx5_0\n\tmlx5_1\n", 0);
	assert_int_equal(d.hcas_found, 2);
	assert_int_equal(d.nnames, 2);
	assert_string_equal(d.names[1], "mlx5_1");
	ibv_devinfo_release(&d);
	/* a paste that lost all indentation and the tabs */
	PARSE_STR(ibv_devinfo_parse, d,
		  "hca_id: rxe0\r\ntransport: InfiniBand (0)\r\n"
		  "port: 1\r\nstate: PORT_INIT (2)\r\nlink_layer: Ethernet",
		  0);
	assert_int_equal(d.ndevs, 1);
	assert_string_equal(d.devs[0].hca_id, "rxe0");
	assert_int_equal(d.devs[0].ports[0].state, IB_STATE_INIT);
	assert_int_equal(d.devs[0].ports[0].link_layer, IB_LL_ETHERNET);
	ibv_devinfo_release(&d);
	PARSE_STR(ibv_devinfo_parse, d, "", -1);
	ibv_devinfo_release(&d);
	PARSE_STR(ibv_devinfo_parse, d, "bash: ibv_devinfo: command not found\n", -1);
	ibv_devinfo_release(&d);
	PARSE_STR(ibv_devinfo_parse, d, "hca_id:\tmlx5_0\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ARM",
		  0);
	assert_int_equal(d.devs[0].ports[0].state, IB_STATE_UNKNOWN);
	ibv_devinfo_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(devinfo_h200_roce_bond), cmocka_unit_test(devinfo_vv_tabs),
		cmocka_unit_test(devinfo_no_devices),     cmocka_unit_test(devinfo_list_zero),
		cmocka_unit_test(devinfo_edge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
