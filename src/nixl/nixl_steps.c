/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The next commands: the pair test that proves what no read-only look can,
 * filled with the real names of the probed pod and its peer.  The tool
 * never runs them.  Every name or value that reaches a command is quoted
 * by shell_quote, even though names were validated, so that a command stays
 * safe to paste whatever it holds, and the terminal shows exactly the bytes
 * that a paste runs (control bytes are written as \xNN, never raw).
 *
 * Roles: the decode side is the target (started first, the server of
 * ucx_perftest); the prefill side is the initiator.  Without roles the peer
 * is the target.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "nixl/nixl.h"

/* One word for a POSIX shell, shown exactly as a paste runs it.  Printable
 * ASCII is single-quoted ('it'\''s').  Anything else (a control byte such
 * as a backspace that would erase the opening quote on the terminal, ESC,
 * any non-ASCII byte) makes the word "$(printf 'FORMAT')" with each such
 * byte written as \ooo: every POSIX shell (dash too, unlike $'...') turns
 * it back into the same bytes, and the terminal only ever sees printable
 * ASCII.  (Command substitution drops trailing newlines; values from the
 * probe never hold one.) */
char *shell_quote(const char *s)
{
	if (!s)
		s = "";
	size_t len = strlen(s);
	bool plain = true;
	for (size_t i = 0; i < len && plain; i++)
		plain = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f;
	char *q = xmalloc(len * 4 + 16), *o = q;
	if (plain) {
		*o++ = '\'';
		for (size_t i = 0; i < len; i++) {
			if (s[i] == '\'') {
				memcpy(o, "'\\''", 4);
				o += 4;
			} else {
				*o++ = s[i];
			}
		}
		*o++ = '\'';
		*o = '\0';
		return q;
	}
	o += sprintf(o, "\"$(printf '");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else if (c == '\\' || c == '%') {
			*o++ = (char)c; /* printf's format: \\ and %% are themselves */
			*o++ = (char)c;
		} else if (c >= 0x20 && c < 0x7f) {
			*o++ = (char)c;
		} else {
			o += sprintf(o, "\\%03o", c);
		}
	}
	o += sprintf(o, "')\"");
	return q;
}

void nixl_expect_gbs(double gbps, double *low, double *high)
{
	/* Line rate in bytes, less protocol overhead: ~80% on HDR and below,
	 * ~90% from NDR up (HDR 200G: 20-25 GB/s, NDR 400G: 45-50 GB/s). */
	*high = gbps / 8.0;
	*low = *high * (gbps >= 400 ? 0.9 : 0.8);
}

/* One side of the test: how to run a command there. */
struct side {
	const char *pod;  /* pod name; NULL on a host */
	const char *host; /* host label when pod is NULL ("this host", "<peer-host>") */
	const char *role; /* "decode", "prefill", NULL */
};

struct ctx {
	const struct nixl_facts *f;
	const struct nixl_target *t;
	char *prefix_ctx; /* "kubectl [--context 'C'] [--kubeconfig 'F'] " */
};

/* "kubectl ... exec -n 'NS' 'POD' [-c 'C'] -- " or "" on a host. */
static char *exec_prefix(const struct ctx *c, const struct side *s)
{
	if (!s->pod)
		return xstrdup("");
	char *ns = shell_quote(c->t->namespace_);
	char *pod = shell_quote(s->pod);
	char *ctr = c->t->container ? shell_quote(c->t->container) : NULL;
	char *p = xasprintf("%sexec -n %s %s%s%s -- ", c->prefix_ctx, ns, pod, ctr ? " -c " : "",
			    ctr ? ctr : "");
	free(ns);
	free(pod);
	free(ctr);
	return p;
}

static char *where(const struct side *s)
{
	if (s->pod)
		return xasprintf("%s%spod %s", s->role ? s->role : "", s->role ? " " : "", s->pod);
	return xstrdup(s->host);
}

