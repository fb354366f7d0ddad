/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet text layout.  A deployment of 32 pods printed pod after pod is
 * 600 lines nobody reads; instead, problems first: one row per pod (its
 * verdict, its counts, its top finding; the worst pods first), then only
 * the pods that need attention with their non-ok checks, then the fleet
 * checks that are not ok and the one verdict.  -v (or a run over one pod)
 * shows every check.  JSON keeps every pod's full report (the core
 * renderer).
 */
#include <stdlib.h>
#include <string.h>

#include "core/render.h"
#include "core/report_live.h"
#include "core/sanitize.h"
#include "core/xalloc.h"
#include "fleet/fleet.h"
#include "parse/lines.h"

/* The check groups the first fleet layout had a column each for; kept for
 * the readers of fleet.h (the per-pod table now says verdict, counts and
 * top finding instead). */
const char *fleet_group_of(const char *id)
{
	if (str_starts(id, "node.rdma.") || str_starts(id, "node.roce.") || !strcmp(id, "node.efa"))
		return "rdma";
	if (!strcmp(id, "node.gpudirect") || !strcmp(id, "node.gdrcopy") ||
	    !strcmp(id, "node.gpu_nic_affinity"))
		return "gpudirect";
	if (str_starts(id, "node.nvlink") || str_starts(id, "node.mnnvl."))
		return "nvlink";
	if (!strcmp(id, "node.memlock") || !strcmp(id, "node.caps") || !strcmp(id, "node.shm"))
		return "memlock";
	if (!strcmp(id, "node.env") || str_starts(id, "node.env."))
		return "env";
	if (str_starts(id, "nixl.") && strcmp(id, "nixl.probe"))
		return "nixl/ucx";
	return NULL;
}

static bool needs_attention(const struct ci_check *c)
{
	return c->status == CI_FAIL || c->status == CI_WARN ||
	       (c->status == CI_SKIPPED && c->critical);
}

/* The pod's name is the end of its target "pod NS/NAME". */
static const char *pod_name(const struct ci_report *c)
{
	const char *t = c->target ? c->target : "";
	const char *s = strrchr(t, '/');
	return s ? s + 1 : t;
}

/* The namespace of target "pod NS/NAME" (ns_len bytes), "" when none. */
static const char *pod_ns(const struct ci_report *c, size_t *ns_len)
{
	const char *t = c->target ? c->target : "";
	const char *s = strrchr(t, '/');
	if (!strncmp(t, "pod ", 4) && s) {
		*ns_len = (size_t)(s - t - 4);
		return t + 4;
	}
	*ns_len = 0;
	return "";
}

/* Whether the pods come from more than one namespace (a run with -A): the
 * table then has kubectl get -A's NAMESPACE column first. */
static bool many_namespaces(const struct ci_report *r)
{
	size_t n0, n;
	const char *first = r->n_children ? pod_ns(&r->children[0], &n0) : "";
	for (size_t i = 1; i < r->n_children; i++) {
		const char *ns = pod_ns(&r->children[i], &n);
		if (n != n0 || strncmp(ns, first, n))
			return true;
	}
	return false;
}

/* "prefill on node-a" -> role "prefill", node "node-a". */
static void split_label(const char *label, char *role, size_t rl, char *node, size_t nl)
{
	*role = *node = '\0';
	if (!label)
		return;
	const char *on = strstr(label, " on ");
	if (!strncmp(label, "on ", 3)) {
		snprintf(node, nl, "%s", label + 3);
	} else if (on) {
		snprintf(role, rl, "%.*s", (int)(on - label), label);
		snprintf(node, nl, "%s", on + 4);
	} else {
		snprintf(role, rl, "%s", label);
	}
}

/* A pod that could not be probed: its probe check. */
static const struct ci_check *probe_failure(const struct ci_report *c)
{
	for (size_t i = 0; i < c->n_checks; i++)
		if ((!strcmp(c->checks[i].id, "node.probe") ||
		     !strcmp(c->checks[i].id, "nixl.probe")) &&
		    c->checks[i].status == CI_SKIPPED)
			return &c->checks[i];
	return NULL;
}

