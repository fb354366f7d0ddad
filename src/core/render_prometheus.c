/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prometheus text exposition format for node_exporter's textfile collector
 * (write it with --output DIR/check_interconnect.prom from cron).  Names
 * follow Prometheus' conventions: a check_interconnect_ prefix, base units
 * in the name (_seconds), one HELP and one TYPE line per metric family, and
 * every series labelled with the command and target so that several runs'
 * files can sit side by side.  Label values escape \, " and newline; outside
 * text is sanitised first.  A series label set never repeats: node_exporter
 * refuses the whole file when one does.
 */
#include <stdlib.h>
#include <string.h>

#include "core/render.h"
#include "core/strmap.h"
#include "core/xalloc.h"

/* A label value already sanitised: only \, " and newline escaped. */
static void label_raw(FILE *out, const char *c)
{
	fputc('"', out);
	for (const char *p = c; *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', out);
		if (*p == '\n') {
			fputs("\\n", out);
			continue;
		}
		fputc(*p, out);
	}
	fputc('"', out);
}

static void label_value(FILE *out, const char *s)
{
	char *c = render_clean(s);
	label_raw(out, c);
	free(c);
}

static void base_labels(FILE *out, const struct ci_report *r)
{
	fputs("command=", out);
	label_value(out, r->command);
	fputs(",target=", out);
	label_value(out, r->target);
}

struct series {
	const char *pod, *id, *subject;
	char *raw;           /* the (pod, check, subject) key as reported */
	char *shown;         /* the same after sanitising: the labels as written */
	char *shown_subject; /* the subject label, sanitised (and told apart) */
	enum ci_status status;
	bool critical;
};

static int status_rank(enum ci_status st)
{
	switch (st) {
	case CI_FAIL: return 3;
	case CI_SKIPPED: return 2;
	case CI_WARN: return 1;
	default: return 0;
	}
}

/* "len:text" per part: no separator byte can make two keys meet. */
static char *key3(const char *a, const char *b, const char *c)
{
	a = a ? a : "";
	b = b ? b : "";
	c = c ? c : "";
	return xasprintf("%zu:%s%zu:%s%zu:%s", strlen(a), a, strlen(b), b, strlen(c), c);
}

static char *key3_clean(const char *pod, const char *id, const char *subject)
{
	char *a = render_clean(pod), *b = render_clean(id), *c = render_clean(subject);
	char *k = key3(a, b, c);
	free(a);
	free(b);
	free(c);
	return k;
}

struct series_set {
	struct series *v;
	size_t n, cap;
	struct strmap raw, shown; /* key -> index of v: one pass, no scan */
};

/* One series per (pod, check, subject): two checks that share them (the
 * same id reported twice for one subject) merge into the worse status.
 * Two that differ but sanitise to the same labels (control bytes written
 * as the text \xNN that another subject really has) are told apart, never
 * dropped: the later subject gets " #2", " #3"... */
static void collect(const struct ci_report *r, const char *pod, struct series_set *ss)
{
	for (size_t i = 0; i < r->n_checks; i++) {
		const struct ci_check *c = &r->checks[i];
		char *raw = key3(pod, c->id, c->subject);
		size_t k = strmap_get(&ss->raw, raw);
		if (k != STRMAP_NONE) {
			struct series *hit = &ss->v[k];
			if (status_rank(c->status) > status_rank(hit->status))
				hit->status = c->status;
			hit->critical |= c->critical;
			free(raw);
			continue;
		}
		struct series *s = XPUSH(ss->v, ss->n, ss->cap);
		*s = (struct series){pod,  c->id, c->subject, raw,
				     NULL, NULL,  c->status,  c->critical};
		s->shown_subject = render_clean(c->subject ? c->subject : "");
		s->shown = key3_clean(pod, c->id, c->subject);
		for (unsigned dup = 2; strmap_get(&ss->shown, s->shown) != STRMAP_NONE; dup++) {
			char *base = render_clean(c->subject ? c->subject : "");
			free(s->shown_subject);
			s->shown_subject = xasprintf("%s #%u", base, dup);
			free(base);
			free(s->shown);
			char *a = render_clean(pod), *b = render_clean(c->id);
			s->shown = key3(a, b, s->shown_subject);
			free(a);
			free(b);
		}
		strmap_put(&ss->raw, s->raw, ss->n - 1);
		strmap_put(&ss->shown, s->shown, ss->n - 1);
	}
	for (size_t i = 0; i < r->n_children; i++)
		collect(&r->children[i], r->children[i].target, ss);
}

