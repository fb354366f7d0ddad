/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/lines.h"
#include "parse/sysfs_ib.h"

static void lines_normalise(void **state)
{
	struct lines it;
	const char in[] = "a\r\nb\rc\x1b[31;1md\x1b[0m\x1b]0;title\a\te \t\n\0f";
	char *l;

	(void)state;
	lines_init(&it, in, sizeof(in) - 1);
	l = lines_next(&it);
	assert_string_equal(l, "a");
	assert_string_equal(lines_next(&it), "b");
	l = lines_next(&it);
	assert_string_equal(l, "cd\te");
	assert_string_equal(lines_next(&it), "f");
	assert_int_equal(it.lineno, 4);
	assert_null(lines_next(&it));
	lines_release(&it);
	lines_init(&it, NULL, 5);
	assert_null(lines_next(&it));
	lines_release(&it);
	/* a lone ESC at the very end */
	lines_init(&it, "x\x1b", 2);
	assert_string_equal(lines_next(&it), "x");
	lines_release(&it);
	assert_true(lines_blank_input(" \r\n\t\n", 5));
	assert_false(lines_blank_input(" x", 2));
	bool empty = false;
	assert_false(lines_start(&it, " \r\n", 3, &empty));
	assert_true(empty);
	empty = false;
	assert_true(lines_start(&it, "\n y\n", 4, &empty));
	assert_false(empty);
	assert_string_equal(lines_next(&it), "");
	assert_string_equal(lines_next(&it), " y");
	lines_release(&it);
}

static void string_helpers(void **state)
{
	char buf[64] = "  key :  value with: colon \t";
	char *k, *v, *tok[4];
	uint64_t u;
	uint32_t u32;
	double d;

	(void)state;
	assert_true(str_kv(buf, ':', &k, &v));
	assert_string_equal(k, "key");
	assert_string_equal(v, "value with: colon");
	assert_int_equal(str_indent("\t  x"), 10);
	strcpy(buf, " a  b\tc ");
	assert_int_equal(str_split_ws(buf, tok, 4), 3);
	assert_string_equal(tok[2], "c");
	assert_true(str_to_u64("0x33bf", 16, &u));
	assert_true(u == 0x33bf);
	assert_false(str_to_u64("-1", 10, &u));
	assert_false(str_to_u64("12x", 10, &u));
	assert_false(str_to_u64("99999999999999999999999", 10, &u));
	assert_false(str_to_u32("4294967296", 10, &u32));
	assert_true(str_lead_double("26.562 GB/s", &d));
	assert_true(d > 26.56 && d < 26.57);
	assert_true(str_lead_double("0x10", &d) && d == 0.0);
	assert_false(str_lead_double("inf", &d));
	assert_false(str_lead_double(".", &d));
	assert_non_null(str_icontains("Hello World", "WORLD"));
	assert_null(str_icontains(NULL, "x"));
}

