/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RDMA devices, every port, the pod's access to them (uverbs), RoCE GIDs and
 * EFA.  Everything here reads sysfs facts, never ibstat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "node/node_checks.h"
#include "rules/efa.h"
#include "node/node_desc.h"

#define SUBJ_IB "/sys/class/infiniband"

static const char *dev_kind(const struct node_rdma_dev *d)
{
	if (d->efa)
		return "EFA";
	for (size_t i = 0; i < d->n_ports; i++) {
		if (d->ports[i].ll == IB_LL_INFINIBAND)
			return "InfiniBand";
		if (d->ports[i].ll == IB_LL_ETHERNET)
			return "RoCE";
	}
	return "unknown link layer";
}

void node_check_rdma_devices(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(RDMA_DEVICES);
	if (!f->have_sys) {
		report_check(r, ck, CI_SKIPPED, SUBJ_IB,
			     "the probe could not read /sys: RDMA devices unknown");
		return;
	}
	if (f->n_devs == 0) {
		struct ci_check *c;
		if (!node_has_gpu(f)) {
			c = report_check(
				r, ck, CI_SKIPPED, SUBJ_IB,
				"neither an RDMA device nor a GPU is visible: this is not a GPU "
				"worker, so nothing here can carry KV; nothing to judge");
			check_set_fix(
				c,
				"run `node` on a GPU node, or inside a prefill/decode worker pod "
				"(--namespace NS --pod POD)");
		} else if (node_mnnvl(f)) {
			c = report_check(
				r, ck, CI_WARN, SUBJ_IB,
				"no RDMA device: KV can only move over multi-node NVLink, inside "
				"this NVLink domain; anything beyond it would go over TCP");
			check_set_fix(
				c,
				"give the pod the node's RDMA NICs (RDMA device plugin / "
				"rdma/ib resource) if prefill and decode may land outside one NVL domain");
		} else {
			c = report_check(
				r, ck, CI_FAIL, SUBJ_IB,
				"no RDMA device (nothing in /sys/class/infiniband): KV between "
				"prefill and decode pods would move over TCP");
			check_set_fix(
				c, "load the NIC drivers on the node (mlx5_ib / efa) and give the "
				   "pod RDMA NICs (RDMA device plugin, SR-IOV network or "
				   "vpc.amazonaws.com/efa)");
		}
		return;
	}
	size_t n_ib = 0, n_roce = 0, n_efa = 0;
	for (size_t i = 0; i < f->n_devs; i++) {
		const char *k = dev_kind(&f->devs[i]);
		n_ib += !strcmp(k, "InfiniBand");
		n_roce += !strcmp(k, "RoCE");
		n_efa += !strcmp(k, "EFA");
	}
	struct strbuf kinds = STRBUF_INIT;
	if (n_ib)
		strbuf_addf(&kinds, "%zu InfiniBand", n_ib);
	if (n_roce)
		strbuf_joinf(&kinds, ", ", "%zu RoCE", n_roce);
	if (n_efa)
		strbuf_joinf(&kinds, ", ", "%zu EFA", n_efa);
	if (f->n_devs > n_ib + n_roce + n_efa)
		strbuf_joinf(&kinds, ", ", "%zu unknown", f->n_devs - n_ib - n_roce - n_efa);
	struct ci_check *c = report_check(r, ck, CI_OK, SUBJ_IB, "%zu RDMA device%s: %s", f->n_devs,
					  f->n_devs == 1 ? "" : "s", kinds.buf);
	strbuf_release(&kinds);
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		check_add_evidence(c, "%s: %s%s%s%s%s, %zu port%s", d->name, dev_kind(d),
				   d->hca_type ? " " : "", d->hca_type ? d->hca_type : "",
				   d->fw_ver ? " fw " : "", d->fw_ver ? d->fw_ver : "", d->n_ports,
				   d->n_ports == 1 ? "" : "s");
	}
}

/* "not given to this pod: mlx5_2, mlx5_3; management NIC set aside: mlx5_bond_0
 * (far slower ...)": what the data-rail checks leave out, and why. */
