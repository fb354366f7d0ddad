/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Live evidence: what the serving process of a worker really loaded and
 * opened, and what moved during an observation window (--observe SECONDS).
 * Everything else the tool says is inference from configuration and
 * capability; these readings say which path KV actually took.
 *
 * The probe (src/probe/probe.sh) writes these sections, all optional (a
 * transcript from an earlier version has none of them: "not collected"):
 *   live:proc         pid=, how=pid1|cmdline, engine=, exe=, readable=yes|no
 *   live:maps         the transport libraries mapped by that process, one path a line
 *   live:fd           "N -> /dev/..." for its RDMA, GDRCopy, IMEX and GPU descriptors
 *   live:sample:0|1   uptime=<s>, then sysfs counters as "<path>=<value>"
 *   live:netdev:0|1   /proc/net/dev of the pod's network namespace
 *   live:nixl:0|1     NIXL's Prometheus telemetry (agent_* lines), when exported
 * Paths and counters only: never memory, file contents or the command line
 * beyond the engine's module name.
 *
 * live_facts_read() is pure (transcript in, struct out); live_checks_run()
 * is pure (facts in, checks out).
 */
#ifndef CI_LIVE_H
#define CI_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/report.h"
#include "core/strbuf.h"
#include "parse/logscan.h"
#include "parse/net_dev.h"
#include "parse/proc_fd.h"
#include "parse/proc_maps.h"
#include "parse/prom_text.h"
#include "rules/fabric.h"
#include "parse/transcript.h"
#include "rules/logs.h"
#include "rules/nixl_telemetry.h"

#define SEC_LIVE_PROC    "live:proc"
#define SEC_LIVE_MAPS    "live:maps"
#define SEC_LIVE_FD      "live:fd"
#define SEC_LIVE_SAMPLE0 "live:sample:0"
#define SEC_LIVE_SAMPLE1 "live:sample:1"
#define SEC_LIVE_NETDEV0 "live:netdev:0"
#define SEC_LIVE_NETDEV1 "live:netdev:1"
#define SEC_LIVE_NIXL0   "live:nixl:0"
#define SEC_LIVE_NIXL1   "live:nixl:1"
/* Not written by the script: the runner adds the worker's `kubectl logs
 * --tail=N` output under this name, in memory only (never saved), when
 * --logs is given; rc and the first line say why it could not be read. */
#define SEC_LIVE_LOGS    "kube:logs"

#define LIVE_SECTION_LIST                                                              \
	SEC_LIVE_PROC, SEC_LIVE_MAPS, SEC_LIVE_FD, SEC_LIVE_SAMPLE0, SEC_LIVE_SAMPLE1, \
		SEC_LIVE_NETDEV0, SEC_LIVE_NETDEV1, SEC_LIVE_NIXL0, SEC_LIVE_NIXL1

#define LIVE_MAX_PORTS 64

/* The descriptor an MNNVL import holds: an IMEX channel (NVIDIA IMEX,
 * /dev/nvidia-caps-imex-channels/channelN). */
#define LIVE_IMEX       "/dev/nvidia-caps-imex-channels/"
/* The raw value at which a 32-bit IB PortCounters data counter saturates. */
#define LIVE_PORT32_MAX 4294967295ull

/* One RDMA port's data counters at one instant, in bytes. */
struct live_port {
	char *dev;
	unsigned port;
	bool efa;        /* EFA hw_counters, already bytes */
	uint64_t tx, rx; /* IB/RoCE: port_xmit_data/port_rcv_data x 4; EFA: tx_bytes/rx_bytes */
	bool have_txrx;  /* EFA: tx_bytes/rx_bytes were there */
	/* IB/RoCE: the raw port_xmit_data / port_rcv_data read 2^32-1, the
	 * ceiling of the 32-bit PortCounters the kernel falls back to when the
	 * HCA has no PortCountersExtended: a saturated counter no longer moves. */
	bool sat_tx, sat_rx;
	uint64_t rdma_tx,
		rdma_rx; /* EFA: rdma_write_bytes + rdma_read_resp_bytes / the receiving pair */
};

/* NIXL telemetry at one instant. */
struct live_nixl {
	bool have;     /* the exporter answered with byte counters of a known name */
	double tx, rx; /* their sums over every series (rules/nixl_telemetry.h) */
	const char *tx_name, *rx_name; /* the metric names read (the rules' strings) */
	struct prom_text p;            /* every series, for the per-rank deltas and the errors */
};

