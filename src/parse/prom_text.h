/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Prometheus text exposition format (version 0.0.4), as NIXL's
 * Prometheus telemetry exporter serves it on :$NIXL_TELEMETRY_PROMETHEUS_PORT
 * (default 9090) /metrics:
 *   # HELP agent_tx_bytes_total Number of bytes sent by the agent
 *   # TYPE agent_tx_bytes_total counter
 *   agent_tx_bytes_total{category="NIXL_TELEMETRY_TRANSFER",hostname="h",agent_name="a"} 1.5e+09
 *   agent_errors_total{hostname="h",agent_name="a",status="NIXL_ERR_REMOTE_DISCONNECT"} 2
 * Comments and HELP/TYPE lines are skipped; label values are unescaped
 * (\\, \", \n); an optional timestamp after the value is ignored.
 */
#ifndef CI_PARSE_PROM_TEXT_H
#define CI_PARSE_PROM_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#define PROM_MAX_LABELS 16

struct prom_label {
	char *name, *value;
};

struct prom_sample {
	char *name;
	struct prom_label labels[PROM_MAX_LABELS];
	size_t n_labels;
	double value;
};

struct prom_text {
	struct prom_sample *v;
	size_t n, cap;
	bool capped;
	size_t bad_lines; /* sample lines that could not be read */
};

/* 0 when at least one sample was read; -1 otherwise. */
int prom_text_parse(const char *buf, size_t len, struct prom_text *out);
void prom_text_release(struct prom_text *p);
/* The sum of every sample named `name` (over all label sets); false when
 * there is none. */
bool prom_text_sum(const struct prom_text *p, const char *name, double *sum);
/* The value of label `label` on sample s, or NULL. */
const char *prom_sample_label(const struct prom_sample *s, const char *label);

#endif