static void note_left_out(struct strbuf *sb, const struct node_facts *f)
{
	struct strbuf ng = STRBUF_INIT, mg = STRBUF_INIT;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		const char *why;
		if (!node_dev_given(f, d))
			strbuf_joinf_capped(&ng, 300, ", ", "%s", d->name);
		else if ((why = node_dev_mgmt_reason(f, d)))
			strbuf_joinf_capped(&mg, 300, ", ", "%s (%s)", d->name, why);
	}
	if (ng.len)
		strbuf_joinf(sb, "; ", "not given to this pod (not judged): %s", ng.buf);
	if (mg.len)
		strbuf_joinf(sb, "; ", "set aside as management/frontend NICs: %s", mg.buf);
	if (sb->len) {
		/* shown after the ports' summary: "...; not given ..." */
		char *t = strbuf_detach(sb);
		strbuf_addf(sb, "; %s", t);
		free(t);
	}
	strbuf_release(&ng);
	strbuf_release(&mg);
}

/* What node.rdma.ports reads from every port (gather). */
struct port_scan {
	size_t total, active;
	struct strbuf unread;                    /* devices without a readable port */
	struct strbuf down;                      /* "mlx5_1/1 DOWN (Disabled)" */
	struct strbuf lid0;                      /* active InfiniBand ports without a LID */
	double ib_min, ib_max, eth_min, eth_max; /* Gb/s of the active ports */
};

static void port_scan_release(struct port_scan *s)
{
	strbuf_release(&s->unread);
	strbuf_release(&s->down);
	strbuf_release(&s->lid0);
}

static void scan_rate(struct port_scan *s, const struct node_rdma_dev *d, const struct node_port *p)
{
	double g = p->rate.gbps;
	if (g <= 0 || d->efa)
		return;
	double *mn = p->ll == IB_LL_ETHERNET ? &s->eth_min : &s->ib_min;
	double *mx = p->ll == IB_LL_ETHERNET ? &s->eth_max : &s->ib_max;
	if (*mn == 0 || g < *mn)
		*mn = g;
	if (g > *mx)
		*mx = g;
}

static void scan_ports(const struct node_facts *f, struct port_scan *s)
{
	*s = (struct port_scan){.unread = STRBUF_INIT, .down = STRBUF_INIT, .lid0 = STRBUF_INIT};
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		/* Only the data NICs the pod was given (nic_role.c). */
		if (!node_data_dev(f, d))
			continue;
		if (!d->n_ports)
			strbuf_joinf(&s->unread, "; ", "%s has no readable port", d->name);
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct node_port *p = &d->ports[j];
			s->total++;
			if (!node_port_active(p)) {
				strbuf_joinf(&s->down, ", ", "%s/%u %s (%s)", d->name, p->num,
					     ib_port_state_name(p->state),
					     ib_phys_state_name(p->phys));
				continue;
			}
			s->active++;
			scan_rate(s, d, p);
			/* LID 0 is by design on Ethernet (RoCE, LAG bonds
			 * included: addressed by GID); a fault on InfiniBand. */
			if (p->have_lid && p->lid == 0 && p->ll == IB_LL_INFINIBAND)
				strbuf_joinf(&s->lid0, ", ", "%s/%u", d->name, p->num);
		}
	}
}

/* The problems of the active ports, in the order they are said (judge). */
static void port_issues(const struct port_scan *s, struct strbuf *out)
{
	if (s->unread.len)
		strbuf_joinstr(out, "; ", s->unread.buf);
	if (s->down.len)
		strbuf_joinf(out, "; ", "down: %s", s->down.buf);
	if (s->ib_max > s->ib_min && s->ib_min > 0)
		strbuf_joinf(out, "; ", "mixed InfiniBand rates %g..%g Gb/s", s->ib_min, s->ib_max);
	if (s->eth_max > s->eth_min && s->eth_min > 0)
		strbuf_joinf(out, "; ", "mixed RoCE rates %g..%g Gb/s", s->eth_min, s->eth_max);
	if (s->lid0.len)
		strbuf_joinf(out, "; ",
			     "active InfiniBand port with LID 0 (no subnet manager "
			     "assigned one): %s",
			     s->lid0.buf);
}

