/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The readings and shared judgements of the node facts, on hand-written
 * transcripts in the probe's wire format: pid 1's limits and capabilities,
 * every GID index, the two counter readings, uverbs per device, libraries,
 * and the one GPUDirect judgement (node_gpudirect_view).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "node/gpudirect.h"
#include "node/node_checks.h"
#include "node/node_facts.h"
#include "parse/transcript.h"

static void facts(struct node_facts *f, const char *text)
{
	struct transcript t;
	transcript_init(&t);
	transcript_parse(&t, text, strlen(text));
	node_facts_init(f);
	node_facts_read(f, &t);
	transcript_release(&t);
}

#define HDR \
	"@@ci-probe v1\n@@begin meta\n|root=sysroot\n|kernel=6.8.0\n|gids=all\n@@end meta rc=0\n"
#define ROCE(d)                                                          \
	"|sys/class/infiniband/" d "/\n"                                 \
	"|sys/class/infiniband/" d "/hca_type=MT4129\n"                  \
	"|sys/class/infiniband/" d "/ports/1/\n"                         \
	"|sys/class/infiniband/" d "/ports/1/state=4: ACTIVE\n"          \
	"|sys/class/infiniband/" d "/ports/1/phys_state=5: LinkUp\n"     \
	"|sys/class/infiniband/" d "/ports/1/rate=400 Gb/sec (4X NDR)\n" \
	"|sys/class/infiniband/" d "/ports/1/link_layer=Ethernet\n"      \
	"|sys/class/infiniband/" d "/ports/1/lid=0x0\n"

static void pid1_first(void **state)
{
	(void)state;
	struct node_facts f;
	facts(&f, HDR
	      "@@begin proc:limits\n|Max locked memory         unlimited            unlimited            bytes\n"
	      "@@end proc:limits rc=0\n@@begin proc:pid1-limits\n|Max locked memory         65536                65536                bytes\n"
	      "@@end proc:pid1-limits rc=0\n@@begin proc:status\n|CapEff:\t00000000a80425fb\n@@end proc:status rc=0\n"
	      "@@begin proc:pid1-status\n|CapEff:\t00000000a80465fb\n@@end proc:pid1-status rc=0\n@@done\n");
	assert_true(f.memlock_pid1);
	assert_true(f.memlock_soft == 65536);
	assert_string_equal(f.caps_source, "/proc/1/status");
	assert_true(node_ipc_lock(&f));
	node_facts_release(&f);
	/* an old transcript: the exec shell's readings */
	facts(&f, HDR
	      "@@begin proc:limits\n|Max locked memory         unlimited            unlimited            bytes\n"
	      "@@end proc:limits rc=0\n@@begin proc:status\n|CapEff:\t00000000a80425fb\n@@end proc:status rc=0\n@@done\n");
	assert_false(f.memlock_pid1);
	assert_string_equal(f.memlock_source, "/proc/self/limits");
	assert_false(node_ipc_lock(&f));
	node_facts_release(&f);
}

static void gid_table(void **state)
{
	(void)state;
	struct node_facts f;
	facts(&f,
	      HDR "@@begin sys\n" ROCE(
		      "mlx5_0") "|sys/class/infiniband/mlx5_0/ports/1/gids/0=fe80:0000:0000:0000:5aa2:e1ff:fe76:0398\n"
				"|sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/0=IB/RoCE v1\n"
				"|sys/class/infiniband/mlx5_0/ports/1/gids/1=fe80:0000:0000:0000:5aa2:e1ff:fe76:0398\n"
				"|sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/1=RoCE v2\n"
				"|sys/class/infiniband/mlx5_0/ports/1/gids/11=0000:0000:0000:0000:0000:ffff:0a00:0a05\n"
				"|sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/11=RoCE v2\n"
				"|sys/class/infiniband/mlx5_0/ports/1/gids/12=0000:0000:0000:0000:0000:0000:0000:0000\n"
				"@@end sys rc=0\n@@done\n");
	const struct node_port *p = &f.devs[0].ports[0];
	assert_int_equal(p->n_gids, 3);
	assert_int_equal(p->roce_v2_index, 1);
	assert_non_null(node_port_gid(p, 11));
	assert_int_equal(node_port_gid(p, 11)->type, IB_GID_ROCE_V2);
	assert_true(node_gid_ipv4(node_port_gid(p, 11)->gid));
	assert_null(node_port_gid(p, 12)); /* all zeros: empty */
	assert_false(node_port_v2_link_local_only(p));
	assert_true(f.gids_all);
	node_facts_release(&f);
	facts(&f,
	      HDR "@@begin sys\n" ROCE(
		      "mlx5_0") "|sys/class/infiniband/mlx5_0/ports/1/gids/1=fe80:0000:0000:0000:5aa2:e1ff:fe76:0398\n"
				"|sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/1=RoCE v2\n@@end sys rc=0\n@@done\n");
	assert_true(node_port_v2_link_local_only(&f.devs[0].ports[0]));
	node_facts_release(&f);
}

