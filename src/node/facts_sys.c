/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SEC_SYS and SEC_DEV sections: RDMA devices, their ports and GIDs,
 * network interfaces, memory_peers, device nodes.  Read straight from sysfs
 * lines, so that InfiniBand facts never depend on ibstat being installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "node/facts_internal.h"
#include "node/sections.h"
#include "parse/lines.h"

static struct node_rdma_dev *dev_get(struct node_facts *f, const char *name, size_t len)
{
	if (!len || len > 64)
		return NULL;
	for (size_t i = 0; i < f->n_devs; i++)
		if (strlen(f->devs[i].name) == len && !strncmp(f->devs[i].name, name, len))
			return &f->devs[i];
	if (f->n_devs >= NODE_MAX_DEVS)
		return NULL;
	struct node_rdma_dev *d = &f->devs[f->n_devs++];
	memset(d, 0, sizeof(*d));
	d->name = xstrndup(name, len);
	d->node_type = -1;
	d->uverbs = -1;
	d->pci.numa = -1;
	/* AWS EFA devices show up as efa_N or rdmapXsY. */
	d->efa = !strncmp(d->name, "efa", 3) || !strncmp(d->name, "rdmap", 5);
	d->bond = strstr(d->name, "bond") != NULL;
	return d;
}

static struct node_port *port_get(struct node_rdma_dev *d, unsigned num)
{
	for (size_t i = 0; i < d->n_ports; i++)
		if (d->ports[i].num == num)
			return &d->ports[i];
	if (d->n_ports >= NODE_MAX_PORTS)
		return NULL;
	struct node_port *p = &d->ports[d->n_ports++];
	memset(p, 0, sizeof(*p));
	p->num = num;
	p->roce_v2_index = -1;
	for (int k = 0; k < 2; k++)
		for (int c = 0; c < NC_COUNT; c++)
			p->ctr[k][c] = UINT64_MAX;
	return p;
}

static struct node_netif *if_get(struct node_facts *f, const char *name, size_t len)
{
	if (!len || len > 64)
		return NULL;
	for (size_t i = 0; i < f->n_ifs; i++)
		if (strlen(f->ifs[i].name) == len && !strncmp(f->ifs[i].name, name, len))
			return &f->ifs[i];
	if (f->n_ifs >= NODE_MAX_IFS)
		return NULL;
	struct node_netif *n = &f->ifs[f->n_ifs++];
	memset(n, 0, sizeof(*n));
	n->name = xstrndup(name, len);
	n->type = -1;
	return n;
}

/* "ports/1/gids/3" style: the number after `prefix`, or -1. */
static long num_after(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	if (strncmp(s, prefix, n))
		return -1;
	uint32_t v;
	if (!str_to_u32(s + n, 10, &v) || v > 1000000)
		return -1;
	return (long)v;
}

static const char *const counter_names[NC_COUNT] = {
	[NC_LINK_DOWNED] = "link_downed",
	[NC_SYMBOL_ERROR] = "symbol_error",
	[NC_LINK_ERROR_RECOVERY] = "link_error_recovery",
	[NC_PORT_RCV_ERRORS] = "port_rcv_errors",
	[NC_EXCESSIVE_BUFFER_OVERRUN] = "excessive_buffer_overrun_errors",
	[NC_OUT_OF_SEQUENCE] = "out_of_sequence",
	[NC_LOCAL_ACK_TIMEOUT] = "local_ack_timeout_err",
	[NC_RNR_NAK_RETRY] = "rnr_nak_retry_err",
	[NC_NP_CNP_SENT] = "np_cnp_sent",
	[NC_RP_CNP_HANDLED] = "rp_cnp_handled",
};

const char *node_counter_name(enum node_counter c)
{
	return (unsigned)c < NC_COUNT ? counter_names[c] : "?";
}

/* "counters/link_downed" or "hw_counters/out_of_sequence" -> the counter. */
static int counter_of(const char *key)
{
	const char *n = NULL;
	if (!strncmp(key, "counters/", 9))
		n = key + 9;
	else if (!strncmp(key, "hw_counters/", 12))
		n = key + 12;
	if (!n)
		return -1;
	for (int c = 0; c < NC_COUNT; c++)
		if (!strcmp(n, counter_names[c]))
			return c;
	return -1;
}

static struct node_gid *gid_get(struct node_port *p, unsigned index)
{
	for (size_t i = 0; i < p->n_gids; i++)
		if (p->gids[i].index == index)
			return &p->gids[i];
	if (p->n_gids >= NODE_MAX_GIDS)
		return NULL;
	/* keep them sorted by index: the probe lists them in order anyway */
	size_t at = p->n_gids;
	while (at && p->gids[at - 1].index > index)
		at--;
	size_t n = p->n_gids;
	(void)XPUSH(p->gids, n, p->cap_gids);
	memmove(&p->gids[at + 1], &p->gids[at], (p->n_gids - at) * sizeof(p->gids[0]));
	p->n_gids++;
	memset(&p->gids[at], 0, sizeof(p->gids[at]));
	p->gids[at].index = index;
	return &p->gids[at];
}

