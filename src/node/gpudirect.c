/* SPDX-License-Identifier: Apache-2.0 */
#include "node/gpudirect.h"

#include <stdio.h>
#include <string.h>

#include "rules/ucx.h"

enum ci_status node_host_staging_status(void)
{
	/* GPU -> CPU -> NIC is correct and works; it is several times slower
	 * (nixlbench ~1 GB/s on a 400G NIC without GPUDirect): degraded, not
	 * blocked. */
	return CI_WARN;
}

const char *node_host_staging_words(void)
{
	return "KV is staged through host memory (GPU -> CPU -> NIC): it works, several "
	       "times slower";
}

static bool kernel_at_least(const struct node_facts *f, int ma, int mi)
{
	if (f->kernel_major < 0)
		return false;
	return f->kernel_major > ma || (f->kernel_major == ma && f->kernel_minor >= mi);
}

/* The DMA-BUF path's prerequisites; *why says the first that fails (or
 * what could not be verified), *need what the fix must bring. */
static bool dmabuf_possible(const struct node_facts *f, char *why, size_t len, char *ev,
			    size_t evlen, char *need, size_t needlen)
{
	bool kern = kernel_at_least(f, 5, 12);
	const struct ucx_version_rule *dmabuf = ucx_rule(UCX_MIN_DMABUF);
	bool ucx_ok = !f->have_ucx_version || ucx_meets(UCX_MIN_DMABUF, f->ucx_major, f->ucx_minor);
	bool verbs_ok = !f->have_libs || f->ibverbs_abi < 0 || f->ibverbs_abi >= 12;
	char ucx[48], verbs[64];
	if (f->have_ucx_version)
		snprintf(ucx, sizeof(ucx), "UCX %s", f->ucx_version);
	else
		snprintf(ucx, sizeof(ucx), "UCX version not read");
	if (f->have_libs && f->ibverbs_abi >= 0)
		snprintf(verbs, sizeof(verbs), "libibverbs ABI 1.%d", f->ibverbs_abi);
	else
		snprintf(verbs, sizeof(verbs), "libibverbs version not collected");
	snprintf(ev, evlen, "kernel %s, %s, %s, %s", f->kernel ? f->kernel : "unknown",
		 !f->have_nv_version ? "driver flavour unknown"
		 : f->open_module    ? "open kernel module"
				     : "proprietary kernel module",
		 ucx, verbs);
	why[0] = '\0';
	if (!(kern && f->have_nv_version && f->open_module))
		snprintf(need, needlen,
			 "open kernel module, kernel >= 5.12, UCX >= %s, rdma-core >= 34",
			 dmabuf->text);
	else if (!ucx_ok)
		snprintf(need, needlen, "the node is ready for it; the image needs UCX >= %s",
			 dmabuf->text);
	else
		snprintf(need, needlen,
			 "the node is ready for it; the image needs rdma-core >= 34, whose "
			 "libibverbs has ibv_reg_dmabuf_mr");
	if (!kern)
		snprintf(why, len, "kernel %s is older than 5.12",
			 f->kernel ? f->kernel : "unknown");
	else if (!f->have_nv_version)
		snprintf(why, len,
			 "/proc/driver/nvidia/version is not readable (open module unknown)");
	else if (!f->open_module)
		snprintf(why, len, "the proprietary NVIDIA kernel module has no DMA-BUF export");
	else if (!ucx_ok)
		snprintf(why, len, "UCX %s is older than %s (no DMA-BUF registration)",
			 f->ucx_version, dmabuf->text);
	else if (!verbs_ok)
		snprintf(why, len,
			 "libibverbs ABI 1.%d has no ibv_reg_dmabuf_mr (rdma-core >= 34 needed)",
			 f->ibverbs_abi);
	else
		return true;
	return false;
}

