/* SPDX-License-Identifier: Apache-2.0 */
/* rules/nixl_telemetry: the metric names of each NIXL release, the
 * exporters and their ports, and the probe that scrapes with them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rules/nixl_telemetry.h"

static void test_rows_are_whole(void **state)
{
	(void)state;
	size_t n;
	const struct nixl_tm_metric *m = nixl_tm_metrics(&n);
	assert_true(n >= 5);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(m[i].name);
		assert_non_null(m[i].since);
		assert_true(strstr(m[i].source, "ai-dynamo/nixl") != NULL);
		assert_ptr_equal(nixl_tm_metric_find(m[i].name), &m[i]);
	}
	const struct nixl_tm_exporter *e = nixl_tm_exporters(&n);
	for (size_t i = 0; i < n; i++) {
		assert_true(strstr(e[i].source, "ai-dynamo/nixl") != NULL);
		assert_true(e[i].default_port > 0);
		assert_ptr_equal(nixl_tm_exporter_find(e[i].name), &e[i]);
	}
	for (int v = 0; v < NIXL_TM_VAR_COUNT; v++)
		assert_true(strncmp(nixl_tm_var((enum nixl_tm_var)v)->name, "NIXL_TELEMETRY_",
				    15) == 0);
}

static void test_versions(void **state)
{
	(void)state;
	/* 0.9.0-1.0.1: prometheus-cpp counters without _total */
	const struct nixl_tm_metric *old = nixl_tm_metric_find("agent_tx_bytes");
	assert_non_null(old);
	assert_int_equal(old->what, NIXL_TM_TX_BYTES);
	assert_string_equal(old->since, "0.9.0");
	assert_string_equal(old->until, "1.0.1");
	/* 1.1.0 on: Name(name + "_total") */
	const struct nixl_tm_metric *now = nixl_tm_metric_find("agent_rx_bytes_total");
	assert_non_null(now);
	assert_int_equal(now->what, NIXL_TM_RX_BYTES);
	assert_string_equal(now->since, "1.1.0");
	assert_null(now->until);
	/* one labelled error counter from 1.4.0 */
	assert_string_equal(nixl_tm_errors_name(), "agent_errors_total");
	assert_string_equal(nixl_tm_metric_find("agent_errors_total")->since, "1.4.0");
	/* the variable NIXL has, not the one it never had */
	assert_string_equal(nixl_tm_var(NIXL_TM_VAR_ENABLED_METRICS)->name,
			    "NIXL_TELEMETRY_ENABLED_METRICS");
	/* exporters: ports and the rank label */
	assert_int_equal(nixl_tm_exporter_find("prometheus")->default_port, 9090);
	assert_null(nixl_tm_exporter_find("prometheus")->rank_label);
	assert_int_equal(nixl_tm_exporter_find("doca")->default_port, 9091);
	assert_string_equal(nixl_tm_exporter_find("doca")->port_var,
			    "NIXL_TELEMETRY_DOCA_PROMETHEUS_PORT");
	assert_string_equal(nixl_tm_exporter_find("prometheus_mp")->rank_label, "pid");
	assert_null(nixl_tm_exporter_find("buffer"));
}

/* The probe scrapes with the rows' names: each exporter, its port variable
 * and default port appear together on one line of its scrape. */
static void test_probe_agrees(void **state)
{
	(void)state;
	FILE *f = fopen("src/probe/probe.sh", "r");
	assert_non_null(f);
	static char text[1 << 17];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	size_t ne;
	const struct nixl_tm_exporter *e = nixl_tm_exporters(&ne);
	for (size_t i = 0; i < ne; i++) {
		char want[160];
		snprintf(want, sizeof(want), "\"$tm_exporter\" = %s ]", e[i].name);
		assert_non_null(strstr(text, want));
		/* the port: ${tm_port:-9090} for the port variable the probe maps */
		snprintf(want, sizeof(want), "%s=*)", e[i].port_var);
		assert_non_null(strstr(text, want));
		snprintf(want, sizeof(want), ":-%u}", e[i].default_port);
		assert_non_null(strstr(text, want));
	}
	for (int v = 0; v < NIXL_TM_VAR_COUNT; v++) {
		char want[80];
		if (v == NIXL_TM_VAR_MULTIPROC_DIR)
			continue; /* the exporter's business, not the scrape's */
		snprintf(want, sizeof(want), "%s=*)", nixl_tm_var((enum nixl_tm_var)v)->name);
		assert_non_null(strstr(text, want));
	}
	assert_null(strstr(text, "NIXL_TELEMETRY_METRICS"));
	/* the scrape's byte cap is the one the checks name */
	char cap[40];
	snprintf(cap, sizeof(cap), "\ntm_cap=%u\n", NIXL_TM_SCRAPE_MAX);
	assert_non_null(strstr(text, cap));
}

/* NIXL_TELEMETRY_ENABLED_METRICS as resolveEnabledMetrics() reads it:
 * comma-separated fnmatch globs, blanks stripped, none at all = all. */
static void test_enabled_metrics(void **state)
{
	(void)state;
	assert_true(nixl_tm_bytes_enabled(NULL));
	assert_true(nixl_tm_bytes_enabled(""));
	assert_true(nixl_tm_bytes_enabled(" , "));
	assert_true(nixl_tm_errors_enabled(NULL));
	/* the README's example without the errors */
	assert_true(nixl_tm_bytes_enabled("agent_tx_bytes,agent_rx_bytes"));
	assert_false(nixl_tm_errors_enabled("agent_tx_bytes,agent_rx_bytes"));
	/* errors only: the byte counters stay published at 0 */
	assert_false(nixl_tm_bytes_enabled("agent_err_*"));
	assert_true(nixl_tm_errors_enabled("agent_err_*"));
	assert_true(nixl_tm_errors_enabled(" agent_tx_bytes , agent_err_backend"));
	assert_true(nixl_tm_bytes_enabled("agent_*_bytes"));
	assert_false(nixl_tm_bytes_enabled("agent_xfer_time"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_are_whole),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_probe_agrees),
		cmocka_unit_test(test_enabled_metrics),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
