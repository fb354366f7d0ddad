/* SPDX-License-Identifier: Apache-2.0 */
/*
 * node.live.*: what the serving process loaded and opened, and what moved
 * during the window, from hand-built transcripts of the probe's live:*
 * sections (the shapes /proc/PID/maps, `ls -l /proc/PID/fd`, sysfs counters,
 * /proc/net/dev and NIXL's Prometheus exporter really print).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/report.h"
#include "core/report_live.h"
#include "core/xalloc.h"
#include "live/live.h"

#define UCX_PLUGIN \
	"7f2a1c000000-7f2a1c021000 r-xp 00000000 00:3a 20011 /opt/nvidia/nvda_nixl/lib/plugins/libplugin_UCX.so\n"
#define UCT_IB \
	"7f2a1d000000-7f2a1d080000 r-xp 00000000 00:3a 30100 /usr/local/ucx/lib/ucx/libuct_ib.so.0.0.0\n"
#define UCT_CUDA \
	"7f2a1e000000-7f2a1e040000 r-xp 00000000 00:3a 30101 /usr/local/ucx/lib/ucx/libuct_cuda.so.0.0.0\n"
#define UCP \
	"7f2a1f000000-7f2a1f100000 r-xp 00000000 00:3a 30000 /usr/local/ucx/lib/libucp.so.0.0.0\n"
#define FI_PLUGIN \
	"7f2a2c000000-7f2a2c021000 r-xp 00000000 00:3a 20012 /opt/nvidia/nvda_nixl/lib/plugins/libplugin_LIBFABRIC.so\n"
#define LIBFABRIC \
	"7f2a2d000000-7f2a2d300000 r-xp 00000000 00:3a 40000 /opt/amazon/efa/lib/libfabric.so.1.25.0\n"
#define FD_UVERBS                                                                \
	"lrwx------ 1 root root 64 Dec  1 08:12 17 -> /dev/infiniband/uverbs0\n" \
	"lrwx------ 1 root root 64 Dec  1 08:12 18 -> /dev/infiniband/uverbs1\n"

static char *sec(const char *name, const char *body)
{
	/* Every body line gets the script's '|' prefix. */
	char *out = xasprintf("@@begin %s\n", name), *tmp;
	const char *p = body;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		tmp = xasprintf("%s|%.*s\n", out, (int)n, p);
		free(out);
		out = tmp;
		p += n + (nl ? 1 : 0);
	}
	tmp = xasprintf("%s@@end %s rc=0\n", out, name);
	free(out);
	return tmp;
}

struct tb {
	char *text;
};

static void add(struct tb *b, const char *name, const char *body)
{
	char *s = sec(name, body);
	char *t = xasprintf("%s%s", b->text ? b->text : "@@ci-probe v1\n", s);
	free(s);
	free(b->text);
	b->text = t;
}

static const struct ci_check *has(const struct ci_report *r, const char *id)
{
	for (size_t i = 0; i < r->n_checks; i++)
		if (!strcmp(r->checks[i].id, id))
			return &r->checks[i];
	return NULL;
}

/* The check `id`; a missing one fails the test (never NULL, for -Wnull-dereference). */
static const struct ci_check *find(const struct ci_report *r, const char *id)
{
	static char empty[1];
	static const struct ci_check none = {.detail = empty};
	const struct ci_check *c = has(r, id);
	if (!c)
		fail_msg("no check %s", id);
	return c ? c : &none;
}

/* Run the live checks on the transcript built so far, after the readings
 * readings() adds first (as node's checks come before the live ones). */
/* The node's fabric facts, as node/nixl/the fleet hand them to the live
 * checks; NULL: none (the agent's scans). */
static const struct fabric_in *g_fabric;

static void judge_with(struct tb *b, struct ci_report *r, void (*readings)(struct ci_report *))
{
	char *t = xasprintf("%s@@done\n", b->text);
	struct transcript tr;
	struct live_facts f;
	transcript_init(&tr);
	transcript_parse(&tr, t, strlen(t));
	live_facts_init(&f);
	live_facts_read(&f, &tr);
	if (g_fabric) {
		f.fabric = *g_fabric;
		f.have_fabric = true;
	}
	report_init(r, "node", "test");
	if (readings)
		readings(r);
	live_checks_run(r, &f, "engine");
	live_facts_release(&f);
	transcript_release(&tr);
	free(t);
	free(b->text);
	b->text = NULL;
}

static void judge(struct tb *b, struct ci_report *r)
{
	judge_with(b, r, NULL);
}