static void port_values(void **state)
{
	struct ib_rate r;
	uint32_t lid;
	uint64_t guid;
	uint8_t g[16];

	(void)state;
	assert_int_equal(ib_port_state_parse("4: ACTIVE"), IB_STATE_ACTIVE);
	assert_int_equal(ib_port_state_parse("Active"), IB_STATE_ACTIVE);
	assert_int_equal(ib_port_state_parse("PORT_ACTIVE (4)"), IB_STATE_ACTIVE);
	assert_int_equal(ib_port_state_parse("1: DOWN\n"), IB_STATE_DOWN);
	assert_int_equal(ib_port_state_parse("2: INIT"), IB_STATE_INIT);
	assert_int_equal(ib_port_state_parse("PORT_ARMED (3)"), IB_STATE_ARMED);
	assert_int_equal(ib_port_state_parse("5: ACTIVE_DEFER"), IB_STATE_ACTIVE_DEFER);
	assert_int_equal(ib_port_state_parse("4"), IB_STATE_ACTIVE);
	assert_int_equal(ib_port_state_parse("bogus"), IB_STATE_UNKNOWN);
	assert_int_equal(ib_port_state_parse(NULL), IB_STATE_UNKNOWN);
	assert_string_equal(ib_port_state_name(IB_STATE_ACTIVE), "ACTIVE");
	assert_int_equal(ib_phys_state_parse("5: LinkUp"), IB_PHYS_LINKUP);
	assert_int_equal(ib_phys_state_parse("LINK_UP (5)"), IB_PHYS_LINKUP);
	assert_int_equal(ib_phys_state_parse("3: Disabled"), IB_PHYS_DISABLED);
	assert_int_equal(ib_phys_state_parse("2: Polling"), IB_PHYS_POLLING);
	assert_int_equal(ib_phys_state_parse("4: PortConfigurationTraining"), IB_PHYS_TRAINING);
	assert_int_equal(ib_phys_state_parse("LINK_UP"), IB_PHYS_LINKUP);
	assert_string_equal(ib_phys_state_name(IB_PHYS_LINKUP), "LinkUp");
	assert_int_equal(ib_link_layer_parse("InfiniBand\n"), IB_LL_INFINIBAND);
	assert_int_equal(ib_link_layer_parse("Ethernet"), IB_LL_ETHERNET);
	assert_int_equal(ib_link_layer_parse("x"), IB_LL_UNKNOWN);
	assert_int_equal(ib_gid_type_parse("RoCE v2\n"), IB_GID_ROCE_V2);
	assert_int_equal(ib_gid_type_parse("IB/RoCE v1"), IB_GID_IB_ROCE_V1);

	assert_true(ib_rate_parse("400 Gb/sec (4X NDR)", &r));
	assert_true(r.gbps == 400.0);
	assert_int_equal(r.width, 4);
	assert_string_equal(r.speed, "NDR");
	assert_true(ib_rate_parse("200 Gb/sec (2X NDR)\n", &r));
	assert_int_equal(r.width, 2);
	assert_true(ib_rate_parse("2.5 Gb/sec (1X SDR)", &r));
	assert_true(r.gbps == 2.5);
	assert_true(ib_rate_parse("25 Gb/sec (1X EDR)", &r));
	assert_string_equal(r.speed, "EDR");
	assert_true(ib_rate_parse("200", &r));
	assert_int_equal(r.width, 0);
	assert_string_equal(r.speed, "");
	assert_false(ib_rate_parse("unknown", &r));
	assert_true(ib_rate_parse("10 Gb/sec (4X SUPERCALIFRAGILISTIC", &r));
	assert_string_equal(r.speed, "SUPERCA");

	assert_true(ib_lid_parse("0x0", &lid) && lid == 0);
	assert_true(ib_lid_parse("0x33bf\n", &lid) && lid == 0x33bf);
	assert_true(ib_lid_parse("13247", &lid) && lid == 13247);
	assert_false(ib_lid_parse("0x", &lid));
	assert_true(ib_guid_parse("0x946dae0300cde72c", &guid) && guid == 0x946dae0300cde72cULL);
	assert_true(ib_guid_parse("e09d:7303:000d:1fc0", &guid) && guid == 0xe09d7303000d1fc0ULL);
	assert_false(ib_guid_parse("e09d:7303:000d:1fc0:1234", &guid));

	assert_true(ib_gid_parse("fe80:0000:0000:0000:0015:5dff:fd34:11eb", g));
	assert_int_equal(g[0], 0xfe);
	assert_int_equal(g[15], 0xeb);
	assert_true(ib_gid_parse("::ffff:c0a8:0101", g));
	assert_int_equal(g[10], 0xff);
	assert_int_equal(g[12], 0xc0);
	assert_true(ib_gid_is_zero("0000:0000:0000:0000:0000:0000:0000:0000\n"));
	assert_true(ib_gid_is_zero("::"));
	assert_true(ib_gid_is_zero("garbage"));
	assert_false(ib_gid_is_zero("fe80::1"));
	assert_false(ib_gid_parse("fe80:::1", g));
	assert_false(ib_gid_parse("1:2:3:4:5:6:7:8:9", g));
	assert_false(ib_gid_parse("fe80:", g));
	assert_int_equal(ib_node_type_parse("1: CA\n"), 1);
	assert_int_equal(ib_node_type_parse("CA"), -1);
}

