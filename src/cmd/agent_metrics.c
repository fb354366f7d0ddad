/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's metrics in Prometheus text format 0.0.4
 * (prometheus/docs content/docs/instrumenting/exposition_formats.md): one
 * HELP and one TYPE line per family, label values with \, " and newline
 * escaped, every label set once.  An enum-like state (a verdict, a status,
 * a path) is one series per value, 1 for the current one and 0 for the
 * others, as kube-state-metrics' kube_pod_status_phase does, so that a
 * query or an alert never meets a vanished series.  docs/formats.md
 * ("agent metrics") is the contract; the names are written here only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/agent.h"
#include "core/render.h"

#define M_NODE_VERDICT   "check_interconnect_node_verdict"
#define M_CHECK_STATUS   "check_interconnect_check_status"
#define M_KV_PATH        "check_interconnect_engine_kv_path"
#define M_KV_BYTES       "check_interconnect_engine_kv_bytes_total"
#define M_ENGINE_VERDICT "check_interconnect_engine_verdict"
#define M_ENGINE_INFO    "check_interconnect_engine_info"
#define M_ENGINES        "check_interconnect_engines"
#define M_SCANS          "check_interconnect_scans_total"
#define M_SCAN_DURATION  "check_interconnect_scan_duration_seconds"
#define M_SCAN_TIME      "check_interconnect_last_scan_timestamp_seconds"
#define M_SCAN_ERRORS    "check_interconnect_scan_errors_total"

static const char *const path_names[AGENT_PATH_COUNT] = {
	[AGENT_PATH_RDMA] = "rdma",       [AGENT_PATH_EFA] = "efa", [AGENT_PATH_MNNVL] = "mnnvl",
	[AGENT_PATH_NVLINK] = "nvlink",   [AGENT_PATH_TCP] = "tcp", [AGENT_PATH_IDLE] = "idle",
	[AGENT_PATH_UNKNOWN] = "unknown",
};

static const char *const error_names[AGENT_ERR_COUNT] = {
	[AGENT_ERR_NODE_PROBE] = "node_probe",
	[AGENT_ERR_PROC_READ] = "proc_read",
	[AGENT_ERR_NIXL_SCRAPE] = "nixl_scrape",
};

