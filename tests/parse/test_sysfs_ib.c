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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_normalise),
		cmocka_unit_test(string_helpers),
		cmocka_unit_test(port_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