/* judge(), with readings already in the report, as node's checks put
 * them there before the live ones: what the window settles. */
static const struct check_desc settled_memlock = {
	"node.memlock", CI_LAYER_ENV, true, "test", "test", CI_DESC_SETTLED_BY_RDMA};
static const struct check_desc unsettled_gpudirect = {"node.gpudirect", CI_LAYER_DRIVER, true,
						      "test",           "test",          0};

/* A locked-memory fail and a GPUDirect warning, before the live checks. */
static void readings(struct ci_report *r)
{
	struct ci_check *c = report_check(r, &settled_memlock, CI_FAIL, "max locked memory",
					  "max locked memory is 64 KiB");
	check_set_fix(c, "raise the limit");
	report_check(r, &unsettled_gpudirect, CI_WARN, "GPUDirect RDMA", "no peermem");
}

static void judge_after_readings(struct tb *b, struct ci_report *r)
{
	judge_with(b, r, readings);
}

static enum ci_status status_of(const struct ci_report *r, const char *id)
{
	return find(r, id)->status;
}

static void proc_ok(struct tb *b, const char *maps, const char *fds)
{
	add(b, SEC_LIVE_PROC,
	    "pid=412\nhow=cmdline\nengine=dynamo.vllm\nexe=python3\nreadable=yes\n");
	add(b, SEC_LIVE_MAPS, maps);
	add(b, SEC_LIVE_FD, fds);
}

static void not_collected(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	add(&b, "meta", "root=host\n");
	judge(&b, &r);
	assert_int_equal(r.n_checks, 0); /* an older transcript keeps its verdict */
	report_release(&r);
}

static void ucx_with_ib_and_uverbs(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	judge(&b, &r);
	assert_int_equal(status_of(&r, "node.live.process"), CI_OK);
	assert_int_equal(status_of(&r, "node.live.loaded"), CI_OK);
	assert_non_null(strstr(find(&r, "node.live.loaded")->detail, "2 RDMA device descriptors"));
	assert_null(has(&r, "node.live.traffic")); /* not observed */
	report_release(&r);
}

static void ucx_without_ib(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_CUDA UCP,
		"lr-x------ 1 root root 64 Dec  1 08:12 0 -> /dev/null\n");
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.loaded");
	assert_int_equal(c->status, CI_FAIL);
	assert_true(c->critical);
	assert_non_null(strstr(c->detail, "cannot be moving KV over RDMA"));
	report_release(&r);
}

static void ucx_without_cuda(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCP, FD_UVERBS);
	judge(&b, &r);
	assert_int_equal(status_of(&r, "node.live.loaded"), CI_FAIL);
	assert_non_null(strstr(find(&r, "node.live.loaded")->detail, "VRAM as host memory"));
	report_release(&r);
}

static void two_ucx_copies(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b,
		UCX_PLUGIN UCT_IB UCT_CUDA UCP
		"7f2a3f000000-7f2a3f100000 r-xp 00000000 00:3a 50000 /usr/lib/python3/dist-packages/.nixl.libs/libucp-1a2b3c.so.0.0.0\n"
		"7f2a4f000000-7f2a4f100000 r-xp 00000000 00:3a 50001 /usr/lib/python3/dist-packages/.nixl.libs/libucp.so.0\n",
		FD_UVERBS);
	judge(&b, &r);
	assert_int_equal(status_of(&r, "node.live.loaded"), CI_WARN);
	report_release(&r);
}

static void libfabric_efa(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, FI_PLUGIN LIBFABRIC, FD_UVERBS);
	judge(&b, &r);
	assert_int_equal(status_of(&r, "node.live.loaded"), CI_OK);
	assert_non_null(strstr(find(&r, "node.live.loaded")->detail, "LIBFABRIC"));
	report_release(&r);
}

static void not_readable(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	add(&b, SEC_LIVE_PROC,
	    "pid=412\nhow=cmdline\nengine=dynamo.sglang\nreadable=no\n"
	    "why=/proc/412/maps is not readable (the engine runs as another user)\n");
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.process");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_false(c->critical);
	assert_non_null(strstr(c->detail, "another user"));
	assert_null(has(&r, "node.live.loaded"));
	report_release(&r);
}

/* Two samples 10 s apart: RDMA counters in 4-byte units, netdev bytes, and
 * NIXL's counters. */
