/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which RDMA devices the data-rail checks judge.  sysfs shows every NIC of
 * the node; a pod given a subset (shared RDMA device plugin, SR-IOV) has
 * /dev/infiniband/uverbsN only for its own, and libibverbs lists only those
 * (rdma-core skips a device whose uverbs char device is absent).  A NIC
 * without its node is "not given to this pod": named, never judged.  Of the
 * NICs the pod was given, a management/frontend NIC (the one carrying the
 * default route, one on a NUMA node without GPUs, or one far slower than the
 * rest) is set aside too, so that it does not make the rails look "mixed".
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "node/node_checks.h"

static bool uverbs_present(const struct node_facts *f, int n)
{
	return n >= 0 && n < 256 && (f->uverbs_nodes[n / 8] & (1u << (n % 8)));
}

static bool ibv_listed(const struct node_facts *f, const char *name)
{
	for (size_t j = 0; j < f->ibv_n; j++)
		if (!strcmp(f->ibv_names[j], name))
			return true;
	return false;
}

bool node_dev_given(const struct node_facts *f, const struct node_rdma_dev *d)
{
	/* No uverbs at all is node.rdma.uverbs' failure, not a subset. */
	if (!f->have_dev || !f->n_uverbs)
		return true;
	if (d->have_uverbs_map)
		return uverbs_present(f, d->uverbs);
	/* Without the map (older probes): fewer uverbs nodes than devices, and
	 * libibverbs, which warned of no missing provider, did not list it. */
	return !(f->n_uverbs < f->n_devs && f->ibv_t.state == TOOL_OK && f->ibv_n &&
		 !f->ibv_no_driver && !ibv_listed(f, d->name));
}

static double dev_rate(const struct node_rdma_dev *d)
{
	double g = 0;
	for (size_t j = 0; j < d->n_ports; j++)
		if (node_port_active(&d->ports[j]) && d->ports[j].rate.gbps > g)
			g = d->ports[j].rate.gbps;
	return g;
}

static bool dev_default_route(const struct node_facts *f, const struct node_rdma_dev *d)
{
	for (size_t k = 0; k < d->n_netdevs; k++) {
		const struct node_netif *n = node_find_if(f, d->netdevs[k]);
		if (n && n->default_route)
			return true;
	}
	return false;
}

static bool numa_has_gpu(const struct node_facts *f, int numa, bool *known)
{
	*known = false;
	for (size_t i = 0; i < f->n_pci_gpus; i++) {
		if (f->pci_gpus[i].pci.numa < 0)
			continue;
		*known = true;
		if (f->pci_gpus[i].pci.numa == numa)
			return true;
	}
	return false;
}

const char *node_dev_mgmt_reason(const struct node_facts *f, const struct node_rdma_dev *d)
{
	if (d->efa || !node_dev_given(f, d))
		return NULL;
	/* Set a NIC aside only when another given NIC stays a data rail. */
	double best = 0;
	size_t others = 0;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *o = &f->devs[i];
		if (o == d || o->efa || !node_dev_given(f, o) || dev_default_route(f, o))
			continue;
		others++;
		if (dev_rate(o) > best)
			best = dev_rate(o);
	}
	if (!others)
		return NULL;
	if (dev_default_route(f, d))
		return "carries the default route";
	bool known;
	if (d->pci.numa >= 0 && !numa_has_gpu(f, d->pci.numa, &known) && known)
		return "on a NUMA node without GPUs";
	double g = dev_rate(d);
	if (g > 0 && best >= 4 * g)
		return "far slower than the other NICs";
	return NULL;
}

const struct node_pci_gpu *node_pci_gpu_find(const struct node_facts *f, const char *bus_id)
{
	/* nvidia-smi writes the domain with 8 digits ("00000000:53:00.0"),
	 * sysfs with 4 and in lower case ("0000:53:00.0") */
	char *end;
	unsigned long dom = strtoul(bus_id, &end, 16);
	if (*end != ':')
		return NULL;
	for (size_t i = 0; i < f->n_pci_gpus; i++) {
		char *e2;
		const char *b = f->pci_gpus[i].bdf;
		if (strtoul(b, &e2, 16) == dom && *e2 == ':' && !strcasecmp(e2, end))
			return &f->pci_gpus[i];
	}
	return NULL;
}

bool node_data_dev(const struct node_facts *f, const struct node_rdma_dev *d)
{
	return node_dev_given(f, d) && !node_dev_mgmt_reason(f, d);
}