struct live_sample {
	bool have;     /* the live:sample:N section was there */
	double uptime; /* /proc/uptime at the sample, seconds; < 0 unknown */
	struct live_port ports[LIVE_MAX_PORTS];
	size_t n_ports;
	bool have_netdev;
	struct net_devs netdev;
	struct live_nixl nixl;
	bool nixl_cut;      /* the scrape was cut (NIXL_TM_SCRAPE_MAX): not read */
	char nixl_why[160]; /* why there is no telemetry, from the probe */
};

/* A log line that one of the sources' format strings printed. */
struct live_log_hit {
	const struct log_rule *rule;
	enum log_src src;
	enum log_meaning
		meaning; /* log_line_meaning: the row's, or fail after UCX's fatal prefix */
	char *evidence;  /* the first such line, capped at 300 bytes */
	size_t count;
};
#define LIVE_MAX_LOG_HITS 64

struct live_facts {
	/* The node's fabric facts (node_fabric_in), set by the verb that read
	 * them (node, nixl, the fleet) before the live checks: the window is
	 * judged with the same fabric model as the node.  Without them (the
	 * agent's scans) only the window's own evidence feeds the model. */
	struct fabric_in fabric;
	bool have_fabric;
	bool collected; /* the probe looked for the engine process */
	bool found;     /* an engine process was found */
	bool readable;  /* its maps and fd could be read */
	int pid;
	char *engine;        /* "dynamo.vllm", "sglang", ... or NULL (pid 1) */
	char *exe;           /* basename of argv[0] */
	char *how;           /* "pid1", "cmdline" */
	char *why;           /* why not found / not readable */
	unsigned nixl_procs; /* processes that mapped a NIXL plugin (TP ranks each have one) */
	bool have_maps, have_fds;
	struct proc_maps maps;
	struct proc_fds fds;

	unsigned observe_s; /* the window asked for; 0: not observed */
	/* NIXL's telemetry switches as the engine process has them (its own
	 * /proc/PID/environ, NIXL_TELEMETRY_* only), else the probe's: "env"
	 * or "probe"; NULL when the probe did not say. */
	char *tm_exporter, *tm_enable, *tm_from, *tm_metrics;

	bool have_logs;      /* --logs: the section was added */
	bool logs_read;      /* kubectl logs answered */
	char *logs_why;      /* why not */
	size_t logs_lines;   /* lines scanned */
	bool logs_cut;       /* the tail was larger than what is read: only its
			      * newest lines (logs_bytes) were */
	size_t logs_bytes;   /* bytes scanned */
	struct logscan logs; /* known transport lines only */
	/* lines that match a format string of rules/logs_table.c and no
	 * symptom above, one per row, in order of first appearance */
	struct live_log_hit *hits;
	size_t n_hits;
	struct live_sample s[2];
};

void live_facts_init(struct live_facts *f);
void live_facts_release(struct live_facts *f);
void live_facts_read(struct live_facts *f, const struct transcript *t);
/* The transcript holds what --observe or --logs adds (a window, a log):
 * the live checks were asked for, whatever the verb. */
bool live_facts_asked(const struct live_facts *f);

/* NIXL moved this much without the RDMA ports or the TCP interfaces moving
 * half of it: the bytes went another way (cuda_ipc, shared memory). */
#define LIVE_SHARE    0.5
/* Without NIXL telemetry, no RDMA bytes and less TCP than this is "nothing
 * moved" (scrapes, probes, keepalives). */
#define LIVE_IDLE_TCP (1 << 20)

/* What sends KV through the workers when a window saw none: one request
 * through the Dynamo frontend, which serves the OpenAI API on port 8000
 * (ai-dynamo/dynamo examples/router_standalone/ping.sh).  Printed as a next
 * command, never run; the names in <> are the user's. */
#define LIVE_TRAFFIC_STEP                                                                \
	"send one request through the frontend, and run this tool again with --observe " \
	"while it is answered (this tool never sends it)"
#define LIVE_TRAFFIC_COMMAND                                                              \
	"kubectl -n <namespace> port-forward svc/<frontend-service> 8000:8000 &\n"        \
	"curl -s localhost:8000/v1/chat/completions -H 'Content-Type: application/json' " \
	"-d '{\"model\": \"<model>\", \"messages\": [{\"role\": \"user\", \"content\": "  \
	"\"hello\"}], \"max_tokens\": 64}'"

/* A list in a detail line stops near this many bytes, saying how many it
 * left out (core/strbuf.h). */
#define LIVE_LINE_CAP 160

