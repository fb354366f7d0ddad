/* SPDX-License-Identifier: Apache-2.0 */
/* Facts and checks of the node verb, over saved transcripts (made by
 * --save-probe over the sysroot trees) and small hand-written ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/bytes.h"
#include "core/report.h"
#include "core/xalloc.h"
#include "node/node.h"
#include "node/node_checks.h"
#include "node/node_desc.h"
#include "node/node_facts.h"
#include "test_util.h"

static enum ci_status st(const struct ci_report *r, const char *id)
{
	const struct ci_check *c = tu_find(r, id);
	if (!c) {
		fail_msg("check %s not reported", id);
		return (enum ci_status) - 1;
	}
	return c->status;
}

static bool crit(const struct ci_report *r, const char *id)
{
	const struct ci_check *c = tu_find(r, id);
	return c && c->critical;
}

static const char *fix_of(const struct ci_report *r, const char *id)
{
	const struct ci_check *c = tu_find(r, id);
	return c && c->fix ? c->fix : "";
}

static bool detail_has(const struct ci_report *r, const char *id, const char *needle)
{
	const struct ci_check *c = tu_find(r, id);
	return c && strstr(c->detail, needle);
}

/* Analyse a transcript held in memory. */
static void analyse(struct ci_report *r, const char *text, size_t len)
{
	struct transcript t;
	transcript_init(&t);
	transcript_parse(&t, text, len);
	report_init(r, "node", "test");
	node_analyze(r, &t, "test");
	transcript_release(&t);
}

static void analyse_file(struct ci_report *r, const char *path)
{
	size_t len;
	char *b = tu_slurp(path, &len);
	analyse(r, b, len);
	free(b);
}

static int verdict(const struct ci_report *r)
{
	struct ci_verdict v;
	verdict_compute(r, &v);
	int k = (int)v.kind;
	verdict_release(&v);
	return k;
}

static void test_h100_ib(void **state)
{
	(void)state;
	struct ci_report r;
	analyse_file(&r, "tests/fixtures/node/transcripts/h100_ib.txt");
	assert_int_equal(st(&r, "node.rdma.devices"), CI_OK);
	assert_true(detail_has(&r, "node.rdma.devices", "9 RDMA devices: 8 InfiniBand, 1 RoCE"));
	assert_int_equal(st(&r, "node.rdma.ports"), CI_OK);
	assert_int_equal(st(&r, "node.rdma.uverbs"), CI_OK);
	assert_int_equal(st(&r, "node.roce.gid"), CI_OK);
	assert_int_equal(st(&r, "node.gpudirect"), CI_OK);
	assert_true(detail_has(&r, "node.gpudirect", "nvidia_peermem"));
	assert_int_equal(st(&r, "node.gdrcopy"), CI_OK);
	assert_int_equal(st(&r, "node.nvlink"), CI_OK);
	assert_true(detail_has(&r, "node.nvlink", "NV18"));
	assert_int_equal(st(&r, "node.nvlink.fabric"), CI_OK);
	assert_int_equal(st(&r, "node.gpu_nic_affinity"), CI_OK);
	assert_int_equal(st(&r, "node.memlock"), CI_OK);
	assert_null(tu_find(&r, "node.caps")); /* folded into node.memlock */
	assert_int_equal(st(&r, "node.shm"), CI_OK);
	assert_int_equal(st(&r, "node.env.ucx.net_devices"), CI_OK);
	assert_int_equal(st(&r, "node.env.ucx.devices_exist"), CI_OK);
	assert_int_equal(st(&r, "node.env.ucx.tls"), CI_OK);
	assert_int_equal(st(&r, "node.env.nccl.ib_hca"), CI_OK);
	assert_int_equal(verdict(&r), CI_READY);
	/* Facts: the pod's variables, the secret one redacted, planted ones absent. */
	bool tls = false;
	for (size_t i = 0; i < r.n_facts; i++) {
		assert_null(strstr(r.facts[i].name, "HF_TOKEN"));
		assert_null(strstr(r.facts[i].value, "PLANTED"));
		if (!strcmp(r.facts[i].name, "UCX_TLS"))
			tls = !strcmp(r.facts[i].value, "rc_x,rc,cuda_copy,cuda_ipc");
		if (!strcmp(r.facts[i].name, "NIXL_ETCD_PASSWORD"))
			assert_string_equal(r.facts[i].value, "<redacted>");
	}
	assert_true(tls);
	report_release(&r);
}

