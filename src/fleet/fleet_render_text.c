/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet text layout.  A deployment of 32 pods printed pod after pod is
 * 600 lines nobody reads; instead: one matrix row per pod with the worst
 * status of each check group, then only the pods that need attention with
 * their non-ok checks, then the fleet checks and the one verdict.  JSON keeps
 * every pod's full report (the core renderer).
 */
#include <stdlib.h>
#include <string.h>

#include "core/render.h"
#include "core/report_live.h"
#include "core/sanitize.h"
#include "fleet/fleet.h"
#include "parse/lines.h"

#define NGROUPS 6
static const char *const group_names[NGROUPS] = {"rdma",    "gpudirect", "nvlink",
						 "memlock", "env",       "nixl/ucx"};

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

static int group_index(const char *id)
{
	const char *g = fleet_group_of(id);
	for (int i = 0; g && i < NGROUPS; i++)
		if (!strcmp(g, group_names[i]))
			return i;
	return -1;
}

/* Badness for "the worst of a group": a non-critical skip (not applicable)
 * is below ok; a critical one (could not tell) is above a warning. */
static int rank(const struct ci_check *c)
{
	switch (c->status) {
	case CI_FAIL: return 4;
	case CI_SKIPPED: return c->critical ? 3 : 0;
	case CI_WARN: return 2;
	default: return 1;
	}
}

static const char *cell_word(int rk)
{
	switch (rk) {
	case 4: return "FAIL";
	case 3: return "unknown";
	case 2: return "warn";
	case 1: return "ok";
	case 0: return "n/a";
	default: return "-";
	}
}

static const char *cell_color(int rk)
{
	switch (rk) {
	case 4: return "\033[1;31m";
	case 3: return "\033[36m";
	case 2: return "\033[33m";
	case 1: return "\033[32m";
	default: return "";
	}
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

static void print_matrix(FILE *out, const struct ci_report *r, const struct render_opts *o)
{
	bool used[NGROUPS] = {false};
	size_t wp = 3, wr = 4, wn = 4;
	for (size_t i = 0; i < r->n_children; i++) {
		const struct ci_report *c = &r->children[i];
		char role[64], node[256];
		split_label(c->child_label, role, sizeof(role), node, sizeof(node));
		wp = strlen(pod_name(c)) > wp ? strlen(pod_name(c)) : wp;
		wr = strlen(role) > wr ? strlen(role) : wr;
		wn = strlen(node) > wn ? strlen(node) : wn;
		for (size_t j = 0; j < c->n_checks; j++) {
			int g = group_index(c->checks[j].id);
			if (g >= 0)
				used[g] = true;
		}
	}
	/* An 80-column terminal first: when the rows would be wider, the part
	 * of the pod names they all share is said once above the matrix. */
	bool live = live_asked(r);
	size_t cut = 0, width = wp + 2 + wr + 2 + wn + (live ? 2 + strlen("host-staging") : 0);
	for (int g = 0; g < NGROUPS; g++)
		if (used[g])
			width += 2 + strlen(group_names[g]);
	if (width > 80 && (cut = shared_prefix(r)) > 0) {
		char *pre = sanitize_mem(pod_name(&r->children[0]), cut, 0);
		fprintf(out, "(pod names are shown without their shared prefix '%s')\n", pre);
		free(pre);
		wp -= cut < wp ? cut : 0;
	}
	int cp = clampw(wp, 3, 40), cr = clampw(wr, 4, 12), cn = clampw(wn, 4, 32);
	fprintf(out, "%-*s  %-*s  %-*s", cp, "POD", cr, "ROLE", cn, "NODE");
	for (int g = 0; g < NGROUPS; g++)
		if (used[g])
			fprintf(out, "  %s", group_names[g]);
	if (live)
		fputs("  live", out);
	fputc('\n', out);
	for (size_t i = 0; i < r->n_children; i++) {
		const struct ci_report *c = &r->children[i];
		char role[64], node[256];
		split_label(c->child_label, role, sizeof(role), node, sizeof(node));
		/* Names from the cluster: sanitised before they are padded. */
		char *sp = sanitize_str(pod_name(c) + cut), *sr = sanitize_str(role);
		char *sn = sanitize_str(node);
		fprintf(out, "%-*.*s  %-*.*s  %-*.*s", cp, cp, sp, cr, cr, sr, cn, cn, sn);
		free(sp);
		free(sr);
		free(sn);
		const struct ci_check *pf = probe_failure(c);
		if (pf) {
			fputs("  not probed (details below)\n", out);
			continue;
		}
		int worst[NGROUPS];
		for (int g = 0; g < NGROUPS; g++)
			worst[g] = -1;
		for (size_t j = 0; j < c->n_checks; j++) {
			int g = group_index(c->checks[j].id);
			int rk = rank(&c->checks[j]);
			if (g >= 0 && rk > worst[g])
				worst[g] = rk;
		}
		int last = -1;
		for (int g = 0; g < NGROUPS && !live; g++)
			if (used[g])
				last = g;
		for (int g = 0; g < NGROUPS; g++) {
			if (!used[g])
				continue;
			int w = g == last ? 0 : (int)strlen(group_names[g]);
			const char *word = cell_word(worst[g]);
			if (o->color && *cell_color(worst[g]))
				fprintf(out, "  %s%-*s\033[0m", cell_color(worst[g]), w, word);
			else
				fprintf(out, "  %-*s", w, word);
		}
		if (live)
			fprintf(out, "  %s", live_cell(c));
		/* No trailing blanks: goldens and terminals both prefer that. */
		fputc('\n', out);
	}
}

static int id_col_of(const struct ci_report *r)
{
	size_t w = 12;
	for (size_t i = 0; i < r->n_checks; i++)
		w = strlen(r->checks[i].id) > w ? strlen(r->checks[i].id) : w;
	for (size_t i = 0; i < r->n_children; i++)
		for (size_t j = 0; j < r->children[i].n_checks; j++)
			if (needs_attention(&r->children[i].checks[j]))
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
	int idc = id_col_of(r);
	fprintf(out, "check_interconnect %s: ", r->command);
	sanitize_fputs(out, r->target);
	fputc('\n', out);
	if (r->n_children) {
		fputc('\n', out);
		print_matrix(out, r, o);
	}

	size_t shown = 0;
	for (size_t i = 0; i < r->n_children; i++) {
		const struct ci_report *c = &r->children[i];
		bool any = false;
		for (size_t j = 0; j < c->n_checks && !any; j++)
			any = needs_attention(&c->checks[j]);
		if (!any)
			continue;
		if (!shown++)
			fputs("\nPods that need attention:\n", out);
		render_text_child_head(out, c);
		for (size_t j = 0; j < c->n_checks; j++)
			if (needs_attention(&c->checks[j]))
				render_text_check(out, &c->checks[j], o, 2, idc);
	}

	fputs(strcmp(r->command, "all") ? "\nFleet checks:\n"
					: "\nRecipe, fleet and drift checks:\n",
	      out);
	for (size_t i = 0; i < r->n_checks; i++)
		render_text_check(out, &r->checks[i], o, 0, idc);
	render_text_steps(out, r);
	struct ci_counts n = report_counts(r);
	fprintf(out, "\n%zu ok, %zu warn, %zu fail, %zu skipped (%zu pod%s)\n", n.ok, n.warn,
		n.fail, n.skipped, r->n_children, r->n_children == 1 ? "" : "s");
	render_text_verdict(out, r, v, o);
}
