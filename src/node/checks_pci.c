/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GPU partitioning and the PCIe path between devices: MIG, the IOMMU's
 * translation mode for GPUs and NICs, and the P2P matrix the driver reports.
 */
#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"
#include "node/node_checks.h"
#include "node/node_desc.h"
#include "parse/lines.h"

void node_check_mig(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(MIG);
	const char *subj = "nvidia-smi -q MIG Mode";
	if (f->smi_q_t.state != TOOL_OK) {
		report_na(r, ck, subj, "%s", node_has_gpu(f) ? f->smi_q_t.why : "no GPU visible");
		return;
	}
	struct strbuf on = STRBUF_INIT;
	size_t n = 0, non = 0;
	for (size_t i = 0; i < f->q.ngpus; i++) {
		const struct smi_query_gpu *g = &f->q.gpus[i];
		if (!g->mig_current)
			continue;
		n++;
		if (smi_gpu_mig_enabled(g)) {
			non++;
			strbuf_joinf_capped(&on, 300, ", ", "%s", g->bus_id ? g->bus_id : "GPU");
		}
	}
	struct ci_check *c;
	if (!n)
		report_na(
			r, ck, subj,
			"nvidia-smi -q shows no MIG mode (not collected by this probe, or GPUs without MIG)");
	else if (non) {
		c = report_check(
			r, ck, CI_WARN, subj,
			"MIG is enabled on %zu of %zu GPU%s (%s): a MIG instance has no P2P, no "
			"cuda_ipc, no NVLS and no multi-node NVLink, so KV between GPUs goes "
			"through host memory or the NIC",
			non, n, n == 1 ? "" : "s", on.buf);
		check_set_fix(
			c, "give disaggregated workers whole GPUs (nvidia-smi -mig 0 on the node, "
			   "or the GPU operator's mig.strategy none for that node pool)");
	} else {
		report_check(r, ck, CI_OK, subj, "MIG is off on every GPU (%zu)", n);
	}
	strbuf_release(&on);
}

/* sys_vendor values of hypervisors: there the IOMMU translates for the
 * guest anyway and a DMA domain is the normal setup. */
static bool is_vm(const struct node_facts *f)
{
	static const char *const vms[] = {"QEMU",      "Microsoft Corporation",
					  "VMware",    "Xen",
					  "innotek",   "Red Hat",
					  "OpenStack", "Google",
					  "KVM",       "Parallels",
					  NULL};
	for (size_t i = 0; f->dmi_vendor && vms[i]; i++)
		if (str_icontains(f->dmi_vendor, vms[i]))
			return true;
	/* EC2 bare-metal instances are "Amazon EC2" too: their product name
	 * ends in ".metal" */
	if (f->dmi_vendor && str_icontains(f->dmi_vendor, "Amazon"))
		return !(f->dmi_product && str_icontains(f->dmi_product, "metal"));
	return false;
}

static bool translated(const char *type)
{
	return !strcmp(type, "DMA") || !strcmp(type, "DMA-FQ");
}

void node_check_iommu(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(IOMMU);
	const char *subj = "IOMMU";
	struct strbuf dma = STRBUF_INIT, ns = STRBUF_INIT;
	size_t n = 0, ndma = 0, nns = 0;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (!*d->pci.iommu_type || !node_dev_given(f, d))
			continue;
		n++;
		if (translated(d->pci.iommu_type)) {
			ndma++;
			strbuf_joinf_capped(&dma, 300, ", ", "NIC %s %s", d->name,
					    d->pci.iommu_type);
		}
	}
	for (size_t i = 0; i < f->n_pci_gpus; i++) {
		const struct node_pci_gpu *g = &f->pci_gpus[i];
		if (!*g->pci.iommu_type)
			continue;
		n++;
		if (translated(g->pci.iommu_type)) {
			ndma++;
			strbuf_joinf_capped(&dma, 300, ", ", "GPU %s %s", g->bdf,
					    g->pci.iommu_type);
		}
	}
	/* P2P refused by the driver between GPUs that have no NVLink: their
	 * traffic goes through host memory. */
	bool p2p = f->p2p_t.state == TOOL_OK && f->p2p.ngpus >= 2;
	for (size_t a = 0; p2p && a < f->p2p.ngpus; a++)
		for (size_t b = a + 1; b < f->p2p.ngpus; b++) {
			enum p2p_status st = (enum p2p_status)f->p2p.cell[a][b];
			if (!p2p_status_blocked(st) || st == P2P_UNKNOWN)
				continue;
			if (f->smi_topo_t.state == TOOL_OK &&
			    smi_topo_nvlinks(&f->topo, f->p2p.index[a], f->p2p.index[b]))
				continue;
			nns++;
			strbuf_joinf_capped(&ns, 300, ", ", "GPU%d-GPU%d %s", f->p2p.index[a],
					    f->p2p.index[b], p2p_status_name(st));
		}
	bool vm = is_vm(f);
	struct ci_check *c;
	if (!n && !p2p) {
		report_na(r, ck, subj,
			  "neither the IOMMU groups nor `nvidia-smi topo -p2p r` were collected");
	} else if ((ndma && !vm) || nns) {
		struct strbuf d = STRBUF_INIT;
		if (ndma && !vm)
			strbuf_addf(
				&d,
				"the IOMMU translates DMA for %zu device%s (%s): every GPUDirect "
				"and P2P access pays for it, and ATS/ACS can reroute P2P through the root "
				"complex",
				ndma, ndma == 1 ? "" : "s", dma.buf);
		if (nns)
			strbuf_joinf(&d, "; ",
				     "the driver refuses P2P between GPUs without NVLink: %s "
				     "(GPU-to-GPU copies go through host memory)",
				     ns.buf);
		c = report_check(r, ck, CI_WARN, subj, "%s", d.buf);
		check_set_fix(
			c, "%s",
			ndma && !vm
				? "boot the node with iommu=pt (passthrough; "
				  "intel_iommu=on iommu=pt or amd_iommu=pt), and disable ACS on the PCIe "
				  "switches for P2P"
				: "check ACS/IOMMU settings of the node's PCIe switches "
				  "(nvidia-smi topo -p2p r must read OK)");
		strbuf_release(&d);
	} else {
		report_check(
			r, ck, CI_OK, subj, "%s%s%s",
			n ? (ndma ? "IOMMU DMA translation in a virtual machine (expected there)"
				  : "the IOMMU passes GPU and NIC DMA through")
			  : "",
			n && p2p ? "; " : "", p2p ? "P2P OK between the GPUs" : "");
	}
	strbuf_release(&dma);
	strbuf_release(&ns);
}