static void counters_twice(void **state)
{
	(void)state;
	struct node_facts f;
	facts(&f,
	      HDR "@@begin sys\n" ROCE(
		      "mlx5_0") "|sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error=10\n"
				"|sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence=5\n"
				"@@end sys rc=0\n@@begin sys:counters\n|interval_ms=1370\n"
				"|sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error=12\n"
				"|sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence=5\n"
				"|sys/class/infiniband/mlx5_9/ports/1/counters/symbol_error=1\n"
				"@@end sys:counters rc=0\n@@done\n");
	const struct node_port *p = &f.devs[0].ports[0];
	assert_true(f.have_ctr2);
	assert_int_equal(f.n_devs, 1); /* the second reading adds no device */
	assert_true(p->ctr[0][NC_SYMBOL_ERROR] == 10 && p->ctr[1][NC_SYMBOL_ERROR] == 12);
	assert_true(p->ctr[1][NC_LINK_DOWNED] == UINT64_MAX);
	assert_int_equal(f.ctr_interval_ms, 1370);
	node_facts_release(&f);
}

/* nvidia-smi's bus id (8-digit domain, upper case) finds the GPU's sysfs
 * entry (4-digit domain, lower case); another domain does not. */
static void pci_gpu_by_bus_id(void **state)
{
	(void)state;
	struct node_facts f;
	facts(&f,
	      HDR "@@begin sys\n|sys/bus/pci/devices/\n|sys/bus/pci/devices/0000:ab:00.0/\n"
		  "|sys/bus/pci/devices/0000:ab:00.0/current_link_width=8\n"
		  "|sys/bus/pci/devices/0000:ab:00.0/max_link_width=16\n@@end sys rc=0\n@@done\n");
	const struct node_pci_gpu *g = node_pci_gpu_find(&f, "00000000:AB:00.0");
	assert_non_null(g);
	assert_int_equal(g->pci.width_cur, 8);
	assert_null(node_pci_gpu_find(&f, "00000001:AB:00.0"));
	assert_null(node_pci_gpu_find(&f, "garbage"));
	node_facts_release(&f);
}

static void uverbs_given(void **state)
{
	(void)state;
	struct node_facts f;
	facts(&f,
	      HDR "@@begin sys\n" ROCE("mlx5_0") ROCE(
		      "mlx5_1") "|sys/class/infiniband/mlx5_0/device/infiniband_verbs/uverbs0/\n"
				"|sys/class/infiniband/mlx5_1/device/infiniband_verbs/uverbs1/\n"
				"@@end sys rc=0\n@@begin dev\n|dev/infiniband/uverbs1\n@@end dev rc=0\n@@done\n");
	assert_false(node_dev_given(&f, &f.devs[0]));
	assert_true(node_dev_given(&f, &f.devs[1]));
	node_facts_release(&f);
}

static void ucx_netdev_exact(void **state)
{
	(void)state;
	assert_false(node_ucx_netdev_selects("mlx5_0", "mlx5_0:1"));
	assert_true(node_ucx_netdev_selects("mlx5_0:1, mlx5_1:1", "mlx5_1:1"));
	assert_true(node_ucx_netdev_selects("all", "mlx5_3:1"));
	assert_false(node_ucx_netdev_selects("^mlx5_0:1", "mlx5_0:1"));
	assert_false(node_ucx_netdev_selects("^mlx5_0:1", "mlx5_1:1")); /* no deny form */
	assert_true(node_ucx_netdev_selects(NULL, "mlx5_1:1"));
}