static void test_gb200(void **state)
{
	(void)state;
	struct ci_report r;
	analyse_file(&r, "tests/fixtures/node/transcripts/gb200.txt");
	assert_int_equal(st(&r, "node.mnnvl.imex"), CI_OK);
	assert_int_equal(st(&r, "node.nvlink.fabric"), CI_WARN); /* Health: Unhealthy */
	/* ^cuda_ipc on MNNVL with InfiniBand NICs: KV takes the NIC (the
	 * env verb's rule, so both verbs judge it alike) */
	assert_int_equal(st(&r, "node.env.ucx.tls"), CI_WARN);
	assert_true(detail_has(&r, "node.env.ucx.tls", "excludes cuda_ipc, the MNNVL path"));
	assert_non_null(strstr(fix_of(&r, "node.env.ucx.tls"), "UCX_TLS=cuda_copy,cuda_ipc,tcp"));
	/* open module on 6.8, no peermem, but the transcript's UCX is 1.13.1:
	 * DMA-BUF needs UCX >= 1.14, so UCX stages through host memory */
	assert_int_equal(st(&r, "node.gpudirect"), CI_WARN);
	assert_true(detail_has(&r, "node.gpudirect", "older than 1.14"));
	assert_int_equal(verdict(&r), CI_DEGRADED);
	report_release(&r);
}

static void test_down_memlock(void **state)
{
	(void)state;
	struct ci_report r;
	analyse_file(&r, "tests/fixtures/node/transcripts/down_memlock.txt");
	assert_int_equal(st(&r, "node.rdma.ports"), CI_WARN);
	assert_true(detail_has(&r, "node.rdma.ports", "mlx5_2/1 DOWN (Disabled)"));
	assert_true(detail_has(&r, "node.rdma.ports", "mlx5_8/1"));
	assert_int_equal(st(&r, "node.memlock"), CI_FAIL);
	assert_true(detail_has(&r, "node.memlock", "64 KiB"));
	assert_int_equal(st(&r, "node.env.nccl.socket_ifname"), CI_FAIL);
	/* nvidia-smi is not in that image: skipped, never failed */
	assert_int_equal(st(&r, "node.nvlink"), CI_SKIPPED);
	assert_true(detail_has(&r, "node.nvlink", "not on PATH"));
	assert_int_equal(verdict(&r), CI_BLOCKED);
	report_release(&r);
}

static void test_ci_host(void **state)
{
	(void)state;
	struct ci_report r;
	analyse_file(&r, "tests/fixtures/node/transcripts/ci_host.txt");
	assert_int_equal(st(&r, "node.rdma.devices"), CI_SKIPPED);
	assert_true(crit(&r, "node.rdma.devices"));
	assert_true(detail_has(&r, "node.rdma.devices", "not a GPU worker"));
	assert_int_equal(st(&r, "node.memlock"), CI_SKIPPED);
	assert_int_equal(verdict(&r), CI_UNKNOWN);
	report_release(&r);
}

/* ---- hand-written transcripts ---- */

#define HDR "@@ci-probe v1\n@@begin meta\n|root=sysroot\n|kernel=%s\n@@end meta rc=0\n"