/* The live column: shown when a pod was observed (--observe) or its log
 * read (--logs); the path its evidence shows, "-" for a pod without. */
static bool live_asked(const struct ci_report *r)
{
	for (size_t i = 0; i < r->n_children; i++) {
		const struct ci_live *l = r->children[i].live;
		if (l && (l->observed || l->logs))
			return true;
	}
	return false;
}

static const char *live_cell(const struct ci_report *c)
{
	return c->live ? ci_live_path_name(c->live->path) : "-";
}

static int clampw(size_t w, int lo, int hi)
{
	return (int)w < lo ? lo : (int)w > hi ? hi : (int)w;
}

/* Length of the prefix every pod name shares, cut back to a '-' so that what
 * is left of each name still reads as a name ("vllmdecodeworker-0"). */
static size_t shared_prefix(const struct ci_report *r)
{
	if (r->n_children < 2)
		return 0;
	const char *first = pod_name(&r->children[0]);
	size_t n = strlen(first);
	for (size_t i = 1; i < r->n_children; i++) {
		const char *p = pod_name(&r->children[i]);
		size_t k = 0;
		while (k < n && p[k] == first[k])
			k++;
		n = k;
	}
	while (n > 0 && first[n - 1] != '-')
		n--;
	return n;
}

/* One row of the table: a pod and its own verdict. */
struct pod_row {
	const struct ci_report *c;
	struct ci_verdict v;
	struct ci_counts n;
	size_t pos;
};