#define GPU_IB                                 \
	"@@begin sys\n" ROCE(                  \
		"mlx5_0") "%s@@end sys rc=0\n" \
			  "@@begin dev\n|dev/infiniband/uverbs0\n|dev/nvidia0\n@@end dev rc=0\n"

static void gdr(struct gdr_view *v, const char *sys_extra, const char *rest)
{
	char buf[4096];
	struct node_facts f;
	snprintf(buf, sizeof(buf), HDR GPU_IB "%s@@done\n", sys_extra, rest);
	facts(&f, buf);
	node_gpudirect_view(&f, v);
	node_facts_release(&f);
}

#define OPEN                                                                                             \
	"@@begin proc:nvidia-version\n|NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.1\n" \
	"@@end proc:nvidia-version rc=0\n"
#define PROP                                                                                    \
	"@@begin proc:nvidia-version\n|NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.1\n" \
	"@@end proc:nvidia-version rc=0\n"
#define MODS(m) "@@begin proc:modules\n|" m " 16384 0 - Live 0x0\n@@end proc:modules rc=0\n"

static void gpudirect_view(void **state)
{
	(void)state;
	struct gdr_view v;
	gdr(&v, "|sys/kernel/mm/memory_peers/\n", MODS("nvidia_peermem") PROP);
	assert_int_equal(v.mode, GDR_MODE_PEERMEM);
	assert_int_equal(v.status, CI_OK);
	gdr(&v, "", MODS("nvidia_peermem") PROP);
	assert_int_equal(v.mode, GDR_MODE_PEERMEM_BARE);
	assert_int_equal(v.status, CI_WARN);
	gdr(&v, "", MODS("mlx5_ib") OPEN);
	assert_int_equal(v.mode, GDR_MODE_DMABUF);
	/* DMA-BUF needs UCX >= 1.14 and rdma-core >= 34 where they are seen */
	gdr(&v, "",
	    MODS("mlx5_ib") OPEN "@@begin tool:ucx_info-v\n|# Version 1.13.1\n"
				 "@@end tool:ucx_info-v rc=0\n");
	assert_int_equal(v.mode, GDR_MODE_STAGING);
	assert_int_equal(v.status, node_host_staging_status());
	assert_non_null(strstr(v.detail, "older than 1.14"));
	gdr(&v, "",
	    MODS("mlx5_ib") OPEN "@@begin files:libs\n|/usr/lib/libibverbs.so.1.11.33.0\n"
				 "@@end files:libs rc=0\n");
	assert_int_equal(v.mode, GDR_MODE_STAGING);
	assert_non_null(strstr(v.detail, "ibv_reg_dmabuf_mr"));
	gdr(&v, "", MODS("mlx5_ib") PROP);
	assert_int_equal(v.mode, GDR_MODE_STAGING);
	assert_string_equal(v.name, "host staging");
}

static void gpudirect_efa(void **state)
{
	(void)state;
	struct node_facts f;
	facts(&f,
	      HDR "@@begin sys\n|sys/class/infiniband/rdmap16s27/\n"
		  "|sys/class/infiniband/rdmap16s27/ports/1/\n"
		  "|sys/class/infiniband/rdmap16s27/ports/1/state=4: ACTIVE\n"
		  "|sys/module/efa_nv_peermem/\n@@end sys rc=0\n"
		  "@@begin dev\n|dev/infiniband/uverbs0\n|dev/nvidia0\n@@end dev rc=0\n" MODS("efa")
			  PROP "@@done\n");
	struct gdr_view v;
	node_gpudirect_view(&f, &v);
	assert_int_equal(v.mode, GDR_MODE_EFA_PEERMEM);
	assert_int_equal(v.status, CI_OK);
	node_facts_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pid1_first),     cmocka_unit_test(gid_table),
		cmocka_unit_test(counters_twice), cmocka_unit_test(pci_gpu_by_bus_id),
		cmocka_unit_test(uverbs_given),   cmocka_unit_test(ucx_netdev_exact),
		cmocka_unit_test(gpudirect_view), cmocka_unit_test(gpudirect_efa),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
