/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NIXL's telemetry as its exporters publish it: the metric names of each
 * released version, the exporters and their port variables, and the
 * variables that switch telemetry on.  One row per name, each with its
 * source (ai-dynamo/nixl, file, version); docs/checks.md cites the same.
 * The probe (src/probe/probe.sh) scrapes with the same names: a test
 * (tests/rules/test_nixl_telemetry.c) holds the two together.
 */
#ifndef CI_RULES_NIXL_TELEMETRY_H
#define CI_RULES_NIXL_TELEMETRY_H

#include <stdbool.h>
#include <stddef.h>

/* What a metric counts. */
enum nixl_tm_what {
	NIXL_TM_TX_BYTES, /* bytes the agent sent */
	NIXL_TM_RX_BYTES, /* bytes the agent received */
	NIXL_TM_ERRORS,   /* errors, one series per status */
	NIXL_TM_WHAT_COUNT,
};

struct nixl_tm_metric {
	enum nixl_tm_what what;
	const char *name;   /* the sample name on /metrics */
	const char *since;  /* first NIXL release that publishes it */
	const char *until;  /* last one; NULL: still published */
	const char *source; /* project, file, version */
};

/* Every row, in release order; *n receives the count. */
const struct nixl_tm_metric *nixl_tm_metrics(size_t *n);
/* The row whose name is `name`, or NULL. */
const struct nixl_tm_metric *nixl_tm_metric_find(const char *name);

/* The name of the errors counter (the one NIXL_TM_ERRORS row). */
const char *nixl_tm_errors_name(void);

/* What NIXL_TELEMETRY_ENABLED_METRICS (SPEC: comma-separated fnmatch globs;
 * NULL, empty or all blank: every event) lets through: NIXL drops the other
 * events at the source, while its Prometheus exporter still publishes every
 * family, left at 0 (ai-dynamo/nixl main 8770b655a
 * src/core/telemetry/telemetry.cpp resolveEnabledMetrics(),
 * telemetry_event.h telemetryEventTypeStr(); prometheus_exporter.cpp
 * initializeMetrics()).  A zero there is "not counted", never "nothing".
 * The byte events (agent_tx_bytes, agent_rx_bytes) and any error event
 * (agent_err_*). */
bool nixl_tm_bytes_enabled(const char *spec);
bool nixl_tm_errors_enabled(const char *spec);

/* One exporter plugin (NIXL_TELEMETRY_EXPORTER=<name> loads
 * libtelemetry_exporter_<name>.so). */
struct nixl_tm_exporter {
	const char *name;
	const char *port_var; /* the variable that moves its /metrics port */
	unsigned default_port;
	const char *rank_label; /* the label that tells ranks apart; NULL: one process */
	const char *since;
	const char *source;
};

const struct nixl_tm_exporter *nixl_tm_exporters(size_t *n);
const struct nixl_tm_exporter *nixl_tm_exporter_find(const char *name);

enum nixl_tm_var {
	NIXL_TM_VAR_ENABLE,          /* y/yes/on/true/enable/1 */
	NIXL_TM_VAR_EXPORTER,        /* the plugin name */
	NIXL_TM_VAR_ENABLED_METRICS, /* the allowlist of event names (globs) */
	NIXL_TM_VAR_MULTIPROC_DIR,   /* prometheus_mp's shared store directory */
	NIXL_TM_VAR_COUNT,
};

struct nixl_tm_variable {
	const char *name;
	const char *since;
	const char *source;
};

const struct nixl_tm_variable *nixl_tm_var(enum nixl_tm_var v);

/* The most bytes the probe reads from an exporter's /metrics (probe.sh's
 * tm_cap; tests/rules/test_nixl_telemetry.c holds the two together).  NIXL's
 * whole exposition (ai-dynamo/nixl src/plugins/telemetry/prometheus/
 * README.md, main after v1.4.0) is per agent 9 counters, 6 gauges, two
 * histograms (agent_xfer_time_us, agent_xfer_post_time_us: ~20 default
 * buckets + sum + count each) and agent_errors_total per AGENT_ERR_* status
 * (~15), with HELP/TYPE lines: about 110 lines.  At a pessimistic 400 bytes a
 * line (a 253-byte hostname label, an agent name) that is 44 KB; eight ranks
 * behind one prometheus_mp port (one per GPU, a pid label each) 350 KB.  1 MiB
 * is three times that, and room for NIXL_TELEMETRY_HISTOGRAM_BUCKETS_US lists
 * of ~50 buckets; an exporter that sends more is not NIXL's exposition, and
 * the scrape reads as cut, never as counters. */
#define NIXL_TM_SCRAPE_MAX 1048576u

#endif