static void sysfs_dump_h100(void **state)
{
	struct sysfs_dump d;
	struct ib_rate r;
	size_t i, active = 0;

	(void)state;
	PARSE_FIXTURE(sysfs_dump_parse, d, "sysfs_infiniband_ports__h100_cx7_ndr_plus_bf3_bond.txt",
		      0);
	assert_int_equal(d.n, 9 * 7);
	assert_string_equal(d.v[0].path, "/sys/class/infiniband/mlx5_0/fw_ver");
	assert_string_equal(d.v[0].value, "28.41.1000");
	for (i = 0; i < d.n; i++)
		if (strstr(d.v[i].path, "/ports/1/state"))
			active += ib_port_state_parse(d.v[i].value) == IB_STATE_ACTIVE;
	assert_int_equal(active, 9);
	assert_string_equal(sysfs_dump_get(&d, "mlx5_bond_0/hca_type"), "MT41692");
	assert_true(ib_rate_parse(sysfs_dump_get(&d, "mlx5_bond_0/ports/1/rate"), &r));
	assert_true(r.gbps == 200.0);
	assert_int_equal(r.width, 2);
	assert_string_equal(r.speed, "NDR");
	assert_int_equal(ib_link_layer_parse(sysfs_dump_get(&d, "mlx5_bond_0/ports/1/link_layer")),
			 IB_LL_ETHERNET);
	assert_int_equal(ib_phys_state_parse(sysfs_dump_get(&d, "mlx5_9/ports/1/phys_state")),
			 IB_PHYS_LINKUP);
	assert_null(sysfs_dump_get(&d, "mlx5_2/fw_ver"));
	/* suffix must start at a path component */
	assert_null(sysfs_dump_get(&d, "x5_0/fw_ver"));
	sysfs_dump_release(&d);
	PARSE_STR(sysfs_dump_parse, d, "==> /a/b <==\n\n==> /a/c <==\nv\n\n", 0);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.v[0].value, "");
	assert_string_equal(d.v[1].value, "v");
	sysfs_dump_release(&d);
	PARSE_STR(sysfs_dump_parse, d, "no header", -1);
	sysfs_dump_release(&d);
}

static void ls_listings(void **state)
{
	struct ib_dev_list l;
	size_t len;
	char *body = fixture_body("ls_sys_class_infiniband__h100_single_vs_12.txt", &len);
	char *part;

	(void)state;
	part = fixture_part(body, 0, &len);
	PARSE_STR(ib_dev_list_parse, l, part, 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.names[0], "mlx5_0");
	ib_dev_list_release(&l);
	free(part);
	part = fixture_part(body, 1, &len);
	PARSE_STR(ib_dev_list_parse, l, part, 0);
	assert_int_equal(l.n, 12);
	assert_string_equal(l.names[2], "mlx5_10");
	assert_string_equal(l.names[11], "mlx5_9");
	ib_dev_list_release(&l);
	free(part);
	assert_null(fixture_part(body, 2, &len));
	free(body);

	PARSE_FIXTURE(ib_dev_list_parse, l, "ls_sys_class_infiniband__h100_with_bond.txt", 0);
	assert_int_equal(l.n, 9);
	assert_string_equal(l.names[8], "mlx5_bond_0");
	ib_dev_list_release(&l);
	PARSE_STR(ib_dev_list_parse, l,
		  "ls: cannot access '/sys/class/infiniband': No such file or directory\n", -1);
	ib_dev_list_release(&l);
	PARSE_STR(ib_dev_list_parse, l, "", -1);
	ib_dev_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_normalise), cmocka_unit_test(string_helpers),
		cmocka_unit_test(port_values),     cmocka_unit_test(sysfs_dump_h100),
		cmocka_unit_test(ls_listings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
