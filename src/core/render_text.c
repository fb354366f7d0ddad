/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text renderer: aligned for an 80-column terminal, one line per check (long
 * details wrap under the id column), then the transport settings seen, the
 * next commands, and the verdict with the numbered fix-first list.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sanitize.h"
#include "core/xalloc.h"
#include "core/render.h"

/* The width text wraps at: render_opts.width of the run being rendered (a
 * run renders to one terminal; render_text_wrap() is also called by verbs'
 * own layouts, which pass no options). */
static int wrap_width = 80;
#define WIDTH wrap_width

static void set_width(const struct render_opts *o)
{
	wrap_width = o->width >= 40 ? o->width : 80;
}
#define STATUS_COL 9 /* "  skipped" */
#define MAX_ID_COL 30

struct style {
	bool color;
	bool quiet; /* -q: the verdict line alone */
	int id_col;
};

static const char *status_color(enum ci_status st)
{
	switch (st) {
	case CI_OK: return "\033[32m";
	case CI_WARN: return "\033[33m";
	case CI_FAIL: return "\033[1;31m";
	default: return "\033[36m";
	}
}

static const char *verdict_color(enum ci_verdict_kind k)
{
	switch (k) {
	case CI_READY: return "\033[1;32m";
	case CI_DEGRADED: return "\033[1;33m";
	case CI_BLOCKED: return "\033[1;31m";
	default: return "\033[1;36m";
	}
}

/* Print text word-wrapped starting at column `col`, continuation lines
 * indented by `indent`.  Words longer than a line are printed whole.  The
 * text is sanitised first (sanitize.h): whatever a value holds, it cannot
 * move the cursor or add a line of its own. */
void render_text_wrap(FILE *out, const char *text, int col, int indent)
{
	bool first = true;
	char *safe = sanitize_str(text);
	for (const char *p = safe; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t wl = strcspn(p, " ");
		if (!first && col + 1 + (int)wl > WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, wl, out);
		col += (int)wl;
		p += wl;
		first = false;
	}
	fputc('\n', out);
	free(safe);
}

/* "\nTARGET  LABEL\n": the heading of a child report (a pod, a file). */
void render_text_child_head(FILE *out, const struct ci_report *c)
{
	fputc('\n', out);
	sanitize_fputs(out, c->target);
	if (c->child_label) {
		fputs("  ", out);
		sanitize_fputs(out, c->child_label);
	}
	fputc('\n', out);
}

static void print_status(FILE *out, enum ci_status st, const struct style *s)
{
	const char *name = status_name(st);
	if (s->color)
		fprintf(out, "  %s%-7s\033[0m", status_color(st), name);
	else
		fprintf(out, "  %-7s", name);
}

static void print_check(FILE *out, const struct ci_check *c, const struct style *s,
			const struct render_opts *o, int base)
{
	fprintf(out, "%*s", base, "");
	print_status(out, c->status, s);
	/* The trailing space separates an id as long as the column from the
	 * detail (render_text_wrap() does not start with one). */
	int idl = (int)strlen(c->id);
	fputc(' ', out);
	sanitize_fputs(out, c->id);
	fprintf(out, "%*s ", idl < s->id_col ? s->id_col - idl : 0, "");
	int idw = idl > s->id_col ? idl : s->id_col;
	int col = base + STATUS_COL + 1 + idw + 1;
	int indent = base + STATUS_COL + 1 + s->id_col + 1;
	if (indent > 40)
		indent = base + STATUS_COL + 1;
	char *line; /* any length: the sanitiser cuts it with a marker */
	if (c->subject && *c->subject)
		line = xasprintf("%s: %s", c->subject, c->detail);
	else
		line = xasprintf("%s", c->detail);
	if (col + 1 >= WIDTH - 10) {
		fprintf(out, "\n%*s", indent, "");
		col = indent;
	}
	render_text_wrap(out, line, col, indent);
	free(line);
	/* The label is printed before wrapping so that a long first word
	 * (a path) never leaves it alone on its line. */
	if (c->fix && (c->status == CI_FAIL || c->status == CI_WARN || o->verbose)) {
		fprintf(out, "%*sfix: ", indent, "");
		render_text_wrap(out, c->fix, indent + 5, indent + 5);
	}
	if (o->verbose)
		for (size_t i = 0; i < c->n_evidence; i++) {
			fprintf(out, "%*s> ", indent, "");
			render_text_wrap(out, c->evidence[i], indent + 2, indent + 2);
		}
}

static int id_width(const struct ci_report *r)
{
	int w = 12;
	for (size_t i = 0; i < r->n_checks; i++) {
		int l = (int)strlen(r->checks[i].id);
		if (l > w)
			w = l;
	}
	for (size_t i = 0; i < r->n_children; i++) {
		int l = id_width(&r->children[i]);
		if (l > w)
			w = l;
	}
	return w > MAX_ID_COL ? MAX_ID_COL : w;
}

static void print_checks(FILE *out, const struct ci_report *r, const struct style *s,
			 const struct render_opts *o, int base)
{
	for (size_t i = 0; i < r->n_checks; i++)
		print_check(out, &r->checks[i], s, o, base);
}

static void print_facts(FILE *out, const struct ci_report *r, int base)
{
	if (!r->n_facts)
		return;
	fprintf(out, "\n%*sTransport settings seen:\n", base, "");
	for (size_t i = 0; i < r->n_facts; i++) {
		const struct ci_fact *f = &r->facts[i];
		char *line = xasprintf("%s=%s  (%s%s%s)", f->name, f->value, f->subject,
				       *f->source ? ", " : "", f->source);
		fprintf(out, "%*s  ", base, "");
		render_text_wrap(out, line, base + 2, base + 6);
		free(line);
	}
}

