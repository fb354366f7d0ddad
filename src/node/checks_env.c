/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pod's real transport environment (filtered inside the pod by the
 * probe).  Two kinds of checks:
 *  - the value rules of the env verb (src/env/env_varrules.c: UCX_TLS,
 *    UCX_NET_DEVICES form, UCX_IB_ADDR_TYPE, UCX_RNDV_*, NCCL_IB_DISABLE /
 *    NCCL_NET / NCCL_P2P_DISABLE), run with the fabric this host's hardware
 *    shows, under the same suffixes as in `env` (node.env.ucx.tls ...);
 *  - what only this verb can tell: every device or interface a variable
 *    names exists here and is up.
 */
#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/redact.h"
#include "env/env_varrules.h"
#include "node/node_checks.h"
#include "node/node_desc.h"
#include "rules/engine_vars.h"
#include "rules/ucx.h"

/* Next comma-separated entry of *p into buf (trimmed); false at the end. */
static bool next_entry(const char **p, char *buf, size_t len)
{
	while (**p == ',' || **p == ' ')
		(*p)++;
	if (!**p)
		return false;
	size_t l = strcspn(*p, ",");
	size_t k = l < len - 1 ? l : len - 1;
	memcpy(buf, *p, k);
	buf[k] = '\0';
	while (k && buf[k - 1] == ' ')
		buf[--k] = '\0';
	*p += l;
	return true;
}

/* Next NCCL_IB_HCA-style entry ("dev[:port]") as the device name alone. */
static bool next_dev(const char **p, char *buf, size_t len)
{
	if (!next_entry(p, buf, len))
		return false;
	char *colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	return true;
}

static bool port_ok(const struct node_rdma_dev *d, unsigned port, const struct node_port **pp)
{
	for (size_t i = 0; i < d->n_ports; i++)
		if (d->ports[i].num == port) {
			*pp = &d->ports[i];
			return node_port_active(&d->ports[i]);
		}
	*pp = NULL;
	return false;
}

/* Each entry against sysfs; the form of the value (bonds, missing ports,
 * interfaces only, empty) is the shared rule node.env.ucx.net_devices. */
static void check_ucx_net_devices(struct ci_report *r, const struct node_facts *f, const char *v)
{
	const struct check_desc *ck = NODE_CHECK(ENV_UCX_DEVICES_EXIST);
	struct strbuf bad = STRBUF_INIT, okl = STRBUF_INIT;
	char e[128];
	size_t n = 0, good = 0;
	const char *p = v;
	while (next_entry(&p, e, sizeof(e)) && n < 64) {
		n++;
		if (!strcmp(e, "all") || !strcmp(e, "*")) {
			good++;
			continue;
		}
		char *colon = strchr(e, ':');
		if (colon) {
			*colon = '\0';
			unsigned port = 0;
			if (sscanf(colon + 1, "%u", &port) != 1)
				port = 0;
			const struct node_rdma_dev *d = node_find_dev(f, e);
			const struct node_port *pp = NULL;
			if (!d) {
				strbuf_joinf(&bad, ", ", "%s:%s (no such RDMA device here)", e,
					     colon + 1);
			} else if (!port_ok(d, port, &pp)) {
				strbuf_joinf(&bad, ", ", "%s:%s (%s)", e, colon + 1,
					     pp ? "port not active" : "no such port");
			} else if (pp->ll == IB_LL_INFINIBAND && pp->have_lid && pp->lid == 0) {
				/* LID 0 is a fault on InfiniBand only: RoCE ports (LAG
				 * bonds included) have LID 0 by design, addressed by GID */
				strbuf_joinf(
					&bad, ", ",
					"%s:%u (InfiniBand port with LID 0: no subnet manager)", e,
					port);
			} else {
				good++;
				strbuf_joinf(&okl, ", ", "%s:%u", e, port);
			}
			continue;
		}
		/* Without a port: a network interface (tcp), or an RDMA device
		 * name, which UCX matches against "dev:port" exactly: nothing. */
		const struct node_netif *ifc = node_find_if(f, e);
		const struct node_rdma_dev *d = node_find_dev(f, e);
		if (ifc) {
			good++;
			strbuf_joinf(&okl, ", ", "%s", e);
		} else if (d) {
			strbuf_joinf(&bad, ", ",
				     "%s (an RDMA device without its port selects no RDMA "
				     "port: UCX matches \"%s:1\" exactly)",
				     e, e);
		} else {
			strbuf_joinf(&bad, ", ", "%s (no such device or interface here)", e);
		}
	}
	struct ci_check *c;
	if (bad.len) {
		c = report_check(r, ck, good ? CI_WARN : CI_FAIL, "UCX_NET_DEVICES",
				 "UCX_NET_DEVICES=%s: %s%s", v, bad.buf,
				 good ? "" : ": UCX has no RDMA device to use (KV over TCP)");
		check_set_fix(c, "list only devices this pod has, as dev:port with an ACTIVE port "
				 "(mlx5_0:1; see node.rdma.ports), or unset UCX_NET_DEVICES");
	} else if (n) {
		c = report_check(r, ck, CI_OK, "UCX_NET_DEVICES",
				 "every UCX_NET_DEVICES entry exists here and is active");
		if (okl.len)
			check_add_evidence(c, "%s", okl.buf);
	}
	strbuf_release(&bad);
	strbuf_release(&okl);
}

