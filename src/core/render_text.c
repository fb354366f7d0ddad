/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text renderer: aligned for an 80-column terminal, one line per check (long
 * details wrap under the id column), then the transport settings seen, the
 * next commands, and the verdict with the numbered fix-first list.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sanitize.h"
#include "core/strbuf.h"
#include "core/strmap.h"
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
	/* A finding names its file and line; an ok line (-v) does not repeat
	 * them for every check of a deployment. */
	char *at = c->status != CI_OK ? render_check_location(c) : NULL;
	if (c->subject && *c->subject && at)
		line = xasprintf("%s (%s): %s", c->subject, at, c->detail);
	else if (c->subject && *c->subject)
		line = xasprintf("%s: %s", c->subject, c->detail);
	else
		line = xasprintf("%s", c->detail);
	if (col + 1 >= WIDTH - 10) {
		fprintf(out, "\n%*s", indent, "");
		col = indent;
	}
	render_text_wrap(out, line, col, indent);
	free(line);
	free(at);
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

/*
 * One fix-first entry: every check with its id that put it on the list,
 * grouped by cause (the fix it asks for, else what it found), each cause
 * with the places it applies to (the pods of a fleet run, the deployments
 * of a recipe tree, else the subjects).  "env.fabric: 18 deployments" is
 * the size of the job; one pod timed out and another refused by RBAC are
 * two jobs, both listed.
 */
struct ff_cause {
	const struct ci_check *c; /* the first check of this cause */
	const char **places;      /* distinct, in the order seen */
	size_t n_places, cap_places;
	struct strmap seen; /* place -> index in places */
	size_t pos;
};

/* The causes and places are found through maps: a fleet of 10,000 pods
 * that all warn puts 10,000 places on one entry, and a scan of the places
 * (or the causes) per check made the list quadratic in the pods. */
struct ff_entry {
	struct ff_cause *causes;
	size_t n_causes, cap_causes;
	struct strmap cause_of; /* ff_key -> index in causes */
	const char **places;    /* distinct over every cause */
	size_t n_places, cap_places;
	struct strmap seen;
	bool in_children; /* the places are child reports (pods), not subjects */
	const char *noun; /* what the subjects are, from the check's descriptor */
};

static bool ff_counts(const struct ci_check *c, bool unknown)
{
	int rk = rep_rank(c);
	return rk == 0 || rk == 2 || (rk == 1 && unknown);
}

static const char *ff_key(const struct ci_check *c)
{
	return c->fix ? c->fix : c->detail ? c->detail : "";
}

static void ff_place(const char ***v, size_t *n, size_t *cap, struct strmap *seen, const char *p)
{
	if (strmap_put(seen, p, *n) == *n)
		*XPUSH(*v, *n, *cap) = p;
}

/* A child's place is its pod (the end of "pod NS/NAME"), else its target. */
static const char *child_place(const struct ci_report *c)
{
	const char *t = c->target ? c->target : "";
	const char *sl = strrchr(t, '/');
	return !strncmp(t, "pod ", 4) && sl ? sl + 1 : t;
}

static void ff_collect(const struct ci_report *r, const char *id, bool unknown, const char *place,
		       struct ff_entry *e)
{
	for (size_t i = 0; i < r->n_checks; i++) {
		const struct ci_check *c = &r->checks[i];
		if (strcmp(c->id, id) || !ff_counts(c, unknown))
			continue;
		if (!e->noun)
			e->noun = c->noun;
		const char *p = place ? place : c->subject && *c->subject ? c->subject : "";
		size_t j = strmap_put(&e->cause_of, ff_key(c), e->n_causes);
		struct ff_cause *k;
		if (j == e->n_causes) {
			k = XPUSH(e->causes, e->n_causes, e->cap_causes);
			memset(k, 0, sizeof(*k));
			strmap_init(&k->seen);
			k->c = c;
			k->pos = e->n_causes;
		} else {
			k = &e->causes[j];
		}
		if (*p) {
			ff_place(&k->places, &k->n_places, &k->cap_places, &k->seen, p);
			ff_place(&e->places, &e->n_places, &e->cap_places, &e->seen, p);
		}
		if (place)
			e->in_children = true;
	}
	for (size_t i = 0; i < r->n_children; i++)
		ff_collect(&r->children[i], id, unknown, child_place(&r->children[i]), e);
}

