/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GPU side: GPUDirect RDMA, GDRCopy, NVLink (links, NVSwitch fabric, IMEX
 * channels for multi-node NVLink) and GPU-to-NIC affinity.
 */
#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"
#include "node/node_checks.h"
#include "node/node_desc.h"

static bool kernel_at_least(const struct node_facts *f, int ma, int mi)
{
	if (f->kernel_major < 0)
		return false;
	return f->kernel_major > ma || (f->kernel_major == ma && f->kernel_minor >= mi);
}

void node_check_gpudirect(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(GPUDIRECT);
	const char *subj = "GPUDirect RDMA";
	struct ci_check *c;
	if (!node_has_gpu(f)) {
		/* RDMA without a GPU: the question (can KV move GPU to GPU?) has
		 * no answer here, so say so instead of passing. */
		if (f->n_devs)
			report_check(r, ck, CI_SKIPPED, subj,
				     "no GPU visible: RDMA is here but nothing to move KV from; run "
				     "`node` on a GPU node or in a worker pod given its GPUs");
		else
			report_na(r, ck, subj, "no GPU visible");
		return;
	}
	if (!f->n_devs) {
		report_na(r, ck, subj,
			  "no RDMA device: GPUDirect RDMA needs one (see node.rdma.devices)");
		return;
	}
	if (!f->have_modules && !f->memory_peers && !f->have_nv_version) {
		report_check(r, ck, CI_SKIPPED, subj,
			     "neither /proc/modules nor /proc/driver/nvidia/version could be read");
		return;
	}
	const char *pm = f->mod_nvidia_peermem ? "nvidia_peermem" :
			 f->mod_nv_peer_mem ? "nv_peer_mem" :
			 f->mod_efa_peermem ? "efa_nv_peermem" : NULL;
	bool dmabuf = kernel_at_least(f, 5, 12) && f->open_module;
	char kern[96];
	snprintf(kern, sizeof(kern), "kernel %s, %s", f->kernel ? f->kernel : "unknown",
		 !f->have_nv_version ? "driver flavour unknown" :
		 f->open_module ? "open kernel module" : "proprietary kernel module");
	if (pm && f->memory_peers) {
		c = report_check(r, ck, CI_OK, subj,
				 "%s is loaded and registered (/sys/kernel/mm/memory_peers): NICs "
				 "read and write GPU memory directly", pm);
		if (dmabuf)
			check_add_evidence(c, "DMA-BUF is possible too (%s)", kern);
		return;
	}
	if (dmabuf) {
		c = report_check(r, ck, CI_OK, subj,
				 "DMA-BUF GPUDirect is possible (%s)%s; it needs UCX >= 1.14 / NCCL >= 2.19",
				 kern, pm ? ", nvidia_peermem is loaded but not registered" : "");
		return;
	}
	if (!pm && !f->have_nv_version && kernel_at_least(f, 5, 12)) {
		report_check(r, ck, CI_SKIPPED, subj,
			     "no nvidia_peermem; DMA-BUF cannot be judged: /proc/driver/nvidia/version "
			     "is not readable (%s)", kern);
		return;
	}
	if (pm) {
		c = report_check(r, ck, CI_FAIL, subj,
				 "%s is loaded but not registered (no /sys/kernel/mm/memory_peers) and "
				 "DMA-BUF is not possible (%s): KV is staged through host memory", pm, kern);
		check_set_fix(c, "load nvidia_peermem built against MLNX_OFED/DOCA-OFED (GPU operator "
				 "driver.rdma.enabled=true), or use the open kernel module on kernel >= 5.12");
		return;
	}
	c = report_check(r, ck, CI_FAIL, subj,
			 "no GPUDirect RDMA: nvidia_peermem is not loaded and DMA-BUF is not possible "
			 "(%s): KV is staged through host memory", kern);
	check_set_fix(c, "load nvidia_peermem on the node (GPU operator driver.rdma.enabled=true), "
			 "or move to the open kernel module on kernel >= 5.12 for DMA-BUF");
}