/* A frontend/management RoCE NIC the pod can open (set aside from the data
 * rails in node.rdma.ports) that UCX_NET_DEVICES leaves in: UCX's defaults
 * count every RoCE v2 address as reachable from any port (rules/ucx.c). */
static void check_ucx_frontend(struct ci_report *r, const struct node_facts *f)
{
	const struct ucx_value_rule *rule = ucx_value_rule(UCX_VR_FRONTEND_REACHABLE);
	const char *nd = node_env_get(f, "UCX_NET_DEVICES");
	struct strbuf fe = STRBUF_INIT, rails = STRBUF_INIT;
	bool all = !nd || !*nd || !strcmp(nd, "all");

	if (ucx_value_on(node_env_get(f, "UCX_IB_ROCE_LOCAL_SUBNET")))
		return;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		const char *why = node_dev_given(f, d) ? node_dev_mgmt_reason(f, d) : NULL;
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct node_port *p = &d->ports[j];
			char want[96];
			if (!node_port_active(p) || p->ll != IB_LL_ETHERNET)
				continue;
			snprintf(want, sizeof(want), "%s:%u", d->name, p->num);
			if (!why) {
				if (node_data_dev(f, d))
					strbuf_joinf(&rails, ",", "%s", want);
			} else if (all || node_ucx_netdev_selects(nd, want)) {
				strbuf_joinf(&fe, ", ", "%s (%s)", want, why);
			}
		}
	}
	/* Only RoCE rails share an address type with a RoCE frontend: an
	 * InfiniBand peer is never reachable from an Ethernet port. */
	if (fe.len && rails.len) {
		struct ci_check *c = report_check(
			r, NODE_CHECK(ENV_UCX_FRONTEND), rule->status, "UCX_NET_DEVICES",
			"frontend RoCE NIC %s is in UCX_NET_DEVICES (%s): %s", fe.buf,
			nd && *nd ? nd : "all, the default", rule->what);
		check_set_fix(c, "UCX_NET_DEVICES=%s (the data rails), %s", rails.buf, rule->fix);
	}
	strbuf_release(&fe);
	strbuf_release(&rails);
}

bool node_nccl_hca_selects(const char *value, const char *dev)
{
	if (!value)
		return true;
	const char *p = value;
	bool excl = false, exact = false;
	if (*p == '^') {
		excl = true;
		p++;
	}
	if (*p == '=') {
		exact = true;
		p++;
	}
	char e[128];
	bool hit = false;
	size_t n = 0;
	while (next_dev(&p, e, sizeof(e)) && n++ < 64) {
		size_t l = strlen(e);
		if (!l)
			continue;
		if (exact ? !strcmp(e, dev) : !strncmp(dev, e, l)) {
			hit = true;
			break;
		}
	}
	return excl ? !hit : hit;
}

