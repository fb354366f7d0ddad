/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fleet checks over the fabric addresses of the pods: RoCE GIDs (an IPv4
 * address held by two nodes; a pinned GID index that means another entry on
 * another node) and multi-node NVLink domains (pods whose GPUs are in
 * different NVLink domains cannot reach each other over cuda_ipc).  Pure,
 * and linear in the pods apart from one sort of the GIDs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "fleet/fleet.h"
#include "fleet/fleet_desc.h"
#include "parse/ucx_tls.h"

/* Names listed in one detail line before "and N more". */
#define NAMES_MAX 6

struct gid_ref {
	const char *gid;
	size_t pod;
};

static int cmp_gid_ref(const void *a, const void *b)
{
	const struct gid_ref *x = a, *y = b;
	int c = strcmp(x->gid, y->gid);
	if (c)
		return c;
	return (x->pod > y->pod) - (x->pod < y->pod);
}

/* "0000:0000:0000:0000:0000:ffff:0a00:0a05" -> "10.0.10.5" */
static void gid_ipv4(const char *gid, char *out, size_t len)
{
	unsigned a, b;
	if (strlen(gid) == 39 && sscanf(gid + 30, "%4x:%4x", &a, &b) == 2)
		snprintf(out, len, "%u.%u.%u.%u", a >> 8, a & 255, b >> 8, b & 255);
	else
		snprintf(out, len, "%s", gid);
}

static bool other_node(const struct fleet_pod *a, const struct fleet_pod *b)
{
	/* Pods on one node may share its NIC (a shared RDMA device plugin):
	 * the same GID there is one address, not a clash. */
	return *a->node && *b->node && strcmp(a->node, b->node);
}

/* The indexes holding the pod's IPv4 RoCE v2 GIDs, "3" or "3/5". */
static void v4_indexes(const struct fleet_pod *p, char *buf, size_t len)
{
	buf[0] = '\0';
	int last = -1;
	for (;;) {
		int next = -1;
		for (size_t i = 0; i < p->n_v4; i++)
			if (p->v4[i].index > last && (next < 0 || p->v4[i].index < next))
				next = p->v4[i].index;
		if (next < 0)
			break;
		size_t u = strlen(buf);
		snprintf(buf + u, len - u, "%s%d", u ? "/" : "", next);
		last = next;
	}
}

/* "pod (node), pod (node) and N more": the pods holding v[a..b) */
static void list_holders(struct strbuf *b, const struct fleet_pod *p, const struct gid_ref *v,
			 size_t from, size_t to)
{
	size_t shown = 0, more = 0;
	for (size_t x = from; x < to; x++) {
		if (x > from && v[x].pod == v[x - 1].pod)
			continue;
		if (shown == NAMES_MAX) {
			more++;
			continue;
		}
		const struct fleet_pod *q = &p[v[x].pod];
		strbuf_addf(b, "%s%s (%s)", shown++ ? ", " : "", q->name,
			    *q->node ? q->node : "unscheduled");
	}
	if (more)
		strbuf_addf(b, " and %zu more", more);
}

/* One address on two nodes: IPAM handed it out twice.  v: every pod's GIDs
 * (k of them), sorted; the clashes are described into *clash. */
static size_t gid_clashes(const struct fleet_pod *p, const struct gid_ref *v, size_t k,
			  struct strbuf *clash)
{
	size_t nclash = 0;
	for (size_t a = 0; a < k;) {
		size_t b = a + 1;
		while (b < k && !strcmp(v[a].gid, v[b].gid))
			b++;
		bool hit = false;
		for (size_t x = a + 1; x < b && !hit; x++)
			hit = other_node(&p[v[a].pod], &p[v[x].pod]);
		if (hit) {
			char ip[48];
			gid_ipv4(v[a].gid, ip, sizeof(ip));
			if (nclash++ < NAMES_MAX) {
				strbuf_addf(clash, "%s%s on ", nclash > 1 ? "; " : "", ip);
				list_holders(clash, p, v, a, b);
			}
		}
		a = b;
	}
	if (nclash > NAMES_MAX)
		strbuf_addf(clash, " and %zu more", nclash - NAMES_MAX);
	return nclash;
}

/* A pinned index that holds the IPv4 GID on some nodes only: true when the
 * pods' indexes differ; *pinned is the first pod's variable. */
static bool gid_index_differs(const struct fleet_pod *p, size_t n, const char **pinned,
			      struct strbuf *idx)
{
	char first[64] = "";
	bool differ = false;
	*pinned = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!p[i].probed || !p[i].n_v4 || !p[i].gid_index_var)
			continue;
		char s[64];
		v4_indexes(&p[i], s, sizeof(s));
		if (!*pinned) {
			*pinned = p[i].gid_index_var;
			snprintf(first, sizeof(first), "%s", s);
			strbuf_addf(idx, "index %s on %s", s, p[i].name);
		} else if (strcmp(s, first)) {
			differ = true;
			strbuf_joinf_capped(idx, 400, ", ", "index %s on %s", s, p[i].name);
		}
	}
	return differ;
}