const struct node_gid *node_port_gid(const struct node_port *p, unsigned index)
{
	for (size_t i = 0; i < p->n_gids; i++)
		if (p->gids[i].index == index)
			return &p->gids[i];
	return NULL;
}

/* Counters: sample 0 from SEC_SYS, sample 1 from SEC_COUNTERS2. */
static void counter_line(struct node_port *p, int c, const char *val, int sample)
{
	uint64_t v;
	if (c < 0 || !str_to_u64(val, 10, &v))
		return;
	p->ctr[sample][c] = v;
	p->have_ctr[sample] = true;
}

static void port_line(struct node_port *p, const char *key, const char *val, int sample)
{
	long i;
	int c = counter_of(key);
	if (c >= 0) {
		counter_line(p, c, val, sample);
		return;
	}
	if (sample)
		return;
	if (!strcmp(key, "state")) {
		p->state = ib_port_state_parse(val);
	} else if (!strcmp(key, "phys_state")) {
		p->phys = ib_phys_state_parse(val);
	} else if (!strcmp(key, "rate")) {
		snprintf(p->rate_raw, sizeof(p->rate_raw), "%s", val);
		if (!ib_rate_parse(val, &p->rate))
			memset(&p->rate, 0, sizeof(p->rate));
	} else if (!strcmp(key, "link_layer")) {
		p->ll = ib_link_layer_parse(val);
	} else if (!strcmp(key, "lid")) {
		p->have_lid = ib_lid_parse(val, &p->lid);
	} else if ((i = num_after(key, "gid_attrs/types/")) >= 0 && i < NODE_MAX_GIDS) {
		enum ib_gid_type t = ib_gid_type_parse(val);
		if (t != IB_GID_UNKNOWN) {
			p->have_gid_types = true;
			struct node_gid *g = gid_get(p, (unsigned)i);
			if (g)
				g->type = t;
		}
	} else if ((i = num_after(key, "gids/")) >= 0 && i < NODE_MAX_GIDS) {
		/* An empty entry is all zeros; the probe prints only set ones,
		 * older probes printed indexes 0-7 whatever they held. */
		if (!ib_gid_is_zero(val) && strlen(val) < sizeof(((struct node_gid *)0)->gid)) {
			struct node_gid *g = gid_get(p, (unsigned)i);
			if (g)
				snprintf(g->gid, sizeof(g->gid), "%s", val);
		}
	}
}

/* device/{current_link_width,max_link_width,numa_node,iommu_group/type} */
static bool pci_line(struct node_pci *pc, const char *key, const char *val)
{
	uint32_t v;
	if (!strcmp(key, "current_link_width")) {
		if (str_to_u32(val, 10, &v) && v <= 64)
			pc->width_cur = v;
	} else if (!strcmp(key, "max_link_width")) {
		if (str_to_u32(val, 10, &v) && v <= 64)
			pc->width_max = v;
	} else if (!strcmp(key, "numa_node")) {
		/* "-1" when the platform does not say */
		pc->numa = str_to_u32(val, 10, &v) && v < 4096 ? (int)v : -1;
	} else if (!strcmp(key, "iommu_group/type")) {
		snprintf(pc->iommu_type, sizeof(pc->iommu_type), "%s", val);
	} else {
		return false;
	}
	return true;
}