static void check_nccl_ib_hca(struct ci_report *r, const struct node_facts *f, const char *v)
{
	const struct check_desc *ck = NODE_CHECK(ENV_NCCL_IB_HCA);
	struct strbuf sel = STRBUF_INIT, miss = STRBUF_INIT;
	size_t nsel = 0;
	for (size_t i = 0; i < f->n_devs; i++)
		if (node_nccl_hca_selects(v, f->devs[i].name)) {
			nsel++;
			strbuf_joinf(&sel, ", ", "%s", f->devs[i].name);
		}
	/* Inclusive lists: every entry must name something here. */
	const char *p = v;
	if (*p != '^') {
		bool exact = *p == '=';
		if (exact)
			p++;
		char e[128];
		size_t n = 0;
		while (next_dev(&p, e, sizeof(e)) && n++ < 64) {
			char one[136];
			snprintf(one, sizeof(one), "%s%s", exact ? "=" : "", e);
			bool found = false;
			for (size_t i = 0; i < f->n_devs && !found; i++)
				found = node_nccl_hca_selects(one, f->devs[i].name);
			if (!found)
				strbuf_joinf(&miss, ", ", "%s", e);
		}
	}
	struct ci_check *c;
	if (!nsel) {
		c = report_check(
			r, ck, CI_FAIL, "NCCL_IB_HCA",
			"NCCL_IB_HCA=%s selects none of this pod's RDMA devices: NCCL falls back "
			"to sockets",
			v);
		check_set_fix(c,
			      "name devices this pod has (`^` excludes, `=` exact match, otherwise "
			      "prefix match), or unset NCCL_IB_HCA");
	} else if (miss.len) {
		c = report_check(r, ck, CI_WARN, "NCCL_IB_HCA",
				 "NCCL_IB_HCA=%s names devices this pod does not have: %s", v,
				 miss.buf);
		check_add_evidence(c, "selected: %s", sel.buf);
	} else {
		c = report_check(r, ck, CI_OK, "NCCL_IB_HCA", "NCCL_IB_HCA=%s selects %zu device%s",
				 v, nsel, nsel == 1 ? "" : "s");
		check_add_evidence(c, "selected: %s", sel.buf);
	}
	strbuf_release(&sel);
	strbuf_release(&miss);
}

static bool if_up(const struct node_netif *n)
{
	return n->operstate && (!strcmp(n->operstate, "up") ||
				(!strcmp(n->operstate, "unknown") && n->type == 772));
}

/* Gloo (PyTorch's ProcessGroupGloo) takes GLOO_SOCKET_IFNAME as a comma list
 * of interface names and looks each one up as is: NCCL's `^` (exclude), `=`
 * (exact) and prefix forms name no interface there. */
static bool gloo_selects(const char *value, const char *ifname)
{
	for (const char *p = value; *p;) {
		size_t l = strcspn(p, ",");
		const char *e = p;
		size_t el = l;
		while (el && *e == ' ')
			e++, el--;
		while (el && e[el - 1] == ' ')
			el--;
		if (el && el == strlen(ifname) && !strncmp(e, ifname, el))
			return true;
		p += l;
		if (*p)
			p++;
	}
	return false;
}

static bool routable(const struct node_netif *n)
{
	return n->v4_routable || n->v6_global;
}