void node_check_gdrcopy(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(GDRCOPY);
	const char *subj = "gdrdrv";
	struct ci_check *c;
	if (!node_has_gpu(f)) {
		report_check(r, ck, CI_SKIPPED, subj, "no GPU visible");
		return;
	}
	const char *why = node_count_efa_devs(f) ?
		"libfabric's GPUDirect on EFA and fast small transfers need it" :
		"small transfers are slower; NIXL still works";
	if (f->dev_gdrdrv && (f->mod_gdrdrv || !f->have_modules)) {
		report_check(r, ck, CI_OK, subj,
			     "GDRCopy usable: %s/dev/gdrdrv is in the pod",
			     f->mod_gdrdrv ? "gdrdrv loaded and " : "");
		return;
	}
	if (!f->have_modules) {
		report_check(r, ck, CI_SKIPPED, subj,
			     "/proc/modules could not be read and /dev/gdrdrv is absent");
		return;
	}
	if (f->mod_gdrdrv) {
		c = report_check(r, ck, CI_WARN, subj,
				 "gdrdrv is loaded on the node but /dev/gdrdrv is not in the pod: no "
				 "GDRCopy (%s)", why);
		check_set_fix(c, "expose /dev/gdrdrv to the pod (GPU operator gdrcopy.enabled=true, or a "
				 "device mount)");
		return;
	}
	c = report_check(r, ck, CI_WARN, subj,
			 "gdrdrv is not loaded: no GDRCopy (%s)", why);
	check_set_fix(c, "enable GDRCopy on the node (GPU operator gdrcopy.enabled=true, or install "
			 "gdrcopy's gdrdrv) and expose /dev/gdrdrv to the pod");
}

static bool smi_usable(const struct node_facts *f)
{
	return f->smi_topo_t.state == TOOL_OK || f->smi_nvlink_t.state == TOOL_OK ||
	       f->smi_query_t.state == TOOL_OK;
}

static const char *smi_why(const struct node_facts *f)
{
	if (f->smi_topo_t.state != TOOL_OK)
		return f->smi_topo_t.why;
	return f->smi_query_t.why;
}

/* GPU pairs the topology matrix shows without NVLink, into issues; the
 * first four are named, the rest said as ", ...". */
static void nvlink_topo_issues(const struct node_facts *f, struct strbuf *issues)
{
	size_t pairs = 0, without = 0;
	struct strbuf list = STRBUF_INIT;
	for (size_t a = 0; a < f->topo.ndevs; a++) {
		if (f->topo.devs[a].type != TOPO_DEV_GPU)
			continue;
		for (size_t b = a + 1; b < f->topo.ndevs; b++) {
			if (f->topo.devs[b].type != TOPO_DEV_GPU)
				continue;
			pairs++;
			struct topo_cell cell = smi_topo_cell(&f->topo, a, b);
			if (cell.kind == TOPO_NV)
				continue;
			if (++without <= 4)
				strbuf_joinf(&list, ", ", "%s-%s %s", f->topo.devs[a].name,
					     f->topo.devs[b].name, topo_link_name(cell.kind));
		}
	}
	if (without == pairs)
		strbuf_addf(issues, "no NVLink between the %zu GPUs (they talk over PCIe: %s%s)",
			    f->topo.ngpus, list.buf, without > 4 ? ", ..." : "");
	else
		strbuf_addf(issues, "%zu of %zu GPU pairs without NVLink: %s%s", without, pairs,
			    list.buf, without > 4 ? ", ..." : "");
	strbuf_release(&list);
}

/* The inactive links `nvidia-smi nvlink -s` lists, per GPU, into issues. */
static void nvlink_inactive_issues(const struct node_facts *f, size_t inactive,
				   struct strbuf *issues)
{
	struct strbuf list = STRBUF_INIT;
	for (size_t g = 0; g < f->nvlink.ngpus; g++) {
		const struct smi_nvlink_gpu *gp = &f->nvlink.gpus[g];
		struct strbuf links = STRBUF_INIT;
		for (size_t l = 0; l < gp->nlinks; l++)
			if (!gp->links[l].active)
				strbuf_joinf(&links, ",", "%u", gp->links[l].num);
		if (links.len && gp->index >= 0)
			strbuf_joinf(&list, "; ", "GPU%d links %s", gp->index, links.buf);
		else if (links.len)
			strbuf_joinf(&list, "; ", "links %s", links.buf);
		strbuf_release(&links);
	}
	strbuf_joinf(issues, "; ", "%zu NVLink%s inactive (%s)", inactive, inactive == 1 ? "" : "s",
		     list.buf);
	strbuf_release(&list);
}

/* Whether node.nvlink can say anything here; false when it said why not. */
static bool nvlink_applies(struct ci_report *r, const struct node_facts *f, bool crit)
{
	const struct check_desc *ck = NODE_CHECK(NVLINK);
	const char *subj = "NVLink";
	if (!smi_usable(f)) {
		if (!node_has_gpu(f))
			report_check(r, ck, CI_SKIPPED, subj, "no GPU visible");
		else
			report_check_as(r, ck, CI_SKIPPED, crit, CI_LAYER_FABRIC, subj, "%s", smi_why(f));
		return false;
	}
	if (f->n_gpus == 0) {
		report_check(r, ck, CI_SKIPPED, subj, "no GPU visible");
		return false;
	}
	if (f->n_gpus == 1 && !crit) {
		report_check(r, ck, CI_SKIPPED, subj, "not applicable: one GPU in this pod");
		return false;
	}
	return true;
}