static void ib_line(struct node_facts *f, const char *rest, const char *val, int sample)
{
	const char *slash = strchr(rest, '/');
	size_t dlen = slash ? (size_t)(slash - rest) : strlen(rest);
	struct node_rdma_dev *d = NULL;
	if (sample) {
		/* the second reading only updates devices the first one listed */
		for (size_t i = 0; i < f->n_devs && !d; i++)
			if (strlen(f->devs[i].name) == dlen &&
			    !strncmp(f->devs[i].name, rest, dlen))
				d = &f->devs[i];
	} else {
		d = dev_get(f, rest, dlen);
	}
	if (!d || !slash || !slash[1])
		return;
	const char *sub = slash + 1;
	if (sample) {
		if (val && !strncmp(sub, "ports/", 6)) {
			char *end;
			unsigned long n = strtoul(sub + 6, &end, 10);
			if (end == sub + 6 || *end != '/' || n > 1000)
				return;
			for (size_t j = 0; j < d->n_ports; j++)
				if (d->ports[j].num == n)
					port_line(&d->ports[j], end + 1, val, 1);
		}
		return;
	}
	if (!val) {
		if (!strncmp(sub, "device/infiniband_verbs/uverbs", 30)) {
			uint32_t u;
			if (str_to_u32(sub + 30, 10, &u) && u < 100000) {
				d->uverbs = (int)u;
				d->have_uverbs_map = true;
			}
			return;
		}
		long n = num_after(sub, "ports/");
		if (n >= 0 && !strchr(sub + 6, '/'))
			port_get(d, (unsigned)n);
		if (!strncmp(sub, "device/net/", 11) && d->n_netdevs < 8) {
			const char *ifn = sub + 11;
			size_t l = strcspn(ifn, "/");
			if (l && l < 64) {
				for (size_t i = 0; i < d->n_netdevs; i++)
					if (strlen(d->netdevs[i]) == l &&
					    !strncmp(d->netdevs[i], ifn, l))
						return;
				d->netdevs[d->n_netdevs++] = xstrndup(ifn, l);
			}
		}
		return;
	}
	if (!strcmp(sub, "node_type")) {
		d->node_type = ib_node_type_parse(val);
	} else if (!strcmp(sub, "fw_ver")) {
		free(d->fw_ver);
		d->fw_ver = xstrdup(val);
	} else if (!strcmp(sub, "hca_type")) {
		free(d->hca_type);
		d->hca_type = xstrdup(val);
	} else if (!strcmp(sub, "board_id")) {
		free(d->board_id);
		d->board_id = xstrdup(val);
	} else if (!strncmp(sub, "ports/", 6)) {
		char *end;
		unsigned long n = strtoul(sub + 6, &end, 10);
		if (end == sub + 6 || *end != '/' || n > 1000)
			return;
		struct node_port *p = port_get(d, (unsigned)n);
		if (p)
			port_line(p, end + 1, val, 0);
	} else if (!strncmp(sub, "device/", 7)) {
		(void)pci_line(&d->pci, sub + 7, val);
	}
}

/* sys/bus/pci/devices/<bdf>/...: the probe lists NVIDIA GPUs only. */
static void pci_gpu_line(struct node_facts *f, const char *rest, const char *val)
{
	size_t l = strcspn(rest, "/");
	if (!l) {
		f->have_pci_gpus = true; /* "sys/bus/pci/devices/": the probe looked */
		return;
	}
	if (l >= sizeof(f->pci_gpus[0].bdf))
		return;
	f->have_pci_gpus = true;
	struct node_pci_gpu *g = NULL;
	for (size_t i = 0; i < f->n_pci_gpus && !g; i++)
		if (strlen(f->pci_gpus[i].bdf) == l && !strncmp(f->pci_gpus[i].bdf, rest, l))
			g = &f->pci_gpus[i];
	if (!g) {
		if (f->n_pci_gpus >= NODE_MAX_PCI_GPUS)
			return;
		g = &f->pci_gpus[f->n_pci_gpus++];
		memset(g, 0, sizeof(*g));
		memcpy(g->bdf, rest, l);
		g->pci.numa = -1;
	}
	if (val && rest[l] == '/')
		(void)pci_line(&g->pci, rest + l + 1, val);
}

static void net_line(struct node_facts *f, const char *rest, const char *val)
{
	const char *slash = strchr(rest, '/');
	size_t l = slash ? (size_t)(slash - rest) : strlen(rest);
	struct node_netif *n = if_get(f, rest, l);
	if (!n || !val || !slash)
		return;
	if (!strcmp(slash + 1, "operstate")) {
		free(n->operstate);
		n->operstate = xstrdup(val);
	} else if (!strcmp(slash + 1, "type")) {
		uint32_t t;
		n->type = str_to_u32(val, 10, &t) && t < 65536 ? (int)t : -1;
	}
}

static void module_dir(struct node_facts *f, const char *m)
{
	size_t l = strcspn(m, "/");
	char name[64];
	if (!l || l >= sizeof(name))
		return;
	memcpy(name, m, l);
	name[l] = '\0';
	node_note_module(f, name);
}

#define SYS_PCI_PREFIX "sys/bus/pci/devices/"