static void port_evidence(struct ci_check *c, const struct node_facts *f)
{
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (!node_data_dev(f, d))
			continue;
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct node_port *p = &d->ports[j];
			char lid[24] = "";
			if (p->have_lid)
				snprintf(lid, sizeof(lid), " lid %u", p->lid);
			check_add_evidence(c, "%s/%u: %s %s %s %s%s", d->name, p->num,
					   ib_port_state_name(p->state),
					   ib_phys_state_name(p->phys),
					   *p->rate_raw ? p->rate_raw : "rate ?",
					   ib_link_layer_name(p->ll), lid);
		}
	}
}

void node_check_rdma_ports(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(RDMA_PORTS);
	if (!f->n_devs) {
		report_na(r, ck, SUBJ_IB, "no RDMA device");
		return;
	}
	struct port_scan s;
	scan_ports(f, &s);
	struct strbuf issues = STRBUF_INIT, aside = STRBUF_INIT;
	note_left_out(&aside, f);
	struct ci_check *c;
	if (!s.total) {
		report_check(r, ck, CI_SKIPPED, SUBJ_IB,
			     "no port of the %zu RDMA devices could be read%s", f->n_devs,
			     aside.buf);
		goto out;
	}
	if (!s.active) {
		c = report_check(r, ck, CI_FAIL, SUBJ_IB,
				 "none of the %zu RDMA data ports is active: %s%s", s.total,
				 s.down.buf, aside.buf);
		check_set_fix(c,
			      "check cables, switch ports and the subnet manager (opensm/UFM) for "
			      "InfiniBand, the netdev link for RoCE; `ibstat` on the node");
		goto out;
	}
	port_issues(&s, &issues);
	if (issues.len) {
		c = report_check(r, ck, CI_WARN, SUBJ_IB, "%zu of %zu RDMA data ports active; %s%s",
				 s.active, s.total, issues.buf, aside.buf);
		check_set_fix(c, "bring the named ports up or keep them out of UCX_NET_DEVICES / "
				 "NCCL_IB_HCA so that no rank picks them");
	} else {
		struct strbuf rates = STRBUF_INIT;
		if (s.ib_max > 0)
			strbuf_addf(&rates, " (InfiniBand %g Gb/s", s.ib_max);
		if (s.eth_max > 0)
			strbuf_addf(&rates, "%sRoCE %g Gb/s", rates.len ? ", " : " (", s.eth_max);
		c = report_check(r, ck, CI_OK, SUBJ_IB,
				 "all %zu RDMA data ports ACTIVE/LinkUp%s%s%s", s.total, rates.buf,
				 rates.len ? ")" : "", aside.buf);
		strbuf_release(&rates);
	}
	port_evidence(c, f);
out:
	strbuf_release(&issues);
	strbuf_release(&aside);
	port_scan_release(&s);
}

/* The verdicts that need no ibv_devinfo: no device, no /dev listing, no
 * uverbs node, or ibv_devinfo not usable.  True when one was given. */
