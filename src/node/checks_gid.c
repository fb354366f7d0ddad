/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RoCE GID tables against the variables that pin a GID index
 * (NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX, Mooncake's MC_GID_INDEX): an index
 * that points at an empty or a RoCE v1 entry on a port the library will use
 * makes address-handle creation fail (`ibv_create_ah ... No such device`,
 * ai-dynamo/dynamo#814).  The GID table is per port and follows the
 * netdev's addresses, so a fixed index is only as good as the node it was
 * written for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "node/node_checks.h"
#include "node/node_desc.h"
#include "parse/ucx_tls.h"

bool node_gid_link_local(const char *gid)
{
	return !strncmp(gid, "fe80:", 5);
}

bool node_gid_ipv4(const char *gid)
{
	/* ::ffff:a.b.c.d, as sysfs prints it */
	return !strncmp(gid, "0000:0000:0000:0000:0000:ffff:", 30);
}

bool node_port_v2_link_local_only(const struct node_port *p)
{
	size_t v2 = 0;
	for (size_t g = 0; g < p->n_gids; g++) {
		if (p->gids[g].type != IB_GID_ROCE_V2)
			continue;
		v2++;
		if (!node_gid_link_local(p->gids[g].gid))
			return false;
	}
	return v2 > 0;
}

/* Does the variable's library use this device?  NCCL by NCCL_IB_HCA, UCX by
 * UCX_NET_DEVICES ("dev:port" exact), Mooncake by every device. */
static bool selects(const struct node_facts *f, const char *var, const struct node_rdma_dev *d,
		    unsigned port)
{
	if (!strcmp(var, "NCCL_IB_GID_INDEX"))
		return node_nccl_hca_selects(node_env_get(f, "NCCL_IB_HCA"), d->name);
	if (!strcmp(var, "UCX_IB_GID_INDEX")) {
		const char *nd = node_env_get(f, "UCX_NET_DEVICES");
		char want[96];
		if (!nd || !*nd || !strcmp(nd, "all"))
			return true;
		snprintf(want, sizeof(want), "%s:%u", d->name, port);
		return node_ucx_netdev_selects(nd, want);
	}
	return true;
}

static void one_var(struct ci_report *r, const struct node_facts *f, const char *var, const char *v)
{
	const struct check_desc *ck = NODE_CHECK(ENV_GID_INDEX);
	char *end;
	long idx = strtol(v, &end, 10);
	while (*end == ' ')
		end++;
	if (end == v || *end || idx < -1 || idx >= NODE_MAX_GIDS) {
		struct ci_check *c =
			report_check(r, ck, CI_WARN, var, "%s=%s is not a GID index", var, v);
		check_set_fix(c, "leave %s unset (the library picks a RoCE v2 GID) or set a number",
			      var);
		return;
	}
	if (idx < 0) {
		report_check(r, ck, CI_OK, var, "%s=%s: automatic GID selection", var, v);
		return;
	}
	struct strbuf bad = STRBUF_INIT, good = STRBUF_INIT;
	size_t n = 0, nbad = 0;
	bool unknown = false;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (d->efa || !node_data_dev(f, d))
			continue;
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct node_port *p = &d->ports[j];
			if (p->ll != IB_LL_ETHERNET || !node_port_active(p) ||
			    !selects(f, var, d, p->num))
				continue;
			n++;
			const struct node_gid *g = node_port_gid(p, (unsigned)idx);
			if (!g && !f->gids_all && idx >= 8) {
				unknown = true; /* older probes read indexes 0-7 only */
				continue;
			}
			if (!g) {
				nbad++;
				strbuf_joinf_capped(&bad, 400, ", ", "%s/%u index %ld empty",
						    d->name, p->num, idx);
			} else if (g->type == IB_GID_IB_ROCE_V1) {
				nbad++;
				strbuf_joinf_capped(&bad, 400, ", ", "%s/%u index %ld is RoCE v1",
						    d->name, p->num, idx);
			} else if (g->type == IB_GID_UNKNOWN) {
				unknown = true;
			} else {
				strbuf_joinf_capped(&good, 300, ", ", "%s/%u %s", d->name, p->num,
						    g->gid);
			}
		}
	}
	struct ci_check *c;
	if (!n) {
		report_na(r, ck, var, "%s=%s, but no active RoCE port that it applies to", var, v);
	} else if (nbad) {
		c = report_check(
			r, ck, CI_FAIL, var,
			"%s=%s points at no RoCE v2 GID on %zu of %zu port%s: %s (address handles "
			"fail: \"ibv_create_ah ... No such device\")",
			var, v, nbad, n, n == 1 ? "" : "s", bad.buf);
		check_set_fix(c,
			      "unset %s (the library then picks a RoCE v2 GID), or set the index "
			      "that holds the RoCE v2 IPv4 GID on every node (gid_attrs/types)",
			      var);
	} else if (unknown) {
		report_check(r, ck, CI_SKIPPED, var,
			     "%s=%s: the GID type at that index was not collected on every port",
			     var, v);
	} else {
		c = report_check(r, ck, CI_OK, var,
				 "%s=%s is a RoCE v2 GID on every port it applies to (%zu)", var, v,
				 n);
		check_add_evidence(c, "%s", good.buf);
	}
	strbuf_release(&bad);
	strbuf_release(&good);
}

void node_check_gid_index(struct ci_report *r, const struct node_facts *f)
{
	static const char *const vars[] = {"NCCL_IB_GID_INDEX", "UCX_IB_GID_INDEX", "MC_GID_INDEX",
					   NULL};
	for (size_t i = 0; vars[i]; i++) {
		const char *v = node_env_get(f, vars[i]);
		if (v)
			one_var(r, f, vars[i], v);
	}
}

bool node_ucx_netdev_selects(const char *value, const char *device)
{
	/* the one reading of UCX's device list (parse/ucx_tls.h) */
	return ucx_net_devices_allows(value, device);
}