static void check_socket_ifname(struct ci_report *r, const struct node_facts *f, const char *var,
				const char *v)
{
	bool gloo = strcmp(var, "NCCL_SOCKET_IFNAME") != 0;
	const struct check_desc *ck =
		!gloo ? NODE_CHECK(ENV_NCCL_SOCKET_IFNAME) : NODE_CHECK(ENV_GLOO_SOCKET_IFNAME);
	if (!f->n_ifs) {
		report_na(r, ck, var, "the probe could not list /sys/class/net");
		return;
	}
	struct ci_check *c;
	const char *s = v;
	while (*s == ' ')
		s++;
	if (gloo && (*s == '^' || *s == '=')) {
		c = report_check(
			r, ck, CI_FAIL, var,
			"%s=%s uses NCCL's `%c` syntax, which Gloo does not take: it looks for "
			"an interface named \"%s\" and finds none",
			var, v, *s, s);
		check_set_fix(c, "name the interface itself (e.g. GLOO_SOCKET_IFNAME=eth0); only "
				 "NCCL_SOCKET_IFNAME takes ^, = and prefixes");
		return;
	}
	bool addr = f->have_route || f->have_inet6;
	struct strbuf sel = STRBUF_INIT, down = STRBUF_INIT, ll = STRBUF_INIT, pref = STRBUF_INIT;
	size_t nup = 0, nroute = 0;
	for (size_t i = 0; i < f->n_ifs; i++) {
		const struct node_netif *n = &f->ifs[i];
		bool hit = gloo ? gloo_selects(v, n->name) : node_nccl_hca_selects(v, n->name);
		if (!hit) {
			if (gloo && node_nccl_hca_selects(v, n->name))
				strbuf_joinf(&pref, ", ", "%s", n->name);
			continue;
		}
		if (if_up(n)) {
			nup++;
			strbuf_joinf(&sel, ", ", "%s", n->name);
			if (!addr || routable(n) || n->type == 772)
				nroute++;
			else
				strbuf_joinf(&ll, ", ", "%s", n->name);
		} else {
			strbuf_joinf(&down, ", ", "%s (%s)", n->name,
				     n->operstate ? n->operstate : "state unknown");
		}
	}
	if (!nup) {
		c = report_check(r, ck, CI_FAIL, var,
				 "%s=%s matches no interface that is up%s%s%s%s: bootstrap hangs",
				 var, v, down.len ? "; down: " : "", down.buf,
				 pref.len ? "; Gloo takes whole names, not prefixes: " : "",
				 pref.buf);
		check_set_fix(
			c,
			"set it to an interface this pod has and that is up (see /sys/class/net),"
			" or unset it");
	} else if (!nroute) {
		c = report_check(
			r, ck, CI_FAIL, var,
			"%s=%s matches %s, but none has a routable address (link-local only): "
			"the other pods cannot reach it, bootstrap hangs",
			var, v, sel.buf);
		check_set_fix(c,
			      "select the interface that holds the pod IP (the default route's), "
			      "or unset it");
	} else if (ll.len) {
		c = report_check(
			r, ck, CI_WARN, var,
			"%s=%s matches %s; %s has only link-local addresses (not reachable from "
			"other nodes)",
			var, v, sel.buf, ll.buf);
		check_set_fix(c, "leave out the link-local-only interfaces");
	} else {
		c = report_check(r, ck, CI_OK, var, "%s=%s matches %s", var, v, sel.buf);
	}
	strbuf_release(&sel);
	strbuf_release(&down);
	strbuf_release(&ll);
	strbuf_release(&pref);
}

/* The fabric as the shared value rules see it: what this pod can open. */
static unsigned pod_fabric(const struct node_facts *f)
{
	unsigned m = 0;
	/* Without a uverbs device the pod cannot open the NICs it sees. */
	bool usable = !f->have_dev || f->n_uverbs > 0;
	for (size_t i = 0; usable && i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (d->efa) {
			m |= FAB_EFA;
			continue;
		}
		bool eth = false;
		for (size_t p = 0; p < d->n_ports; p++)
			eth |= d->ports[p].ll == IB_LL_ETHERNET;
		m |= eth ? FAB_ROCE : FAB_IB;
	}
	if (node_mnnvl(f))
		m |= FAB_MNNVL;
	return m;
}

/* The pod's variables and where the value rules run, as node.env.* sees
 * them: this pod is one end of a transfer (KV crosses pods when it is a
 * prefill or decode worker); NCCL's node count is not visible here. */
