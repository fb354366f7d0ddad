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

static void port_line(struct node_port *p, const char *key, const char *val)
{
	long i;
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
		p->gid_type[i] = ib_gid_type_parse(val);
		if (p->gid_type[i] != IB_GID_UNKNOWN)
			p->have_gid_types = true;
	} else if ((i = num_after(key, "gids/")) >= 0 && i < NODE_MAX_GIDS) {
		p->gid_set[i] = !ib_gid_is_zero(val);
	}
}

static void ib_line(struct node_facts *f, const char *rest, const char *val)
{
	const char *slash = strchr(rest, '/');
	size_t dlen = slash ? (size_t)(slash - rest) : strlen(rest);
	struct node_rdma_dev *d = dev_get(f, rest, dlen);
	if (!d || !slash || !slash[1])
		return;
	const char *sub = slash + 1;
	if (!val) {
		long n = num_after(sub, "ports/");
		if (n >= 0 && !strchr(sub + 6, '/'))
			port_get(d, (unsigned)n);
		if (!strncmp(sub, "device/net/", 11) && d->n_netdevs < 8) {
			const char *ifn = sub + 11;
			size_t l = strcspn(ifn, "/");
			if (l && l < 64) {
				for (size_t i = 0; i < d->n_netdevs; i++)
					if (strlen(d->netdevs[i]) == l && !strncmp(d->netdevs[i], ifn, l))
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
			port_line(p, end + 1, val);
	}
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

void node_read_sys(struct node_facts *f, const struct section *s)
{
	if (!s)
		return;
	f->have_sys = true;
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
				continue;   /* neither a value nor a directory */
			line[l - 1] = '\0';
		}
		if (!strncmp(line, SYS_IB_PREFIX, strlen(SYS_IB_PREFIX)))
			ib_line(f, line + strlen(SYS_IB_PREFIX), val);
		else if (!strncmp(line, SYS_NET_PREFIX, strlen(SYS_NET_PREFIX)))
			net_line(f, line + strlen(SYS_NET_PREFIX), val);
		else if (!val && !strcmp(line, "sys/kernel/mm/memory_peers"))
			f->memory_peers = true;
		else if (!val && !strncmp(line, SYS_MODULE_PREFIX, strlen(SYS_MODULE_PREFIX)))
			module_dir(f, line + strlen(SYS_MODULE_PREFIX));
	}
	lines_release(&it);

	/* Combine the GID table: a RoCE v2 type on an entry that holds a GID. */
	for (size_t i = 0; i < f->n_devs; i++) {
		for (size_t j = 0; j < f->devs[i].n_ports; j++) {
			struct node_port *p = &f->devs[i].ports[j];
			for (int g = 0; g < NODE_MAX_GIDS; g++) {
				if (p->gid_set[g])
					p->n_gids++;
				if (p->roce_v2_index < 0 && p->gid_set[g] &&
				    p->gid_type[g] == IB_GID_ROCE_V2)
					p->roce_v2_index = g;
			}
		}
	}
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
			f->n_uverbs++;
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