void fleet_check_roce_gid(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	const struct check_desc *ck = FLEET_CHECK(ROCE_GID);
	const char *subj = "RoCE GIDs";
	size_t total = 0, pods = 0;
	for (size_t i = 0; i < n; i++)
		if (p[i].probed && p[i].n_v4) {
			total += p[i].n_v4;
			pods++;
		}
	if (pods < 2) {
		report_check_as(r, ck, CI_SKIPPED, false, CI_LAYER_TUNING, subj,
				"IPv4 RoCE v2 GIDs known for %zu pod%s: nothing to compare", pods,
				pods == 1 ? "" : "s");
		return;
	}
	struct gid_ref *v = xcalloc(total, sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; p[i].probed && j < p[i].n_v4; j++)
			v[k++] = (struct gid_ref){p[i].v4[j].gid, i};
	qsort(v, k, sizeof(*v), cmp_gid_ref);
	struct strbuf clash = STRBUF_INIT, idx = STRBUF_INIT;
	size_t nclash = gid_clashes(p, v, k, &clash);
	free(v);
	const char *pinned;
	bool differ = gid_index_differs(p, n, &pinned, &idx);

	struct ci_check *c;
	if (nclash) {
		c = report_check(r, ck, CI_FAIL, subj,
				 "%zu IPv4 RoCE v2 GID%s held by pods on different nodes: %s (the "
				 "nodes' RoCE addresses clash: connections reach the wrong node or "
				 "none)",
				 nclash, nclash == 1 ? "" : "s", clash.buf);
		check_set_fix(c, "give every node's RoCE interface its own address (the "
				 "secondary network's IPAM range, e.g. whereabouts or host-local, "
				 "must not overlap between nodes)");
	} else if (differ) {
		c = report_check(
			r, ck, CI_WARN, subj,
			"%s is pinned, but the IPv4 RoCE v2 GID sits at a different index on "
			"different nodes: %s (the index follows each netdev's addresses)",
			pinned, idx.buf);
		check_set_fix(
			c, "unset the pinned GID index (NCCL and UCX then pick the RoCE v2 GID "
			   "on each node), or make the nodes' RoCE addresses identical in order");
	} else {
		report_check(
			r, ck, CI_OK, subj,
			"the %zu pods' IPv4 RoCE v2 GIDs are unique across nodes (%zu GIDs)%s%s",
			pods, total, pinned ? "; the pinned index holds them on every node: " : "",
			pinned ? pinned : "");
	}
	strbuf_release(&clash);
	strbuf_release(&idx);
}

/* Can the pod move KV over an RDMA NIC (not only cuda_ipc inside the
 * NVLink domain)? */
static bool rdma_reach(const struct fleet_pod *p)
{
	const char *tls = fleet_pod_env(p, "UCX_TLS");
	return p->rdma_path && (!tls || ucx_tls_allows_rdma(tls));
}

struct domain {
	const char *uuid, *clique;
	char *key; /* "uuid/clique": the map's key */
	size_t n, first;
};

static void domains_free(struct domain *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(d[i].key);
	free(d);
}

void fleet_check_mnnvl_domain(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	const struct check_desc *ck = FLEET_CHECK(MNNVL_DOMAIN);
	const char *subj = "NVLink domain";
	struct domain *d = NULL;
	size_t nd = 0, cap = 0, pods = 0;
	bool all_rdma = true;
	struct strmap m;
	strmap_init(&m); /* linear in the pods, however many domains */
	for (size_t i = 0; i < n; i++) {
		if (!p[i].probed || !p[i].cluster_uuid)
			continue;
		pods++;
		all_rdma &= rdma_reach(&p[i]);
		const char *cl = p[i].clique_id ? p[i].clique_id : "?";
		char *key = xasprintf("%s/%s", p[i].cluster_uuid, cl);
		size_t j = strmap_put(&m, key, nd);
		if (j == nd) {
			struct domain *e = XPUSH(d, nd, cap);
			*e = (struct domain){p[i].cluster_uuid, cl, key, 0, i};
		} else {
			free(key);
		}
		d[j].n++;
	}
	strmap_release(&m);
	if (pods < 2) {
		report_check_as(r, ck, CI_SKIPPED, false, CI_LAYER_TUNING, subj,
				"multi-node NVLink (a ClusterUUID) known for %zu pod%s: nothing to "
				"compare",
				pods, pods == 1 ? "" : "s");
		domains_free(d, nd);
		return;
	}
	if (nd == 1) {
		report_check(r, ck, CI_OK, subj,
			     "all %zu pods are in one NVLink domain (ClusterUUID %s, CliqueId %s)",
			     pods, d[0].uuid, d[0].clique);
		domains_free(d, nd);
		return;
	}
	struct strbuf b = STRBUF_INIT;
	for (size_t j = 0; j < nd && j < NAMES_MAX; j++) {
		const struct fleet_pod *q = &p[d[j].first];
		strbuf_addf(&b, "%sClusterUUID %s CliqueId %s: %s%s", j ? "; " : "", d[j].uuid,
			    d[j].clique, q->name, d[j].n > 1 ? " and others" : "");
	}
	if (nd > NAMES_MAX)
		strbuf_addf(&b, "; and %zu more domains", nd - NAMES_MAX);
	struct ci_check *c;
	if (!all_rdma) {
		c = report_check(r, ck, CI_FAIL, subj,
				 "the pods are in %zu NVLink domains (%s) and not every pod has an "
				 "RDMA path: cuda_ipc reaches only GPUs of its own domain, so KV "
				 "between the domains has no transport",
				 nd, b.buf);
		check_set_fix(c,
			      "schedule prefill and decode into one NVLink domain (one "
			      "ComputeDomain / one NVL72 rack), or give every pod an RDMA NIC and "
			      "RDMA transports in UCX_TLS");
	} else {
		c = report_check(r, ck, CI_WARN, subj,
				 "the pods are in %zu NVLink domains (%s): KV between the domains "
				 "takes the RDMA NICs, not NVLink",
				 nd, b.buf);
		check_set_fix(c, "schedule prefill and decode into one NVLink domain (one "
				 "ComputeDomain / one NVL72 rack) to keep KV on NVLink");
	}
	strbuf_release(&b);
	domains_free(d, nd);
}
