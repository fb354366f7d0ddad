/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One verdict per run.  blocked if anything fails; otherwise unknown if a
 * critical check could not be made (skipped is inconclusive, never a pass);
 * otherwise degraded if anything warns; otherwise ready.
 */
#include <stdlib.h>
#include <string.h>

#include "core/report.h"
#include "core/report_live.h"
#include "core/xalloc.h"

struct flat {
	const struct ci_check **v;
	size_t n, cap;
};

static void flatten(const struct ci_report *r, struct flat *f)
{
	for (size_t i = 0; i < r->n_checks; i++)
		*XPUSH(f->v, f->n, f->cap) = &r->checks[i];
	for (size_t i = 0; i < r->n_children; i++)
		flatten(&r->children[i], f);
}

/* Rank for fix_first: failures, then (for unknown) critical skips, then
 * warnings; within a group the lower layer first, critical first. */
static int group_of(const struct ci_check *c)
{
	switch (c->status) {
	case CI_FAIL: return 0;
	case CI_SKIPPED: return c->critical ? 1 : -1;
	case CI_WARN: return 2;
	default: return -1;
	}
}

static int cmp_rank(const struct ci_check *a, const struct ci_check *b)
{
	int d = group_of(a) - group_of(b);
	if (d)
		return d;
	d = (int)a->layer - (int)b->layer;
	if (d)
		return d;
	return (int)b->critical - (int)a->critical;
}

struct ranked {
	const struct ci_check *c;
	size_t pos; /* input order: the tiebreak that makes qsort stable */
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int d = cmp_rank(x->c, y->c);
	if (d)
		return d;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

static bool has_id(char **ids, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ids[i], id))
			return true;
	return false;
}

static const char *first_with(const struct flat *f, enum ci_status st, bool need_critical)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i]->status == st && (!need_critical || f->v[i]->critical))
			return f->v[i]->id;
	return NULL;
}

/* The check carrying the evidence of the path KV really took (its
 * descriptor says CI_DESC_EVIDENCE), when every one of them is ok: one
 * pod's evidence against it is enough to say nothing.  NULL otherwise. */
static const char *evidence_ok(const struct flat *f)
{
	const char *ok = NULL;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i]->flags & CI_DESC_EVIDENCE) {
			if (f->v[i]->status != CI_OK)
				return NULL;
			ok = f->v[i]->id;
		}
	return ok;
}

/* The path every live section of the run shows, when they agree: the
 * words the degraded verdict uses for the evidence ("RDMA"). */
static void live_paths(const struct ci_report *r, unsigned *seen)
{
	if (r->live)
		*seen |= 1u << r->live->path;
	for (size_t i = 0; i < r->n_children; i++)
		live_paths(&r->children[i], seen);
}

static const char *proven_path_words(const struct ci_report *r)
{
	unsigned seen = 0;
	live_paths(r, &seen);
	if (seen == 1u << CI_PATH_RDMA)
		return "on RDMA";
	if (seen == 1u << CI_PATH_MNNVL)
		return "on multi-node NVLink";
	return "on the path it proved";
}

static const struct ci_check *const *subj_base;

static int cmp_subj(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int d = strcmp(subj_base[x]->subject, subj_base[y]->subject);
	return d ? d : (x > y) - (x < y);
}

/*
 * per_subject: the deployments that cannot be judged (a critical skip and
 * no failure) when at least one other was judged.  Their checks are listed
 * (each deployment's row keeps its own verdict) but do not outrank the
 * judged ones: unjudged[i] is true for such a check.  n log n.
 */
static bool *unjudged_subjects(const struct flat *f)
{
	size_t *idx = xcalloc(f->n ? f->n : 1, sizeof(*idx)), n = 0;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i]->subject && *f->v[i]->subject)
			idx[n++] = i;
	subj_base = f->v;
	qsort(idx, n, sizeof(*idx), cmp_subj);
	bool *out = xcalloc(f->n ? f->n : 1, sizeof(*out));
	bool any_judged = false;
	for (size_t a = 0, b; a < n; a = b) {
		bool skip = false, fail = false, made = false;
		for (b = a; b < n && !strcmp(f->v[idx[a]]->subject, f->v[idx[b]]->subject); b++) {
			const struct ci_check *c = f->v[idx[b]];
			skip |= c->status == CI_SKIPPED && c->critical;
			fail |= c->status == CI_FAIL;
			made |= c->status == CI_OK || c->status == CI_WARN;
		}
		bool judged = fail || (!skip && made);
		any_judged |= judged;
		for (size_t k = a; k < b; k++)
			out[idx[k]] = !judged;
	}
	free(idx);
	if (!any_judged)
		memset(out, 0, f->n * sizeof(*out));
	return out;
}

