/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pod's real transport environment (filtered inside the pod by the
 * probe) checked against the hardware the same probe saw: every device a
 * variable names must exist here, and be up.  The value parsers are the
 * env verb's (src/env/env_text.c), so both verbs read UCX_TLS alike.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/redact.h"
#include "env/env_analyze.h"
#include "node/node_checks.h"

static void cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	if (used + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

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

static void check_ucx_tls(struct ci_report *r, const struct node_facts *f, const char *v)
{
	const char *id = "node.env.ucx_tls";
	struct tls_info t;
	ucx_tls_parse(v, &t);
	struct ci_check *c;
	bool rdma_hw = node_count_verbs_devs(f) > 0 && f->n_uverbs > 0;
	bool no_rdma = t.excl_rdma_all || (!t.exclude && !t.rdma);
	if (rdma_hw && no_rdma) {
		c = report_add(r, id, CI_FAIL, true, CI_LAYER_ENV, "UCX_TLS",
			       "UCX_TLS=%s leaves no RDMA transport although this pod has RDMA devices: "
			       "KV moves over TCP", v);
		check_set_fix(c, "add rc_x,rc (or dc_x) to UCX_TLS, or unset it so UCX uses every "
				 "transport it finds");
	} else if (node_mnnvl(f) && t.excl_cuda_ipc) {
		c = report_add(r, id, CI_FAIL, true, CI_LAYER_ENV, "UCX_TLS",
			       "UCX_TLS=%s excludes cuda_ipc on a multi-node NVLink system (\"failed to "
			       "select lane\")", v);
		check_set_fix(c, "use UCX_TLS=cuda_copy,cuda_ipc,tcp (or unset it) on MNNVL");
	} else if (!t.exclude && !t.cuda && !t.cuda_copy && !t.cuda_ipc && node_has_gpu(f)) {
		c = report_add(r, id, CI_WARN, true, CI_LAYER_ENV, "UCX_TLS",
			       "UCX_TLS=%s lists no cuda transport (cuda_copy, cuda_ipc): GPU buffers "
			       "cannot be handled", v);
		check_set_fix(c, "add cuda_copy,cuda_ipc to UCX_TLS");
	} else {
		report_add(r, id, CI_OK, true, CI_LAYER_ENV, "UCX_TLS", "UCX_TLS=%s fits this pod", v);
	}
}

static void check_ucx_net_devices(struct ci_report *r, const struct node_facts *f, const char *v)
{
	const char *id = "node.env.ucx_net_devices";
	char bad[512] = "", okl[512] = "", e[128];
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
				cat(bad, sizeof(bad), "%s%s:%s (no such RDMA device here)", *bad ? ", " : "",
				    e, colon + 1);
			} else if (!port_ok(d, port, &pp)) {
				cat(bad, sizeof(bad), "%s%s:%s (%s)", *bad ? ", " : "", e, colon + 1,
				    pp ? "port not active" : "no such port");
			} else if (d->bond && pp->have_lid && pp->lid == 0) {
				cat(bad, sizeof(bad), "%s%s:%u (bonded device with LID 0)", *bad ? ", " : "",
				    e, port);
			} else {
				good++;
				cat(okl, sizeof(okl), "%s%s:%u", *okl ? ", " : "", e, port);
			}
			continue;
		}
		/* Without a port: a network interface (tcp) or a device name. */
		const struct node_netif *ifc = node_find_if(f, e);
		const struct node_rdma_dev *d = node_find_dev(f, e);
		if (d || ifc) {
			good++;
			cat(okl, sizeof(okl), "%s%s", *okl ? ", " : "", e);
		} else {
			cat(bad, sizeof(bad), "%s%s (no such device or interface here)", *bad ? ", " : "", e);
		}
	}
	struct ci_check *c;
	if (*bad) {
		c = report_add(r, id, good ? CI_WARN : CI_FAIL, true, CI_LAYER_ENV, "UCX_NET_DEVICES",
			       "UCX_NET_DEVICES=%s: %s%s", v, bad,
			       good ? "" : ": UCX has no RDMA device to use (KV over TCP)");
		check_set_fix(c, "list only devices this pod has, as dev:port with an ACTIVE port "
				 "(see node.rdma.ports), or unset UCX_NET_DEVICES");
	} else if (!n) {
		report_add(r, id, CI_WARN, true, CI_LAYER_ENV, "UCX_NET_DEVICES",
			   "UCX_NET_DEVICES is set but empty");
	} else {
		c = report_add(r, id, CI_OK, true, CI_LAYER_ENV, "UCX_NET_DEVICES",
			       "every UCX_NET_DEVICES entry exists here and is active");
		if (*okl)
			check_add_evidence(c, "%s", okl);
	}
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
	while (next_entry(&p, e, sizeof(e)) && n++ < 64) {
		char *colon = strchr(e, ':');
		if (colon)
			*colon = '\0';
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
	const char *id = "node.env.nccl_ib_hca";
	char sel[512] = "", miss[256] = "";
	size_t nsel = 0;
	for (size_t i = 0; i < f->n_devs; i++)
		if (node_nccl_hca_selects(v, f->devs[i].name)) {
			nsel++;
			cat(sel, sizeof(sel), "%s%s", *sel ? ", " : "", f->devs[i].name);
		}
	/* Inclusive lists: every entry must name something here. */
	const char *p = v;
	if (*p != '^') {
		bool exact = *p == '=';
		if (exact)
			p++;
		char e[128];
		size_t n = 0;
		while (next_entry(&p, e, sizeof(e)) && n++ < 64) {
			char *colon = strchr(e, ':');
			if (colon)
				*colon = '\0';
			char one[136];
			snprintf(one, sizeof(one), "%s%s", exact ? "=" : "", e);
			bool found = false;
			for (size_t i = 0; i < f->n_devs && !found; i++)
				found = node_nccl_hca_selects(one, f->devs[i].name);
			if (!found)
				cat(miss, sizeof(miss), "%s%s", *miss ? ", " : "", e);
		}
	}
	struct ci_check *c;
	if (!nsel) {
		c = report_add(r, id, CI_FAIL, false, CI_LAYER_ENV, "NCCL_IB_HCA",
			       "NCCL_IB_HCA=%s selects none of this pod's RDMA devices: NCCL falls back "
			       "to sockets", v);
		check_set_fix(c, "name devices this pod has (`^` excludes, `=` exact match, otherwise "
				 "prefix match), or unset NCCL_IB_HCA");
	} else if (*miss) {
		c = report_add(r, id, CI_WARN, false, CI_LAYER_ENV, "NCCL_IB_HCA",
			       "NCCL_IB_HCA=%s names devices this pod does not have: %s", v, miss);
		check_add_evidence(c, "selected: %s", sel);
	} else {
		c = report_add(r, id, CI_OK, false, CI_LAYER_ENV, "NCCL_IB_HCA",
			       "NCCL_IB_HCA=%s selects %zu device%s", v, nsel, nsel == 1 ? "" : "s");
		check_add_evidence(c, "selected: %s", sel);
	}
}

