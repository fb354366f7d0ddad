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

void node_checks_run(struct ci_report *r, const struct node_facts *f)
{
	check_probe(r, f);
	if (!f->valid)
		return;
	node_check_rdma_devices(r, f);
	node_check_rdma_ports(r, f);
	node_check_rdma_uverbs(r, f);
	node_check_roce_gid(r, f);
	node_check_mtu(r, f);
	node_check_link_speed(r, f);
	node_check_errors(r, f);
	node_check_efa(r, f);
	node_check_gpudirect(r, f);
	node_check_gdrcopy(r, f);
	node_check_nvlink(r, f);
	node_check_nvlink_fabric(r, f);
	node_check_imex(r, f);
	node_check_affinity(r, f);
	node_check_pcie_width(r, f);
	node_check_mig(r, f);
	node_check_iommu(r, f);
	node_check_memlock(r, f);
	node_check_shm(r, f);
	node_check_env(r, f);
	live_checks_run(r, &f->live, "engine");
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