void verdict_compute(const struct ci_report *r, struct ci_verdict *v)
{
	memset(v, 0, sizeof(*v));
	struct flat f = {0};
	flatten(r, &f);

	bool *unjudged = r->per_subject ? unjudged_subjects(&f) : NULL;
	size_t fail = 0, warn = 0, crit_skip = 0, ok = 0;
	for (size_t i = 0; i < f.n; i++) {
		if (unjudged && unjudged[i])
			continue;
		switch (f.v[i]->status) {
		case CI_FAIL: fail++; break;
		case CI_WARN: warn++; break;
		case CI_SKIPPED: crit_skip += f.v[i]->critical; break;
		case CI_OK: ok++; break;
		}
	}
	if (unjudged) {
		/* keep only the judged deployments' checks for the fix-first list */
		size_t m = 0;
		for (size_t i = 0; i < f.n; i++)
			if (!unjudged[i])
				f.v[m++] = f.v[i];
		f.n = m;
		free(unjudged);
	}
	if (fail)
		v->kind = CI_BLOCKED;
	else if (crit_skip || ok + warn == 0)
		/* Nothing made (no checks, or only non-critical skips) is
		 * nothing proven: never ready on zero passed checks. */
		v->kind = CI_UNKNOWN;
	else if (warn)
		v->kind = CI_DEGRADED;
	else
		v->kind = CI_READY;
	v->trusted = v->kind == CI_READY;

	/* Sort by rank, the input position breaking ties, so the order in
	 * which a verb ran its checks stays meaningful (what the stable
	 * insertion sort did, in n log n: it was quadratic over big trees). */
	if (f.n > 1) {
		struct ranked *rk = xcalloc(f.n, sizeof(*rk));
		for (size_t i = 0; i < f.n; i++)
			rk[i] = (struct ranked){.c = f.v[i], .pos = i};
		qsort(rk, f.n, sizeof(*rk), cmp_ranked);
		for (size_t i = 0; i < f.n; i++)
			f.v[i] = rk[i].c;
		free(rk);
	}
	size_t cap = 0;
	for (size_t i = 0; i < f.n; i++) {
		int g = group_of(f.v[i]);
		if (g < 0 || (g == 1 && v->kind != CI_UNKNOWN))
			continue;
		if (!has_id(v->fix_first, v->n_fix_first, f.v[i]->id))
			*XPUSH(v->fix_first, v->n_fix_first, cap) = xstrdup(f.v[i]->id);
	}

	const char *first = v->n_fix_first ? v->fix_first[0] : NULL, *ev;
	switch (v->kind) {
	case CI_READY:
		/* A report that carries next commands (nixl's pair test) has not
		 * proven the transfer itself: say how far the look goes. */
		if (r->n_steps)
			v->summary =
				xasprintf("Ready as far as a read-only check can tell: all %zu "
					  "checks passed; the next commands prove the transfer.",
					  ok);
		else
			v->summary = xasprintf("The disaggregated transport can be trusted: "
					       "all %zu checks passed.",
					       ok);
		break;
	case CI_BLOCKED:
		v->summary =
			xasprintf("Do not trust the transport: %zu check%s failed; fix %s first.",
				  fail, fail == 1 ? "" : "s", first);
		break;
	case CI_UNKNOWN:
		if (!crit_skip)
			v->summary = xstrdup(
				"Nothing could be checked, so the transport cannot be trusted yet.");
		else
			v->summary =
				xasprintf("Cannot tell: %zu critical check%s could not be made; "
					  "start with %s.",
					  crit_skip, crit_skip == 1 ? "" : "s",
					  first ? first : first_with(&f, CI_SKIPPED, true));
		break;
	case CI_DEGRADED:
		/* Evidence of the real path outranks inference: KV seen moving
		 * over RDMA says the configuration works now, its warnings are
		 * risks rather than faults. */
		if ((ev = evidence_ok(&f)))
			v->summary = xasprintf("Works %s now (%s); the configuration still has "
					       "%zu risk%s: look at %s first.",
					       proven_path_words(r), ev, warn, warn == 1 ? "" : "s",
					       first);
		else
			v->summary = xasprintf(
				"Usable but not trusted: %zu warning%s; look at %s first.", warn,
				warn == 1 ? "" : "s", first);
		break;
	}
	free(f.v);
}

void verdict_release(struct ci_verdict *v)
{
	for (size_t i = 0; i < v->n_fix_first; i++)
		free(v->fix_first[i]);
	free(v->fix_first);
	free(v->summary);
	memset(v, 0, sizeof(*v));
}

int verdict_exit_code(const struct ci_verdict *v)
{
	switch (v->kind) {
	case CI_READY: return CI_EXIT_READY;
	case CI_DEGRADED: return CI_EXIT_DEGRADED;
	case CI_BLOCKED: return CI_EXIT_BLOCKED;
	default: return CI_EXIT_UNKNOWN;
	}
}