/* NVLink between the GPUs; critical only on a multi-node NVLink node,
 * where it carries the KV between pods. */
void node_check_nvlink(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(NVLINK);
	const char *subj = "NVLink";
	bool crit = node_mnnvl(f);
	if (!nvlink_applies(r, f, crit))
		return;
	struct strbuf issues = STRBUF_INIT;
	unsigned min_nv = 0;
	bool topo = f->smi_topo_t.state == TOOL_OK && f->topo.ngpus >= 2;
	if (topo) {
		min_nv = smi_topo_min_nvlinks(&f->topo);
		if (!min_nv)
			nvlink_topo_issues(f, &issues);
	}
	size_t inactive = 0, active = 0;
	if (f->smi_nvlink_t.state == TOOL_OK) {
		inactive = smi_nvlink_count_inactive(&f->nvlink);
		active = smi_nvlink_count_active(&f->nvlink);
		if (inactive)
			nvlink_inactive_issues(f, inactive, &issues);
	}
	struct ci_check *c;
	if (issues.len) {
		c = report_check_as(r, ck, CI_WARN, crit, CI_LAYER_FABRIC, subj, "%s", issues.buf);
		check_set_fix(c, "check `nvidia-smi nvlink -s` and `nvidia-smi topo -m` on the node; "
				 "inactive links need a reset or a hardware ticket");
		strbuf_release(&issues);
		return;
	}
	if (topo)
		c = report_check_as(r, ck, CI_OK, crit, CI_LAYER_FABRIC, subj,
				    "all %zu GPUs pairwise linked by NVLink (NV%u or more)", f->topo.ngpus,
				    min_nv);
	else if (active)
		c = report_check_as(r, ck, CI_OK, crit, CI_LAYER_FABRIC, subj,
				    "%zu NVLinks active, none inactive", active);
	else
		c = report_check(r, ck, CI_SKIPPED, subj,
				 "nvidia-smi shows no NVLink (no topology matrix, no link status)");
	if (active)
		check_add_evidence(c, "nvidia-smi nvlink -s: %zu active links", active);
}

void node_check_nvlink_fabric(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(NVLINK_FABRIC);
	const char *subj = "NVSwitch fabric";
	struct ci_check *c = NULL;
	if (f->smi_q_t.state != TOOL_OK) {
		report_na(r, ck, subj, "%s",
			  node_has_gpu(f) ? f->smi_q_t.why : "no GPU visible");
		return;
	}
	size_t n = 0, bad = 0, unhealthy = 0;
	struct strbuf badl = STRBUF_INIT, ev = STRBUF_INIT;
	for (size_t i = 0; i < f->q.ngpus; i++) {
		const struct smi_fabric *fb = &f->q.gpus[i].fabric;
		if (!fb->present || smi_is_na(fb->state))
			continue;
		n++;
		const char *gpu = f->q.gpus[i].bus_id ? f->q.gpus[i].bus_id : "GPU";
		if (!smi_fabric_completed(fb)) {
			bad++;
			strbuf_joinf(&badl, ", ", "%s state %s status %s", gpu,
				     fb->state ? fb->state : "?", fb->status ? fb->status : "?");
		} else if (fb->health_summary && !smi_is_na(fb->health_summary) &&
			   strcmp(fb->health_summary, "Healthy")) {
			unhealthy++;
			strbuf_joinf(&badl, ", ", "%s health %s", gpu, fb->health_summary);
		}
		if (!ev.len && fb->clique_id && !smi_is_na(fb->clique_id))
			strbuf_addf(&ev, "CliqueId %s, ClusterUUID %s", fb->clique_id,
				    fb->cluster_uuid ? fb->cluster_uuid : "?");
	}
	if (!n) {
		report_na(r, ck, subj, "no GPU reports a fabric state (not an NVSwitch system)");
	} else if (bad) {
		c = report_check(r, ck, CI_FAIL, subj,
				 "fabric not set up on %zu of %zu GPUs (%s): NVLink P2P is unavailable",
				 bad, n, badl.buf);
		check_set_fix(c, "start nvidia-fabricmanager on HGX nodes; on GB200/GB300 check the "
				 "NVLink switch trays and the IMEX/ComputeDomain setup");
	} else if (unhealthy) {
		c = report_check(r, ck, CI_WARN, subj,
				 "fabric Completed but not healthy on %zu of %zu GPUs (%s)", unhealthy, n,
				 badl.buf);
		check_set_fix(c, "look at `nvidia-smi -q` Fabric > Health on the node and the NVLink "
				 "switch trays");
	} else {
		c = report_check(r, ck, CI_OK, subj,
				 "fabric state Completed/Success on %zu GPU%s", n, n == 1 ? "" : "s");
	}
	if (c && ev.len)
		check_add_evidence(c, "%s", ev.buf);
	strbuf_release(&badl);
	strbuf_release(&ev);
}