void render_prometheus(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		       const struct render_opts *o)
{
	(void)o;
	static const enum ci_status order[] = {CI_OK, CI_WARN, CI_FAIL, CI_SKIPPED};

	fputs("# HELP check_interconnect_verdict Verdict of the run: 0 ready, 1 degraded, "
	      "2 blocked, 3 unknown (the exit code).\n"
	      "# TYPE check_interconnect_verdict gauge\n",
	      out);
	fputs("check_interconnect_verdict{", out);
	base_labels(out, r);
	fputs(",verdict=", out);
	label_value(out, verdict_name(v->kind));
	fprintf(out, "} %d\n", verdict_exit_code(v));

	fputs("# HELP check_interconnect_trusted 1 when the transport can be trusted (verdict "
	      "ready), else 0.\n"
	      "# TYPE check_interconnect_trusted gauge\n",
	      out);
	fputs("check_interconnect_trusted{", out);
	base_labels(out, r);
	fprintf(out, "} %d\n", v->trusted ? 1 : 0);

	struct ci_counts n = report_counts(r);
	size_t counts[] = {n.ok, n.warn, n.fail, n.skipped};
	fputs("# HELP check_interconnect_checks Checks of the run by status.\n"
	      "# TYPE check_interconnect_checks gauge\n",
	      out);
	for (size_t i = 0; i < 4; i++) {
		fputs("check_interconnect_checks{", out);
		base_labels(out, r);
		fputs(",status=", out);
		label_value(out, status_name(order[i]));
		fprintf(out, "} %zu\n", counts[i]);
	}

	/* A state set, as Prometheus exposes enums: one series per status,
	 * 1 for the check's own and 0 for the others, so that a rule can say
	 * check_interconnect_check_status{status="fail"} == 1. */
	struct series_set ss = {0};
	strmap_init(&ss.raw);
	strmap_init(&ss.shown);
	collect(r, NULL, &ss);
	struct series *sv = ss.v;
	size_t ns = ss.n;
	fputs("# HELP check_interconnect_check_status Status of each check (1 for the current "
	      "status of the check, 0 for the others).\n"
	      "# TYPE check_interconnect_check_status gauge\n",
	      out);
	for (size_t k = 0; k < ns; k++)
		for (size_t i = 0; i < 4; i++) {
			fputs("check_interconnect_check_status{", out);
			base_labels(out, r);
			if (sv[k].pod) {
				fputs(",pod=", out);
				label_value(out, sv[k].pod);
			}
			fputs(",check=", out);
			label_value(out, sv[k].id);
			fputs(",subject=", out);
			label_raw(out, sv[k].shown_subject);
			fputs(",critical=", out);
			label_value(out, sv[k].critical ? "true" : "false");
			fputs(",status=", out);
			label_value(out, status_name(order[i]));
			fprintf(out, "} %d\n", sv[k].status == order[i]);
		}
	for (size_t k = 0; k < ns; k++) {
		free(sv[k].raw);
		free(sv[k].shown);
		free(sv[k].shown_subject);
	}
	strmap_release(&ss.raw);
	strmap_release(&ss.shown);
	free(sv);

	fputs("# HELP check_interconnect_last_run_timestamp_seconds When this run finished, "
	      "in seconds since the epoch.\n"
	      "# TYPE check_interconnect_last_run_timestamp_seconds gauge\n",
	      out);
	fputs("check_interconnect_last_run_timestamp_seconds{", out);
	base_labels(out, r);
	fprintf(out, "} %lld\n", render_timestamp());
}
