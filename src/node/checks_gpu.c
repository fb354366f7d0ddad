/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GPU side: GPUDirect RDMA, GDRCopy, NVLink (links, NVSwitch fabric, IMEX
 * channels for multi-node NVLink) and GPU-to-NIC affinity.
 */
#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"
#include "node/gpudirect.h"
#include "node/node_checks.h"
#include "node/node_desc.h"
#include "parse/lines.h"
#include "rules/gdrcopy.h"

void node_check_gpudirect(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(GPUDIRECT);
	const char *subj = "GPUDirect RDMA";
	struct ci_check *c;
	if (!node_has_gpu(f)) {
		/* RDMA without a GPU: the question (can KV move GPU to GPU?) has
		 * no answer here, so say so instead of passing. */
		if (f->n_devs)
			report_check(
				r, ck, CI_SKIPPED, subj,
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
	struct fabric_in fin;
	node_fabric_in(f, &fin);
	if (node_fabric_nic_optional(f) && !fin.ib_nics && !fin.roce_nics && !fin.efa_nics) {
		report_na(r, ck, subj,
			  "no RDMA NIC given to the pod: its KV moves over multi-node NVLink, "
			  "which needs no GPUDirect RDMA");
		return;
	}
	/* One judgement for node.gpudirect, nixl.ucx.gpudirect and the fleet. */
	struct gdr_view v;
	node_gpudirect_view(f, &v);
	c = report_check(r, ck, v.status, subj, "%s", v.detail);
	if (*v.fix)
		check_set_fix(c, "%s", v.fix);
	if (v.mode != GDR_MODE_UNKNOWN && v.mode != GDR_MODE_DMABUF)
		check_add_evidence(c, "DMA-BUF prerequisites: %s", v.dmabuf);
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
	const char *why = node_count_efa_devs(f)
				  ? "libfabric's GPUDirect on EFA and fast small transfers need it"
				  : "small transfers are slower; NIXL still works";
	if (f->dev_gdrdrv && (f->mod_gdrdrv || !f->have_modules)) {
		/* gdr_open()'s own version rule (rules/gdrcopy.c). */
		enum gdrcopy_compat gc = gdrcopy_compat(f->gdrdrv_version, f->gdrapi_version);
		if (gc == GDRCOPY_COMPAT_BROKEN || gc == GDRCOPY_COMPAT_LIB_NEWER) {
			bool broken = gc == GDRCOPY_COMPAT_BROKEN;
			c = report_check(
				r, ck, CI_WARN, subj,
				"GDRCopy versions: gdrdrv %s on the node, libgdrapi.so.%s in the "
				"image: %s",
				f->gdrdrv_version, f->gdrapi_version,
				broken ? "a major version apart, gdr_open fails (no GDRCopy)"
				       : "the library is newer than the driver: gdr_open works, the "
					 "calls the driver lacks fail with EINVAL");
			check_set_fix(c,
				      "use a libgdrapi no newer than the node's gdrdrv (or upgrade "
				      "gdrdrv with the GPU operator's gdrcopy driver)");
			return;
		}
		c = report_check(r, ck, CI_OK, subj, "GDRCopy usable: %s/dev/gdrdrv is in the pod",
				 f->mod_gdrdrv ? "gdrdrv loaded and " : "");
		if (f->gdrdrv_version || f->gdrapi_version)
			check_add_evidence(c, "gdrdrv %s, libgdrapi %s",
					   f->gdrdrv_version ? f->gdrdrv_version
							     : "version unknown",
					   f->gdrapi_version ? f->gdrapi_version : "not found");
		return;
	}
	if (!f->have_modules) {
		report_check(r, ck, CI_SKIPPED, subj,
			     "/proc/modules could not be read and /dev/gdrdrv is absent");
		return;
	}
	if (f->mod_gdrdrv) {
		c = report_check(
			r, ck, CI_WARN, subj,
			"gdrdrv is loaded on the node but /dev/gdrdrv is not in the pod: no "
			"GDRCopy (%s)",
			why);
		check_set_fix(
			c, "expose /dev/gdrdrv to the pod (GPU operator gdrcopy.enabled=true, or a "
			   "device mount)");
		return;
	}
	c = report_check(r, ck, CI_WARN, subj, "gdrdrv is not loaded: no GDRCopy (%s)", why);
	check_set_fix(c,
		      "enable GDRCopy on the node (GPU operator gdrcopy.enabled=true, or install "
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
			report_check_as(r, ck, CI_SKIPPED, crit, CI_LAYER_FABRIC, subj, "%s",
					smi_why(f));
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
		check_set_fix(c,
			      "check `nvidia-smi nvlink -s` and `nvidia-smi topo -m` on the node; "
			      "inactive links need a reset or a hardware ticket");
		strbuf_release(&issues);
		return;
	}
	if (topo)
		c = report_check_as(r, ck, CI_OK, crit, CI_LAYER_FABRIC, subj,
				    "all %zu GPUs pairwise linked by NVLink (NV%u or more)",
				    f->topo.ngpus, min_nv);
	else if (active)
		c = report_check_as(r, ck, CI_OK, crit, CI_LAYER_FABRIC, subj,
				    "%zu NVLinks active, none inactive", active);
	else
		c = report_check(r, ck, CI_SKIPPED, subj,
				 "nvidia-smi shows no NVLink (no topology matrix, no link status)");
	if (active)
		check_add_evidence(c, "nvidia-smi nvlink -s: %zu active links", active);
}

/* NVSwitch-class GPUs (the fabric model, rules/fabric.h: by their links and
 * ClusterUUID, never by the CPU): there a fabric state is expected, so a
 * missing or unreadable one is "cannot tell", not "not an NVSwitch system". */
static bool nvswitch_class(const struct node_facts *f, struct fabric_model *m)
{
	node_fabric(f, m);
	return m->nvswitch_class;
}

void node_check_nvlink_fabric(struct ci_report *r, const struct node_facts *f)
{
	node_check_nvlink_fabric_as(r, f, NODE_CHECK(NVLINK_FABRIC));
}

void node_check_nvlink_fabric_as(struct ci_report *r, const struct node_facts *f,
				 const struct check_desc *ck)
{
	const char *subj = "NVSwitch fabric";
	struct ci_check *c = NULL;
	struct fabric_model m;
	bool nvs = nvswitch_class(f, &m);
	if (f->smi_q_t.state != TOOL_OK) {
		if (nvs)
			report_check(r, ck, CI_SKIPPED, subj,
				     "NVSwitch-class GPUs, but the fabric state cannot be read: %s",
				     f->smi_q_t.why);
		else
			report_na(r, ck, subj, "%s",
				  node_has_gpu(f) ? f->smi_q_t.why : "no GPU visible");
		return;
	}
	size_t n = 0, bad = 0, unhealthy = 0, unread = 0;
	struct strbuf badl = STRBUF_INIT, ev = STRBUF_INIT;
	for (size_t i = 0; i < f->q.ngpus; i++) {
		const struct smi_fabric *fb = &f->q.gpus[i].fabric;
		/* A Fabric block without a State line is unreadable, not N/A. */
		if (fb->present && !fb->state) {
			unread++;
			continue;
		}
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
	size_t blocks = 0;
	for (size_t i = 0; i < f->q.ngpus; i++)
		blocks += f->q.gpus[i].fabric.present;
	if (!n && blocks && !unread && !m.mnnvl_domain) {
		/* State N/A: the driver has no fabric probe for these GPUs (before
		 * Hopper, or no NVSwitch): nothing to read, nothing wrong. */
		report_na(r, ck, subj,
			  "every GPU's fabric State reads N/A: these GPUs have no fabric probe "
			  "(NVLink before Hopper, or no NVSwitch), so there is no fabric state "
			  "to judge");
	} else if (!n && nvs) {
		report_check(r, ck, CI_SKIPPED, subj,
			     "NVSwitch-class GPUs (%s), but nvidia-smi -q shows no readable fabric "
			     "State%s: the NVLink fabric cannot be judged",
			     m.mnnvl_domain ? "a ClusterUUID"
			     : f->smi_topo_t.state == TOOL_OK && smi_topo_min_nvlinks(&f->topo)
				     ? "NVLink between every GPU pair"
				     : "an SXM/HGX product",
			     unread ? " (a Fabric block without State)" : "");
	} else if (!n) {
		report_na(r, ck, subj, "no GPU reports a fabric state (not an NVSwitch system)");
	} else if (bad) {
		c = report_check(
			r, ck, CI_FAIL, subj,
			"fabric not set up on %zu of %zu GPUs (%s): NVLink P2P is unavailable", bad,
			n, badl.buf);
		check_set_fix(c,
			      "start nvidia-fabricmanager on HGX nodes; on GB200/GB300 check the "
			      "NVLink switch trays and the IMEX/ComputeDomain setup");
	} else if (unhealthy) {
		c = report_check(r, ck, CI_WARN, subj,
				 "fabric Completed but not healthy on %zu of %zu GPUs (%s)",
				 unhealthy, n, badl.buf);
		check_set_fix(c,
			      "look at `nvidia-smi -q` Fabric > Health on the node and the NVLink "
			      "switch trays");
	} else {
		c = report_check(r, ck, CI_OK, subj, "fabric state Completed/Success on %zu GPU%s",
				 n, n == 1 ? "" : "s");
	}
	if (c && ev.len)
		check_add_evidence(c, "%s", ev.buf);
	strbuf_release(&badl);
	strbuf_release(&ev);
}

void node_check_imex(struct ci_report *r, const struct node_facts *f)
{
	node_check_imex_as(r, f, NODE_CHECK(MNNVL_IMEX));
}

void node_check_imex_as(struct ci_report *r, const struct node_facts *f,
			const struct check_desc *ck)
{
	const char *subj = "/dev/nvidia-caps-imex-channels";
	if (!node_mnnvl(f)) {
		report_na(r, ck, subj,
			  "not a multi-node NVLink system (no ClusterUUID in nvidia-smi -q)");
		return;
	}
	if (!f->n_imex_channels) {
		struct ci_check *c = report_check(
			r, ck, CI_FAIL, subj,
			"multi-node NVLink fabric, but no IMEX channel in the pod: cross-node "
			"NVLink (MNNVL) is unusable from here");
		check_set_fix(c,
			      "run the workers in a ComputeDomain (NVIDIA DRA driver) so that each "
			      "pod gets /dev/nvidia-caps-imex-channels/channel<N>");
		return;
	}
	report_check(r, ck, CI_OK, subj, "%zu IMEX channel%s in the pod", f->n_imex_channels,
		     f->n_imex_channels == 1 ? "" : "s");
}

/* A topology NIC's sysfs device, or NULL when the name is not in this
 * pod's sysfs (the matrix and sysfs then describe different NIC sets). */
static const struct node_rdma_dev *topo_nic_dev(const struct node_facts *f,
						const struct topo_dev *d)
{
	return node_find_dev(f, d->nic_device ? d->nic_device : d->name);
}

/* May the workload use this topology NIC: a data NIC of this pod that
 * UCX_NET_DEVICES (dev:port, exact) and NCCL_IB_HCA both let through, on a
 * port that is ACTIVE (a DOWN port carries nothing: UCX and NCCL skip it,
 * so it is never "the nearest allowed NIC").  *down: the filters let it
 * through, but none of its selected ports is ACTIVE. */
static bool nic_allowed(const struct node_facts *f, const struct node_rdma_dev *d, bool *down)
{
	*down = false;
	if (!d)
		return true; /* not in sysfs: the filters cannot be applied to it */
	if (!node_data_dev(f, d))
		return false;
	const char *nd = node_env_get(f, "UCX_NET_DEVICES");
	bool any = !nd || !*nd, selected = false, active = false;
	for (size_t j = 0; j < d->n_ports; j++) {
		char want[96];
		snprintf(want, sizeof(want), "%s:%u", d->name, d->ports[j].num);
		if (!any && !node_ucx_netdev_selects(nd, want))
			continue;
		selected = true;
		active = active || node_port_active(&d->ports[j]);
	}
	if (!node_nccl_hca_selects(node_env_get(f, "NCCL_IB_HCA"), d->name))
		return false;
	if (!d->n_ports)
		return any; /* ports unread: the filters are all that is known */
	if (!selected)
		return false;
	*down = !active;
	return active;
}

static int link_rank(enum topo_link k)
{
	switch (k) {
	case TOPO_SELF: return 0;
	case TOPO_NV: return 1;
	case TOPO_PIX: return 2;
	case TOPO_PXB: return 3;
	case TOPO_PHB: return 4;
	case TOPO_NODE: return 5;
	case TOPO_SYS:
	case TOPO_SOC: return 6;
	default: return 7;
	}
}

static int gpu_numa(const struct node_facts *f, const struct topo_dev *g)
{
	uint32_t n;
	if (g->numa_affinity && str_to_u32(g->numa_affinity, 10, &n) && n < 4096)
		return (int)n;
	return -1;
}

/* What the affinity check gathers: per GPU, the nearest NIC the filters
 * allow and the nearest of all, and what it will say. */
struct affinity {
	bool grace;
	size_t n, nfar; /* GPUs judged, of which without a near allowed NIC */
	int share[SMI_P2P_MAX], share_all[SMI_P2P_MAX]; /* GPUs per NIC column */
	struct strbuf far, ev, unmapped;
	struct strbuf down; /* near NICs whose ports are down, named once per GPU */
};

static bool affinity_applies(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(GPU_NIC_AFFINITY);
	const char *subj = "nvidia-smi topo -m";
	if (f->smi_topo_t.state != TOOL_OK)
		report_check(r, ck, CI_SKIPPED, subj, "%s",
			     node_has_gpu(f) ? f->smi_topo_t.why : "no GPU visible");
	else if (!f->topo.ngpus)
		report_check(r, ck, CI_SKIPPED, subj, "the matrix lists no GPU");
	else if (!f->topo.nnics)
		report_check(
			r, ck, CI_SKIPPED, subj, "%s",
			f->n_devs ? "the matrix lists no NIC (the driver sees none near the GPUs)"
				  : "no NIC");
	else
		return true;
	return false;
}

/* Is name an item of the ", "-joined list? */
static bool list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* GPU row i: its nearest allowed NIC (and nearest of all), and whether it
 * is near enough. */
static void affinity_gpu(const struct node_facts *f, size_t i, struct affinity *a)
{
	const struct topo_dev *g = &f->topo.devs[i];
	int best = -1, best_all = -1, best_down = -1, numa = gpu_numa(f, g);
	enum topo_link bk = TOPO_UNKNOWN, bk_all = TOPO_UNKNOWN, bk_down = TOPO_UNKNOWN;
	bool numa_hit = false;
	for (size_t j = 0; j < f->topo.ndevs; j++) {
		const struct topo_dev *d = &f->topo.devs[j];
		if (d->type != TOPO_DEV_NIC)
			continue;
		enum topo_link k = smi_topo_cell(&f->topo, i, j).kind;
		const struct node_rdma_dev *sd = topo_nic_dev(f, d);
		bool down;
		bool ok = nic_allowed(f, sd, &down);
		if (down) {
			if (best_down < 0 || link_rank(k) < link_rank(bk_down)) {
				best_down = (int)j;
				bk_down = k;
			}
			continue; /* not a NIC the topology offers either */
		}
		if (best_all < 0 || link_rank(k) < link_rank(bk_all)) {
			best_all = (int)j;
			bk_all = k;
		}
		if (!ok)
			continue;
		if (sd && numa >= 0 && sd->pci.numa == numa)
			numa_hit = true;
		if (best < 0 || link_rank(k) < link_rank(bk)) {
			best = (int)j;
			bk = k;
		}
	}
	if (best_all >= 0 && (size_t)best_all < SMI_P2P_MAX)
		a->share_all[best_all]++;
	a->n++;
	/* The nearest NIC the filters let through has its port down: say so,
	 * so that the fix names bringing it up, never using it as it is. */
	const char *dn = NULL;
	if (best_down >= 0 && (best < 0 || link_rank(bk_down) < link_rank(bk))) {
		const struct topo_dev *dd = &f->topo.devs[best_down];
		dn = dd->nic_device ? dd->nic_device : dd->name;
		if (!list_has(a->down.buf, dn))
			strbuf_joinf_capped(&a->down, 200, ", ", "%s", dn);
	}
	if (best < 0) {
		a->nfar++;
		if (dn)
			strbuf_joinf_capped(&a->far, 400, ", ",
					    "%s (no ACTIVE NIC the filters allow; %s %s is down)",
					    g->name, dn, topo_link_name(bk_down));
		else
			strbuf_joinf_capped(&a->far, 400, ", ", "%s (no NIC the filters allow)",
					    g->name);
		return;
	}
	if ((size_t)best < SMI_P2P_MAX)
		a->share[best]++;
	const struct topo_dev *d = &f->topo.devs[best];
	const char *nn = d->nic_device ? d->nic_device : d->name;
	strbuf_joinf_capped(&a->ev, 600, "; ", "%s -> %s %s", g->name, nn, topo_link_name(bk));
	if (a->grace) {
		if (numa >= 0 && !numa_hit) {
			a->nfar++;
			strbuf_joinf_capped(&a->far, 400, ", ",
					    "%s (no allowed NIC on its NUMA node %d)", g->name,
					    numa);
		}
	} else if (link_rank(bk) >= link_rank(TOPO_PHB)) {
		a->nfar++;
		if (dn)
			strbuf_joinf_capped(&a->far, 400, ", ",
					    "%s (nearest ACTIVE allowed %s: %s; %s %s is down)",
					    g->name, nn, topo_link_name(bk), dn,
					    topo_link_name(bk_down));
		else
			strbuf_joinf_capped(&a->far, 400, ", ", "%s (nearest allowed %s: %s)",
					    g->name, nn, topo_link_name(bk));
	}
}

static void affinity_say(struct ci_report *r, const struct node_facts *f, const struct affinity *a)
{
	const struct check_desc *ck = NODE_CHECK(GPU_NIC_AFFINITY);
	const char *subj = "nvidia-smi topo -m";
	/* Filters that put more GPUs on one NIC than the topology does. */
	int mx = 0, mx_all = 0, at = -1;
	for (size_t j = 0; j < SMI_P2P_MAX; j++) {
		if (a->share[j] > mx) {
			mx = a->share[j];
			at = (int)j;
		}
		if (a->share_all[j] > mx_all)
			mx_all = a->share_all[j];
	}
	struct ci_check *c;
	if (!a->n) {
		report_check(r, ck, CI_SKIPPED, subj, "no GPU-to-NIC cell could be read");
		return;
	}
	if (a->nfar || mx > mx_all) {
		struct strbuf d = STRBUF_INIT;
		if (a->nfar)
			strbuf_addf(&d, "%zu of %zu GPUs have no near NIC%s: %s", a->nfar, a->n,
				    a->grace ? "" : " (beyond PXB NCCL turns GPUDirect RDMA off)",
				    a->far.buf);
		if (mx > mx_all && at >= 0)
			strbuf_joinf(&d, "; ", "the filters put %d GPUs on %s", mx,
				     f->topo.devs[at].nic_device ? f->topo.devs[at].nic_device
								 : f->topo.devs[at].name);
		c = report_check(r, ck, CI_WARN, subj, "%s", d.buf);
		if (a->down.len)
			check_set_fix(c,
				      "bring the link of the near NIC up (%s: port not ACTIVE; "
				      "node.rdma.ports), then let each rank use the NIC on its "
				      "PCIe switch (UCX_NET_DEVICES / NCCL_IB_HCA per rank, or "
				      "unset them)",
				      a->down.buf);
		else
			check_set_fix(
				c,
				"let each rank use the NIC on its PCIe switch (UCX_NET_DEVICES / "
				"NCCL_IB_HCA per rank, or unset them) or request NICs "
				"topology-aligned with the GPUs");
		strbuf_release(&d);
	} else {
		c = report_check(
			r, ck, CI_OK, subj, "%s (%zu GPUs)",
			a->grace
				? "every GPU has an allowed NIC on its NUMA node (Grace: the matrix reads "
				  "SYS by design)"
				: "every GPU has an allowed NIC on its PCIe switch (PIX/PXB)",
			a->n);
	}
	if (a->ev.len)
		check_add_evidence(c, "%s", a->ev.buf);
	if (a->unmapped.len)
		check_add_evidence(
			c,
			"NICs of the matrix not in this pod's sysfs (filters not applied "
			"to them): %s",
			a->unmapped.buf);
}

/* For each GPU, the nearest NIC the filters allow (PIX/PXB ok: NCCL uses
 * GPUDirect RDMA up to PATH_PXB; PHB, NODE, SYS warn).  On Grace every cell
 * is SYS by design: a NIC on the GPU's NUMA node is what counts there. */
void node_check_affinity(struct ci_report *r, const struct node_facts *f)
{
	if (!affinity_applies(r, f))
		return;
	struct affinity a = {.grace = node_grace(f),
			     .far = STRBUF_INIT,
			     .ev = STRBUF_INIT,
			     .unmapped = STRBUF_INIT,
			     .down = STRBUF_INIT};
	for (size_t i = 0; i < f->topo.ndevs && i < SMI_P2P_MAX; i++) {
		const struct topo_dev *d = &f->topo.devs[i];
		if (d->type == TOPO_DEV_NIC && !topo_nic_dev(f, d))
			strbuf_joinf_capped(&a.unmapped, 200, ", ", "%s",
					    d->nic_device ? d->nic_device : d->name);
	}
	for (size_t i = 0; i < f->topo.ndevs; i++)
		if (f->topo.devs[i].type == TOPO_DEV_GPU)
			affinity_gpu(f, i, &a);
	affinity_say(r, f, &a);
	strbuf_release(&a.far);
	strbuf_release(&a.ev);
	strbuf_release(&a.unmapped);
	strbuf_release(&a.down);
}