/* "--device_list 'mlx5_0,mlx5_1'" from UCX_NET_DEVICES (ports dropped, tcp
 * devices kept out), or "" when unset. */
static char *device_list(const struct nixl_facts *f)
{
	const char *nd = nixl_env(f, "UCX_NET_DEVICES");
	if (!nd || !*nd || !strcmp(nd, "all") || nd[0] == '^')
		return xstrdup("");
	struct strbuf buf = STRBUF_INIT;
	const char *p = nd;
	for (int k = 0; *p && k < 64; k++) {
		size_t e = strcspn(p, ",");
		size_t name = strcspn(p, ",:");
		if (name > e)
			name = e;
		while (name && p[name - 1] == ' ')
			name--;
		const char *s = p;
		while (name && *s == ' ') {
			s++;
			name--;
		}
		bool dup = false;
		if (name && name < 64) {
			char dev[64];
			memcpy(dev, s, name);
			dev[name] = '\0';
			/* only RDMA devices: nixlbench pins NICs, not sockets */
			bool rdma = strchr(s, ':') && (size_t)(strchr(s, ':') - s) == name;
			for (const char *q = buf.buf; *q && !dup;) {
				size_t m = strcspn(q, ",");
				dup = m == name && !strncmp(q, dev, m);
				q += m + (q[m] == ',');
			}
			if (rdma && !dup)
				strbuf_joinstr(&buf, ",", dev);
		}
		p += e + (p[e] == ',');
	}
	char *r = xstrdup("");
	if (buf.len) {
		char *q = shell_quote(buf.buf);
		free(r);
		r = xasprintf(" --device_list %s", q);
		free(q);
	}
	strbuf_release(&buf);
	return r;
}

/* The etcd endpoints to pass, or NULL (unset or redacted). */
static const char *etcd_endpoints(const struct nixl_facts *f)
{
	const char *e = nixl_env(f, "NIXL_ETCD_ENDPOINTS");
	if (!e || !*e || e[0] == '<')
		return NULL;
	return e;
}

/* Add a step and free both strings: every command here is formatted for
 * this one step, and report_add_step keeps its own copies. */
static void step_add_owned(struct ci_report *r, char *desc, char *cmd)
{
	report_add_step(r, desc, cmd);
	free(desc);
	free(cmd);
}

static void expectation(struct ci_report *r, const struct nixl_facts *f)
{
	const struct node_facts *n = &f->node;
	double rates[8];
	size_t nr = 0, nports = 0;
	bool efa_rate = false;
	for (size_t i = 0; i < n->n_devs; i++)
		for (size_t j = 0; j < n->devs[i].n_ports; j++) {
			const struct node_port *p = &n->devs[i].ports[j];
			if (!node_port_active(p) || p->rate.gbps <= 0)
				continue;
			nports++;
			efa_rate |= n->devs[i].efa;
			bool seen = false;
			for (size_t k = 0; k < nr && !seen; k++)
				seen = rates[k] == p->rate.gbps;
			if (!seen && nr < 8)
				rates[nr++] = p->rate.gbps;
		}
	if (nr) {
		struct strbuf cmd = STRBUF_INIT;
		strbuf_addstr(&cmd, "# expect per port:");
		for (size_t k = 0; k < nr; k++) {
			double lo, hi;
			nixl_expect_gbs(rates[k], &lo, &hi);
			strbuf_addf(&cmd, "%s ~%.0f-%.0f GB/s at %.0f Gb/s%s", k ? ";" : "", lo, hi,
				    rates[k], efa_rate ? " (EFA adapter)" : "");
		}
		strbuf_addf(&cmd, " (%zu active port%s here); 1-2 GB/s means TCP", nports,
			    nports == 1 ? "" : "s");
		report_add_step(r,
				"What bandwidth to expect (from the RDMA port rates read here; a "
				"single-rail test reaches about one port's worth)",
				cmd.buf);
		strbuf_release(&cmd);
	} else {
		report_add_step(r,
				"What bandwidth to expect (no port rate was readable here: the "
				"usual figures)",
				"# ~20-25 GB/s per HDR 200G port, ~45-50 GB/s per NDR 400G port, "
				"~10-12 GB/s per 100G EFA adapter; 1-2 GB/s means TCP");
	}
}