static bool uverbs_early(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(RDMA_UVERBS);
	if (!f->n_devs) {
		report_na(r, ck, "/dev/infiniband", "no RDMA device");
	} else if (!f->have_dev) {
		report_check(r, ck, CI_SKIPPED, "/dev/infiniband", "the probe did not list /dev");
	} else if (!f->n_uverbs && node_fabric_nic_optional(f)) {
		/* An MNNVL pod is judged on MNNVL (IMEX, fabric, cuda_ipc): in
		 * shared RDMA-namespace mode sysfs lists the host's NICs in every
		 * pod, given or not. */
		struct ci_check *c = report_check(
			r, ck, CI_WARN, "/dev/infiniband",
			"sysfs lists %zu RDMA device%s (the host's), but the pod was given none "
			"(no uverbs): KV moves over multi-node NVLink inside this NVLink domain, "
			"and beyond it over TCP",
			f->n_devs, f->n_devs == 1 ? "" : "s");
		check_set_fix(
			c, "give the pod RDMA NICs (rdma/ib resource, SR-IOV network or a DRA "
			   "NIC claim) if prefill and decode may land outside one NVLink domain");
	} else if (!f->n_uverbs) {
		struct ci_check *c = report_check(
			r, ck, CI_FAIL, "/dev/infiniband",
			"sysfs shows %zu RDMA device%s but /dev/infiniband has no uverbs: this "
			"pod cannot open them, so UCX has no RDMA transport (KV over TCP)",
			f->n_devs, f->n_devs == 1 ? "" : "s");
		check_set_fix(c,
			      "request the RDMA resource in the pod spec (RDMA device plugin, e.g. "
			      "rdma/ib: 1, or the SR-IOV network) or mount /dev/infiniband; "
			      "sysfs alone is not enough");
	} else if (f->ibv_t.state != TOOL_OK) {
		report_check(
			r, ck, CI_OK, "/dev/infiniband",
			"%zu uverbs device%s for %zu RDMA device%s (%s: opening them not verified)",
			f->n_uverbs, f->n_uverbs == 1 ? "" : "s", f->n_devs,
			f->n_devs == 1 ? "" : "s", f->ibv_t.why);
	} else {
		return false;
	}
	return true;
}

/* ibv_devinfo lists only what libibverbs opened: a device in sysfs that it
 * does not list has no working userspace provider here, unless the pod was
 * not given it (no uverbs node: libibverbs skips it). */
struct uverbs_open {
	size_t n_given, n_missing;
	struct strbuf missing, notgiven;
};

static void uverbs_gather(const struct node_facts *f, struct uverbs_open *u)
{
	for (size_t i = 0; i < f->n_devs; i++) {
		if (!node_dev_given(f, &f->devs[i])) {
			strbuf_joinf_capped(&u->notgiven, 300, ", ", "%s", f->devs[i].name);
			continue;
		}
		u->n_given++;
		bool listed = false;
		for (size_t j = 0; j < f->ibv_n && !listed; j++)
			listed = !strcmp(f->ibv_names[j], f->devs[i].name);
		if (!listed) {
			u->n_missing++;
			strbuf_joinf(&u->missing, ", ", "%s", f->devs[i].name);
		}
	}
}

static void uverbs_say(struct ci_report *r, const struct node_facts *f, const struct uverbs_open *u)
{
	const struct check_desc *ck = NODE_CHECK(RDMA_UVERBS);
	size_t given = u->n_given;
	if (!u->n_missing) {
		report_check(r, ck, CI_OK, "/dev/infiniband",
			     "%zu uverbs device%s; libibverbs opens all %zu RDMA device%s given to "
			     "this pod (ibv_devinfo)%s%s",
			     f->n_uverbs, f->n_uverbs == 1 ? "" : "s", given, given == 1 ? "" : "s",
			     u->notgiven.len ? "; not given to this pod: " : "", u->notgiven.buf);
		return;
	}
	struct strbuf why = STRBUF_INIT;
	if (f->ibv_no_driver)
		strbuf_addf(&why,
			    "; libibverbs warns %zu time%s of no userspace "
			    "device-specific driver",
			    f->ibv_no_driver, f->ibv_no_driver == 1 ? "" : "s");
	struct ci_check *c;
	if (u->n_missing == given)
		c = report_check(
			r, ck, CI_FAIL, "ibv_devinfo",
			"/dev/infiniband has %zu uverbs device%s, but libibverbs opens none of "
			"the %zu RDMA device%s%s: UCX has no RDMA transport (KV over TCP)",
			f->n_uverbs, f->n_uverbs == 1 ? "" : "s", given, given == 1 ? "" : "s",
			why.buf);
	else
		c = report_check(r, ck, CI_WARN, "ibv_devinfo",
				 "libibverbs opens %zu of %zu RDMA devices; not: %s%s",
				 given - u->n_missing, given, u->missing.buf, why.buf);
	check_set_fix(c,
		      "install rdma-core's userspace providers in the image (libibverbs + "
		      "ibverbs-providers, e.g. libmlx5), as the Dynamo runtime images have them");
	check_add_evidence(c, "devices given to the pod that libibverbs did not open: %s",
			   u->missing.buf);
	if (u->notgiven.len)
		check_add_evidence(c, "not given to this pod (no uverbs node): %s",
				   u->notgiven.buf);
	strbuf_release(&why);
}