static void window(struct tb *b, uint64_t xmit1, uint64_t eth_tx1, const char *nixl0,
		   const char *nixl1)
{
	char *s0 = xasprintf("uptime=1000.00\n"
			     "sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data=1000\n"
			     "sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data=1000\n"
			     "sys/class/infiniband/mlx5_1/ports/1/counters/port_xmit_data=5\n");
	char *s1 = xasprintf("uptime=1010.00\n"
			     "sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data=%llu\n"
			     "sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data=1000\n"
			     "sys/class/infiniband/mlx5_1/ports/1/counters/port_xmit_data=5\n",
			     (unsigned long long)xmit1);
	char *n0 = xasprintf("Inter-|\n face |\n  eth0: 1000 1 0 0 0 0 0 0 1000 1 0 0 0 0 0 0\n"
			     "    lo: 5 1 0 0 0 0 0 0 5 1 0 0 0 0 0 0\n");
	char *n1 = xasprintf("Inter-|\n face |\n  eth0: 1000 1 0 0 0 0 0 0 %llu 1 0 0 0 0 0 0\n"
			     "    lo: 99999999999 1 0 0 0 0 0 0 99999999999 1 0 0 0 0 0 0\n",
			     (unsigned long long)eth_tx1);
	add(b, SEC_LIVE_SAMPLE0, s0);
	add(b, SEC_LIVE_NETDEV0, n0);
	if (nixl0)
		add(b, SEC_LIVE_NIXL0, nixl0);
	add(b, SEC_LIVE_SAMPLE1, s1);
	add(b, SEC_LIVE_NETDEV1, n1);
	if (nixl1)
		add(b, SEC_LIVE_NIXL1, nixl1);
	free(s0);
	free(s1);
	free(n0);
	free(n1);
}

#define NIXL(tx, err)                                                                                    \
	"agent_tx_bytes_total{hostname=\"p\",agent_name=\"a\"} " tx "\n"                                 \
	"agent_rx_bytes_total{hostname=\"p\",agent_name=\"a\"} 0\n"                                      \
	"agent_errors_total{hostname=\"p\",agent_name=\"a\",status=\"NIXL_ERR_REMOTE_DISCONNECT\"} " err \
	"\n"

static void kv_over_rdma(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	/* 8 GiB of NIXL bytes; mlx5_0 sent 2^31 words = 8 GiB. */
	window(&b, 1000 + (2ull << 30), 2000, NIXL("100", "0"), NIXL("8589934692", "0"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_OK);
	assert_non_null(strstr(c->detail, "KV moved 8 GiB over mlx5_0"));
	assert_non_null(strstr(c->detail, "819.2 MiB/s"));
	assert_int_equal(status_of(&r, "node.live.errors"), CI_OK);
	report_release(&r);
}

/* A proven RDMA path settles the locked-memory reading (kept as
 * evidence), never GPUDirect; and the verdict follows. */
static void rdma_path_settles_memlock(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window(&b, 1000 + (2ull << 30), 2000, NIXL("100", "0"), NIXL("8589934692", "0"));
	judge_after_readings(&b, &r);
	const struct ci_check *m = find(&r, "node.memlock");
	assert_int_equal(m->status, CI_OK);
	assert_non_null(strstr(m->detail, "settled by node.live.traffic"));
	assert_non_null(strstr(m->detail, "2 uverbs descriptors"));
	assert_null(m->fix);
	assert_int_equal(m->n_evidence, 1);
	assert_string_equal(m->evidence[0], "the reading alone: fail: max locked memory is 64 KiB");
	assert_int_equal(status_of(&r, "node.gpudirect"), CI_WARN);
	struct ci_verdict v;
	verdict_compute(&r, &v);
	assert_int_equal(v.kind, CI_DEGRADED); /* the GPUDirect risk stays */
	assert_non_null(strstr(v.summary, "Works on RDMA now (node.live.traffic)"));
	verdict_release(&v);
	report_release(&r);
}

/* The same window from a process that holds no uverbs descriptor (the port
 * bytes may be another process's): nothing is settled. */
static void rdma_bytes_without_uverbs_settle_nothing(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, "");
	window(&b, 1000 + (2ull << 30), 2000, NIXL("100", "0"), NIXL("8589934692", "0"));
	judge_after_readings(&b, &r);
	assert_int_equal(status_of(&r, "node.memlock"), CI_FAIL);
	assert_non_null(find(&r, "node.memlock")->fix);
	report_release(&r);
}

/* TCP evidence settles nothing either: the fail stays, the verdict is blocked. */
static void tcp_path_settles_nothing(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window(&b, 1000, 1000 + (4ull << 30), NIXL("0", "0"), NIXL("4294967296", "0"));
	judge_after_readings(&b, &r);
	assert_int_equal(status_of(&r, "node.memlock"), CI_FAIL);
	struct ci_verdict v;
	verdict_compute(&r, &v);
	assert_int_equal(v.kind, CI_BLOCKED);
	verdict_release(&v);
	report_release(&r);
}