void node_check_imex(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(MNNVL_IMEX);
	const char *subj = "/dev/nvidia-caps-imex-channels";
	if (!node_mnnvl(f)) {
		report_na(r, ck, subj,
			  "not a multi-node NVLink system (no ClusterUUID in nvidia-smi -q)");
		return;
	}
	if (!f->n_imex_channels) {
		struct ci_check *c = report_check(r, ck, CI_FAIL, subj,
			"multi-node NVLink fabric, but no IMEX channel in the pod: cross-node "
			"NVLink (MNNVL) is unusable from here");
		check_set_fix(c, "run the workers in a ComputeDomain (NVIDIA DRA driver) so that each "
				 "pod gets /dev/nvidia-caps-imex-channels/channel<N>");
		return;
	}
	report_check(r, ck, CI_OK, subj, "%zu IMEX channel%s in the pod",
		     f->n_imex_channels, f->n_imex_channels == 1 ? "" : "s");
}

void node_check_affinity(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(GPU_NIC_AFFINITY);
	const char *subj = "nvidia-smi topo -m";
	if (f->smi_topo_t.state != TOOL_OK) {
		report_check(r, ck, CI_SKIPPED, subj, "%s",
			     node_has_gpu(f) ? f->smi_topo_t.why : "no GPU visible");
		return;
	}
	if (!f->topo.ngpus) {
		report_check(r, ck, CI_SKIPPED, subj, "the matrix lists no GPU");
		return;
	}
	if (!f->topo.nnics) {
		report_check(r, ck, CI_SKIPPED, subj, "%s",
			     f->n_devs ? "the matrix lists no NIC (the driver sees none near the GPUs)" :
				       "no NIC");
		return;
	}
	struct strbuf far = STRBUF_INIT;
	size_t n = 0, nfar = 0;
	struct ci_check *c;
	for (size_t i = 0; i < f->topo.ndevs; i++) {
		const struct topo_dev *g = &f->topo.devs[i];
		if (g->type != TOPO_DEV_GPU || g->index < 0)
			continue;
		enum topo_link k = TOPO_UNKNOWN;
		int nic = smi_topo_best_nic(&f->topo, g->index, &k);
		if (nic < 0)
			continue;
		n++;
		const struct topo_dev *d = &f->topo.devs[nic];
		const char *nn = d->nic_device ? d->nic_device : d->name;
		if (k == TOPO_NODE || k == TOPO_SYS || k == TOPO_SOC) {
			nfar++;
			strbuf_joinf(&far, ", ", "%s (nearest %s: %s)", g->name, nn,
				     topo_link_name(k));
		}
	}
	if (!n) {
		report_check(r, ck, CI_SKIPPED, subj, "no GPU-to-NIC cell could be read");
		return;
	}
	if (nfar) {
		c = report_check(r, ck, CI_WARN, subj,
				 "%zu of %zu GPUs have no NIC on their PCIe switch: %s", nfar, n, far.buf);
		check_set_fix(c, "pin each rank to the NIC on its PCIe switch (UCX_NET_DEVICES per "
				 "rank) or request NICs topology-aligned with the GPUs");
	} else {
		c = report_check(r, ck, CI_OK, subj,
				 "every GPU has a NIC on its PCIe switch or host bridge (%zu GPUs)", n);
	}
	strbuf_release(&far);
	/* Every GPU's nearest NIC, in the order of the matrix. */
	for (size_t i = 0; i < f->topo.ndevs; i++) {
		const struct topo_dev *g = &f->topo.devs[i];
		enum topo_link k = TOPO_UNKNOWN;
		int nic = g->type == TOPO_DEV_GPU && g->index >= 0
			? smi_topo_best_nic(&f->topo, g->index, &k) : -1;
		if (nic < 0)
			continue;
		const struct topo_dev *d = &f->topo.devs[nic];
		check_add_evidence(c, "%s -> %s %s", g->name, d->nic_device ? d->nic_device : d->name,
				   topo_link_name(k));
	}
}