void node_check_rdma_uverbs(struct ci_report *r, const struct node_facts *f)
{
	if (uverbs_early(r, f))
		return;
	struct uverbs_open u = {.missing = STRBUF_INIT, .notgiven = STRBUF_INIT};
	uverbs_gather(f, &u);
	uverbs_say(r, f, &u);
	strbuf_release(&u.missing);
	strbuf_release(&u.notgiven);
}

static bool port_has_v1(const struct node_port *p)
{
	for (unsigned g = 0; g < p->n_gids; g++)
		if (p->gids[g].type == IB_GID_IB_ROCE_V1)
			return true;
	return false;
}

void node_check_roce_gid(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(ROCE_GID);
	size_t n = 0, good = 0, unread = 0;
	struct strbuf bad = STRBUF_INIT, goodl = STRBUF_INIT, ll = STRBUF_INIT, v1 = STRBUF_INIT;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (d->efa || !node_data_dev(f, d))
			continue;
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct node_port *p = &d->ports[j];
			if (p->ll != IB_LL_ETHERNET || !node_port_active(p))
				continue;
			n++;
			if (p->roce_v2_index >= 0) {
				good++;
				strbuf_joinf(&goodl, ", ", "%s/%u index %d", d->name, p->num,
					     p->roce_v2_index);
				if (node_port_v2_link_local_only(p))
					strbuf_joinf_capped(&ll, 300, ", ", "%s/%u", d->name,
							    p->num);
			} else if (!p->have_gid_types) {
				unread++;
			} else if (port_has_v1(p)) {
				strbuf_joinf(&v1, ", ", "%s/%u", d->name, p->num);
			} else {
				strbuf_joinf(&bad, ", ", "%s/%u", d->name, p->num);
			}
		}
	}
	struct ci_check *c;
	if (!n) {
		report_na(r, ck, SUBJ_IB, "no active RoCE port");
	} else if (bad.len) {
		c = report_check(r, ck, CI_FAIL, SUBJ_IB,
				 "RoCE port%s without a RoCE v2 GID: %s (ibv_create_ah fails with "
				 "\"No such device\")",
				 strchr(bad.buf, ',') ? "s" : "", bad.buf);
		check_set_fix(
			c,
			"give the RoCE netdev an IP address (GIDs follow its addresses) and "
			"leave UCX_IB_GID_INDEX / NCCL_IB_GID_INDEX unset or on a RoCE v2 index");
	} else if (v1.len) {
		/* UCX's uct_ib_device_select_gid() walks RoCE v2 IPv4, v2 IPv6, v1
		 * IPv4, v1 IPv6 and takes the first present: a v1-only port still
		 * connects, inside one L2 segment (v1 is not routable). */
		c = report_check(
			r, ck, CI_WARN, SUBJ_IB,
			"RoCE port%s with only RoCE v1 GIDs: %s; UCX and NCCL fall back to "
			"RoCE v1, which works inside one L2 segment and is not routed",
			strchr(v1.buf, ',') ? "s" : "", v1.buf);
		check_set_fix(c, "give the RoCE netdev an IP address on a RoCE v2-enabled port "
				 "(the kernel adds the v2 GIDs) if the fabric is routed");
		if (goodl.len)
			check_add_evidence(c, "%s", goodl.buf);
	} else if (unread == n) {
		report_check(r, ck, CI_SKIPPED, SUBJ_IB,
			     "the GID types of the %zu RoCE port%s could not be read", n,
			     n == 1 ? "" : "s");
	} else if (ll.len) {
		c = report_check(
			r, ck, CI_WARN, SUBJ_IB,
			"RoCE port%s whose only RoCE v2 GIDs are link-local (fe80::): %s; such "
			"GIDs do not route across an L3 (routed RoCE) fabric",
			strchr(ll.buf, ',') ? "s" : "", ll.buf);
		check_set_fix(c, "give the RoCE netdevs their IPv4/IPv6 addresses (the GID table "
				 "follows the netdev's addresses)");
		check_add_evidence(c, "%s", goodl.buf);
	} else if (unread) {
		c = report_check(r, ck, CI_WARN, SUBJ_IB,
				 "%zu RoCE port%s with a RoCE v2 GID, %zu unreadable", good,
				 good == 1 ? "" : "s", unread);
		check_add_evidence(c, "%s", goodl.buf);
	} else {
		c = report_check(r, ck, CI_OK, SUBJ_IB,
				 "every active RoCE port (%zu) has a RoCE v2 GID", good);
		check_add_evidence(c, "%s", goodl.buf);
	}
	strbuf_release(&bad);
	strbuf_release(&goodl);
	strbuf_release(&ll);
	strbuf_release(&v1);
}