/* "kubectl [--context 'C'] [--kubeconfig 'F'] " for a pod, "" on a host. */
static char *kubectl_prefix(const struct nixl_target *t)
{
	if (t->kind != NK_POD)
		return xstrdup("");
	char *ctxq = t->context ? shell_quote(t->context) : NULL;
	char *kcq = t->kubeconfig ? shell_quote(t->kubeconfig) : NULL;
	char *p = xasprintf("kubectl %s%s%s%s%s%s", ctxq ? "--context " : "", ctxq ? ctxq : "",
			    ctxq ? " " : "", kcq ? "--kubeconfig " : "", kcq ? kcq : "",
			    kcq ? " " : "");
	free(ctxq);
	free(kcq);
	return p;
}

/* The target's address as it appears in the commands: known, read by a
 * first (read-only) step into $POD_IP / $PEER_IP, or a placeholder. */
static char *target_address(struct ci_report *r, const struct ctx *c, const struct side *tgt,
			    bool tgt_is_self)
{
	const struct nixl_target *t = c->t;
	bool pod = t->kind == NK_POD;
	const char *tgt_ip = tgt_is_self ? t->pod_ip : t->peer_ip;
	const char *ipvar = tgt_is_self ? "POD_IP" : "PEER_IP";
	if (pod && tgt_ip)
		return shell_quote(tgt_ip);
	if (pod && (tgt_is_self || t->peer)) {
		char *ns = shell_quote(t->namespace_), *pq = shell_quote(tgt->pod);
		char *cmd = xasprintf("%s=$(%sget pod -n %s %s -o jsonpath='{.status.podIP}')",
				      ipvar, c->prefix_ctx, ns, pq);
		char *desc = xasprintf("Read the target's pod IP (read-only): %s %s",
				       tgt->role ? tgt->role : "pod", tgt->pod);
		step_add_owned(r, desc, cmd);
		free(ns);
		free(pq);
		return xasprintf("\"$%s\"", ipvar);
	}
	if (!pod && t->peer && !tgt_is_self)
		return shell_quote(t->peer);
	return xstrdup(!tgt_is_self ? (pod ? "<peer-pod-ip>" : "<peer-host-ip>")
				    : "<this-host-ip>");
}

/* The one nixlbench command both sides run. */
static char *bench_command(const struct nixl_facts *f, const char *ipq, const char *eq)
{
	const char *be = f->backend == NB_OTHER
				 ? f->backend_name
				 : (f->backend == NB_LIBFABRIC ? "LIBFABRIC" : "UCX");
	/* UCX and LIBFABRIC are our words; a selector's word is quoted. */
	char *bq = f->backend == NB_OTHER ? shell_quote(be) : xstrdup(be);
	char *dl = f->backend == NB_UCX ? device_list(f) : xstrdup("");
	char *runtime =
		eq ? xasprintf("--etcd_endpoints %s", eq)
		   : xasprintf("--runtime_type ASIO --asio_address %s --asio_port 12345", ipq);
	char *bench = xasprintf("nixlbench %s --backend %s --initiator_seg_type VRAM "
				"--target_seg_type VRAM --check_consistency%s",
				runtime, bq, dl);
	free(runtime);
	free(dl);
	free(bq);
	return bench;
}

static void etcd_cleanup_step(struct ci_report *r, const struct ctx *c, const struct side *self,
			      const char *eq)
{
	bool here = c->f->tool_path[NT_ETCDCTL] != NULL;
	char *self_prefix = exec_prefix(c, self);
	char *cmd = xasprintf("%setcdctl --endpoints %s del xferbench --prefix",
			      here ? self_prefix : "", eq);
	report_add_step(r,
			here ? "After a crash or an interrupted run, clear nixlbench's "
			       "stale etcd keys"
			     : "After a crash or an interrupted run, clear nixlbench's "
			       "stale etcd keys (etcdctl is not in this image: run it "
			       "where etcd is reachable)",
			cmd);
	free(cmd);
	free(self_prefix);
}