static void read_sys_lines(struct node_facts *f, const struct section *s, int sample)
{
	struct lines it;
	lines_init(&it, s->body, s->len);
	char *line;
	while ((line = lines_next(&it))) {
		char *val = NULL;
		char *eq = strchr(line, '=');
		if (eq) {
			*eq = '\0';
			val = str_trim(eq + 1);
		} else {
			size_t l = strlen(line);
			if (!l || line[l - 1] != '/')
				continue; /* neither a value nor a directory */
			line[l - 1] = '\0';
		}
		if (!strncmp(line, SYS_IB_PREFIX, strlen(SYS_IB_PREFIX)))
			ib_line(f, line + strlen(SYS_IB_PREFIX), val, sample);
		else if (sample)
			continue;
		else if (!strncmp(line, SYS_PCI_PREFIX, strlen(SYS_PCI_PREFIX)) ||
			 !strcmp(line, "sys/bus/pci/devices"))
			pci_gpu_line(f,
				     strlen(line) > strlen(SYS_PCI_PREFIX)
					     ? line + strlen(SYS_PCI_PREFIX)
					     : "",
				     val);
		else if (val && !strcmp(line, "sys/class/dmi/id/sys_vendor")) {
			free(f->dmi_vendor);
			f->dmi_vendor = xstrdup(val);
		} else if (val && !strcmp(line, "sys/class/dmi/id/product_name")) {
			free(f->dmi_product);
			f->dmi_product = xstrdup(val);
		} else if (val && !strcmp(line, "sys/module/gdrdrv/version")) {
			free(f->gdrdrv_version);
			f->gdrdrv_version = xstrdup(val);
		} else if (!strncmp(line, SYS_NET_PREFIX, strlen(SYS_NET_PREFIX)))
			net_line(f, line + strlen(SYS_NET_PREFIX), val);
		else if (!val && !strcmp(line, "sys/kernel/mm/memory_peers"))
			f->memory_peers = true;
		else if (!val && !strncmp(line, SYS_MODULE_PREFIX, strlen(SYS_MODULE_PREFIX)))
			module_dir(f, line + strlen(SYS_MODULE_PREFIX));
	}
	lines_release(&it);
}

void node_read_sys(struct node_facts *f, const struct section *s)
{
	if (!s)
		return;
	f->have_sys = true;
	read_sys_lines(f, s, 0);

	/* Combine the GID table: an entry holds a GID when its value was
	 * non-zero; a type line alone (for an empty entry) does not count. */
	for (size_t i = 0; i < f->n_devs; i++) {
		for (size_t j = 0; j < f->devs[i].n_ports; j++) {
			struct node_port *p = &f->devs[i].ports[j];
			size_t k = 0;
			for (size_t g = 0; g < p->n_gids; g++)
				if (p->gids[g].gid[0])
					p->gids[k++] = p->gids[g];
			p->n_gids = k;
			for (size_t g = 0; g < p->n_gids && p->roce_v2_index < 0; g++)
				if (p->gids[g].type == IB_GID_ROCE_V2)
					p->roce_v2_index = (int)p->gids[g].index;
		}
	}
}

void node_read_second_sample(struct node_facts *f, const struct section *s)
{
	if (!s || s->missing)
		return;
	read_sys_lines(f, s, 1);
	/* "interval_ms=N": the time the probe measured between the readings */
	const char *iv = memmem(s->body, s->len, "interval_ms=", 12);
	if (iv && (iv == s->body || iv[-1] == '\n')) {
		char num[12];
		size_t n = 0;
		for (iv += 12;
		     n < sizeof(num) - 1 && iv < s->body + s->len && *iv >= '0' && *iv <= '9';)
			num[n++] = *iv++;
		num[n] = '\0';
		uint32_t ms;
		if (n && str_to_u32(num, 10, &ms) && ms < 3600000)
			f->ctr_interval_ms = ms;
	}
	for (size_t i = 0; i < f->n_devs; i++)
		for (size_t j = 0; j < f->devs[i].n_ports; j++)
			f->have_ctr2 |= f->devs[i].ports[j].have_ctr[1];
}

void node_read_dev(struct node_facts *f, const struct section *s)
{
	if (!s)
		return;
	f->have_dev = true;
	struct lines it;
	lines_init(&it, s->body, s->len);
	char *line;
	while ((line = lines_next(&it))) {
		line = str_trim(line);
		if (!strncmp(line, DEV_UVERBS_PREFIX, strlen(DEV_UVERBS_PREFIX))) {
			uint32_t u;
			f->n_uverbs++;
			if (str_to_u32(line + strlen(DEV_UVERBS_PREFIX), 10, &u) && u < 256)
				f->uverbs_nodes[u / 8] |= (unsigned char)(1u << (u % 8));
		} else if (!strcmp(line, DEV_GDRDRV)) {
			f->dev_gdrdrv = true;
		} else if (!strncmp(line, DEV_IMEX_PREFIX, strlen(DEV_IMEX_PREFIX))) {
			f->n_imex_channels++;
		} else if (!strncmp(line, DEV_NVIDIA_PREFIX, strlen(DEV_NVIDIA_PREFIX))) {
			uint32_t n;
			if (str_to_u32(line + strlen(DEV_NVIDIA_PREFIX), 10, &n))
				f->n_dev_gpus++;
		}
	}
	lines_release(&it);
}
