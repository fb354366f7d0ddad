/* SPDX-License-Identifier: Apache-2.0 */
#include "node/node.h"
#include "node/node_checks.h"
#include "node/node_desc.h"

static void check_probe(struct ci_report *r, const struct node_facts *f)
{
	if (!f->valid) {
		report_check(r, NODE_CHECK(PROBE), CI_SKIPPED, "probe",
			     "not a probe transcript: nothing could be read");
		return;
	}
	if (!f->complete) {
		struct ci_check *c = report_check_as(
			r, NODE_CHECK(PROBE), CI_WARN, false, CI_LAYER_FABRIC, "probe",
			"the probe transcript was cut before its end: readings after the cut are missing");
		check_set_fix(c, "run the probe again, with a longer --timeout if it timed out");
	}
}

/* Node's checks in their run order: one row per check function, with the
 * descriptor of the check it decides (it may add findings of sub-checks,
 * node.env.* under node.env).  Adding a check is a descriptor row in
 * node_desc.c, a function, and a row here. */
const struct node_step node_steps[] = {
	{NODE_CHECK(RDMA_DEVICES), node_check_rdma_devices},
	{NODE_CHECK(RDMA_PORTS), node_check_rdma_ports},
	{NODE_CHECK(RDMA_UVERBS), node_check_rdma_uverbs},
	{NODE_CHECK(ROCE_GID), node_check_roce_gid},
	{NODE_CHECK(RDMA_MTU), node_check_mtu},
	{NODE_CHECK(RDMA_SPEED), node_check_link_speed},
	{NODE_CHECK(RDMA_ERRORS), node_check_errors},
	{NODE_CHECK(EFA), node_check_efa},
	{NODE_CHECK(GPUDIRECT), node_check_gpudirect},
	{NODE_CHECK(GDRCOPY), node_check_gdrcopy},
	{NODE_CHECK(NVLINK), node_check_nvlink},
	{NODE_CHECK(NVLINK_FABRIC), node_check_nvlink_fabric},
	{NODE_CHECK(MNNVL_IMEX), node_check_imex},
	{NODE_CHECK(GPU_NIC_AFFINITY), node_check_affinity},
	{NODE_CHECK(PCIE_WIDTH), node_check_pcie_width},
	{NODE_CHECK(MIG), node_check_mig},
	{NODE_CHECK(IOMMU), node_check_iommu},
	{NODE_CHECK(MEMLOCK), node_check_memlock},
	{NODE_CHECK(SHM), node_check_shm},
	{NODE_CHECK(ENV), node_check_env},
};
const size_t node_steps_len = sizeof(node_steps) / sizeof(node_steps[0]);

void node_checks_run(struct ci_report *r, const struct node_facts *f)
{
	check_probe(r, f);
	if (!f->valid)
		return;
	for (size_t i = 0; i < node_steps_len; i++)
		node_steps[i].run(r, f);
	/* the window judged with the node's fabric model */
	struct live_facts lf = f->live;
	node_fabric_in(f, &lf.fabric);
	lf.have_fabric = true;
	live_checks_run(r, &lf, "engine");
}

void node_analyze_facts(struct ci_report *r, const struct node_facts *f, const char *subject)
{
	node_checks_run(r, f);
	node_report_env_facts(r, f, subject);
}

void node_analyze(struct ci_report *r, const struct transcript *t, const char *subject)
{
	struct node_facts f;
	node_facts_init(&f);
	node_facts_read(&f, t);
	node_analyze_facts(r, &f, subject);
	node_facts_release(&f);
}
