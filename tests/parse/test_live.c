/* SPDX-License-Identifier: Apache-2.0 */
/* The live-evidence parsers: /proc/PID/maps, `ls -l /proc/PID/fd`,
 * /proc/net/dev and NIXL's Prometheus text. */
#include "t.h"

#include "parse/net_dev.h"
#include "parse/proc_fd.h"
#include "parse/proc_maps.h"
#include "parse/prom_text.h"

static const char maps_text[] =
	"55d0c8a00000-55d0c8a2e000 r--p 00000000 00:3a 1312  /usr/bin/python3.12\n"
	"7f2a10000000-7f2a10021000 rw-p 00000000 00:00 0 \n"
	"7f2a1c000000-7f2a1c021000 r-xp 00000000 00:3a 20011 /opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/plugins/libplugin_UCX.so\n"
	"7f2a1c021000-7f2a1c022000 r--p 00021000 00:3a 20011 /opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/plugins/libplugin_UCX.so\n"
	"7f2a1d000000-7f2a1d080000 r-xp 00000000 00:3a 30100 /usr/local/ucx/lib/ucx/libuct_ib.so.0.0.0\n"
	"7f2a1e000000-7f2a1e040000 r-xp 00000000 00:3a 30101 /usr/local/ucx/lib/ucx/libuct_cuda.so.0.0.0\n"
	"7f2a1f000000-7f2a1f100000 r-xp 00000000 00:3a 30000 /usr/local/ucx/lib/libucp.so.0.0.0\n"
	"7f2a20000000-7f2a20001000 r--s 00000000 00:05 9 /dev/infiniband/uverbs0\n"
	"7f2a21000000-7f2a21001000 r--p 00000000 00:3a 41 /usr/share/locale/locale.alias\n"
	"7ffc1c000000-7ffc1c021000 rw-p 00000000 00:00 0      [stack]\n";

static void maps_unique_shared_objects(void **state)
{
	struct proc_maps m;
	(void)state;
	PARSE_STR(proc_maps_parse, m, maps_text, 0);
	assert_int_equal(m.n, 4); /* the plugin once; no python, device or data file */
	assert_string_equal(path_basename(m.paths[0]), "libplugin_UCX.so");
	assert_non_null(proc_maps_find(&m, "libuct_ib"));
	assert_non_null(proc_maps_find(&m, "libuct_cuda"));
	assert_null(proc_maps_find(&m, "libfabric"));
	assert_false(m.capped);
	proc_maps_release(&m);
}

static void maps_blank_and_garbage(void **state)
{
	struct proc_maps m;
	(void)state;
	PARSE_STR(proc_maps_parse, m, "", 0);
	assert_int_equal(m.n, 0);
	proc_maps_release(&m);
	PARSE_STR(proc_maps_parse, m, "not maps at all\nreally\n", -1);
	proc_maps_release(&m);
}

static void fds_targets(void **state)
{
	struct proc_fds f;
	(void)state;
	PARSE_STR(proc_fds_parse, f,
		  "total 0\n"
		  "lr-x------ 1 root root 64 Dec  1 08:12 0 -> /dev/null\n"
		  "lrwx------ 1 root root 64 Dec  1 08:12 17 -> /dev/infiniband/uverbs0\n"
		  "lrwx------ 1 root root 64 Dec  1 08:12 18 -> /dev/infiniband/uverbs1\n"
		  "lrwx------ 1 root root 64 Dec  1 08:12 19 -> /dev/infiniband/uverbs0\n"
		  "lrwx------ 1 root root 64 Dec  1 08:12 20 -> socket:[91823]\n"
		  "21 -> /dev/gdrdrv\n"
		  "lrwxrwxrwx 1 root root 31 Dec  1 08:35 22 -> ../../../dev/infiniband/uverbs2\n"
		  "23 -> ../../etc/passwd\n",
		  0);
	assert_int_equal(f.n_fds, 8);
	assert_int_equal(proc_fds_count(&f, "/dev/infiniband/uverbs2"), 1);
	assert_int_equal(f.n_sockets, 1);
	assert_int_equal(proc_fds_count(&f, "/dev/infiniband/uverbs"), 3);
	assert_int_equal(proc_fds_count(&f, "/dev/gdrdrv"), 1);
	proc_fds_release(&f);
	PARSE_STR(proc_fds_parse, f, "ls: cannot open directory '/proc/1/fd': Permission denied\n",
		  -1);
	proc_fds_release(&f);
}

/* Shape of a real /proc/net/dev (header of the kernel's dev_seq_show). */
static void net_dev_counters(void **state)
{
	struct net_devs d;
	(void)state;
	PARSE_STR(
		net_dev_parse, d,
		"Inter-|   Receive                                                |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
		"    lo:  184320    1201    0    0    0     0          0         0   184320    1201    0    0    0     0       0          0\n"
		"  eth0:12884901888 9201311 0 0 0 0 0 0 4294967296 311000 0 0 0 0 0 0\n",
		0);
	assert_int_equal(d.n, 2);
	const struct net_dev_if *e = net_dev_find(&d, "eth0");
	assert_non_null(e);
	assert_true(e->rx_bytes == 12884901888ull);
	assert_true(e->tx_bytes == 4294967296ull);
	net_dev_release(&d);
}

static void prom_nixl_exporter(void **state)
{
	struct prom_text p;
	double v;
	(void)state;
	PARSE_STR(
		prom_text_parse, p,
		"# HELP agent_tx_bytes_total Number of bytes sent by the agent\n"
		"# TYPE agent_tx_bytes_total counter\n"
		"agent_tx_bytes_total{category=\"NIXL_TELEMETRY_TRANSFER\",hostname=\"decode-0\",agent_name=\"a\"} 1.5e+09\n"
		"agent_tx_bytes_total{category=\"NIXL_TELEMETRY_TRANSFER\",hostname=\"decode-0\",agent_name=\"b\"} 500000000\n"
		"agent_rx_bytes_total{category=\"NIXL_TELEMETRY_TRANSFER\",hostname=\"decode-0\",agent_name=\"a\"} 0\n"
		"agent_errors_total{hostname=\"decode-0\",agent_name=\"a\",status=\"NIXL_ERR_REMOTE_DISCONNECT\"} 3 1733040000000\n"
		"weird{label=\"with \\\"quote\\\" and \\\\\"} 1\n"
		"broken{label=\"unterminated} 1\n",
		0);
	assert_int_equal(p.n, 5);
	assert_int_equal(p.bad_lines, 1);
	assert_true(prom_text_sum(&p, "agent_tx_bytes_total", &v));
	assert_true(v == 2e9);
	assert_false(prom_text_sum(&p, "agent_nothing", &v));
	assert_string_equal(prom_sample_label(&p.v[3], "status"), "NIXL_ERR_REMOTE_DISCONNECT");
	assert_true(p.v[3].value == 3);
	assert_string_equal(prom_sample_label(&p.v[4], "label"), "with \"quote\" and \\");
	prom_text_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(maps_unique_shared_objects),
		cmocka_unit_test(maps_blank_and_garbage),
		cmocka_unit_test(fds_targets),
		cmocka_unit_test(net_dev_counters),
		cmocka_unit_test(prom_nixl_exporter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
