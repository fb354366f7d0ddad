/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The node.live.* checks: evidence from the serving process itself.
 *
 *   node.live.process  which process is the engine (informational)
 *   node.live.loaded   what it loaded and holds open: a NIXL agent on UCX
 *                      that mapped no UCX InfiniBand transport and holds
 *                      no uverbs descriptor cannot be moving KV over RDMA
 *   node.live.traffic  with --observe: what moved during the window, per path
 *   node.live.errors   with --observe: NIXL's error counters grew
 *
 * Evidence outranks inference, precisely: a window that proves KV moved
 * over RDMA, by a process that holds uverbs descriptors, settles the
 * readings whose descriptors say CI_DESC_SETTLED_BY_RDMA (the locked-memory
 * limit, the uverbs device, UCX's RDMA transports): they become ok, with
 * what the reading alone said kept as evidence.  It settles nothing else:
 * GPUDirect against host staging, the GID, MTU and speed are not shown by
 * bytes on a port (docs/checks.md, "Evidence outranks inference").
 *
 * None of them exists for a transcript that did not collect live sections
 * (an earlier version's, or a probe that could not look), so such a replay
 * keeps its verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/redact.h"
#include "core/xalloc.h"
#include "live/live.h"
#include "live/live_desc.h"
#include "parse/lines.h"
#include "rules/ucx.h"

#define LIVE_UVERBS "/dev/infiniband/uverbs"
#define LIVE_GDRDRV "/dev/gdrdrv"

static const char *who(const struct live_facts *f, char *buf, size_t len)
{
	snprintf(buf, len, "process %d (%s)", f->pid,
		 f->engine ? f->engine
		 : f->exe  ? f->exe
			   : "pid 1");
	return buf;
}

static void check_process(struct ci_report *r, const struct live_facts *f, const char *subject)
{
	char w[96];
	if (!f->found && !f->observe_s)
		return; /* a host or pod without an engine: nothing to say unasked */
	if (!f->found) {
		report_na(r, &live_check_table[LIVE_CK_PROCESS], subject,
			  "%s: what the serving process loaded cannot be read",
			  f->why ? f->why : "no engine process found");
		return;
	}
	if (!f->readable) {
		struct ci_check *c =
			report_na(r, &live_check_table[LIVE_CK_PROCESS], subject,
				  "%s found, but %s", who(f, w, sizeof(w)),
				  f->why ? f->why : "its /proc entries could not be read");
		check_set_fix(c, "probe as the user the engine runs as (another user's "
				 "/proc/PID/maps and fd are not readable), or as root");
		return;
	}
	const char *how =
		!f->how                   ? ""
		: !strcmp(f->how, "nixl") ? ": it mapped a NIXL backend plugin"
		: !strcmp(f->how, "pid1")
			? ": pid 1, its command line runs the engine"
			: ": its command line runs the engine (no process mapped a NIXL plugin)";
	struct ci_check *c = report_check(r, &live_check_table[LIVE_CK_PROCESS], CI_OK, subject,
					  "%s%s%s%s", who(f, w, sizeof(w)), how,
					  f->exe ? "; comm " : "", f->exe ? f->exe : "");
	check_add_evidence(c, "%zu transport libraries mapped, %zu device descriptors held",
			   f->maps.n, f->fds.n);
	if (f->nixl_procs > 1)
		check_add_evidence(
			c, "%u processes run a NIXL agent (one per rank); the first is read",
			f->nixl_procs);
}

struct loaded {
	const char *ucx_plugin, *fabric_plugin, *uct_ib, *uct_cuda, *libfabric, *libefa;
	const char *ucp[2];
	size_t n_plugins, n_uverbs, n_imex;
	bool gdrdrv;
	char plugins[160];
};

static void gather_loaded(const struct live_facts *f, struct loaded *l)
{
	memset(l, 0, sizeof(*l));
	size_t used = 0;
	for (size_t i = 0; i < f->maps.n; i++) {
		const char *p = f->maps.paths[i], *b = path_basename(p);
		if (str_starts(b, "libplugin_")) {
			l->n_plugins++;
			if (str_starts(b, "libplugin_UCX"))
				l->ucx_plugin = p;
			else if (str_starts(b, "libplugin_LIBFABRIC"))
				l->fabric_plugin = p;
			const char *end = strstr(b, ".so");
			int w = snprintf(l->plugins + used, sizeof(l->plugins) - used, "%s%.*s",
					 used ? ", " : "", (int)(end - b - 10), b + 10);
			if (w > 0 && (size_t)w < sizeof(l->plugins) - used)
				used += (size_t)w;
		} else if (str_starts(b, "libuct_ib") || str_starts(b, "libuct_rdmacm")) {
			if (!l->uct_ib)
				l->uct_ib = p;
		} else if (str_starts(b, "libuct_cuda")) {
			if (!l->uct_cuda)
				l->uct_cuda = p;
		} else if (str_starts(b, "libucp.so")) {
			/* Two copies of UCX in one process (the system's and the
			 * NIXL wheel's bundled one) is a known hang. */
			size_t dl = (size_t)(b - p);
			if (!l->ucp[0])
				l->ucp[0] = p;
			else if (!l->ucp[1] &&
				 (strlen(l->ucp[0]) - strlen(path_basename(l->ucp[0])) != dl ||
				  strncmp(l->ucp[0], p, dl)))
				l->ucp[1] = p;
		} else if (str_starts(b, "libfabric.so")) {
			l->libfabric = p;
		} else if (str_starts(b, "libefa")) {
			l->libefa = p;
		}
	}
	l->n_uverbs = proc_fds_count(&f->fds, LIVE_UVERBS);
	l->n_imex = proc_fds_count(&f->fds, LIVE_IMEX);
	l->gdrdrv = proc_fds_count(&f->fds, LIVE_GDRDRV) > 0;
}

static void evidence_loaded(struct ci_check *c, const struct loaded *l)
{
	if (l->ucx_plugin)
		check_add_evidence(c, "mapped %s", l->ucx_plugin);
	if (l->fabric_plugin)
		check_add_evidence(c, "mapped %s", l->fabric_plugin);
	if (l->uct_ib)
		check_add_evidence(c, "mapped %s", l->uct_ib);
	if (l->uct_cuda)
		check_add_evidence(c, "mapped %s", l->uct_cuda);
	if (l->libfabric)
		check_add_evidence(c, "mapped %s", l->libfabric);
	check_add_evidence(c, "holds %zu %s* descriptor%s%s%s", l->n_uverbs, LIVE_UVERBS,
			   l->n_uverbs == 1 ? "" : "s", l->gdrdrv ? ", /dev/gdrdrv" : "",
			   l->n_imex ? ", IMEX channels" : "");
}

static void check_loaded(struct ci_report *r, const struct live_facts *f, const char *subject)
{
	if (!f->found || !f->readable)
		return;
	struct loaded l;
	gather_loaded(f, &l);
	char w[96];
	who(f, w, sizeof(w));
	struct ci_check *c;
	if (!l.n_plugins) {
		report_na(r, &live_check_table[LIVE_CK_LOADED], subject,
			  "%s has loaded no NIXL backend plugin: no NIXL agent runs in it "
			  "(yet), so what KV would use cannot be read from it",
			  w);
		return;
	}
	bool ucx = l.ucx_plugin != NULL, fabric = l.fabric_plugin != NULL;
	/* MNNVL is a path of its own: UCX's cuda_ipc imports the peer's
	 * memory through fabric handles, which needs an IMEX channel open and
	 * no RDMA device at all (rules/ucx.h, UCX_MIN_MNNVL_IPC). */
	if (ucx && l.uct_cuda && l.n_imex && !l.n_uverbs) {
		c = report_check(
			r, &live_check_table[LIVE_CK_LOADED], CI_OK, subject,
			"%s runs NIXL's UCX backend with UCX's CUDA transports and holds "
			"%zu IMEX channel%s: KV can cross nodes over multi-node NVLink "
			"(cuda_ipc on fabric handles, UCX >= %s); it opened no RDMA device",
			w, l.n_imex, l.n_imex == 1 ? "" : "s", ucx_rule(UCX_MIN_MNNVL_IPC)->text);
		evidence_loaded(c, &l);
		return;
	}
	if ((ucx && !l.uct_ib && !l.n_uverbs) || (fabric && !ucx && !l.n_uverbs)) {
		c = report_check(r, &live_check_table[LIVE_CK_LOADED], CI_FAIL, subject,
				 "%s runs NIXL's %s backend but %s and holds no %s* descriptor: it "
				 "cannot be moving KV over RDMA",
				 w, ucx ? "UCX" : "LIBFABRIC",
				 ucx ? "mapped no UCX InfiniBand transport (libuct_ib*)"
				     : "opened no EFA device",
				 LIVE_UVERBS);
		check_set_fix(
			c,
			ucx ? "give the pod its RDMA devices (rdma/ib or the SR-IOV "
			      "resource) and make UCX_TLS include rc/dc/ib; then restart the worker"
			    : "give the pod its EFA devices (vpc.amazonaws.com/efa) and restart the worker");
		evidence_loaded(c, &l);
		return;
	}
	if (ucx && !l.uct_cuda) {
		c = report_check(
			r, &live_check_table[LIVE_CK_LOADED], CI_FAIL, subject,
			"%s runs NIXL's UCX backend without UCX's CUDA transports (no libuct_cuda* "
			"mapped): UCX treats VRAM as host memory",
			w);
		check_set_fix(c, "use a UCX built with CUDA (the one NIXL ships), and check the "
				 "worker log for \"failed to load module libuct_cuda\"");
		evidence_loaded(c, &l);
		return;
	}
	if (l.ucp[1]) {
		c = report_check(
			r, &live_check_table[LIVE_CK_LOADED], CI_WARN, subject,
			"%s maps two copies of UCX (%s and %s): two UCX copies in one process can "
			"hang or pick different transports",
			w, l.ucp[0], l.ucp[1]);
		check_set_fix(c, "keep one UCX in the image (the NIXL wheel's bundled copy or the "
				 "system's), or set NIXL_UCX_DEEPBIND as NIXL documents");
		evidence_loaded(c, &l);
		return;
	}
	if (ucx && l.uct_ib && !l.n_uverbs) {
		c = report_check(
			r, &live_check_table[LIVE_CK_LOADED], CI_WARN, subject,
			"%s mapped UCX's InfiniBand transport but holds no %s* descriptor: UCX "
			"opened no RDMA device, so KV between nodes cannot use RDMA",
			w, LIVE_UVERBS);
		check_set_fix(c, "check UCX_NET_DEVICES against the devices the pod was given "
				 "(node.env.net_devices) and the worker log for UCX warnings");
		evidence_loaded(c, &l);
		return;
	}
	c = report_check(r, &live_check_table[LIVE_CK_LOADED], CI_OK, subject,
			 "%s runs NIXL (%s) with %s and holds %zu RDMA device descriptor%s", w,
			 l.plugins, ucx ? "UCX's InfiniBand and CUDA transports" : "libfabric",
			 l.n_uverbs, l.n_uverbs == 1 ? "" : "s");
	evidence_loaded(c, &l);
}

static void traffic_evidence(struct ci_check *c, const struct live_summary *s)
{
	char a[BYTES_STR_LEN], b[BYTES_STR_LEN];
	check_add_evidence(c, "RDMA ports: sent %s, received %s%s%s",
			   bytes_str_d((double)s->rdma_tx, a, sizeof(a)),
			   bytes_str_d((double)s->rdma_rx, b, sizeof(b)),
			   s->rdma_devs.len ? " on " : "", s->rdma_devs.buf);
	check_add_evidence(c, "pod interfaces (kernel TCP/IP): sent %s, received %s",
			   bytes_str_d((double)s->tcp_tx, a, sizeof(a)),
			   bytes_str_d((double)s->tcp_rx, b, sizeof(b)));
	if (s->lo_tx + s->lo_rx)
		check_add_evidence(c, "loopback lo (TCP within the pod): sent %s, received %s",
				   bytes_str_d((double)s->lo_tx, a, sizeof(a)),
				   bytes_str_d((double)s->lo_rx, b, sizeof(b)));
	if (s->nixl)
		check_add_evidence(c, "NIXL telemetry: %s +%s, %s +%s",
				   s->nixl_tx_name ? s->nixl_tx_name : "agent_tx_bytes",
				   bytes_str_d(s->nixl_tx, a, sizeof(a)),
				   s->nixl_rx_name ? s->nixl_rx_name : "agent_rx_bytes",
				   bytes_str_d(s->nixl_rx, b, sizeof(b)));
	if (s->n_ranks > 1)
		check_add_evidence(c, "NIXL per rank (bytes sent): %s", s->ranks.buf);
	if (s->spoiled.len)
		check_add_evidence(c, "left out: %s", s->spoiled.buf);
	check_add_evidence(c, "window: %.0f ms, %s", s->seconds * 1000,
			   s->measured ? "from the first sample to the last"
				       : "as asked (the samples carry no clock)");
}

static void say_nothing_moved(struct ci_report *r, const char *subject,
			      const struct live_summary *s, const char *what)
{
	struct ci_check *c =
		report_na(r, &live_check_table[LIVE_CK_TRAFFIC], subject,
			  "no KV moved during the %.1f s window (%s): the path cannot be proven "
			  "from traffic",
			  s->seconds, what);
	check_set_fix(c,
		      "observe while requests flow: start a benchmark, or send one request "
		      "through the frontend (see the next steps), then run again with --observe");
	traffic_evidence(c, s);
	report_add_step(r, LIVE_TRAFFIC_STEP, LIVE_TRAFFIC_COMMAND);
}

/* How to switch NIXL's counters on, from the rules' names. */
static void fix_telemetry(struct ci_check *c)
{
	size_t n;
	const struct nixl_tm_exporter *e = nixl_tm_exporters(&n);
	check_set_fix(c,
		      "export NIXL's counters in the engine's environment: %s=y %s=%s (port %s, "
		      "default %u; %s, NIXL %s, serves every rank of a pod), then observe again",
		      nixl_tm_var(NIXL_TM_VAR_ENABLE)->name,
		      nixl_tm_var(NIXL_TM_VAR_EXPORTER)->name, e[0].name, e[0].port_var,
		      e[0].default_port, e[n - 1].name, e[n - 1].since);
}

static void check_traffic(struct ci_report *r, const struct live_facts *f, const char *subject,
			  const struct live_summary *s)
{
	char a[BYTES_STR_LEN], b[BYTES_STR_LEN], g[BYTES_STR_LEN], d[BYTES_STR_LEN];
	double rdma = (double)(s->rdma_tx + s->rdma_rx), tcp = (double)(s->tcp_tx + s->tcp_rx);
	double lo = (double)(s->lo_tx + s->lo_rx);
	double secs = s->seconds > 0 ? s->seconds : 1;
	double kv = s->nixl_tx + s->nixl_rx;
	const struct check_desc *desc = &live_check_table[LIVE_CK_TRAFFIC];
	struct ci_check *c = NULL;

	switch (s->path) {
	case LIVE_PATH_UNSEEN: return;
	case LIVE_PATH_IDLE:
		say_nothing_moved(r, subject, s,
				  s->nixl ? "NIXL's byte counters did not grow"
					  : "no RDMA bytes, no TCP traffic beyond 1 MiB");
		return;
	case LIVE_PATH_SPOILED:
		c = report_check(r, desc, CI_SKIPPED, subject,
				 "the %.1f s window cannot say which path KV took: %s", s->seconds,
				 s->spoiled.buf);
		check_set_fix(c, "observe again: a counter that was reset, wrapped or saturated "
				 "cannot be read as traffic (a saturated 32-bit port counter needs "
				 "an HCA with extended counters)");
		break;
	case LIVE_PATH_UNATTRIBUTED:
		if (f->s[0].nixl.have && f->s[1].nixl.have &&
		    !nixl_tm_bytes_enabled(f->tm_metrics)) {
			/* scraped, but its byte events dropped at the source */
			c = report_check(
				r, desc, CI_WARN, subject,
				"during %.1f s the RDMA ports moved %s and the pod's TCP "
				"interfaces %s, but %s=%s leaves NIXL's byte events out (its "
				"counters stay at 0): these bytes cannot be attributed to KV",
				s->seconds, bytes_str_d(rdma, a, sizeof(a)),
				bytes_str_d(tcp, b, sizeof(b)),
				nixl_tm_var(NIXL_TM_VAR_ENABLED_METRICS)->name, f->tm_metrics);
			check_set_fix(c,
				      "add agent_tx_bytes,agent_rx_bytes to %s (or unset it), "
				      "then observe again",
				      nixl_tm_var(NIXL_TM_VAR_ENABLED_METRICS)->name);
			break;
		}
		c = report_check(
			r, desc, CI_WARN, subject,
			"during %.1f s the RDMA ports moved %s and the pod's TCP interfaces %s, but "
			"without NIXL telemetry these bytes cannot be attributed to KV (%s)",
			s->seconds, bytes_str_d(rdma, a, sizeof(a)), bytes_str_d(tcp, b, sizeof(b)),
			*f->s[1].nixl_why ? f->s[1].nixl_why : "no telemetry");
		fix_telemetry(c);
		break;
	case LIVE_PATH_RDMA:
		c = report_check(
			r, desc, CI_OK, subject,
			"KV moved %s over %s%s%s%s at %s/s during %.1f s (RDMA ports %s, TCP %s)",
			bytes_str_d(kv, a, sizeof(a)), s->rdma_devs.len ? s->rdma_devs.buf : "RDMA",
			s->rdma_kind_known ? " (" : "",
			s->rdma_kind_known ? fabric_path_name(s->rdma_kind) : "",
			s->rdma_kind_known ? ")" : "", bytes_str_d(kv / secs, g, sizeof(g)),
			s->seconds, bytes_str_d(rdma, b, sizeof(b)),
			bytes_str_d(tcp, d, sizeof(d)));
		check_add_evidence(c, "proves the path (memory registered, device opened, UCX's "
				      "RDMA transport), not GPUDirect: node.gpudirect says whether "
				      "KV left GPU memory or a host buffer");
		break;
	case LIVE_PATH_TCP:
		c = report_check(
			r, desc, CI_FAIL, subject,
			"KV moved over TCP: NIXL moved %s during %.1f s while the RDMA ports moved "
			"%s and the pod's TCP interfaces %s",
			bytes_str_d(kv, a, sizeof(a)), s->seconds, bytes_str_d(rdma, b, sizeof(b)),
			bytes_str_d(tcp, g, sizeof(g)));
		check_set_fix(c,
			      "make UCX see and select the RDMA devices (node.rdma.*, "
			      "nixl.ucx.rdma, UCX_TLS/UCX_NET_DEVICES), then restart the workers");
		break;
	case LIVE_PATH_LOOPBACK:
		c = report_check(r, desc, CI_FAIL, subject,
				 "KV moved over loopback TCP inside the pod: NIXL moved %s during "
				 "%.1f s and lo carried %s, while the RDMA ports moved %s",
				 bytes_str_d(kv, a, sizeof(a)), s->seconds,
				 bytes_str_d(lo, b, sizeof(b)), bytes_str_d(rdma, g, sizeof(g)));
		check_set_fix(c, "both agents run in this pod and UCX chose tcp on lo: give UCX "
				 "its CUDA transports (UCX_TLS with cuda_ipc) so KV stays in GPU "
				 "memory, then restart the workers");
		break;
	case LIVE_PATH_MNNVL:
		c = report_check(
			r, desc, CI_OK, subject,
			"KV moved %s during %.1f s over %s: the RDMA ports (%s) and TCP (%s) "
			"stayed flat while %s, so UCX's cuda_ipc moved it (across nodes over the "
			"NVLink domain, or within the node)",
			bytes_str_d(kv, a, sizeof(a)), s->seconds, fabric_path_name(FABRIC_MNNVL),
			bytes_str_d(rdma, b, sizeof(b)), bytes_str_d(tcp, g, sizeof(g)),
			s->imex ? "the process holds an IMEX channel"
				: "the node is in an NVLink domain with an IMEX channel "
				  "(the process's descriptors were not read)");
		if (*s->fabric.mnnvl_gap)
			check_add_evidence(c, "the node's fabric model: %s", s->fabric.mnnvl_gap);
		break;
	case LIVE_PATH_LOCAL:
		c = report_check(
			r, desc, CI_WARN, subject,
			"NIXL moved %s during %.1f s, but neither the RDMA ports (%s) nor the TCP "
			"interfaces (%s) moved half of it: the bytes stayed in the node (%s)",
			bytes_str_d(kv, a, sizeof(a)), s->seconds, bytes_str_d(rdma, b, sizeof(b)),
			bytes_str_d(tcp, g, sizeof(g)),
			s->fabric.can[FABRIC_NVLINK]
				? "cuda_ipc over the node's NVLink: prefill and decode share this node"
				: "cuda_ipc within the node, or host shared memory");
		check_set_fix(c, "set UCX_PROTO_INFO=y on a worker and read which protocol UCX "
				 "chose for the KV transfers");
		break;
	}
	traffic_evidence(c, s);
}

static void check_errors(struct ci_report *r, const struct live_facts *f, const char *subject,
			 const struct live_summary *s)
{
	if (!s->nixl) {
		/* An exporter that sent more than NIXL ever does was cut: its
		 * error counters were not read, and silence is not "no errors". */
		const struct live_sample *cut = f->s[0].nixl_cut   ? &f->s[0]
						: f->s[1].nixl_cut ? &f->s[1]
								   : NULL;
		if (cut) {
			struct ci_check *c = report_na(r, &live_check_table[LIVE_CK_ERRORS],
						       subject, "%s", cut->nixl_why);
			check_set_fix(c,
				      "scrape the engine's /metrics port by hand (curl -s "
				      "127.0.0.1:PORT/metrics | head): something other than "
				      "NIXL's exporter answers there, or it never ends its reply");
		}
		return;
	}
	/* NIXL's Prometheus exporter published only byte, request and time
	 * counters before the labelled agent_errors_total{status} (its
	 * exportEvent skipped the ERROR category): silence is not "no errors". */
	if (s->nixl_errors_dropped) {
		struct ci_check *c = report_na(
			r, &live_check_table[LIVE_CK_ERRORS], subject,
			"%s=%s leaves NIXL's agent_err_* events out: its exporter still "
			"publishes %s, frozen at 0, so errors cannot be read from telemetry",
			nixl_tm_var(NIXL_TM_VAR_ENABLED_METRICS)->name, f->tm_metrics,
			nixl_tm_errors_name());
		check_set_fix(c, "read the worker log for NIXL errors (--logs), or add "
				 "agent_err_* to the list");
		return;
	}
	if (!s->nixl_errors_exported) {
		struct ci_check *c = report_na(
			r, &live_check_table[LIVE_CK_ERRORS], subject,
			"NIXL's exporter publishes no %s (a NIXL before %s, which has no error "
			"counter, or %s leaves the agent_err_* events out): its errors cannot be "
			"read from telemetry",
			nixl_tm_errors_name(), nixl_tm_metric_find(nixl_tm_errors_name())->since,
			nixl_tm_var(NIXL_TM_VAR_ENABLED_METRICS)->name);
		check_set_fix(c, "read the worker log for NIXL errors (--logs)");
		return;
	}
	if (s->nixl_errors > 0) {
		struct ci_check *c =
			report_check(r, &live_check_table[LIVE_CK_ERRORS], CI_FAIL, subject,
				     "NIXL's error counters grew by %.0f during the window: %s",
				     s->nixl_errors, s->error_statuses.buf);
		check_set_fix(c,
			      "read the worker logs around the errors (check_interconnect "
			      "--logs); NIXL_ERR_REMOTE_DISCONNECT means the peer agent went away "
			      "or is unreachable");
		return;
	}
	report_check(r, &live_check_table[LIVE_CK_ERRORS], CI_OK, subject,
		     "NIXL's error counters did not grow during the window");
}

/* NCCL's socket transport lists its interfaces when it initialises
 * ("NET/Socket : Using [0]ib0:..."); NCCL versions that initialise it for
 * the bootstrap print the line on runs that then pick NET/IB or a plugin.
 * The network the same log says NCCL chose decides (NCCL's own "Using
 * network ..." / "NET/IB : Using [", src/transport/net_socket.cc, net.cc). */
static bool socket_list_only(const struct live_facts *f, const struct log_finding *g)
{
	return strstr(g->evidence, "NET/Socket : Using [") &&
	       !strstr(g->evidence, "via NET/Socket") &&
	       (logscan_get(&f->logs, LOG_NCCL_NET_IB) || logscan_get(&f->logs, LOG_NCCL_NET_OFI) ||
		logscan_get(&f->logs, LOG_NCCL_GDRDMA_USED) ||
		logscan_get(&f->logs, LOG_NCCL_NET_IB_NO_GDR));
}

/* What a known line in a worker's log means for the KV path. */
static enum ci_status log_weight(enum log_symptom sym)
{
	switch (sym) {
	case LOG_UCX_CUDA_MODULE_MISSING:
	case LOG_NIXL_ERR_BACKEND:
	case LOG_NIXL_REMOTE_DISCONNECT:
	case LOG_NIXL_BACKEND_NOT_FOUND:
	case LOG_UCX_NO_AM_TRANSPORT:
	case LOG_UCX_NO_USABLE_TRANSPORT:
	case LOG_UCX_UNREACHABLE:
	case LOG_UCX_MEMLOCK:
	case LOG_TCP_FALLBACK: return CI_FAIL;
	case LOG_NCCL_NET_IB:
	case LOG_NCCL_NET_OFI:
	case LOG_NCCL_GDRDMA_USED:
	case LOG_NCCL_P2P:
	case LOG_NCCL_MNNVL:
	case LOG_UCX_DMABUF_SUPPORTED: return CI_OK;
	default: return CI_WARN;
	}
}

/* A log line goes through the tool's one redaction rule (core/redact.h):
 * a line that holds a secret-like value ("password=", "token=", "Bearer ")
 * is withheld, not half-shown; URL credentials are redacted in place. */
static bool log_line_safe(const char *l)
{
	return !redact_is_secret_value(l);
}

static void check_logs(struct ci_report *r, const struct live_facts *f, const char *subject)
{
	if (!f->have_logs)
		return;
	if (!f->logs_read) {
		struct ci_check *c = report_na(r, &live_check_table[LIVE_CK_LOGS], subject,
					       "the worker's log could not be read: %s",
					       f->logs_why ? f->logs_why : "kubectl logs failed");
		check_set_fix(c, "kubectl logs needs the pods/log permission (RBAC)");
		return;
	}
	enum ci_status worst = CI_OK;
	size_t bad = 0, withheld = 0;
	for (size_t i = 0; i < f->logs.n; i++) {
		enum ci_status w = log_weight(f->logs.v[i].sym);
		if (f->logs.v[i].sym == LOG_NCCL_NET_SOCKET && socket_list_only(f, &f->logs.v[i]))
			w = CI_OK;
		if (w == CI_FAIL || (w == CI_WARN && worst == CI_OK))
			worst = w;
		bad += w != CI_OK;
	}
	for (size_t i = 0; i < f->n_hits; i++) {
		/* a test tool's diagnostic (ucx_perftest) or a teardown message is
		 * shown, never counted */
		if (f->hits[i].meaning == LOG_MEAN_INFO)
			continue;
		enum ci_status w = f->hits[i].meaning == LOG_MEAN_FAIL ? CI_FAIL : CI_WARN;
		if (w == CI_FAIL || worst == CI_OK)
			worst = w;
		bad++;
	}
	struct ci_check *c;
	/* A tail larger than what is read keeps its newest lines; the older
	 * ones were not read, and nothing is said "ok" about them. */
	char cut[160] = "";
	if (f->logs_cut) {
		char sz[BYTES_STR_LEN];
		snprintf(cut, sizeof(cut),
			 " (the log was cut: only its newest %s were read, the older lines of "
			 "the tail were not)",
			 bytes_str_d((double)f->logs_bytes, sz, sizeof(sz)));
	}
	if (!bad && f->logs_cut) {
		c = report_na(r, &live_check_table[LIVE_CK_LOGS], subject,
			      "no known transport error in the newest %zu log lines%s",
			      f->logs_lines, cut);
		check_set_fix(c,
			      "read the older lines with a smaller tail (--logs N), or "
			      "search the worker's log itself (kubectl logs POD | grep -i -e nixl "
			      "-e ucx -e nccl)");
	} else if (!bad)
		c = report_check(
			r, &live_check_table[LIVE_CK_LOGS], CI_OK, subject,
			"no known transport error in the last %zu log lines%s", f->logs_lines,
			f->logs.n ? " (the lines below show the path NCCL/UCX chose)" : "");
	else
		c = report_check(r, &live_check_table[LIVE_CK_LOGS], worst, subject,
				 "%zu known transport problem%s in the last %zu log lines%s", bad,
				 bad == 1 ? "" : "s", f->logs_lines, cut);
	for (size_t i = 0; i < f->logs.n; i++) {
		const struct log_finding *g = &f->logs.v[i];
		if (!log_line_safe(g->evidence)) {
			withheld++;
			continue;
		}
		char *line = redact_url_credentials(g->evidence);
		check_add_evidence(c, "%s (%zu line%s): %s", log_symptom_name(g->sym), g->count,
				   g->count == 1 ? "" : "s", line);
		free(line);
	}
	for (size_t i = 0; i < f->n_hits; i++) {
		const struct live_log_hit *h = &f->hits[i];
		const struct log_source *ls = &log_sources_table[h->src];
		if (!log_line_safe(h->evidence)) {
			withheld++;
			continue;
		}
		char *line = redact_url_credentials(h->evidence);
		check_add_evidence(c, "%s %s (%s %s, %zu line%s): %s", ls->name,
				   h->meaning == LOG_MEAN_FAIL ? "error"
				   : h->meaning == LOG_MEAN_WARN
					   ? "warning"
					   : "informational (test tool or teardown)",
				   h->rule->file, log_rule_tag(ls, h->rule), h->count,
				   h->count == 1 ? "" : "s", line);
		free(line);
	}
	if (withheld)
		check_add_evidence(c, "%zu matching line%s withheld: %s a credential", withheld,
				   withheld == 1 ? "" : "s",
				   withheld == 1 ? "it names" : "they name");
	if (worst != CI_OK)
		check_set_fix(c,
			      "read the lines above in the worker's log (kubectl logs); each names "
			      "the layer that failed");
}

/* The readings before first that the proven RDMA path settles. */
static void settle(struct ci_report *r, size_t first, const struct live_facts *f,
		   const struct live_summary *s)
{
	size_t uverbs = proc_fds_count(&f->fds, LIVE_UVERBS);
	if (s->path != LIVE_PATH_RDMA || !uverbs)
		return;
	for (size_t i = 0; i < first; i++) {
		struct ci_check *c = &r->checks[i];
		if (!(c->flags & CI_DESC_SETTLED_BY_RDMA) || c->status == CI_OK)
			continue;
		check_add_evidence(c, "the reading alone: %s: %s", status_name(c->status),
				   c->detail);
		free(c->detail);
		c->detail =
			xasprintf("settled by node.live.traffic: the engine, holding %zu uverbs "
				  "descriptor%s, moved KV over %s during the window",
				  uverbs, uverbs == 1 ? "" : "s",
				  s->rdma_devs.len ? s->rdma_devs.buf : "RDMA");
		c->status = CI_OK;
		free(c->fix);
		c->fix = NULL;
	}
}

void live_checks_run(struct ci_report *r, const struct live_facts *f, const char *subject)
{
	size_t first = r->n_checks;
	struct live_summary s;
	live_summarize(f, &s);
	check_logs(r, f, subject);
	if (f->collected) {
		check_process(r, f, subject);
		check_loaded(r, f, subject);
		if (s.observed) {
			check_traffic(r, f, subject, &s);
			check_errors(r, f, subject, &s);
			settle(r, first, f, &s);
		}
	}
	/* Only when a live check said something: a host without an engine,
	 * not asked to observe, keeps the report it always had. */
	if (r->n_checks > first)
		live_report_fill(r, f, &s, first);
	live_summary_release(&s);
}
