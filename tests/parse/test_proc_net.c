/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/proc_net.h"

static void route_container(void **state)
{
	struct proc_route r;

	(void)state;
	PARSE_FIXTURE(proc_route_parse, r, "proc_net_route__container_eth0_default.txt", 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(proc_route_default(&r), "eth0");
	assert_true(r.v[0].gateway == 0xc0000201u); /* 192.0.2.1 */
	assert_true(r.v[1].dest == 0xc0000200u);    /* 192.0.2.0/24 */
	assert_true(r.v[1].mask == 0xffffff00u);
	assert_false(net_route_link_local(&r.v[1]));
	proc_route_release(&r);
}

static void route_edge(void **state)
{
	struct proc_route r;

	(void)state;
	/* a link-local-only interface, no default route */
	PARSE_STR(
		proc_route_parse, r,
		"Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
		"net1\t0000FEA9\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n",
		0);
	assert_int_equal(r.n, 1);
	assert_null(proc_route_default(&r));
	assert_true(net_route_link_local(&r.v[0]));
	proc_route_release(&r);
	PARSE_STR(proc_route_parse, r,
		  "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\n", 0);
	assert_int_equal(r.n, 0); /* an empty table is an answer */
	proc_route_release(&r);
	PARSE_STR(proc_route_parse, r, "eth0 00000000 0101A8C0 0003 0 0 0 00000000\n", -1);
	proc_route_release(&r);
	PARSE_STR(proc_route_parse, r,
		  "Iface Destination Gateway Flags RefCnt Use Metric Mask\n"
		  "eth0 zz000000 0101A8C0 0003 0 0 0 00000000\neth0 00000000 0101A8C0",
		  0);
	assert_int_equal(r.n, 0); /* bad hex, short line */
	proc_route_release(&r);
}

static void inet6_container(void **state)
{
	struct proc_inet6 a;

	(void)state;
	PARSE_FIXTURE(proc_inet6_parse, a, "proc_net_if_inet6__container_eth0_global_and_ll.txt",
		      0);
	assert_int_equal(a.n, 3);
	assert_string_equal(a.v[0].iface, "eth0");
	assert_int_equal(a.v[0].scope, INET6_GLOBAL);
	assert_int_equal(a.v[1].scope, INET6_HOST);
	assert_string_equal(a.v[2].iface, "eth0");
	assert_int_equal(a.v[2].scope, INET6_LINK);
	proc_inet6_release(&a);
	PARSE_STR(proc_inet6_parse, a, "", 0);
	assert_int_equal(a.n, 0);
	proc_inet6_release(&a);
	PARSE_STR(proc_inet6_parse, a, "not an address line\n", -1);
	proc_inet6_release(&a);
	PARSE_STR(proc_inet6_parse, a, "fe80000000000000000000000000000g 04 40 20 80 eth0\n", -1);
	proc_inet6_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(route_container),
		cmocka_unit_test(route_edge),
		cmocka_unit_test(inet6_container),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