static void gpudirect_view(const struct node_facts *f, struct gdr_view *v)
{
	memset(v, 0, sizeof(*v));
	char why[200];
	char need[128];
	bool dmabuf = dmabuf_possible(f, why, sizeof(why), v->dmabuf, sizeof(v->dmabuf), need,
				      sizeof(need));
	bool efa_node = node_count_efa_devs(f) > 0;
	const char *pm = f->mod_nvidia_peermem ? "nvidia_peermem"
			 : f->mod_nv_peer_mem  ? "nv_peer_mem"
					       : NULL;
	if (!f->have_modules && !f->memory_peers && !f->have_nv_version) {
		v->mode = GDR_MODE_UNKNOWN;
		v->status = CI_SKIPPED;
		snprintf(v->detail, sizeof(v->detail),
			 "neither /proc/modules nor /proc/driver/nvidia/version could be read");
		return;
	}
	if (pm && f->memory_peers) {
		v->mode = GDR_MODE_PEERMEM;
		v->status = CI_OK;
		v->name = "peermem";
		snprintf(v->detail, sizeof(v->detail),
			 "%s is loaded and registered (/sys/kernel/mm/memory_peers): NICs read and "
			 "write GPU memory directly",
			 pm);
		return;
	}
	if (f->mod_efa_peermem && efa_node) {
		v->mode = GDR_MODE_EFA_PEERMEM;
		v->status = CI_OK;
		v->name = "efa_nv_peermem";
		snprintf(v->detail, sizeof(v->detail),
			 "efa_nv_peermem is loaded: GPUDirect RDMA on EFA (UCX's EFA memory domain "
			 "checks /sys/module/efa_nv_peermem; EFA nodes have no memory_peers)");
		return;
	}
	if (dmabuf) {
		v->mode = GDR_MODE_DMABUF;
		v->status = CI_OK;
		v->name = "dma-buf";
		snprintf(v->detail, sizeof(v->detail), "DMA-BUF GPUDirect is possible (%s)%s%s",
			 v->dmabuf, pm ? "; " : "",
			 pm ? "nvidia_peermem is loaded too, without memory_peers" : "");
		return;
	}
	if (pm) {
		v->mode = GDR_MODE_PEERMEM_BARE;
		v->status = CI_WARN;
		v->name = "peermem without memory_peers";
		snprintf(
			v->detail, sizeof(v->detail),
			"%s is loaded but /sys/kernel/mm/memory_peers is absent: UCX still uses it, "
			"NCCL reports \"GPU Direct RDMA Disabled\" and stages through host memory; "
			"no DMA-BUF either (%s)",
			pm, why);
		snprintf(v->fix, sizeof(v->fix),
			 "load nvidia_peermem built against MLNX_OFED/DOCA-OFED (it registers in "
			 "memory_peers; GPU operator driver.rdma.enabled=true), or use DMA-BUF "
			 "(open kernel module, kernel >= 5.12)");
		return;
	}
	if (!f->have_nv_version && kernel_at_least(f, 5, 12)) {
		v->mode = GDR_MODE_UNKNOWN;
		v->status = CI_SKIPPED;
		snprintf(v->detail, sizeof(v->detail),
			 "no peermem module; DMA-BUF cannot be judged: %s", why);
		return;
	}
	v->mode = GDR_MODE_STAGING;
	v->status = node_host_staging_status();
	v->name = "host staging";
	snprintf(v->detail, sizeof(v->detail),
		 "no GPUDirect RDMA: no %speermem module and no DMA-BUF (%s): %s",
		 efa_node ? "efa_nv_" : "nvidia_", why, node_host_staging_words());
	if (efa_node)
		snprintf(v->fix, sizeof(v->fix),
			 "load efa_nv_peermem on the node (aws-efa-installer), or use DMA-BUF "
			 "(open kernel module, kernel >= 5.12, FI_HMEM_CUDA_USE_DMABUF=1)");
	else
		snprintf(v->fix, sizeof(v->fix),
			 "load nvidia_peermem on the node (GPU operator driver.rdma.enabled=true), "
			 "or use DMA-BUF (%s)",
			 need);
}

void node_gpudirect_view(const struct node_facts *f, struct gdr_view *v)
{
	gpudirect_view(f, v);
	/* UCX_IB_GPU_DIRECT_RDMA off (rules/ucx.c): the kernel side may be
	 * ready, UCX still stages through host memory (not on EFA: libfabric). */
	const char *gdr = node_env_get(f, "UCX_IB_GPU_DIRECT_RDMA");
	if (!ucx_value_off(gdr) || node_count_efa_devs(f) || v->mode == GDR_MODE_UNKNOWN ||
	    v->mode == GDR_MODE_STAGING)
		return;
	const struct ucx_value_rule *vr = ucx_value_rule(UCX_VR_GDR_OFF);
	char was[sizeof(v->detail)];
	snprintf(was, sizeof(was), "%s", v->detail);
	v->mode = GDR_MODE_STAGING;
	v->status = (enum ci_status)vr->status;
	v->name = "host staging";
	int n = snprintf(v->detail, sizeof(v->detail), "UCX_IB_GPU_DIRECT_RDMA=%s: %s", gdr,
			 vr->what);
	if (n > 0 && (size_t)n + 20 < sizeof(v->detail))
		snprintf(v->detail + n, sizeof(v->detail) - (size_t)n, " (the node side: %.*s)",
			 (int)(sizeof(v->detail) - (size_t)n - 20), was);
	snprintf(v->fix, sizeof(v->fix), "%s", vr->fix);
}