static int cmp_row(const void *a, const void *b)
{
	const struct pod_row *x = a, *y = b;
	int d = verdict_severity(x->v.kind) - verdict_severity(y->v.kind);
	if (d)
		return d;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static const char *verdict_color(enum ci_verdict_kind k)
{
	switch (k) {
	case CI_READY: return "\033[32m";
	case CI_DEGRADED: return "\033[33m";
	case CI_BLOCKED: return "\033[1;31m";
	default: return "\033[36m";
	}
}

/* "300 pods: 2 blocked, 41 degraded, 257 ready" */
static void print_tally(FILE *out, const struct pod_row *rows, size_t n, const char *noun)
{
	static const enum ci_verdict_kind order[] = {CI_BLOCKED, CI_UNKNOWN, CI_DEGRADED, CI_READY};
	fprintf(out, "%zu %s%s:", n, noun, n == 1 ? "" : "s");
	const char *sep = " ";
	for (size_t k = 0; k < 4; k++) {
		size_t c = 0;
		for (size_t i = 0; i < n; i++)
			c += rows[i].v.kind == order[k];
		if (c) {
			fprintf(out, "%s%zu %s", sep, c, verdict_name(order[k]));
			sep = ", ";
		}
	}
	fputc('\n', out);
}

static void print_table(FILE *out, const struct ci_report *r, const struct pod_row *rows,
			const struct render_opts *o)
{
	size_t wp = 3, wr = 4, wn = 4, wt = 11, wns = 0;
	bool show_ns = many_namespaces(r);
	for (size_t i = 0; i < r->n_children; i++) {
		const struct ci_report *c = rows[i].c;
		char role[64], node[256];
		size_t nl;
		pod_ns(c, &nl);
		if (show_ns && nl > wns)
			wns = nl > strlen("NAMESPACE") ? nl : strlen("NAMESPACE");
		split_label(c->child_label, role, sizeof(role), node, sizeof(node));
		wp = strlen(pod_name(c)) > wp ? strlen(pod_name(c)) : wp;
		wr = strlen(role) > wr ? strlen(role) : wr;
		wn = strlen(node) > wn ? strlen(node) : wn;
		if (rows[i].v.n_fix_first && strlen(rows[i].v.fix_first[0]) > wt)
			wt = strlen(rows[i].v.fix_first[0]);
	}
	/* The terminal's width first: when the rows would be wider, the part
	 * of the pod names they all share is said once above the table. */
	int cols = o->width >= 40 ? o->width : 80;
	bool live = live_asked(r);
	size_t cut = 0, width = (show_ns ? wns + 2 : 0) + wp + 2 + wr + 2 + wn + 2 + 8 + 2 + 19 +
				2 + wt + (live ? strlen("host-staging") + 2 : 0);
	if (width > (size_t)cols && (cut = shared_prefix(r)) > 0) {
		char *pre = sanitize_mem(pod_name(&r->children[0]), cut, 0);
		fprintf(out, "(pod names are shown without their shared prefix '%s')\n", pre);
		free(pre);
		wp -= cut < wp ? cut : 0;
	}
	int cp = clampw(wp, 3, 40), cr = clampw(wr, 4, 12), cn = clampw(wn, 4, 32);
	int cns = clampw(wns, 9, 63);
	if (show_ns)
		fprintf(out, "%-*s  ", cns, "NAMESPACE");
	fprintf(out, "%-*s  %-*s  %-*s  VERDICT     OK WARN FAIL SKIP  %sTOP FINDING\n", cp, "POD",
		cr, "ROLE", cn, "NODE", live ? "LIVE          " : "");
	for (size_t i = 0; i < r->n_children; i++) {
		const struct pod_row *row = &rows[i];
		const struct ci_report *c = row->c;
		char role[64], node[256];
		split_label(c->child_label, role, sizeof(role), node, sizeof(node));
		/* Names from the cluster: sanitised before they are padded. */
		if (show_ns) {
			size_t nl;
			const char *ns = pod_ns(c, &nl);
			char *sns = sanitize_mem(ns, nl, 0);
			fprintf(out, "%-*.*s  ", cns, cns, sns);
			free(sns);
		}
		char *sp = sanitize_str(pod_name(c) + cut), *sr = sanitize_str(role);
		char *sn = sanitize_str(node);
		fprintf(out, "%-*.*s  %-*.*s  %-*.*s  ", cp, cp, sp, cr, cr, sr, cn, cn, sn);
		free(sp);
		free(sr);
		free(sn);
		const char *vn = verdict_name(row->v.kind);
		if (o->color)
			fprintf(out, "%s%-8s\033[0m", verdict_color(row->v.kind), vn);
		else
			fprintf(out, "%-8s", vn);
		fprintf(out, "  %4zu %4zu %4zu %4zu  ", row->n.ok, row->n.warn, row->n.fail,
			row->n.skipped);
		const struct ci_check *pf = probe_failure(c);
		/* what --observe/--logs found: the path KV took on this pod */
		if (live)
			fprintf(out, "%-12s  ", pf ? "-" : live_cell(c));
		if (row->v.n_fix_first)
			fprintf(out, "%s%s\n", row->v.fix_first[0], pf ? " (not probed)" : "");
		else
			fputs("-\n", out);
	}
}

/*
 * What this layout reads of a child when it is not `full` (no -v, two pods
 * or more): every check's id, status, criticality and layer (the row's
 * verdict and counts, the fix-first list, the id column), the subject,
 * detail and fix of the checks that need attention (printed, and the
 * causes of the fix-first list: render_text.c's ff_collect counts only
 * those), the target, the label and the live path.  Never a check's
 * evidence (-v only) nor a child's facts: free them, and the text of the
 * checks no line shows.  A child of `all` held 18.3 KB (1,024 pods, the
 * bench's transcript); trimmed, 4.1 KB: its check ids and array.
 */
void fleet_text_trim_child(struct ci_report *c)
{
	for (size_t i = 0; i < c->n_checks; i++) {
		struct ci_check *k = &c->checks[i];
		for (size_t e = 0; e < k->n_evidence; e++)
			free(k->evidence[e]);
		free(k->evidence);
		k->evidence = NULL;
		k->n_evidence = k->cap_evidence = 0;
		if (needs_attention(k))
			continue;
		free(k->subject);
		free(k->detail);
		free(k->fix);
		k->subject = k->detail = k->fix = NULL;
	}
	for (size_t i = 0; i < c->n_facts; i++) {
		free(c->facts[i].name);
		free(c->facts[i].value);
		free(c->facts[i].subject);
		free(c->facts[i].source);
	}
	free(c->facts);
	c->facts = NULL;
	c->n_facts = c->cap_facts = 0;
}

/* The id column: as wide as the widest id that will be printed. */
static int id_col_of(const struct ci_report *r, bool full)
{
	size_t w = 12;
	for (size_t i = 0; i < r->n_checks; i++)
		if (full || needs_attention(&r->checks[i]))
			w = strlen(r->checks[i].id) > w ? strlen(r->checks[i].id) : w;
	for (size_t i = 0; i < r->n_children; i++)
		for (size_t j = 0; j < r->children[i].n_checks; j++)
			if (full || needs_attention(&r->children[i].checks[j]))
				w = strlen(r->children[i].checks[j].id) > w
					    ? strlen(r->children[i].checks[j].id)
					    : w;
	return (int)w;
}

void fleet_render_text(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		       const struct render_opts *o)
{
	if (o->quiet) {
		render_text_verdict(out, r, v, o);
		return;
	}
	/* One pod (or -v): every check, as a single run shows them. */
	bool full = o->verbose || r->n_children < 2;
	int idc = id_col_of(r, full);
	fprintf(out, "check_interconnect %s: ", r->command);
	sanitize_fputs(out, r->target);
	fputc('\n', out);

	struct pod_row *rows = r->n_children ? xcalloc(r->n_children, sizeof(*rows)) : NULL;
	for (size_t i = 0; i < r->n_children; i++) {
		rows[i].c = &r->children[i];
		rows[i].pos = i;
		verdict_compute(rows[i].c, &rows[i].v);
		rows[i].n = report_counts(rows[i].c);
	}
	if (r->n_children > 1)
		qsort(rows, r->n_children, sizeof(*rows), cmp_row);
	if (r->n_children) {
		fputc('\n', out);
		print_tally(out, rows, r->n_children, "pod");
		print_table(out, r, rows, o);
	}

	size_t shown = 0;
	for (size_t i = 0; i < r->n_children; i++) {
		const struct ci_report *c = rows[i].c;
		bool any = full && c->n_checks;
		for (size_t j = 0; j < c->n_checks && !any; j++)
			any = needs_attention(&c->checks[j]);
		if (!any)
			continue;
		if (!shown++)
			fputs(full ? "\nEvery pod's checks:\n" : "\nPods that need attention:\n",
			      out);
		render_text_child_head(out, c);
		for (size_t j = 0; j < c->n_checks; j++)
			if (full || needs_attention(&c->checks[j]))
				render_text_check(out, &c->checks[j], o, 2, idc);
	}
	for (size_t i = 0; i < r->n_children; i++)
		verdict_release(&rows[i].v);
	free(rows);

	size_t hidden = 0;
	for (size_t i = 0; i < r->n_checks; i++)
		hidden += !full && !needs_attention(&r->checks[i]);
	const char *what =
		strcmp(r->command, "all") ? "Fleet checks" : "Recipe, fleet and drift checks";
	char *head =
		!hidden ? xasprintf("%s:", what)
		: hidden < r->n_checks
			? xasprintf("%s that are not ok (-v shows the %zu ok or not applicable "
				    "too):",
				    what, hidden)
			: xasprintf("%s: all %zu ok or not applicable (-v shows them)", what,
				    hidden);
	fputc('\n', out);
	render_text_wrap(out, head, 0, 2);
	free(head);
	for (size_t i = 0; i < r->n_checks; i++)
		if (full || needs_attention(&r->checks[i]))
			render_text_check(out, &r->checks[i], o, 0, idc);
	render_text_steps(out, r);
	struct ci_counts n = report_counts(r);
	fprintf(out, "\n%zu ok, %zu warn, %zu fail, %zu skipped (%zu pod%s)\n", n.ok, n.warn,
		n.fail, n.skipped, r->n_children, r->n_children == 1 ? "" : "s");
	render_text_verdict(out, r, v, o);
}