static size_t pod_vars(const struct node_facts *f, struct var_view vars[NODE_MAX_ENV],
		       struct varrule_ctx *x)
{
	size_t n = 0;
	for (size_t i = 0; i < f->n_env && n < NODE_MAX_ENV; i++)
		vars[n++] = (struct var_view){
			.name = f->env[i].name,
			.value = f->env[i].value,
			.shown = redact_value(f->env[i].name,
					      f->env[i].value ? f->env[i].value : ""),
			.where = f->env[i].source,
		};
	*x = (struct varrule_ctx){
		.fabric = pod_fabric(f),
		.hw = true,
		.gpu = node_has_gpu(f),
		.cross_pod = true,
		.nodes = 0,
	};
	return n;
}

bool node_ucx_tls_judge(const struct node_facts *f, struct varrule_res *res)
{
	struct var_view vars[NODE_MAX_ENV];
	struct varrule_ctx x;
	size_t n = pod_vars(f, vars, &x);
	return f->have_env && varrule_eval(VR_UCX_TLS, vars, n, &x, res);
}

void node_check_env(struct ci_report *r, const struct node_facts *f)
{
	if (!f->have_env) {
		report_check(r, NODE_CHECK(ENV), CI_SKIPPED, "environment",
			     "the pod's environment could not be read");
		return;
	}
	if (!f->n_env) {
		report_check(
			r, NODE_CHECK(ENV), CI_OK, "environment",
			"no transport variable is set: UCX and NCCL use every device they find");
		return;
	}
	report_check(r, NODE_CHECK(ENV), CI_OK, "environment",
		     "%zu transport variable%s set (listed under the transport settings)", f->n_env,
		     f->n_env == 1 ? "" : "s");
	struct var_view vars[NODE_MAX_ENV];
	struct varrule_ctx x;
	size_t n = pod_vars(f, vars, &x);
	env_check_pod_vars(r, NULL, vars, n, &x, NODE_VARRULE_CHECKS);
	const char *v;
	if ((v = node_env_get(f, "UCX_NET_DEVICES")))
		check_ucx_net_devices(r, f, v);
	check_ucx_frontend(r, f);
	if ((v = node_env_get(f, "NCCL_IB_HCA")) && f->n_devs)
		check_nccl_ib_hca(r, f, v);
	if ((v = node_env_get(f, "NCCL_SOCKET_IFNAME")))
		check_socket_ifname(r, f, "NCCL_SOCKET_IFNAME", v);
	if ((v = node_env_get(f, "GLOO_SOCKET_IFNAME")))
		check_socket_ifname(r, f, "GLOO_SOCKET_IFNAME", v);
	node_check_gid_index(r, f);
	node_check_kv_env(r, f, NODE_CHECK(ENV_KV));
}

void node_check_kv_env(struct ci_report *r, const struct node_facts *f, const struct check_desc *ck)
{
	if (!f->have_env) {
		report_check(r, ck, CI_SKIPPED, "environment",
			     "the pod's environment could not be read");
		return;
	}
	struct fabric_model m;
	node_fabric(f, &m);
	size_t bad = 0, known = 0;
	struct ci_check *c = NULL;
	for (size_t i = 0; i < f->n_env; i++) {
		const struct engine_var_rule *row =
			engine_var_judge(f->env[i].name, f->env[i].value, &m);
		for (const struct engine_var_rule *k = engine_var_rules(); k->name; k++)
			known += !strcmp(k->name, f->env[i].name);
		if (!row)
			continue;
		bad++;
		c = report_check(r, ck, (enum ci_status)row->status, row->name, "%s=%s: %s",
				 row->name, redact_value(row->name, f->env[i].value), row->what);
		check_set_fix(c, "%s", row->fix);
	}
	if (!bad)
		report_check(r, ck, CI_OK, "environment",
			     known ? "the engine and NCCL variables set here keep the KV path"
				   : "no engine or NCCL variable that breaks the KV path is set");
}

void node_report_env_facts(struct ci_report *r, const struct node_facts *f, const char *subject)
{
	for (size_t i = 0; i < f->n_env; i++)
		report_add_fact(r, f->env[i].name, redact_value(f->env[i].name, f->env[i].value),
				subject, f->env[i].source);
}
