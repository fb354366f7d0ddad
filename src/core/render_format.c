/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The --format table and the one place every verb's report leaves through:
 * report_finish_as() computes the verdict, picks the renderer, writes to
 * stdout or --output, and returns the exit code the format asks for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/render.h"
#include "core/sanitize.h"
#include "core/xalloc.h"

/* node-problem-detector's custom-plugin protocol knows three answers
 * (pkg/custompluginmonitor/types: OK 0, NonOK 1, Unknown 2): a degraded
 * transport is already a problem on the node. */
static int npd_exit_code(const struct ci_verdict *v)
{
	switch (v->kind) {
	case CI_READY: return 0;
	case CI_DEGRADED:
	case CI_BLOCKED: return 1;
	default: return 2;
	}
}

const struct render_format render_formats[] = {
	{"text", CI_FORMAT_TEXT, "for people (the default)", NULL, NULL},
	{"json", CI_FORMAT_JSON, "everything, schema/check_interconnect.schema.json", render_json,
	 NULL},
	{"sarif", CI_FORMAT_SARIF, "SARIF 2.1.0: findings inline in code scanning", render_sarif,
	 NULL},
	{"prometheus", CI_FORMAT_PROMETHEUS, "node_exporter textfile metrics", render_prometheus,
	 NULL},
	{"junit", CI_FORMAT_JUNIT, "JUnit XML: one testcase per check", render_junit, NULL},
	{"nagios", CI_FORMAT_NAGIOS, "one plugin line, Nagios exit codes", render_nagios, NULL},
	{"npd", CI_FORMAT_NPD, "node-problem-detector custom plugin", render_npd, npd_exit_code},
};
const size_t render_formats_len = sizeof(render_formats) / sizeof(render_formats[0]);

const struct render_format *render_format_find(const char *name)
{
	for (size_t i = 0; i < render_formats_len; i++)
		if (!strcmp(render_formats[i].name, name))
			return &render_formats[i];
	return NULL;
}

const struct render_format *render_format_of(enum ci_format f)
{
	for (size_t i = 0; i < render_formats_len; i++)
		if (render_formats[i].format == f)
			return &render_formats[i];
	return &render_formats[0];
}

const char *render_format_names(void)
{
	static char names[128];
	if (!*names)
		for (size_t i = 0; i < render_formats_len; i++) {
			size_t l = strlen(names);
			snprintf(names + l, sizeof(names) - l, "%s%s", i ? ", " : "",
				 render_formats[i].name);
		}
	return names;
}

long long render_timestamp(void)
{
	/* reproducible-builds.org's SOURCE_DATE_EPOCH: a decimal count of
	 * seconds; anything else is ignored rather than trusted. */
	const char *s = getenv("SOURCE_DATE_EPOCH");
	if (s && *s) {
		char *end;
		errno = 0;
		long long v = strtoll(s, &end, 10);
		if (!errno && !*end && v >= 0 && v < 253402300800LL)
			return v;
	}
	return (long long)time(NULL);
}

void render_rfc3339(long long ts, char *buf, size_t len)
{
	time_t t = (time_t)ts;
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

int report_finish_as(const struct ci_report *r, const struct render_opts *o, render_text_fn *text)
{
	struct ci_verdict v;
	verdict_compute(r, &v);
	const struct render_format *fmt = render_format_of(o->format);
	int rc = fmt->exit_code ? fmt->exit_code(&v) : verdict_exit_code(&v);
	/* The runner opened --output before the probe (o->out); a caller
	 * without one (the tests) opens it here. */
	struct render_output own;
	struct render_output *ro = o->out;
	if (!ro && render_output_open(&own, o->output) == 0)
		ro = &own;
	if (!ro || !ro->f) {
		rc = CI_EXIT_IO;
	} else {
		(fmt->render ? fmt->render : text)(ro->f, r, &v, o);
		if (render_output_commit(ro) != 0)
			rc = CI_EXIT_IO;
	}
	verdict_release(&v);
	return rc;
}

int report_finish(const struct ci_report *r, const struct render_opts *o)
{
	return report_finish_as(r, o, render_text);
}

/* The one output sanitiser (sanitize.c), for the renderers that then add
 * their own escaping (XML, Prometheus labels, a Nagios line). */
char *render_clean(const char *s)
{
	return sanitize_str(s);
}

char *render_check_location(const struct ci_check *c)
{
	if (!c->loc_file || (c->subject && strstr(c->subject, c->loc_file)) ||
	    (c->detail && strstr(c->detail, c->loc_file)))
		return NULL;
	if (c->loc_line > 0)
		return xasprintf("%s:%d", c->loc_file, c->loc_line);
	return xstrdup(c->loc_file);
}