static void analyse_fmt(struct ci_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void analyse_fmt(struct ci_report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	analyse(r, s, strlen(s));
	free(s);
}

#define IB_DEV(d, state, rate, lid)                                   \
	"|sys/class/infiniband/" d "/\n"                              \
	"|sys/class/infiniband/" d "/ports/1/state=" state "\n"       \
	"|sys/class/infiniband/" d "/ports/1/phys_state=5: LinkUp\n"  \
	"|sys/class/infiniband/" d "/ports/1/rate=" rate "\n"         \
	"|sys/class/infiniband/" d "/ports/1/link_layer=InfiniBand\n" \
	"|sys/class/infiniband/" d "/ports/1/lid=" lid "\n"

static void test_mixed_rates_and_lid0(void **state)
{
	(void)state;
	struct ci_report r;
	analyse_fmt(
		&r,
		HDR
		"@@begin sys\n" IB_DEV("mlx5_0", "4: ACTIVE", "400 Gb/sec (4X NDR)", "0x10") IB_DEV(
			"mlx5_1", "4: ACTIVE", "200 Gb/sec (4X HDR)",
			"0x0") "@@end sys rc=0\n@@begin dev\n|dev/infiniband/uverbs0\n@@end dev rc=0\n@@done\n",
		"6.8.0");
	assert_int_equal(st(&r, "node.rdma.ports"), CI_WARN);
	assert_true(detail_has(&r, "node.rdma.ports", "mixed InfiniBand rates 200..400 Gb/s"));
	assert_true(detail_has(&r, "node.rdma.ports", "LID 0"));
	assert_int_equal(st(&r, "node.rdma.uverbs"), CI_OK);
	/* no GPU at all: GPUDirect cannot be judged, and that is critical here */
	assert_int_equal(st(&r, "node.gpudirect"), CI_SKIPPED);
	assert_true(crit(&r, "node.gpudirect"));
	report_release(&r);
}

/* ibv_devinfo lists only the devices libibverbs opened: one missing from
 * its list is a warning naming it; its absence leaves the check unproven
 * but ok. */
static void test_verbs_open(void **state)
{
	(void)state;
	static const char sys_dev[] = "@@begin sys\n" IB_DEV("mlx5_0", "4: ACTIVE",
							     "400 Gb/sec (4X NDR)", "0x10")
		IB_DEV("mlx5_1", "4: ACTIVE", "400 Gb/sec (4X NDR)",
		       "0x11") "@@end sys rc=0\n@@begin dev\n|dev/infiniband/uverbs0\n|dev/infiniband/uverbs1\n"
			       "@@end dev rc=0\n";
	struct ci_report r;
	analyse_fmt(&r,
		    HDR "%s@@begin tool:ibv_devinfo\n|hca_id:\tmlx5_0\n"
			"|\ttransport:\t\t\tInfiniBand (0)\n|libibverbs: Warning: no userspace "
			"device-specific driver found for /sys/class/infiniband_verbs/uverbs1\n"
			"@@end tool:ibv_devinfo rc=0\n@@done\n",
		    "6.8.0", sys_dev);
	assert_int_equal(st(&r, "node.rdma.uverbs"), CI_WARN);
	assert_true(detail_has(&r, "node.rdma.uverbs", "opens 1 of 2 RDMA devices; not: mlx5_1"));
	report_release(&r);

	analyse_fmt(&r,
		    HDR "%s@@begin tool:ibv_devinfo\n@@end tool:ibv_devinfo rc=127 missing\n"
			"@@done\n",
		    "6.8.0", sys_dev);
	assert_int_equal(st(&r, "node.rdma.uverbs"), CI_OK);
	assert_true(detail_has(&r, "node.rdma.uverbs", "opening them not verified"));
	report_release(&r);
}

static void test_all_ports_down(void **state)
{
	(void)state;
	struct ci_report r;
	analyse_fmt(&r,
		    HDR "@@begin sys\n" IB_DEV("mlx5_0", "1: DOWN", "10 Gb/sec (4X SDR)",
					       "0x0") "@@end sys rc=0\n@@done\n",
		    "6.8.0");
	assert_int_equal(st(&r, "node.rdma.ports"), CI_FAIL);
	assert_true(detail_has(&r, "node.rdma.ports", "none of the 1 RDMA data ports is active"));
	report_release(&r);
}

static const char gpu_dev[] =
	"@@begin dev\n|dev/infiniband/uverbs0\n|dev/nvidia0\n|dev/nvidia1\n@@end dev rc=0\n";

static void test_gpudirect_ladder(void **state)
{
	(void)state;
	struct ci_report r;
	/* open module but kernel 5.11: no DMA-BUF, no peermem: host staging */
	analyse_fmt(
		&r,
		HDR "@@begin sys\n" IB_DEV(
			"mlx5_0", "4: ACTIVE", "400 Gb/sec (4X NDR)",
			"0x1") "@@end sys rc=0\n%s@@begin proc:modules\n|mlx5_ib 1 0 - Live 0x0\n@@end proc:modules rc=0\n"
			       "@@begin proc:nvidia-version\n|NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.1\n"
			       "@@end proc:nvidia-version rc=0\n@@done\n",
		"5.11.0", gpu_dev);
	assert_int_equal(st(&r, "node.gpudirect"), CI_WARN);
	assert_true(detail_has(&r, "node.gpudirect", "staged through host memory"));
	assert_int_equal(st(&r, "node.gdrcopy"), CI_WARN);
	report_release(&r);
	/* kernel 5.12 + open module: DMA-BUF */
	analyse_fmt(
		&r,
		HDR "@@begin sys\n" IB_DEV(
			"mlx5_0", "4: ACTIVE", "400 Gb/sec (4X NDR)",
			"0x1") "@@end sys rc=0\n%s@@begin proc:modules\n|mlx5_ib 1 0 - Live 0x0\n@@end proc:modules rc=0\n"
			       "@@begin proc:nvidia-version\n|NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.1\n"
			       "@@end proc:nvidia-version rc=0\n@@done\n",
		"5.12.0", gpu_dev);
	assert_int_equal(st(&r, "node.gpudirect"), CI_OK);
	report_release(&r);
	/* peermem loaded but not registered, proprietary module: UCX uses it,
	 * NCCL says "GDR Disabled" */
	analyse_fmt(
		&r,
		HDR "@@begin sys\n" IB_DEV(
			"mlx5_0", "4: ACTIVE", "400 Gb/sec (4X NDR)",
			"0x1") "@@end sys rc=0\n%s@@begin proc:modules\n|nvidia_peermem 16384 0 - Live 0x0\n@@end proc:modules rc=0\n"
			       "@@begin proc:nvidia-version\n|NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.1\n"
			       "@@end proc:nvidia-version rc=0\n@@done\n",
		"6.8.0", gpu_dev);
	assert_int_equal(st(&r, "node.gpudirect"), CI_WARN);
	assert_true(detail_has(&r, "node.gpudirect", "memory_peers is absent"));
	report_release(&r);
}

static void test_memlock_boundary(void **state)
{
	(void)state;
	struct ci_report r;
	/* no CapEff read, 512 MiB: a finite limit (no "512 MiB" rule in UCX) */
	analyse_fmt(
		&r,
		HDR "@@begin sys\n" IB_DEV(
			"mlx5_0", "4: ACTIVE", "400 Gb/sec (4X NDR)",
			"0x1") "@@end sys rc=0\n@@begin proc:limits\n|Max locked memory         536870912            536870912            bytes\n"
			       "@@end proc:limits rc=0\n@@done\n",
		"6.8.0");
	assert_int_equal(st(&r, "node.memlock"), CI_WARN);
	assert_false(detail_has(&r, "node.memlock", "drops"));
	report_release(&r);
	/* 64 MiB is the fail boundary; the hard limit allows raising it */
	analyse_fmt(
		&r,
		HDR "@@begin sys\n" IB_DEV(
			"mlx5_0", "4: ACTIVE", "400 Gb/sec (4X NDR)",
			"0x1") "@@end sys rc=0\n@@begin proc:limits\n|Max locked memory         67104768             unlimited            bytes\n"
			       "@@end proc:limits rc=0\n@@done\n",
		"6.8.0");
	assert_int_equal(st(&r, "node.memlock"), CI_FAIL);
	assert_non_null(strstr(fix_of(&r, "node.memlock"), "ulimit -l unlimited"));
	assert_non_null(strstr(fix_of(&r, "node.memlock"), "IPC_LOCK"));
	report_release(&r);
	/* the same 64 KiB limit with CAP_IPC_LOCK in pid 1: the limit does not apply */
	analyse_fmt(
		&r,
		HDR "@@begin sys\n" IB_DEV(
			"mlx5_0", "4: ACTIVE", "400 Gb/sec (4X NDR)",
			"0x1") "@@end sys rc=0\n@@begin proc:pid1-limits\n|Max locked memory         65536                65536                bytes\n"
			       "@@end proc:pid1-limits rc=0\n@@begin proc:pid1-status\n|CapEff:\t00000000a80465fb\n"
			       "@@end proc:pid1-status rc=0\n@@done\n",
		"6.8.0");
	assert_int_equal(st(&r, "node.memlock"), CI_OK);
	assert_true(
		detail_has(&r, "node.memlock", "CAP_IPC_LOCK is effective in the worker (pid 1)"));
	report_release(&r);
}

static void test_env_against_hardware(void **state)
{
	(void)state;
	struct ci_report r;
	analyse_fmt(
		&r,
		HDR
		"@@begin sys\n" IB_DEV("mlx5_0", "4: ACTIVE", "400 Gb/sec (4X NDR)", "0x1") IB_DEV(
			"mlx5_bond_0", "4: ACTIVE", "200 Gb/sec (2X NDR)",
			"0x0") "|sys/class/net/eth0/\n|sys/class/net/eth0/operstate=up\n"
			       "|sys/class/net/ib0/\n|sys/class/net/ib0/operstate=down\n"
			       "@@end sys rc=0\n@@begin dev\n|dev/infiniband/uverbs0\n@@end dev rc=0\n"
			       "@@begin env:pid1\n|UCX_NET_DEVICES=mlx5_3:1,mlx5_bond_0:1\n|NCCL_IB_HCA=mlx5_9\n"
			       "|NCCL_SOCKET_IFNAME=ib\n|UCX_TLS=tcp,cuda_copy\n@@end env:pid1 rc=0\n@@done\n",
		"6.8.0");
	assert_int_equal(st(&r, "node.env.ucx.devices_exist"), CI_FAIL);
	assert_true(detail_has(&r, "node.env.ucx.devices_exist",
			       "mlx5_3:1 (no such RDMA device here)"));
	/* an InfiniBand port with LID 0 is a fault, bond or not */
	assert_true(detail_has(&r, "node.env.ucx.devices_exist", "InfiniBand port with LID 0"));
	/* the shared form rule no longer calls a bond a fault: the hardware decides */
	assert_int_equal(st(&r, "node.env.ucx.net_devices"), CI_OK);
	assert_int_equal(st(&r, "node.env.nccl.ib_hca"), CI_FAIL);
	assert_int_equal(st(&r, "node.env.nccl.socket_ifname"), CI_FAIL);
	assert_true(detail_has(&r, "node.env.nccl.socket_ifname", "ib0 (down)"));
	assert_int_equal(st(&r, "node.env.ucx.tls"), CI_FAIL);
	assert_true(detail_has(&r, "node.env.ucx.tls", "leaves no RDMA transport"));
	assert_true(crit(&r, "node.env.ucx.tls"));
	/* the ids of the copies the shared rules replaced are gone */
	assert_null(tu_find(&r, "node.env.ucx_tls"));
	assert_null(tu_find(&r, "node.env.ucx_net_devices"));
	report_release(&r);
}

/* The env verb's value rules, run on the pod's variables with the fabric
 * the hardware shows. */
static void test_env_shared_rules(void **state)
{
	(void)state;
	struct ci_report r;
	/* an InfiniBand pod: sockets forced, rendezvous off, interfaces only */
	analyse_fmt(
		&r,
		HDR "@@begin sys\n" IB_DEV(
			"mlx5_0", "4: ACTIVE", "400 Gb/sec (4X NDR)",
			"0x1") "|sys/class/net/eth0/\n|sys/class/net/eth0/operstate=up\n"
			       "@@end sys rc=0\n@@begin dev\n|dev/infiniband/uverbs0\n@@end dev rc=0\n"
			       "@@begin env:pid1\n|NCCL_IB_DISABLE=1\n|UCX_RNDV_THRESH=inf\n"
			       "|UCX_NET_DEVICES=eth0\n|UCX_IB_ADDR_TYPE=ib_local\n@@end env:pid1 rc=0\n@@done\n",
		"6.8.0");
	assert_int_equal(st(&r, "node.env.nccl.ib"), CI_WARN);
	assert_true(detail_has(&r, "node.env.nccl.ib",
			       "NCCL_IB_DISABLE=1: NCCL traffic between "
			       "nodes goes over TCP sockets although this host has RDMA devices"));
	const struct ci_check *c = tu_find(&r, "node.env.nccl.ib");
	if (c) {
		assert_string_equal(c->subject, "NCCL_IB_DISABLE");
		assert_int_equal(c->n_evidence, 1);
		assert_string_equal(c->evidence[0], "pid 1 environment: NCCL_IB_DISABLE=1");
	}
	/* inf is what NIXL's UCX plugin sets itself: not a finding */
	assert_int_equal(st(&r, "node.env.ucx.rndv"), CI_OK);
	assert_true(detail_has(&r, "node.env.ucx.rndv", "NIXL's UCX plugin sets itself"));
	assert_int_equal(st(&r, "node.env.ucx.net_devices"), CI_FAIL);
	assert_true(detail_has(&r, "node.env.ucx.net_devices", "names only network interfaces"));
	assert_int_equal(st(&r, "node.env.ucx.devices_exist"), CI_OK);
	assert_int_equal(st(&r, "node.env.ucx.ib_addr_type"), CI_WARN);
	assert_null(tu_find(&r, "node.env.ucx.tls")); /* not set: nothing to say */
	report_release(&r);

	/* no RDMA device at all: TCP-only values lose nothing here */
	analyse_fmt(&r,
		    HDR "@@begin sys\n|sys/class/net/eth0/\n|sys/class/net/eth0/operstate=up\n"
			"@@end sys rc=0\n@@begin env:pid1\n|NCCL_IB_DISABLE=1\n|UCX_TLS=tcp\n"
			"|UCX_NET_DEVICES=eth0\n@@end env:pid1 rc=0\n@@done\n",
		    "6.8.0");
	assert_int_equal(st(&r, "node.env.nccl.ib"), CI_OK);
	assert_int_equal(st(&r, "node.env.ucx.tls"), CI_OK);
	assert_int_equal(st(&r, "node.env.ucx.net_devices"), CI_OK);
	assert_null(tu_find(&r, "node.env.ucx.ib_addr_type")); /* not InfiniBand */
	report_release(&r);
}

static void test_nccl_hca_semantics(void **state)
{
	(void)state;
	assert_true(node_nccl_hca_selects("mlx5", "mlx5_10"));
	assert_false(node_nccl_hca_selects("=mlx5_1", "mlx5_10"));
	assert_true(node_nccl_hca_selects("=mlx5_1:1,mlx5_2", "mlx5_1"));
	assert_false(node_nccl_hca_selects("^mlx5_1", "mlx5_10")); /* prefix exclusion */
	assert_true(node_nccl_hca_selects("^=mlx5_1", "mlx5_10"));
	assert_false(node_nccl_hca_selects("^=mlx5_1", "mlx5_1"));
	assert_true(node_nccl_hca_selects("^mlx5_1", "mlx5_0"));
}

static void test_efa(void **state)
{
	(void)state;
	struct ci_report r;
	static const char sys[] =
		"@@begin sys\n|sys/class/infiniband/rdmap197s0/\n"
		"|sys/class/infiniband/rdmap197s0/ports/1/state=4: ACTIVE\n"
		"|sys/class/infiniband/rdmap197s0/ports/1/phys_state=5: LinkUp\n"
		"|sys/class/infiniband/rdmap197s0/ports/1/rate=100 Gb/sec (4X EDR)\n"
		"|sys/class/infiniband/rdmap197s0/ports/1/link_layer=Unspecified\n@@end sys rc=0\n";
	analyse_fmt(&r,
		    HDR "%s@@begin tool:fi_info-efa\n|provider: efa\n|    fabric: efa\n"
			"|    domain: rdmap197s0-rdm\n|    version: 116.10\n|    type: FI_EP_RDM\n"
			"|    protocol: FI_PROTO_EFA\n@@end tool:fi_info-efa rc=0\n@@done\n",
		    "6.8.0", sys);
	/* provider 116.10 is libfabric 1.16.1 (rules/efa.c); no NIXL release
	 * read: the newest NIXL asks fi_getinfo for API 1.18 and cannot start */
	assert_int_equal(st(&r, "node.efa"), CI_FAIL);
	assert_true(detail_has(&r, "node.efa", "-FI_ENOSYS"));
	assert_true(detail_has(&r, "node.rdma.devices", "1 EFA"));
	report_release(&r);
	analyse_fmt(
		&r,
		HDR
		"%s@@begin tool:fi_info-efa\n|fi_getinfo: -61\n@@end tool:fi_info-efa rc=1\n@@done\n",
		"6.8.0", sys);
	assert_int_equal(st(&r, "node.efa"), CI_FAIL);
	report_release(&r);
	analyse_fmt(&r,
		    HDR "@@begin tool:fi_info-efa\n@@end tool:fi_info-efa rc=127 missing\n@@done\n",
		    "6.8.0");
	assert_int_equal(st(&r, "node.efa"), CI_SKIPPED);
	report_release(&r);
}

static void test_one_gpu_and_cut(void **state)
{
	(void)state;
	struct ci_report r;
	/* no @@done: the transcript was cut */
	analyse_fmt(
		&r,
		HDR
		"@@begin sys\n|sys/class/net/eth0/\n@@end sys rc=0\n@@begin tool:nvsmi-query\n|0, NVIDIA H100 NVL, 00000000:53:00.0, 535.1\n"
		"@@end tool:nvsmi-query rc=0\n@@begin tool:nvsmi-topo\n|nope\n@@end tool:nvsmi-topo rc=0\n",
		"6.8.0");
	assert_int_equal(st(&r, "node.probe"), CI_WARN);
	assert_int_equal(st(&r, "node.nvlink"), CI_SKIPPED);
	assert_true(detail_has(&r, "node.nvlink", "one GPU"));
	/* a GPU but no RDMA device: KV over TCP */
	assert_int_equal(st(&r, "node.rdma.devices"), CI_FAIL);
	report_release(&r);
	/* not a transcript at all */
	analyse(&r, "hello\n", 6);
	assert_int_equal(st(&r, "node.probe"), CI_SKIPPED);
	assert_int_equal(verdict(&r), CI_UNKNOWN);
	report_release(&r);
}

static void test_bytes_str(void **state)
{
	(void)state;
	char b[32];
	assert_string_equal(bytes_str(65536, b, sizeof(b)), "64 KiB");
	assert_string_equal(bytes_str(512ull << 20, b, sizeof(b)), "512 MiB");
	assert_string_equal(bytes_str(UINT64_MAX, b, sizeof(b)), "unlimited");
}

/* The run-order table: each row's descriptor is one of node's, and no two
 * rows decide the same check. */
static void test_steps_table(void **state)
{
	(void)state;
	assert_true(node_steps_len > 0);
	for (size_t i = 0; i < node_steps_len; i++) {
		const struct check_desc *d = node_steps[i].desc;
		assert_non_null(node_steps[i].run);
		assert_true(d >= node_check_table && d < node_check_table + NODE_CK_COUNT);
		for (size_t j = 0; j < i; j++)
			assert_ptr_not_equal(node_steps[j].desc, d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_h100_ib),
		cmocka_unit_test(test_gb200),
		cmocka_unit_test(test_down_memlock),
		cmocka_unit_test(test_ci_host),
		cmocka_unit_test(test_mixed_rates_and_lid0),
		cmocka_unit_test(test_verbs_open),
		cmocka_unit_test(test_all_ports_down),
		cmocka_unit_test(test_gpudirect_ladder),
		cmocka_unit_test(test_memlock_boundary),
		cmocka_unit_test(test_env_against_hardware),
		cmocka_unit_test(test_env_shared_rules),
		cmocka_unit_test(test_nccl_hca_semantics),
		cmocka_unit_test(test_efa),
		cmocka_unit_test(test_one_gpu_and_cut),
		cmocka_unit_test(test_bytes_str),
		cmocka_unit_test(test_steps_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
