/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The per-pod summary the fleet checks compare: read once from the pod's
 * transcript through the node and nixl fact readers (never re-parsing
 * anything here), reduced to the few values that must agree across pods.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "fleet/fleet.h"
#include "nixl/nixl.h"
#include "node/gpudirect.h"
#include "node/node_checks.h"
#include "node/node_facts.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void fleet_pod_init(struct fleet_pod *p, const char *name, const char *node, const char *role,
		    const char *component)
{
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(name ? name : "?");
	p->node = xstrdup(node ? node : "");
	p->role = xstrdup(role ? role : "");
	p->component = dup_or_null(component);
	p->n_gpus = -1;
	p->gdrcopy = -1;
}

void fleet_pod_release(struct fleet_pod *p)
{
	free(p->name);
	free(p->node);
	free(p->role);
	free(p->component);
	free(p->unreachable);
	free(p->link_layer);
	free(p->rate);
	free(p->driver);
	free(p->gpudirect);
	for (size_t i = 0; i < p->n_v4; i++)
		free(p->v4[i].gid);
	free(p->v4);
	free(p->gid_index_var);
	free(p->mtu);
	free(p->fw);
	free(p->cluster_uuid);
	free(p->clique_id);
	free(p->ucx_version);
	free(p->nixl_version);
	free(p->backend);
	for (size_t i = 0; i < p->n_env; i++) {
		free(p->env[i].name);
		free(p->env[i].value);
	}
	free(p->env);
	memset(p, 0, sizeof(*p));
}

const char *fleet_pod_env(const struct fleet_pod *p, const char *name)
{
	for (size_t i = 0; i < p->n_env; i++)
		if (!strcmp(p->env[i].name, name))
			return p->env[i].value;
	return NULL;
}

void fleet_pod_set_env(struct fleet_pod *p, const char *name, const char *value)
{
	/* The first value wins: pid 1's environment is listed before the exec
	 * shell's, and pid 1 is what the serving process sees. */
	if (!name || fleet_pod_env(p, name) || p->n_env >= NODE_MAX_ENV)
		return;
	struct fleet_var *v = XPUSH(p->env, p->n_env, p->cap_env);
	v->name = xstrdup(name);
	v->value = xstrdup(value ? value : "");
}

/* "InfiniBand", "RoCE", "EFA": what a port carries. */
static const char *port_kind(const struct node_rdma_dev *d, const struct node_port *pt)
{
	if (d->efa)
		return "EFA";
	if (pt->ll == IB_LL_ETHERNET)
		return "RoCE";
	if (pt->ll == IB_LL_INFINIBAND)
		return "InfiniBand";
	return "unknown";
}

/* Append word to a '+'/'/'-joined set kept in buf, once. */
static void set_add(char *buf, size_t len, const char *word, char sep)
{
	size_t wl = strlen(word);
	for (const char *p = buf; *p;) {
		size_t n = strcspn(p, "+/");
		if (n == wl && !strncmp(p, word, wl))
			return;
		p += n + (p[n] != '\0');
	}
	size_t used = strlen(buf);
	if (used + wl + 2 > len)
		return;
	if (used)
		buf[used++] = sep;
	memcpy(buf + used, word, wl + 1);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void read_rdma(struct fleet_pod *p, const struct node_facts *f)
{
	p->rdma_known = f->have_sys;
	if (!f->have_sys)
		return;
	char ll[96] = "";
	double rates[NODE_MAX_DEVS * NODE_MAX_PORTS];
	size_t nr = 0;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (d->efa)
			p->efa = true;
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct node_port *pt = &d->ports[j];
			p->n_ports++;
			if (!node_port_active(pt))
				continue;
			p->n_active++;
			set_add(ll, sizeof(ll), port_kind(d, pt), '+');
			if (pt->rate.gbps > 0)
				rates[nr++] = pt->rate.gbps;
		}
	}
	p->link_layer = xstrdup(*ll ? ll : "none");
	if (nr) {
		qsort(rates, nr, sizeof(rates[0]), cmp_double);
		char buf[128] = "";
		for (size_t i = 0; i < nr; i++) {
			char w[24];
			snprintf(w, sizeof(w), "%g", rates[i]);
			set_add(buf, sizeof(buf), w, '/');
		}
		p->rate = xasprintf("%s Gb/s", buf);
	}
}

static void read_gpu(struct fleet_pod *p, const struct node_facts *f)
{
	if (f->gpus_known || f->n_dev_gpus)
		p->n_gpus = (int)f->n_gpus;
	else if (f->have_dev)
		p->n_gpus = 0;
	if (f->driver_version && *f->driver_version)
		p->driver = xstrdup(f->driver_version);

	/* node.gpudirect's own judgement (one function, one rule). */
	struct gdr_view v;
	node_gpudirect_view(f, &v);
	if (v.name)
		p->gpudirect = xstrdup(v.name);
	if (f->have_modules && f->have_dev)
		p->gdrcopy = f->mod_gdrdrv && f->dev_gdrdrv;
	else if (f->have_dev && !f->dev_gdrdrv)
		p->gdrcopy = 0;
}