static void perftest_steps(struct ci_report *r, const struct nixl_facts *f, const char *tw,
			   const char *iw, const char *tp, const char *ip, const char *ipq)
{
	const char *perf_note = f->tool_path[NT_UCX_PERFTEST]
					? ""
					: " (ucx_perftest is not in this image; it ships with UCX)";
	step_add_owned(r, xasprintf("UCX alone, without NIXL: server on %s%s", tw, perf_note),
		       xasprintf("%sucx_perftest -t tag_bw -m cuda -s 134217728 -n 100", tp));
	step_add_owned(
		r, xasprintf("then the client on %s, the server's IP first", iw),
		xasprintf("%sucx_perftest %s -t tag_bw -m cuda -s 134217728 -n 100", ip, ipq));
}

void nixl_steps(struct ci_report *r, const struct nixl_facts *f, const struct nixl_target *t)
{
	struct ctx c = {.f = f, .t = t, .prefix_ctx = kubectl_prefix(t)};
	bool pod = t->kind == NK_POD;

	/* The two sides, and which one is the target. */
	struct side self = {.pod = pod ? t->pod : NULL, .host = "this host", .role = t->pod_role};
	struct side peer = {.pod = pod ? (t->peer ? t->peer : "<peer-pod>") : NULL,
			    .host = t->peer ? t->peer : "<peer-host>",
			    .role = t->peer_role};
	bool self_is_target = t->pod_role && !strcmp(t->pod_role, "decode");
	const struct side *tgt = self_is_target ? &self : &peer;
	const struct side *ini = self_is_target ? &peer : &self;
	char *ipq = target_address(r, &c, tgt, self_is_target);

	const char *be = f->backend == NB_OTHER
				 ? f->backend_name
				 : (f->backend == NB_LIBFABRIC ? "LIBFABRIC" : "UCX");
	const char *etcd = etcd_endpoints(f);
	char *eq = etcd ? shell_quote(etcd) : NULL;
	char *bench = bench_command(f, ipq, eq);
	const char *placeholder_note =
		!pod && !t->peer
			? (etcd ? " (replace <peer-host>)" : " (replace <peer-host> and its IP)")
		: pod && !t->peer ? " (replace <peer-pod>: no peer was found)"
				  : "";
	bool no_bench = !f->tool_path[NT_NIXLBENCH];
	const char *tool_note = no_bench ? "; nixlbench is not in this image: run it from a "
					   "NIXL-enabled image (e.g. a Dynamo runtime image) or a "
					   "debug pod with one"
					 : "";

	char *tw = where(tgt), *iw = where(ini);
	char *tp = exec_prefix(&c, tgt), *ip = exec_prefix(&c, ini);
	char *d1 = xasprintf("nixlbench, target side first, on %s (backend %s, GPU memory on both "
			     "sides, data checked%s)%s%s",
			     tw, be,
			     etcd ? ", ranks paired through etcd"
				  : ", ASIO runtime: no etcd in the environment",
			     placeholder_note, tool_note);
	step_add_owned(r, d1, xasprintf("%s%s", tp, bench));
	step_add_owned(r, xasprintf("Within 60 s, the initiator on %s", iw),
		       xasprintf("%s%s", ip, bench));
	if (etcd)
		etcd_cleanup_step(r, &c, &self, eq);
	if (f->backend == NB_UCX)
		perftest_steps(r, f, tw, iw, tp, ip, ipq);
	expectation(r, f);

	free(tw);
	free(iw);
	free(tp);
	free(ip);
	free(bench);
	free(eq);
	free(ipq);
	free(c.prefix_ctx);
}