/* What one RDMA port or one interface moved during the window, in bytes;
 * name borrowed from the facts. */
struct live_delta {
	const char *name;
	unsigned port; /* RDMA ports; 0 for an interface */
	uint64_t tx, rx;
};

/* How much one of NIXL's error statuses grew; status borrowed. */
struct live_error {
	const char *status;
	double delta;
};

/* What the facts mean, derived once and shared by the checks, the fleet
 * comparison and the renderers.  Borrows names from the facts: release it
 * before them. */
/* What a window proves about the path, decided once (live_path_decide)
 * and worded by the checks and the report. */
enum live_path_kind {
	LIVE_PATH_UNSEEN,       /* not observed */
	LIVE_PATH_IDLE,         /* nothing moved */
	LIVE_PATH_SPOILED,      /* a counter it needs reset, wrapped or saturated */
	LIVE_PATH_UNATTRIBUTED, /* bytes moved, no NIXL telemetry to say they were KV */
	LIVE_PATH_RDMA,         /* NIXL's bytes went over the RDMA ports */
	LIVE_PATH_TCP,          /* over the pod's non-loopback interfaces */
	LIVE_PATH_LOOPBACK,     /* over TCP on lo, within the pod */
	LIVE_PATH_MNNVL,        /* neither, and the process holds an IMEX channel */
	LIVE_PATH_LOCAL,        /* neither: cuda_ipc within the node or host shared memory */
};

struct live_summary {
	bool observed;             /* both samples present */
	double seconds;            /* the measured window, first to last sample */
	bool measured;             /* seconds came from the two samples' clocks */
	uint64_t rdma_tx, rdma_rx; /* summed over ports, during the window */
	uint64_t tcp_tx, tcp_rx;   /* non-loopback interfaces of the pod */
	uint64_t lo_tx, lo_rx;     /* lo: TCP within the pod */
	bool have_lo;
	bool nixl; /* NIXL telemetry at both ends */
	double nixl_tx, nixl_rx;
	double nixl_errors;             /* growth of agent_errors_total */
	bool nixl_errors_exported;      /* the exporter publishes agent_errors_total at all */
	bool nixl_errors_dropped;       /* NIXL_TELEMETRY_ENABLED_METRICS leaves them out */
	struct live_delta *ports, *ifs; /* every port / interface read at both ends */
	size_t n_ports, n_ifs;
	struct live_error *errors; /* per status, in the order first seen */
	size_t n_errors;
	struct strbuf rdma_devs;      /* "mlx5_0..mlx5_3" or "mlx5_0, mlx5_2" (ports that moved) */
	struct strbuf error_statuses; /* "NIXL_ERR_BACKEND +3, ..." */
	const char *nixl_tx_name, *nixl_rx_name; /* the metric names read */
	size_t n_ranks;                          /* series told apart by a rank label (pid) */
	struct strbuf ranks;                     /* "pid 400 +1 GiB, pid 401 +1 GiB" */
	/* Counter integrity: a counter that fell (reset, restart, wrap) or
	 * stuck at a 32-bit ceiling cannot say what moved; it is left out of
	 * the sums and named here. */
	bool nixl_spoiled, rdma_spoiled, tcp_spoiled;
	struct strbuf spoiled; /* "mlx5_0 port 1 port_xmit_data fell (reset)", ... */
	bool imex;             /* the process holds an IMEX channel (MNNVL) */
	bool fds_read;         /* its descriptors were read (imex is a reading) */
	/* fabric_decide() over the node's facts and the window's evidence (an
	 * IMEX channel held, the kind of the ports that moved) */
	struct fabric_model fabric;
	bool rdma_kind_known;
	enum fabric_path rdma_kind; /* FABRIC_IB, _ROCE or _EFA: the ports that moved */
	enum live_path_kind path;
};

/* The one decision over a window's sums (live_summarize() calls it). */
enum live_path_kind live_path_decide(const struct live_summary *s);

void live_summarize(const struct live_facts *f, struct live_summary *s);
void live_summary_release(struct live_summary *s);

/* Add the node.live.* checks (nothing when the probe collected nothing),
 * and the report's live section from them. */
void live_checks_run(struct ci_report *r, const struct live_facts *f, const char *subject);
/* The live section alone (live_report.c): from the facts, the window's
 * summary and the node.live.* checks from r->checks[first_check] on. */
void live_report_fill(struct ci_report *r, const struct live_facts *f, const struct live_summary *s,
		      size_t first_check);

#endif