static void family(struct strbuf *o, const char *name, const char *type, const char *help)
{
	strbuf_addf(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* name="value": the value sanitised (render_clean: controls and bytes
 * that are not UTF-8), then escaped as the format says. */
static void label(struct strbuf *o, bool first, const char *name, const char *value)
{
	char *c = render_clean(value ? value : "");
	strbuf_addf(o, "%s%s=\"", first ? "" : ",", name);
	for (const char *p = c; *p; p++) {
		if (*p == '\\' || *p == '"')
			strbuf_addch(o, '\\');
		if (*p == '\n') {
			strbuf_addstr(o, "\\n");
			continue;
		}
		strbuf_addch(o, *p);
	}
	strbuf_addch(o, '"');
	free(c);
}

static void value(struct strbuf *o, double v)
{
	if (isfinite(v) && v == floor(v) && fabs(v) < 1e15)
		strbuf_addf(o, "} %.0f\n", v);
	else
		strbuf_addf(o, "} %.17g\n", v);
}

static void engine_labels(struct strbuf *o, const char *node, const struct agent_engine_view *e)
{
	strbuf_addch(o, '{');
	label(o, true, "node", node);
	label(o, false, "namespace", e->ns);
	label(o, false, "pod", e->pod);
	label(o, false, "container", e->container);
}

static const char *const verdicts[] = {"ready", "degraded", "blocked", "unknown"};
static const enum ci_verdict_kind verdict_kinds[] = {CI_READY, CI_DEGRADED, CI_BLOCKED, CI_UNKNOWN};
static const char *const statuses[] = {"ok", "warn", "fail", "skipped"};
static const enum ci_status status_kinds[] = {CI_OK, CI_WARN, CI_FAIL, CI_SKIPPED};

void agent_metrics_render(struct strbuf *o, const struct agent_scan_view *v)
{
	const char *node = v->node;
	if (v->have_node) {
		family(o, M_NODE_VERDICT, "gauge",
		       "The node checks' verdict (the node verb's): 1 for the current one.");
		for (size_t i = 0; i < 4; i++) {
			strbuf_addf(o, "%s{", M_NODE_VERDICT);
			label(o, true, "node", node);
			label(o, false, "verdict", verdicts[i]);
			value(o, v->node_verdict == verdict_kinds[i]);
		}
		family(o, M_CHECK_STATUS, "gauge",
		       "Each node check's status, the worst over its subjects: 1 for the current "
		       "one.");
		for (size_t c = 0; c < v->n_checks; c++)
			for (size_t i = 0; i < 4; i++) {
				strbuf_addf(o, "%s{", M_CHECK_STATUS);
				label(o, true, "node", node);
				label(o, false, "check", v->checks[c].id);
				label(o, false, "status", statuses[i]);
				value(o, v->checks[c].status == status_kinds[i]);
			}
	}
	family(o, M_KV_PATH, "gauge",
	       "The path the engine's KV took in the last window: 1 for the current one.");
	for (size_t e = 0; e < v->n_engines; e++)
		for (int p = 0; p < AGENT_PATH_COUNT; p++) {
			strbuf_addstr(o, M_KV_PATH);
			engine_labels(o, node, &v->engines[e]);
			label(o, false, "path", path_names[p]);
			value(o, v->engines[e].path == (enum agent_path)p);
		}
	family(o, M_KV_BYTES, "counter",
	       "Bytes NIXL moved (sent and received) by path, since the agent started; "
	       "monotonic across NIXL restarts.");
	for (size_t e = 0; e < v->n_engines; e++)
		for (int p = 0; p < AGENT_PATH_COUNT; p++) {
			if (!v->engines[e].kv_used[p])
				continue;
			strbuf_addstr(o, M_KV_BYTES);
			engine_labels(o, node, &v->engines[e]);
			label(o, false, "path", path_names[p]);
			value(o, v->engines[e].kv_bytes[p]);
		}
	family(o, M_ENGINE_VERDICT, "gauge",
	       "The verdict of the engine's own evidence (node.live.*): 1 for the current one.");
	for (size_t e = 0; e < v->n_engines; e++)
		for (size_t i = 0; i < 4; i++) {
			strbuf_addstr(o, M_ENGINE_VERDICT);
			engine_labels(o, node, &v->engines[e]);
			label(o, false, "verdict", verdicts[i]);
			value(o, v->engines[e].verdict == verdict_kinds[i]);
		}
	family(o, M_ENGINE_INFO, "gauge", "The engine behind the pod labels; always 1.");
	for (size_t e = 0; e < v->n_engines; e++) {
		strbuf_addstr(o, M_ENGINE_INFO);
		engine_labels(o, node, &v->engines[e]);
		label(o, false, "engine", v->engines[e].engine);
		label(o, false, "pod_uid", v->engines[e].uid);
		label(o, false, "container_id", v->engines[e].cid);
		value(o, 1);
	}
	family(o, M_ENGINES, "gauge", "Engine processes (one per container) the last scan found.");
	strbuf_addf(o, "%s{", M_ENGINES);
	label(o, true, "node", node);
	value(o, (double)v->n_engines);
	family(o, M_SCANS, "counter", "Scans completed since the agent started.");
	strbuf_addf(o, "%s{", M_SCANS);
	label(o, true, "node", node);
	value(o, (double)v->scans);
	family(o, M_SCAN_DURATION, "gauge", "Wall time of the last completed scan.");
	strbuf_addf(o, "%s{", M_SCAN_DURATION);
	label(o, true, "node", node);
	strbuf_addf(o, "} %.6f\n", v->duration_s);
	family(o, M_SCAN_TIME, "gauge", "Unix time the last completed scan ended.");
	strbuf_addf(o, "%s{", M_SCAN_TIME);
	label(o, true, "node", node);
	strbuf_addf(o, "} %.3f\n", v->timestamp_s);
	family(o, M_SCAN_ERRORS, "counter", "Errors met by the scans, by reason.");
	for (int i = 0; i < AGENT_ERR_COUNT; i++) {
		strbuf_addf(o, "%s{", M_SCAN_ERRORS);
		label(o, true, "node", node);
		label(o, false, "reason", error_names[i]);
		value(o, (double)v->errors[i]);
	}
}
