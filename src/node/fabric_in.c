/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The node facts as the fabric model's input (rules/fabric.h): what the
 * pod was given, the GPUs' links and fabric, IMEX and UCX.  The model
 * decides; this file only reads.
 */
#include <string.h>

#include "node/node_checks.h"
#include "parse/lines.h"

static bool dev_active(const struct node_rdma_dev *d, enum ib_link_layer ll)
{
	for (size_t j = 0; j < d->n_ports; j++)
		if (node_port_active(&d->ports[j]) && (d->efa || d->ports[j].ll == ll))
			return true;
	return false;
}

/* Given: the pod has the device's uverbs node.  With no uverbs node at
 * all, nothing was given (node_dev_given() calls that "all", for the
 * uverbs check to fail once; the model must not count them). */
static bool given(const struct node_facts *f, const struct node_rdma_dev *d)
{
	if (f->have_dev && !f->n_uverbs)
		return false;
	return node_dev_given(f, d);
}

static enum fabric_gpu_state gpu_fabric(const struct node_facts *f, bool *uuid)
{
	*uuid = false;
	if (f->smi_q_t.state != TOOL_OK)
		return FGS_UNREAD;
	size_t blocks = 0, na = 0, nostate = 0, notready = 0;
	for (size_t i = 0; i < f->q.ngpus; i++) {
		const struct smi_fabric *fb = &f->q.gpus[i].fabric;
		if (!fb->present)
			continue;
		blocks++;
		if (!smi_fabric_no_cluster(fb))
			*uuid = true;
		if (!fb->state)
			nostate++;
		else if (smi_is_na(fb->state) || str_ieq(fb->state, "Not Supported"))
			na++;
		else if (!smi_fabric_completed(fb))
			notready++;
	}
	if (!blocks)
		return FGS_NO_BLOCK;
	if (notready)
		return FGS_NOT_READY;
	if (nostate)
		return FGS_NO_STATE;
	if (na == blocks)
		return FGS_NA;
	return FGS_COMPLETED;
}

void node_fabric_in(const struct node_facts *f, struct fabric_in *in)
{
	memset(in, 0, sizeof(*in));
	in->nics_read = f->have_sys;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (!given(f, d)) {
			in->nics_not_given++;
			continue;
		}
		if (d->efa)
			in->efa_nics += dev_active(d, IB_LL_UNKNOWN) || !d->n_ports;
		else if (dev_active(d, IB_LL_INFINIBAND))
			in->ib_nics++;
		else if (dev_active(d, IB_LL_ETHERNET))
			in->roce_nics++;
		else
			in->nics_given_down++;
	}
	in->gpus = (unsigned)f->n_gpus;
	if (f->smi_topo_t.state == TOOL_OK && f->topo.ngpus >= 2)
		in->nvlink_all_pairs = smi_topo_min_nvlinks(&f->topo) ? FABRIC_YES : FABRIC_NO;
	if (f->smi_nvlink_t.state == TOOL_OK)
		in->nvlinks_active = (unsigned)smi_nvlink_count_active(&f->nvlink);
	const char *name = f->gpu_name;
	if (!name && f->smi_q_t.state == TOOL_OK && f->q.ngpus)
		name = f->q.gpus[0].product_name;
	in->nvswitch_form_factor =
		name && (str_icontains(name, "SXM") || str_icontains(name, "HGX"));
	in->fabric = gpu_fabric(f, &in->cluster_uuid);
	in->imex_channels = (unsigned)f->n_imex_channels;
	if (f->have_ucx_version) {
		in->ucx_major = f->ucx_major;
		in->ucx_minor = f->ucx_minor;
	}
}

void node_fabric(const struct node_facts *f, struct fabric_model *m)
{
	struct fabric_in in;
	node_fabric_in(f, &in);
	fabric_decide(&in, m);
}

bool node_fabric_nic_optional(const struct node_facts *f)
{
	struct fabric_model m;
	node_fabric(f, &m);
	return m.nic_optional;
}