/* The worst cause first, then the one that applies to most places. */
static int cmp_cause(const void *a, const void *b)
{
	const struct ff_cause *x = a, *y = b;
	int d = rep_rank(x->c) - rep_rank(y->c);
	if (d)
		return d;
	if (x->n_places != y->n_places)
		return x->n_places < y->n_places ? 1 : -1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static void ff_release(struct ff_entry *e)
{
	for (size_t i = 0; i < e->n_causes; i++) {
		free(e->causes[i].places);
		strmap_release(&e->causes[i].seen);
	}
	free(e->causes);
	free(e->places);
	strmap_release(&e->cause_of);
	strmap_release(&e->seen);
}

/* One place: its name; up to three: "2 pods: a and b" (without a noun,
 * the subjects: "a; b"); more: "18 deployments" (the table above the list
 * names them). */
static char *places_text(const char *const *v, size_t n, const char *noun)
{
	if (n == 1)
		return xstrdup(v[0]);
	struct strbuf b;
	strbuf_init(&b);
	if (noun)
		strbuf_addf(&b, "%zu %ss", n, noun);
	else if (n > 3)
		strbuf_addf(&b, "%zu subjects", n);
	for (size_t i = 0; n <= 3 && i < n; i++)
		strbuf_addf(&b, "%s%s",
			    !i     ? (noun ? ": " : "")
			    : noun ? (i + 1 == n ? " and " : ", ")
				   : "; ",
			    v[i]);
	return strbuf_detach(&b);
}

#define FF_MAX_CAUSES 4

static void print_fix_entry(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
			    size_t i)
{
	const char *id = v->fix_first[i];
	struct ff_entry e = {0};
	ff_collect(r, id, v->kind == CI_UNKNOWN, NULL, &e);
	/* A pod per child report, else what the descriptor calls its subjects. */
	const char *noun = e.in_children ? "pod" : e.noun;
	char *line;
	if (!e.n_causes) {
		line = xasprintf("%zu. %s", i + 1, id);
	} else if (e.n_causes == 1) {
		const struct ci_check *c = e.causes[0].c;
		const char *what = c->fix ? c->fix : c->detail;
		if (e.n_places) {
			char *pl = places_text(e.places, e.n_places, noun);
			line = xasprintf("%zu. %s (%s): %s", i + 1, id, pl, what);
			free(pl);
		} else {
			line = xasprintf("%zu. %s: %s", i + 1, id, what);
		}
	} else {
		line = e.n_places > 1 && noun
			       ? xasprintf("%zu. %s (%zu %ss, %zu causes):", i + 1, id, e.n_places,
					   noun, e.n_causes)
			       : xasprintf("%zu. %s (%zu causes):", i + 1, id, e.n_causes);
	}
	fputs("  ", out);
	render_text_wrap(out, line, 2, 5);
	free(line);
	if (e.n_causes > 1) {
		qsort(e.causes, e.n_causes, sizeof(*e.causes), cmp_cause);
		for (size_t k = 0; k < e.n_causes && k < FF_MAX_CAUSES; k++) {
			const struct ff_cause *fc = &e.causes[k];
			const char *what = fc->c->fix ? fc->c->fix : fc->c->detail;
			char *pl =
				fc->n_places ? places_text(fc->places, fc->n_places, noun) : NULL;
			char *cl = pl ? xasprintf("- %s: %s", pl, what) : xasprintf("- %s", what);
			fputs("     ", out);
			render_text_wrap(out, cl, 5, 7);
			free(cl);
			free(pl);
		}
		if (e.n_causes > FF_MAX_CAUSES)
			fprintf(out,
				"     - and %zu more causes (--format json lists every check)\n",
				e.n_causes - FF_MAX_CAUSES);
	}
	ff_release(&e);
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
	for (size_t i = 0; i < v->n_fix_first; i++)
		print_fix_entry(out, r, v, i);
}

/* A finding worth reading at scale: what the verdict counts. */
static bool not_ok(const struct ci_check *c)
{
	return c->status == CI_FAIL || c->status == CI_WARN ||
	       (c->status == CI_SKIPPED && c->critical);
}

/* One deployment of a recipe tree: its checks are those with its subject. */
struct dep_row {
	const char *name;
	size_t first; /* where its checks start in the sorted index */
	size_t n;
	struct ci_verdict v;
	struct ci_counts c;
};

static const struct ci_report *sort_report; /* for cmp_by_subject (qsort has no context) */

static int cmp_by_subject(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int d = strcmp(sort_report->checks[x].subject, sort_report->checks[y].subject);
	return d ? d : (x > y) - (x < y);
}

static int cmp_dep(const void *a, const void *b)
{
	const struct dep_row *x = a, *y = b;
	int d = verdict_severity(x->v.kind) - verdict_severity(y->v.kind);
	if (d)
		return d;
	/* then the order the tree was read in */
	return (x->first > y->first) - (x->first < y->first);
}

/*
 * env over a recipe tree: one row per deployment (the checks' subject) with
 * its own verdict, counts and top finding, the worst first.  Returns false,
 * printing nothing, when the report holds fewer than two deployments.  The
 * checks are grouped by sorting their indices (n log n: a tree of thousands
 * of recipes stays fast).
 */
static bool print_deployments(FILE *out, const struct ci_report *r, const struct style *s)
{
	size_t n = 0;
	size_t *idx = xcalloc(r->n_checks ? r->n_checks : 1, sizeof(*idx));
	for (size_t i = 0; i < r->n_checks; i++)
		if (r->checks[i].subject && *r->checks[i].subject)
			idx[n++] = i;
	sort_report = r;
	qsort(idx, n, sizeof(*idx), cmp_by_subject);
	struct dep_row *rows = NULL;
	size_t nrows = 0, cap = 0;
	for (size_t i = 0; i < n; i++) {
		const char *sub = r->checks[idx[i]].subject;
		if (!nrows || strcmp(rows[nrows - 1].name, sub)) {
			struct dep_row *d = XPUSH(rows, nrows, cap);
			memset(d, 0, sizeof(*d));
			d->name = sub;
			d->first = i;
		}
		rows[nrows - 1].n++;
	}
	if (nrows < 2) {
		free(rows);
		free(idx);
		return false;
	}
	size_t wt = 11;
	for (size_t k = 0; k < nrows; k++) {
		struct dep_row *d = &rows[k];
		/* A view of the deployment's checks (copied by value, owned by r). */
		struct ci_report one;
		memset(&one, 0, sizeof(one));
		one.command = r->command;
		one.checks = xcalloc(d->n, sizeof(*one.checks));
		for (size_t j = 0; j < d->n; j++)
			one.checks[one.n_checks++] = r->checks[idx[d->first + j]];
		verdict_compute(&one, &d->v);
		d->c = report_counts(&one);
		free(one.checks);
		d->first = idx[d->first]; /* from here on: the position in the tree */
		if (d->v.n_fix_first && strlen(d->v.fix_first[0]) > wt)
			wt = strlen(d->v.fix_first[0]);
	}
	qsort(rows, nrows, sizeof(*rows), cmp_dep);
	static const enum ci_verdict_kind order[] = {CI_BLOCKED, CI_UNKNOWN, CI_DEGRADED, CI_READY};
	fprintf(out, "%zu deployments:", nrows);
	const char *sep = " ";
	for (size_t k = 0; k < 4; k++) {
		size_t c = 0;
		for (size_t i = 0; i < nrows; i++)
			c += rows[i].v.kind == order[k];
		if (c) {
			fprintf(out, "%s%zu %s", sep, c, verdict_name(order[k]));
			sep = ", ";
		}
	}
	int tw = (int)(wt > MAX_ID_COL ? MAX_ID_COL : wt);
	fprintf(out, "\nVERDICT     OK WARN FAIL SKIP  %-*s  DEPLOYMENT\n", tw, "TOP FINDING");
	for (size_t k = 0; k < nrows; k++) {
		const struct dep_row *d = &rows[k];
		const char *vn = verdict_name(d->v.kind);
		if (s->color)
			fprintf(out, "%s%-8s\033[0m", verdict_color(d->v.kind), vn);
		else
			fprintf(out, "%-8s", vn);
		fprintf(out, "  %4zu %4zu %4zu %4zu  %-*s  ", d->c.ok, d->c.warn, d->c.fail,
			d->c.skipped, tw, d->v.n_fix_first ? d->v.fix_first[0] : "-");
		/* Names from the files: last, so that a long one never shifts the
		 * columns; wrapped at its spaces under its column (sanitised by
		 * render_text_wrap). */
		int col = 8 + 2 + 19 + 2 + tw + 2;
		render_text_wrap(out, d->name, col, col);
	}
	for (size_t k = 0; k < nrows; k++)
		verdict_release(&rows[k].v);
	free(rows);
	free(idx);
	return true;
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
		/* A recipe tree: problems first (one row per deployment, then
		 * only the checks that are not ok); -v shows everything. */
		bool scale = !o->verbose && !r->n_children && !strcmp(r->command, "env") &&
			     print_deployments(out, r, &s);
		if (scale) {
			size_t hidden = 0;
			for (size_t i = 0; i < r->n_checks; i++)
				hidden += !not_ok(&r->checks[i]);
			char *head =
				xasprintf("Checks that are not ok (-v shows every check, the %zu "
					  "ok or not applicable too, and the settings seen):",
					  hidden);
			fputc('\n', out);
			render_text_wrap(out, head, 0, 2);
			free(head);
			for (size_t i = 0; i < r->n_checks; i++)
				if (not_ok(&r->checks[i]))
					print_check(out, &r->checks[i], &s, o, 0);
		} else {
			print_checks(out, r, &s, o, 0);
		}
		for (size_t i = 0; i < r->n_children; i++) {
			const struct ci_report *c = &r->children[i];
			render_text_child_head(out, c);
			print_checks(out, c, &s, o, 2);
			render_text_live(out, c, o, 2);
			print_facts(out, c, 2);
		}
		render_text_live(out, r, o, 0);
		if (!scale)
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