/* The RoCE and NIC readings the fleet compares, over the data ports only
 * (node_data_dev: given to the pod, not a management NIC). */
static void read_roce(struct fleet_pod *p, const struct node_facts *f)
{
	char mtu[96] = "", fw[256] = "";
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (!node_data_dev(f, d))
			continue;
		if (d->fw_ver && !d->efa) {
			char w[96];
			snprintf(w, sizeof(w), "%s %s", d->hca_type ? d->hca_type : "NIC",
				 d->fw_ver);
			set_add(fw, sizeof(fw), w, '/');
		}
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct node_port *pt = &d->ports[j];
			if (!node_port_active(pt))
				continue;
			if (!d->efa && (!f->have_dev || f->n_uverbs))
				p->rdma_path = true;
			if (pt->ll != IB_LL_ETHERNET)
				continue;
			if (pt->active_mtu) {
				char w[16];
				snprintf(w, sizeof(w), "%u", pt->active_mtu);
				set_add(mtu, sizeof(mtu), w, '/');
			}
			for (size_t g = 0; g < pt->n_gids; g++) {
				const struct node_gid *gd = &pt->gids[g];
				if (gd->type != IB_GID_ROCE_V2 || !node_gid_ipv4(gd->gid))
					continue;
				struct fleet_gid *e = XPUSH(p->v4, p->n_v4, p->cap_v4);
				e->gid = xstrdup(gd->gid);
				e->index = (int)gd->index;
			}
		}
	}
	if (*mtu)
		p->mtu = xstrdup(mtu);
	if (*fw)
		p->fw = xstrdup(fw);
	static const char *const vars[] = {"NCCL_IB_GID_INDEX", "UCX_IB_GID_INDEX", "MC_GID_INDEX",
					   NULL};
	for (size_t i = 0; vars[i] && !p->gid_index_var; i++) {
		const char *v = node_env_get(f, vars[i]);
		if (v && *v && strcmp(v, "-1") && strcmp(v, "auto"))
			p->gid_index_var = xasprintf("%s=%s", vars[i], v);
	}
	struct fabric_model m;
	fabric_decide(&p->fabric, &m);
	if (f->smi_q_t.state == TOOL_OK && m.mnnvl_domain)
		for (size_t i = 0; i < f->q.ngpus && !p->cluster_uuid; i++) {
			const struct smi_fabric *fb = &f->q.gpus[i].fabric;
			if (fb->present && !smi_fabric_no_cluster(fb)) {
				p->cluster_uuid = xstrdup(fb->cluster_uuid);
				p->clique_id = dup_or_null(fb->clique_id);
			}
		}
}

static void read_env(struct fleet_pod *p, const struct node_facts *f)
{
	for (size_t i = 0; i < f->n_env; i++)
		fleet_pod_set_env(p, f->env[i].name, f->env[i].value);
}

void fleet_pod_from_facts(struct fleet_pod *p, const struct nixl_facts *f, bool with_nixl)
{
	p->probed = f->node.valid;
	if (p->probed)
		node_fabric_in(&f->node, &p->fabric);
	read_rdma(p, &f->node);
	if (f->efa)
		p->efa = true;
	read_gpu(p, &f->node);
	read_roce(p, &f->node);
	read_env(p, &f->node);
	struct live_summary ls;
	struct live_facts lf = f->node.live;
	lf.fabric = p->fabric;
	lf.have_fabric = p->probed;
	live_summarize(&lf, &ls);
	if (ls.observed) {
		p->live_observed = true;
		p->live_nixl = ls.nixl;
		p->live_kv_tx = ls.nixl_tx;
		p->live_kv_rx = ls.nixl_rx;
		p->live_rdma = (double)(ls.rdma_tx + ls.rdma_rx);
		p->live_tcp = (double)(ls.tcp_tx + ls.tcp_rx);
	}
	live_summary_release(&ls);
	if (with_nixl) {
		if (f->have_ucxv && f->ucxv.version)
			p->ucx_version = xstrdup(f->ucxv.version);
		for (size_t i = 0; i < f->n_py; i++)
			if (f->py[i].name && f->py[i].version &&
			    !strncmp(f->py[i].name, "nixl", 4)) {
				p->nixl_version = xstrdup(f->py[i].version);
				break;
			}
		if (*f->backend_name)
			p->backend = xstrdup(f->backend_name);
	}
}

void fleet_pod_read(struct fleet_pod *p, const struct transcript *t, bool with_nixl)
{
	struct nixl_facts f;
	nixl_facts_init(&f);
	nixl_facts_read(&f, t);
	fleet_pod_from_facts(p, &f, with_nixl);
	nixl_facts_release(&f);
}
