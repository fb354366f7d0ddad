/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/nixl_telemetry.h"

#include <ctype.h>
#include <fnmatch.h>
#include <string.h>

#define NIXL_PROM "ai-dynamo/nixl src/plugins/telemetry/prometheus/prometheus_exporter.cpp"

/* prometheus-cpp appends no suffix to a counter's name: 0.9.0-1.0.1 build
 * the counters with .Name(name), 1.1.0 on with .Name(name + "_total").
 * Before 1.4.0 the exporter drops the ERROR category (exportEvent's
 * switch), so no error series exists; 1.4.0 publishes one labelled
 * counter, agent_errors_total{status}, and so does the DOCA exporter. */
static const struct nixl_tm_metric metrics[] = {
	{NIXL_TM_TX_BYTES, "agent_tx_bytes", "0.9.0", "1.0.1",
	 NIXL_PROM " 0.9.0-v1.0.1: registerCounter(\"agent_tx_bytes\"), BuildCounter().Name(name); "
		   "doca_exporter.cpp v1.1.0-v1.3.2 exports the event name"},
	{NIXL_TM_RX_BYTES, "agent_rx_bytes", "0.9.0", "1.0.1",
	 NIXL_PROM " 0.9.0-v1.0.1: registerCounter(\"agent_rx_bytes\"), BuildCounter().Name(name)"},
	{NIXL_TM_TX_BYTES, "agent_tx_bytes_total", "1.1.0", NULL,
	 NIXL_PROM " v1.1.0-v1.4.0: BuildCounter().Name(name + \"_total\")"},
	{NIXL_TM_RX_BYTES, "agent_rx_bytes_total", "1.1.0", NULL,
	 NIXL_PROM " v1.1.0-v1.4.0: BuildCounter().Name(name + \"_total\")"},
	{NIXL_TM_ERRORS, "agent_errors_total", "1.4.0", NULL,
	 NIXL_PROM " v1.4.0: BuildCounter().Name(\"agent_errors_total\"), label status; "
		   "src/plugins/telemetry/doca/doca_exporter.cpp v1.4.0 the same name"},
};

static const struct nixl_tm_exporter exporters[] = {
	{"prometheus", "NIXL_TELEMETRY_PROMETHEUS_PORT", 9090, NULL, "0.9.0",
	 NIXL_PROM " 0.9.0: prometheusExporterDefaultPort = 9090, prometheusPortVar"},
	{"doca", "NIXL_TELEMETRY_DOCA_PROMETHEUS_PORT", 9091, NULL, "1.1.0",
	 "ai-dynamo/nixl src/plugins/telemetry/doca/doca_exporter.cpp v1.1.0: "
	 "docaPrometheusExporterDefaultPort = 9091, docaPrometheusPortVar"},
	/* Not in a release yet (main after v1.4.0, 407b69b6c): every rank writes
	 * a store in NIXL_TELEMETRY_MULTIPROC_DIR, one owner serves them all on
	 * the prometheus port, each rank its own series with a pid label. */
	{"prometheus_mp", "NIXL_TELEMETRY_PROMETHEUS_PORT", 9090, "pid", "main after 1.4.0",
	 "ai-dynamo/nixl src/plugins/telemetry/prometheus_mp/mp_collector.cpp main 8770b655a: "
	 "labels.push_back({\"pid\", ...}); README: same port variable as prometheus"},
};

static const struct nixl_tm_variable vars[NIXL_TM_VAR_COUNT] = {
	[NIXL_TM_VAR_ENABLE] = {"NIXL_TELEMETRY_ENABLE", "0.9.0",
				"ai-dynamo/nixl src/core/telemetry/telemetry.cpp 0.9.0"},
	[NIXL_TM_VAR_EXPORTER] = {"NIXL_TELEMETRY_EXPORTER", "0.9.0",
				  "ai-dynamo/nixl src/core/telemetry/telemetry.cpp 0.9.0"},
	/* NIXL never had NIXL_TELEMETRY_METRICS. */
	[NIXL_TM_VAR_ENABLED_METRICS] =
		{"NIXL_TELEMETRY_ENABLED_METRICS", "main after 1.4.0",
		 "ai-dynamo/nixl src/core/telemetry/telemetry.cpp main "
		 "8770b655a: TELEMETRY_ENABLED_METRICS_VAR; docs/telemetry.md"},
	[NIXL_TM_VAR_MULTIPROC_DIR] =
		{"NIXL_TELEMETRY_MULTIPROC_DIR", "main after 1.4.0",
		 "ai-dynamo/nixl src/plugins/telemetry/prometheus_mp/README.md "
		 "main 8770b655a"},
};

const struct nixl_tm_metric *nixl_tm_metrics(size_t *n)
{
	*n = sizeof(metrics) / sizeof(metrics[0]);
	return metrics;
}

const struct nixl_tm_metric *nixl_tm_metric_find(const char *name)
{
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (!strcmp(metrics[i].name, name))
			return &metrics[i];
	return NULL;
}

const char *nixl_tm_errors_name(void)
{
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (metrics[i].what == NIXL_TM_ERRORS)
			return metrics[i].name;
	return "";
}

const struct nixl_tm_exporter *nixl_tm_exporters(size_t *n)
{
	*n = sizeof(exporters) / sizeof(exporters[0]);
	return exporters;
}

const struct nixl_tm_exporter *nixl_tm_exporter_find(const char *name)
{
	for (size_t i = 0; i < sizeof(exporters) / sizeof(exporters[0]); i++)
		if (!strcmp(exporters[i].name, name))
			return &exporters[i];
	return NULL;
}

const struct nixl_tm_variable *nixl_tm_var(enum nixl_tm_var v)
{
	return v < NIXL_TM_VAR_COUNT ? &vars[v] : &vars[0];
}

/* The error events NIXL names (telemetry_event.h telemetryEventTypeStr(),
 * main 8770b655a): a glob that matches one lets errors through. */
static const char *const tm_error_events[] = {
	"agent_err_not_posted",
	"agent_err_invalid_param",
	"agent_err_backend",
	"agent_err_not_found",
	"agent_err_mismatch",
	"agent_err_not_allowed",
	"agent_err_repost_active",
	"agent_err_unknown",
	"agent_err_not_supported",
	"agent_err_remote_disconnect",
	"agent_err_canceled",
	"agent_err_no_telemetry",
	NULL,
};

/* Does SPEC let one of EVENTS through?  As resolveEnabledMetrics():
 * tokens split on ',' and stripped of blanks; none at all: everything. */
static bool tm_enabled(const char *spec, const char *const *events)
{
	bool any = false;
	for (const char *p = spec; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		while (n && isspace((unsigned char)*p))
			p++, n--;
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		if (n && n < 128) {
			char tok[128];
			memcpy(tok, p, n);
			tok[n] = '\0';
			any = true;
			for (size_t i = 0; events[i]; i++)
				if (fnmatch(tok, events[i], 0) == 0)
					return true;
		}
		p = comma ? comma + 1 : p + n;
		if (!comma)
			break;
	}
	return !any;
}

bool nixl_tm_bytes_enabled(const char *spec)
{
	static const char *const bytes[] = {"agent_tx_bytes", "agent_rx_bytes", NULL};
	return tm_enabled(spec, bytes);
}

bool nixl_tm_errors_enabled(const char *spec)
{
	return tm_enabled(spec, tm_error_events);
}