void node_check_efa(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(EFA);
	size_t n_efa = node_count_efa_devs(f);
	const struct tool_out *t = &f->fi_t;
	struct ci_check *c;
	/* The versions of EFA's userspace (rules/efa.c), as nixl.libfabric
	 * judges them too: SKIPPED when no libfabric version was readable. */
	struct efa_judgement j;
	node_efa_judge(f, &j);
	bool versions_bad = j.st == CI_FAIL || j.st == CI_WARN;
	if (t->state != TOOL_OK) {
		if (n_efa && versions_bad) {
			c = report_check(r, ck, j.st, "libfabric",
					 "sysfs shows %zu EFA device%s (fi_info cannot tell the "
					 "provider: %s); %s",
					 n_efa, n_efa == 1 ? "" : "s", t->why, j.detail);
			check_set_fix(c, "%s", j.fix);
		} else if (n_efa)
			report_na(
				r, ck, "fi_info -p efa",
				"sysfs shows %zu EFA device%s, but the libfabric provider cannot be "
				"checked: %s",
				n_efa, n_efa == 1 ? "" : "s", t->why);
		else
			report_na(r, ck, "fi_info -p efa",
				  "not an EFA node (no EFA device in sysfs; %s)", t->why);
		return;
	}
	if (fi_info_has_provider(&f->fi, "efa")) {
		size_t n = 0;
		for (size_t i = 0; i < f->fi.n; i++)
			n += f->fi.v[i].provider && !strcmp(f->fi.v[i].provider, "efa");
		c = report_check_as(r, ck, j.st == CI_SKIPPED ? CI_OK : j.st, n_efa > 0,
				    CI_LAYER_FABRIC, "fi_info -p efa",
				    "libfabric's efa provider is usable (%zu endpoint%s)%s%s", n,
				    n == 1 ? "" : "s", j.st == CI_SKIPPED ? "" : "; ",
				    j.st == CI_SKIPPED ? "" : j.detail);
		if (versions_bad)
			check_set_fix(c, "%s", j.fix);
		for (size_t i = 0; i < f->fi.n && i < 8; i++)
			if (f->fi.v[i].domain)
				check_add_evidence(c, "efa domain %s (%s)", f->fi.v[i].domain,
						   f->fi.v[i].type ? f->fi.v[i].type : "?");
		return;
	}
	if (n_efa) {
		c = report_check(
			r, ck, CI_FAIL, "fi_info -p efa",
			"sysfs shows %zu EFA device%s but libfabric finds no efa provider%s", n_efa,
			n_efa == 1 ? "" : "s", f->fi.no_data ? " (fi_getinfo -61)" : "");
		check_set_fix(c,
			      "use an image with the EFA-enabled libfabric (aws-efa-installer) and "
			      "request vpc.amazonaws.com/efa in the pod spec");
		return;
	}
	report_na(r, ck, "fi_info -p efa", "not an EFA node: libfabric has no efa provider%s",
		  f->fi.no_data ? " (fi_getinfo -61)" : "");
}
