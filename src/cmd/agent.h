/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `check_interconnect agent`: the node agent (docs/formats.md, "agent
 * metrics").  agent.c scans (the node checks, every engine process, its
 * pod, its window of evidence), agent_metrics.c renders a scan as
 * Prometheus text, agent_http.c serves the last one.
 */
#ifndef CI_CMD_AGENT_H
#define CI_CMD_AGENT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/report.h"
#include "core/strbuf.h"

#define AGENT_DEFAULT_INTERVAL_S      60
#define AGENT_DEFAULT_PORT            9477
/* --once: the window between its two samples when --interval is not given */
#define AGENT_ONCE_WINDOW_S           1
/* The node checks (one probe.sh run, about 200 ms of CPU: README "The
 * agent's cost") run at the first scan and then at most this often, so
 * that a scan of the engines stays within its budget (100 ms). */
#define AGENT_DEFAULT_NODE_INTERVAL_S 300
/* a NIXL exporter's scrape, each */
#define AGENT_NIXL_TIMEOUT_MS         2000

/* The path values of check_interconnect_engine_kv_path, in their order. */
enum agent_path {
	AGENT_PATH_RDMA = 0,
	AGENT_PATH_EFA,
	AGENT_PATH_MNNVL,
	AGENT_PATH_NVLINK,
	AGENT_PATH_TCP,
	AGENT_PATH_IDLE,
	AGENT_PATH_UNKNOWN,
	AGENT_PATH_COUNT
};

/* The reasons of check_interconnect_scan_errors_total. */
enum agent_error {
	AGENT_ERR_NODE_PROBE = 0, /* the node probe failed (node.probe skipped) */
	AGENT_ERR_PROC_READ,      /* an engine's /proc entries could not be read */
	AGENT_ERR_NIXL_SCRAPE,    /* a NIXL exporter the engine names did not answer */
	AGENT_ERR_COUNT
};

/* One engine (one container, or one process outside any pod) as the last
 * scan saw it. */
struct agent_engine_view {
	const char *ns, *pod, *container; /* never NULL; "unknown"/"pid-N" when unnamed */
	const char *engine;               /* "" when no row names it */
	const char *uid, *cid;            /* "" when unknown */
	enum agent_path path;
	enum ci_verdict_kind verdict;
	const double *kv_bytes; /* [AGENT_PATH_COUNT] */
	const bool *kv_used;    /* [AGENT_PATH_COUNT]: a series exists */
};

struct agent_check_view {
	char *id; /* owned by the scan */
	enum ci_status status;
};

/* What one completed scan says, for the renderer. */
struct agent_scan_view {
	const char *node;
	bool have_node; /* the node checks ran this scan or earlier */
	enum ci_verdict_kind node_verdict;
	const struct agent_check_view *checks;
	size_t n_checks;
	const struct agent_engine_view *engines;
	size_t n_engines;
	double duration_s, timestamp_s;
	unsigned long long scans;         /* completed since the start, this one included */
	const unsigned long long *errors; /* [AGENT_ERR_COUNT] */
};

/* Prometheus text format 0.0.4 (agent_metrics.c). */
void agent_metrics_render(struct strbuf *out, const struct agent_scan_view *v);

/* The HTTP side (agent_http.c): serve what agent_http_publish() last gave,
 * /metrics and /healthz.  addr "" or NULL: every address. */
struct agent_http;
struct agent_http *agent_http_start(const char *addr, unsigned port, double stale_after_s,
				    char **why);
/* Replace the served text (copied); the scan's end time for /healthz. */
void agent_http_publish(struct agent_http *h, const char *text, size_t len, double mono_s);
void agent_http_stop(struct agent_http *h);

/* --listen "[ADDR]:PORT" (IPv4 or empty): false when it is not one. */
bool agent_listen_parse(const char *s, char *addr, size_t size, unsigned *port);

#endif