static void kv_over_tcp(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window(&b, 1000, 1000 + (4ull << 30), NIXL("0", "0"), NIXL("4294967296", "0"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_FAIL);
	assert_non_null(strstr(c->detail, "KV moved over TCP"));
	report_release(&r);
}

static void errors_grow(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window(&b, 1000 + (1ull << 28), 2000, NIXL("0", "1"), NIXL("1073741824", "4"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.errors");
	assert_int_equal(c->status, CI_FAIL);
	assert_non_null(strstr(c->detail, "NIXL_ERR_REMOTE_DISCONNECT +3"));
	report_release(&r);
}

/* An exporter without the error counter: the errors are unknown, not ok. */
static void errors_not_exported(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window(&b, 1000 + (2ull << 30), 2000, "agent_tx_bytes_total{agent_name=\"a\"} 0\n",
	       "agent_tx_bytes_total{agent_name=\"a\"} 8589934592\n");
	judge(&b, &r);
	assert_int_equal(status_of(&r, "node.live.traffic"), CI_OK);
	const struct ci_check *c = find(&r, "node.live.errors");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_false(c->critical);
	assert_non_null(strstr(c->detail, "no agent_errors_total"));
	/* the live section: the path, the port that moved, no error statuses */
	assert_non_null(r.live);
	assert_int_equal(r.live->path, CI_PATH_RDMA);
	assert_int_equal(r.live->n_errors, 0);
	assert_true(r.live->observed);
	assert_string_equal(r.live->ports[0].name, "mlx5_0");
	assert_true(r.live->ports[0].tx == 8ull << 30);
	report_release(&r);
}

static void nothing_moved(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window(&b, 1000, 1000, NIXL("5", "0"), NIXL("5", "0"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_false(c->critical);
	assert_non_null(strstr(c->detail, "no KV moved"));
	report_release(&r);
}

static void no_telemetry(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window(&b, 1000 + (1ull << 28), 2000, NULL, NULL);
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_WARN);
	assert_non_null(strstr(c->detail, "cannot be attributed to KV"));
	assert_null(has(&r, "node.live.errors"));
	report_release(&r);
}

/* A real output from tests/fixtures/live/logs, its provenance header cut,
 * each line prefixed the way `kubectl logs --timestamps` prints it. */
static char *log_fixture(const char *name, const char *extra)
{
	char *path = xasprintf("tests/fixtures/live/logs/%s", name);
	FILE *fp = fopen(path, "r");
	char line[4096], *out = xstrdup("");
	bool body = false;
	assert_non_null(fp);
	while (fp && fgets(line, sizeof(line), fp)) {
		if (!body) {
			body = !strncmp(line, "# ---", 5);
			continue;
		}
		char *t = xasprintf("%s2026-12-01T08:12:33.123456789Z %s", out, line);
		free(out);
		out = t;
	}
	if (fp)
		fclose(fp);
	free(path);
	char *t = xasprintf("%s%s", out, extra ? extra : "");
	free(out);
	return t;
}

static void logs_nixl_backend_error(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	char *logs = log_fixture(
		"nixl_error__registerMem_vram_NIXL_ERR_BACKEND.txt",
		"2026-12-01T08:12:34Z UCX  ERROR no usable transports, password=CANARY-hunter2\n"
		"2026-12-01T08:12:35Z NIXL_ERR_REMOTE_DISCONNECT from http://nixl:CANARY-pw@etcd:2379\n");
	add(&b, SEC_LIVE_LOGS, logs);
	free(logs);
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.logs");
	assert_int_equal(c->status, CI_FAIL);
	bool backend = false, withheld = false;
	for (size_t i = 0; i < c->n_evidence; i++) {
		assert_null(strstr(c->evidence[i], "CANARY"));
		backend |= strstr(c->evidence[i], "nixl.err_backend") != NULL;
		withheld |= strstr(c->evidence[i], "withheld") != NULL;
	}
	assert_true(backend);
	assert_true(withheld);
	bool url = false;
	for (size_t i = 0; i < c->n_evidence; i++)
		url |= strstr(c->evidence[i], "http://nixl:<redacted>@etcd:2379") != NULL;
	assert_true(url);
	report_release(&r);
}

static void logs_nccl_socket_and_healthy(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	char *logs = log_fixture("nccl_debug__ib_disabled_using_network_socket.txt", NULL);
	add(&b, SEC_LIVE_LOGS, logs);
	free(logs);
	judge(&b, &r);
	assert_int_equal(find(&r, "node.live.logs")->status, CI_WARN);
	report_release(&r);

	logs = log_fixture("nccl_debug__ib_gdrdma_and_p2p_cumem_h20.txt", NULL);
	add(&b, SEC_LIVE_LOGS, logs);
	free(logs);
	judge(&b, &r);
	assert_int_equal(find(&r, "node.live.logs")->status, CI_OK);
	report_release(&r);
}

/* An older NCCL lists the socket transport's interfaces on runs that then
 * use NET/IB: the network the same log says was chosen decides. */
static void logs_nccl_socket_list_then_ib(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	add(&b, SEC_LIVE_LOGS,
	    "node-1:412:412 [0] NCCL INFO NCCL version 2.7.8+cuda11.0\n"
	    "node-1:412:412 [0] NCCL INFO NET/Socket : Using [0]ib0:10.0.0.1<0>\n"
	    "node-1:412:500 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.1<0>\n");
	judge(&b, &r);
	assert_int_equal(find(&r, "node.live.logs")->status, CI_OK);
	report_release(&r);
	/* the same list on a run that chose no RDMA network is a warning */
	add(&b, SEC_LIVE_LOGS,
	    "node-1:412:412 [0] NCCL INFO NET/Socket : Using [0]ib0:10.0.0.1<0>\n");
	judge(&b, &r);
	assert_int_equal(find(&r, "node.live.logs")->status, CI_WARN);
	report_release(&r);
}

/* A UCX error that no symptom names is read from UCX's own format string
 * (rules/logs_table.c), with its file and tag. */
static void logs_from_source_format(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	add(&b, SEC_LIVE_LOGS,
	    "[1718224849.578624] [gds1:1761229:0]       ib_device.c:1163 UCX  ERROR   "
	    "ibv_create_ah(dlid=49152 sl=0 port=1) for UD mlx5 connect on mlx5_0 failed: Invalid "
	    "argument\n"
	    "[1718224849.1] [gds1:1761229:0]     ucp_worker.c:1903 UCX  INFO  ucp_context_0 "
	    "intra-node cfg#1 tag(self/memory cma/memory)\n");
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.logs");
	assert_int_equal(c->status, CI_FAIL);
	bool cited = false;
	for (size_t i = 0; i < c->n_evidence; i++)
		cited |= strstr(c->evidence[i], "ucx error (src/uct/ib/base/ib_device.c") != NULL;
	assert_true(cited);
	report_release(&r);
}

static void logs_unreadable(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	char *sec_text =
		xasprintf("@@ci-probe v1\n@@begin %s\n|Error from server (Forbidden): pods \"x\" "
			  "is forbidden: cannot get resource \"pods/log\"\n@@end %s rc=1\n",
			  SEC_LIVE_LOGS, SEC_LIVE_LOGS);
	b.text = sec_text;
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.logs");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_non_null(strstr(c->detail, "Forbidden"));
	report_release(&r);
}

/* ---- issue 22: exporters of every NIXL version, counter integrity, paths */

/* Two raw samples 2.2 s apart (their clocks say so), with what each gives. */
static void window_raw(struct tb *b, const char *ports0, const char *ports1, const char *net0,
		       const char *net1, const char *nixl0, const char *nixl1)
{
	char *s0 = xasprintf("uptime=500.00\n%s", ports0);
	char *s1 = xasprintf("uptime=502.20\n%s", ports1);
	add(b, SEC_LIVE_SAMPLE0, s0);
	if (net0)
		add(b, SEC_LIVE_NETDEV0, net0);
	if (nixl0)
		add(b, SEC_LIVE_NIXL0, nixl0);
	add(b, SEC_LIVE_SAMPLE1, s1);
	if (net1)
		add(b, SEC_LIVE_NETDEV1, net1);
	if (nixl1)
		add(b, SEC_LIVE_NIXL1, nixl1);
	free(s0);
	free(s1);
}

#define PORT(dev, x, r)                                                        \
	"sys/class/infiniband/" dev "/ports/1/counters/port_xmit_data=" x "\n" \
	"sys/class/infiniband/" dev "/ports/1/counters/port_rcv_data=" r "\n"
#define NET(eth, lo)                                                                         \
	"Inter-|\n face |\n  eth0: " eth " 1 0 0 0 0 0 0 " eth " 1 0 0 0 0 0 0\n    lo: " lo \
	" 1 0 0 0 0 0 0 " lo " 1 0 0 0 0 0 0\n"
/* NIXL 0.9.0-1.0.1: prometheus-cpp counters named without _total, labels
 * category, hostname, agent_name (prometheus_exporter.cpp registerCounter). */
#define NIXL09(tx, rx)                                                                              \
	"agent_tx_bytes{agent_name=\"w0\",category=\"NIXL_TELEMETRY_TRANSFER\",hostname=\"p\"} " tx \
	"\n"                                                                                        \
	"agent_rx_bytes{agent_name=\"w0\",category=\"NIXL_TELEMETRY_TRANSFER\",hostname=\"p\"} " rx \
	"\n"
/* NIXL 1.1.0-1.3.x: Name(name + "_total"), labels hostname, agent_name. */
#define NIXL11(tx, rx)                                                    \
	"agent_tx_bytes_total{agent_name=\"w0\",hostname=\"p\"} " tx "\n" \
	"agent_rx_bytes_total{agent_name=\"w0\",hostname=\"p\"} " rx "\n"
/* prometheus_mp (main after 1.4.0, mp_collector.cpp baseLabels): one series
 * per process, hostname, agent_name, pid, agent_instance. */
#define NIXLMP(pid, tx, rx)                                               \
	"agent_tx_bytes_total{hostname=\"p\",agent_name=\"w\",pid=\"" pid \
	"\",agent_instance=\"0\"} " tx "\n"                               \
	"agent_rx_bytes_total{hostname=\"p\",agent_name=\"w\",pid=\"" pid \
	"\",agent_instance=\"0\"} " rx "\n"

static void nixl_09_names_read(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	/* 1 GiB of NIXL bytes; mlx5_0 2^28 words = 1 GiB each way */
	window_raw(&b, PORT("mlx5_0", "0", "0"), PORT("mlx5_0", "268435456", "268435456"),
		   NET("1000", "5"), NET("1000", "5"), NIXL09("0", "0"),
		   NIXL09("536870912", "536870912"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_OK);
	assert_non_null(strstr(c->detail, "KV moved 1 GiB over mlx5_0"));
	/* the window as measured, 2.2 s, in milliseconds in the evidence */
	assert_non_null(strstr(c->detail, "during 2.2 s"));
	bool ms = false, name = false;
	for (size_t i = 0; i < c->n_evidence; i++) {
		ms |= strstr(c->evidence[i], "window: 2200 ms") != NULL;
		name |= strstr(c->evidence[i], "agent_tx_bytes +") != NULL;
	}
	assert_true(ms);
	assert_true(name);
	assert_non_null(r.live);
	assert_int_equal(r.live->path, CI_PATH_RDMA);
	report_release(&r);
}

static void nixl_11_names_read(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window_raw(&b, PORT("mlx5_0", "0", "0"), PORT("mlx5_0", "268435456", "268435456"),
		   NET("1000", "5"), NET("1000", "5"), NIXL11("0", "0"),
		   NIXL11("536870912", "536870912"));
	judge(&b, &r);
	assert_int_equal(status_of(&r, "node.live.traffic"), CI_OK);
	report_release(&r);
}

static void prometheus_mp_ranks_summed(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window_raw(&b, PORT("mlx5_0", "0", "0"), PORT("mlx5_0", "268435456", "268435456"),
		   NET("1000", "5"), NET("1000", "5"),
		   NIXLMP("400", "0", "0") NIXLMP("401", "0", "0"),
		   NIXLMP("400", "268435456", "268435456") NIXLMP("401", "268435456", "268435456"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_OK);
	assert_non_null(strstr(c->detail, "KV moved 1 GiB")); /* both ranks summed */
	bool ranks = false;
	for (size_t i = 0; i < c->n_evidence; i++)
		ranks |= strstr(c->evidence[i], "pid 400 +268435456") &&
			 strstr(c->evidence[i], "pid 401 +268435456");
	assert_true(ranks);
	report_release(&r);
}

static void nixl_restart_spoils(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	/* the agent restarted: its counters began again below where they were */
	window_raw(&b, PORT("mlx5_0", "0", "0"), PORT("mlx5_0", "268435456", "268435456"),
		   NET("1000", "5"), NET("1000", "5"), NIXL11("8589934592", "8589934592"),
		   NIXL11("1073741824", "1073741824"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_true(c->critical);
	assert_non_null(strstr(c->detail, "fell"));
	assert_null(strstr(c->detail, "no KV moved"));
	assert_int_equal(r.live->path, CI_PATH_SPOILED);
	report_release(&r);
}

static void rdma_saturated_spoils(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	/* the kernel's 32-bit PortCounters fallback, stuck at 2^32-1 */
	window_raw(&b, PORT("mlx5_0", "4294967295", "4294967295"),
		   PORT("mlx5_0", "4294967295", "4294967295"), NET("1000", "5"), NET("1000", "5"),
		   NIXL11("0", "0"), NIXL11("1073741824", "1073741824"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_non_null(strstr(c->detail, "2^32-1"));
	assert_null(strstr(c->detail, "cuda_ipc"));
	report_release(&r);
}

static void rdma_reset_spoils_but_not_proof(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	/* mlx5_0 reset: alone it spoils the window */
	window_raw(&b, PORT("mlx5_0", "900000000", "900000000"), PORT("mlx5_0", "10", "10"),
		   NET("1000", "5"), NET("1000", "5"), NIXL11("0", "0"),
		   NIXL11("1073741824", "1073741824"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_non_null(strstr(c->detail, "mlx5_0 port 1"));
	report_release(&r);
	/* ... but mlx5_1 moving all of NIXL's bytes is proof all the same */
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window_raw(&b, PORT("mlx5_0", "900000000", "900000000") PORT("mlx5_1", "0", "0"),
		   PORT("mlx5_0", "10", "10") PORT("mlx5_1", "268435456", "268435456"),
		   NET("1000", "5"), NET("1000", "5"), NIXL11("0", "0"),
		   NIXL11("1073741824", "1073741824"));
	judge(&b, &r);
	c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_OK);
	bool left = false;
	for (size_t i = 0; i < c->n_evidence; i++)
		left |= strstr(c->evidence[i], "left out: mlx5_0") != NULL;
	assert_true(left);
	report_release(&r);
}

static void netdev_reset_spoils(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window_raw(&b, PORT("mlx5_0", "0", "0"), PORT("mlx5_0", "0", "0"), NET("9663676416", "5"),
		   NET("5000", "5"), NIXL11("0", "0"), NIXL11("536870912", "536870912"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_SKIPPED);
	assert_non_null(strstr(c->detail, "eth0"));
	report_release(&r);
}

static void loopback_is_tcp(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window_raw(&b, PORT("mlx5_0", "0", "0"), PORT("mlx5_0", "0", "0"), NET("1000", "5"),
		   NET("1000", "1073741829"), NIXL11("0", "0"), NIXL11("536870912", "536870912"));
	judge(&b, &r);
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_FAIL);
	assert_non_null(strstr(c->detail, "loopback TCP"));
	assert_null(strstr(c->detail, "cuda_ipc"));
	assert_int_equal(r.live->path, CI_PATH_LOOPBACK);
	assert_true(r.live->have_lo);
	assert_int_equal(r.live->lo_tx, 1073741824);
	report_release(&r);
}

#define FD_IMEX \
	"lr--r--r-- 1 root root 64 Dec  1 08:12 21 -> /dev/nvidia-caps-imex-channels/channel0\n"

static void mnnvl_is_its_own_path(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	/* GB200: no libuct_ib, no uverbs, an IMEX channel open */
	proc_ok(&b, UCX_PLUGIN UCT_CUDA UCP, FD_IMEX);
	window_raw(&b, "", "", NET("1000", "5"), NET("1000", "5"), NIXL11("0", "0"),
		   NIXL11("536870912", "536870912"));
	judge(&b, &r);
	const struct ci_check *l = find(&r, "node.live.loaded");
	assert_int_equal(l->status, CI_OK);
	assert_non_null(strstr(l->detail, "multi-node NVLink"));
	assert_null(strstr(l->detail, "cannot be moving KV"));
	const struct ci_check *c = find(&r, "node.live.traffic");
	assert_int_equal(c->status, CI_OK);
	assert_non_null(strstr(c->detail, "IMEX channel"));
	assert_int_equal(r.live->path, CI_PATH_MNNVL);
	report_release(&r);
	/* without the IMEX channel the same window is cuda_ipc or shm: a warn */
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window_raw(&b, "", "", NET("1000", "5"), NET("1000", "5"), NIXL11("0", "0"),
		   NIXL11("536870912", "536870912"));
	judge(&b, &r);
	assert_int_equal(status_of(&r, "node.live.traffic"), CI_WARN);
	assert_int_equal(r.live->path, CI_PATH_LOCAL);
	report_release(&r);
}

/* live_path_decide() asks the fabric model (rules/fabric.c), as node
 * does: the RDMA kind named, NVLink inside the node told apart, MNNVL from
 * the node's domain when the descriptors were not read. */
static void path_asks_the_fabric_model(void **state)
{
	struct tb b = {0};
	struct ci_report r;
	(void)state;
	const struct fabric_in roce = {.roce_nics = 1, .nics_read = true};
	g_fabric = &roce;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window(&b, 1000 + (2ull << 30), 2000, NIXL("100", "0"), NIXL("8589934692", "0"));
	judge(&b, &r);
	assert_non_null(strstr(find(&r, "node.live.traffic")->detail, "over mlx5_0 (RoCE)"));
	report_release(&r);
	const struct fabric_in ib = {.ib_nics = 2, .nics_read = true};
	g_fabric = &ib;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window(&b, 1000 + (2ull << 30), 2000, NIXL("100", "0"), NIXL("8589934692", "0"));
	judge(&b, &r);
	assert_non_null(strstr(find(&r, "node.live.traffic")->detail, "(InfiniBand)"));
	report_release(&r);
	/* NIXL moved, no NIC and no TCP, no IMEX channel, NVLink between the
	 * node's 8 GPUs: the bytes stayed in the node, over its NVLink */
	const struct fabric_in nvl = {.gpus = 8, .nvlink_all_pairs = FABRIC_YES};
	g_fabric = &nvl;
	proc_ok(&b, UCX_PLUGIN UCT_IB UCT_CUDA UCP, FD_UVERBS);
	window_raw(&b, "", "", NET("1000", "5"), NET("1000", "5"), NIXL11("0", "0"),
		   NIXL11("536870912", "536870912"));
	judge(&b, &r);
	assert_int_equal(r.live->path, CI_PATH_LOCAL);
	assert_non_null(strstr(find(&r, "node.live.traffic")->detail, "node's NVLink"));
	report_release(&r);
	g_fabric = NULL;
	/* the decision itself: descriptors unread, the node in an NVLink
	 * domain with an IMEX channel -> MNNVL; without the channel -> local */
	struct live_summary s;
	memset(&s, 0, sizeof(s));
	s.observed = s.nixl = true;
	s.nixl_tx = s.nixl_rx = 536870912.0;
	struct fabric_in dom = {
		.gpus = 4, .cluster_uuid = true, .imex_channels = 1, .fabric = FGS_COMPLETED};
	fabric_decide(&dom, &s.fabric);
	assert_int_equal(live_path_decide(&s), LIVE_PATH_MNNVL);
	s.fds_read = true; /* read, and no IMEX channel held: not MNNVL */
	assert_int_equal(live_path_decide(&s), LIVE_PATH_LOCAL);
	s.fds_read = false;
	dom.imex_channels = 0;
	fabric_decide(&dom, &s.fabric);
	assert_int_equal(live_path_decide(&s), LIVE_PATH_LOCAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(not_collected),
		cmocka_unit_test(ucx_with_ib_and_uverbs),
		cmocka_unit_test(ucx_without_ib),
		cmocka_unit_test(ucx_without_cuda),
		cmocka_unit_test(two_ucx_copies),
		cmocka_unit_test(libfabric_efa),
		cmocka_unit_test(not_readable),
		cmocka_unit_test(kv_over_rdma),
		cmocka_unit_test(kv_over_tcp),
		cmocka_unit_test(rdma_path_settles_memlock),
		cmocka_unit_test(rdma_bytes_without_uverbs_settle_nothing),
		cmocka_unit_test(tcp_path_settles_nothing),
		cmocka_unit_test(errors_grow),
		cmocka_unit_test(errors_not_exported),
		cmocka_unit_test(nothing_moved),
		cmocka_unit_test(no_telemetry),
		cmocka_unit_test(logs_nixl_backend_error),
		cmocka_unit_test(logs_nccl_socket_and_healthy),
		cmocka_unit_test(logs_unreadable),
		cmocka_unit_test(logs_nccl_socket_list_then_ib),
		cmocka_unit_test(logs_from_source_format),
		cmocka_unit_test(nixl_09_names_read),
		cmocka_unit_test(nixl_11_names_read),
		cmocka_unit_test(prometheus_mp_ranks_summed),
		cmocka_unit_test(nixl_restart_spoils),
		cmocka_unit_test(rdma_saturated_spoils),
		cmocka_unit_test(rdma_reset_spoils_but_not_proof),
		cmocka_unit_test(netdev_reset_spoils),
		cmocka_unit_test(loopback_is_tcp),
		cmocka_unit_test(mnnvl_is_its_own_path),
		cmocka_unit_test(path_asks_the_fabric_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