static void print_steps(FILE *out, const struct ci_report *r)
{
	if (!r->n_steps)
		return;
	fputs("\nNext commands (run them yourself; this tool never does):\n", out);
	for (size_t i = 0; i < r->n_steps; i++) {
		char *line = xasprintf("%zu. %s", i + 1, r->steps[i].description);
		fputs("  ", out);
		render_text_wrap(out, line, 2, 5);
		free(line);
		/* Commands are printed verbatim, never wrapped: they must stay
		 * copy-pasteable.  Multi-line commands keep their own breaks.
		 * They are built from quoted, escaped values (shell_quote), so
		 * the sanitiser finds nothing to change: if it ever did, what
		 * shows is still what a paste runs. */
		const char *c = r->steps[i].command;
		while (*c) {
			size_t n = strcspn(c, "\n");
			char *safe = sanitize_mem(c, n, 0);
			fprintf(out, "     %s\n", safe);
			free(safe);
			c += n + (c[n] == '\n');
		}
	}
}

/* Ranks as fix_first does (verdict.c): a failure, then a critical skip,
 * then a warning; anything else last. */
static int rep_rank(const struct ci_check *c)
{
	switch (c->status) {
	case CI_FAIL: return 0;
	case CI_SKIPPED: return c->critical ? 1 : 3;
	case CI_WARN: return 2;
	default: return 4;
	}
}

/* The check that stands for id in the fix-first list: the one that put
 * the id there. */
static const struct ci_check *worst_check(const struct ci_report *r, const char *id)
{
	const struct ci_check *best = NULL;
	for (size_t i = 0; i < r->n_checks; i++)
		if (!strcmp(r->checks[i].id, id) &&
		    (!best || rep_rank(&r->checks[i]) < rep_rank(best)))
			best = &r->checks[i];
	for (size_t i = 0; i < r->n_children; i++) {
		const struct ci_check *c = worst_check(&r->children[i], id);
		if (c && (!best || rep_rank(c) < rep_rank(best)))
			best = c;
	}
	return best;
}

static void print_verdict(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
			  const struct style *s)
{
	const char *trusted = v->trusted ? "trusted" : "not trusted";
	if (s->color)
		fprintf(out, "verdict: %s%s\033[0m (%s, exit %d)\n", verdict_color(v->kind),
			verdict_name(v->kind), trusted, verdict_exit_code(v));
	else
		fprintf(out, "verdict: %s (%s, exit %d)\n", verdict_name(v->kind), trusted,
			verdict_exit_code(v));
	if (s->quiet)
		return;
	fputs("  ", out);
	render_text_wrap(out, v->summary, 2, 2);
	if (!v->n_fix_first)
		return;
	fputs("fix first:\n", out);
	for (size_t i = 0; i < v->n_fix_first; i++) {
		const struct ci_check *c = worst_check(r, v->fix_first[i]);
		char *line;
		if (c && c->subject && *c->subject)
			line = xasprintf("%zu. %s (%s): %s", i + 1, v->fix_first[i], c->subject,
					 c->fix ? c->fix : c->detail);
		else if (c)
			line = xasprintf("%zu. %s: %s", i + 1, v->fix_first[i],
					 c->fix ? c->fix : c->detail);
		else
			line = xasprintf("%zu. %s", i + 1, v->fix_first[i]);
		fputs("  ", out);
		render_text_wrap(out, line, 2, 5);
		free(line);
	}
}

void render_text(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		 const struct render_opts *o)
{
	set_width(o);
	struct style s = {.color = o->color, .quiet = o->quiet, .id_col = id_width(r)};
	if (!o->quiet) {
		fprintf(out, "check_interconnect %s: ", r->command);
		sanitize_fputs(out, r->target);
		fputs("\n\n", out);
		print_checks(out, r, &s, o, 0);
		for (size_t i = 0; i < r->n_children; i++) {
			const struct ci_report *c = &r->children[i];
			render_text_child_head(out, c);
			print_checks(out, c, &s, o, 2);
			render_text_live(out, c, o, 2);
			print_facts(out, c, 2);
		}
		render_text_live(out, r, o, 0);
		print_facts(out, r, 0);
		print_steps(out, r);
		struct ci_counts n = report_counts(r);
		fprintf(out, "\n%zu ok, %zu warn, %zu fail, %zu skipped\n", n.ok, n.warn, n.fail,
			n.skipped);
	}
	print_verdict(out, r, v, &s);
}

/* Pieces for verbs with their own layout (the fleet matrix): the same
 * check lines, next commands and verdict as above. */
void render_text_check(FILE *out, const struct ci_check *c, const struct render_opts *o, int base,
		       int id_col)
{
	set_width(o);
	struct style s = {.color = o->color, .id_col = id_col > MAX_ID_COL ? MAX_ID_COL : id_col};
	print_check(out, c, &s, o, base);
}

void render_text_steps(FILE *out, const struct ci_report *r)
{
	print_steps(out, r);
}

void render_text_verdict(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
			 const struct render_opts *o)
{
	set_width(o);
	struct style s = {.color = o->color, .quiet = o->quiet, .id_col = id_width(r)};
	print_verdict(out, r, v, &s);
}