static bool if_up(const struct node_netif *n)
{
	return n->operstate && (!strcmp(n->operstate, "up") ||
				(!strcmp(n->operstate, "unknown") && n->type == 772));
}

static void check_socket_ifname(struct ci_report *r, const struct node_facts *f,
				const char *var, const char *v)
{
	char id[64];
	snprintf(id, sizeof(id), "node.env.%s", !strcmp(var, "NCCL_SOCKET_IFNAME") ?
		 "nccl_socket_ifname" : "gloo_socket_ifname");
	if (!f->n_ifs) {
		report_add(r, id, CI_SKIPPED, false, CI_LAYER_ENV, var,
			   "the probe could not list /sys/class/net");
		return;
	}
	char sel[256] = "", down[256] = "";
	size_t nup = 0;
	for (size_t i = 0; i < f->n_ifs; i++) {
		const struct node_netif *n = &f->ifs[i];
		if (!node_nccl_hca_selects(v, n->name))
			continue;
		if (if_up(n)) {
			nup++;
			cat(sel, sizeof(sel), "%s%s", *sel ? ", " : "", n->name);
		} else {
			cat(down, sizeof(down), "%s%s (%s)", *down ? ", " : "", n->name,
			    n->operstate ? n->operstate : "state unknown");
		}
	}
	struct ci_check *c;
	if (!nup) {
		c = report_add(r, id, CI_FAIL, true, CI_LAYER_ENV, var,
			       "%s=%s matches no interface that is up%s%s: bootstrap hangs", var, v,
			       *down ? "; down: " : "", down);
		check_set_fix(c, "set it to an interface this pod has and that is up (see /sys/class/net),"
				 " or unset it");
	} else {
		c = report_add(r, id, CI_OK, true, CI_LAYER_ENV, var, "%s=%s matches %s", var, v, sel);
	}
}

void node_check_env(struct ci_report *r, const struct node_facts *f)
{
	if (!f->have_env) {
		report_add(r, "node.env", CI_SKIPPED, false, CI_LAYER_ENV, "environment",
			   "the pod's environment could not be read");
		return;
	}
	if (!f->n_env) {
		report_add(r, "node.env", CI_OK, false, CI_LAYER_ENV, "environment",
			   "no transport variable is set: UCX and NCCL use every device they find");
		return;
	}
	report_add(r, "node.env", CI_OK, false, CI_LAYER_ENV, "environment",
		   "%zu transport variable%s set (listed under facts)", f->n_env,
		   f->n_env == 1 ? "" : "s");
	const char *v;
	if ((v = node_env_get(f, "UCX_TLS")))
		check_ucx_tls(r, f, v);
	if ((v = node_env_get(f, "UCX_NET_DEVICES")))
		check_ucx_net_devices(r, f, v);
	if ((v = node_env_get(f, "NCCL_IB_HCA")) && f->n_devs)
		check_nccl_ib_hca(r, f, v);
	if ((v = node_env_get(f, "NCCL_SOCKET_IFNAME")))
		check_socket_ifname(r, f, "NCCL_SOCKET_IFNAME", v);
	if ((v = node_env_get(f, "GLOO_SOCKET_IFNAME")))
		check_socket_ifname(r, f, "GLOO_SOCKET_IFNAME", v);
	const char *ibd = node_env_get(f, "NCCL_IB_DISABLE");
	const char *net = node_env_get(f, "NCCL_NET");
	if (f->n_devs && ((ibd && env_truthy(ibd)) || (net && !strcasecmp(net, "Socket")))) {
		struct ci_check *c = report_add(r, "node.env.nccl_ib_disable", CI_WARN, false,
			CI_LAYER_ENV, ibd ? "NCCL_IB_DISABLE" : "NCCL_NET",
			"%s=%s forces NCCL onto sockets although this pod has RDMA devices",
			ibd ? "NCCL_IB_DISABLE" : "NCCL_NET", ibd ? ibd : net);
		check_set_fix(c, "unset it unless sockets are intended");
	}
}

void node_report_env_facts(struct ci_report *r, const struct node_facts *f, const char *subject)
{
	for (size_t i = 0; i < f->n_env; i++)
		report_add_fact(r, f->env[i].name, redact_value(f->env[i].name, f->env[i].value),
				subject, f->env[i].source);
}
