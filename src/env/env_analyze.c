/* SPDX-License-Identifier: Apache-2.0 */
/* The env analysis: input problems, then every deployment, then the facts. */
#include <stdio.h>
#include <string.h>

#include "core/redact.h"
#include "env/env_desc.h"
#include "env/env_analyze.h"
#include "rules/engines.h"

void env_report_inputs(struct ci_report *r, const struct manifest_set *ms)
{
	for (size_t i = 0; i < ms->n_diags; i++) {
		const struct diag *g = &ms->diags[i];
		const char *file = g->file ? g->file : "(input)";
		char where[512];
		if (g->line && g->col)
			snprintf(where, sizeof(where), "%s:%d:%d", file, g->line, g->col);
		else if (g->line)
			snprintf(where, sizeof(where), "%s:%d", file, g->line);
		else
			snprintf(where, sizeof(where), "%s", file);
		const char *msg = g->message ? g->message : "unreadable";
		struct ci_check *c;
		if (g->severity == DIAG_NOTE) {
			/* informational: nothing was lost */
			c = report_check(r, ENV_CHECK(INPUT), CI_SKIPPED, NULL, "%s: %s", where,
					 msg);
		} else {
			/* A file we could not read is a hole in the analysis, not a
			 * transport fault: warn, and the other files still count. */
			c = report_check(r, ENV_CHECK(INPUT), CI_WARN, NULL,
					 "%s: %s; this file was not (fully) analysed", where, msg);
			/* The walk's caps cut a run: nothing is wrong with the file. */
			if (strstr(msg, "(raise --max-files)"))
				check_set_fix(
					c,
					"raise --max-files, or name fewer folders, so that every "
					"manifest is checked");
			else
				check_set_fix(c,
					      "fix or remove %s so that every manifest is checked",
					      file);
		}
		check_add_evidence(c, "%s: %s", where, msg);
		check_set_location(c, g->file, g->line);
	}
}

/* A plain workload matters only if it could use the transport: it holds
 * GPUs, sets a transport variable or runs an engine or a transfer test.
 * Benchmark clients (perf.yaml Jobs) do not. */
bool env_relevant(const struct deployment *d)
{
	if (d->kind && !strcmp(d->kind, "DynamoGraphDeployment")) {
		/* A kustomize patch (overlays/x/patch-dgd.yaml) is a fragment:
		 * no service has an image or a command.  The rendered manifest
		 * beside it is what gets applied. */
		for (size_t i = 0; i < d->n_svcs; i++)
			if (d->svcs[i].image || d->svcs[i].command_line)
				return true;
		return d->n_svcs == 0;
	}
	for (size_t i = 0; i < d->n_svcs; i++) {
		const struct service *s = &d->svcs[i];
		if (s->gpus > 0)
			return true;
		for (size_t k = 0; k < s->env.n; k++)
			/* NIXL_TELEMETRY_* is injected by the operator into every
			 * pod it renders: alone it does not make a worker. */
			if (s->env.v[k].name && redact_is_transport_name(s->env.v[k].name) &&
			    strcmp(s->env.v[k].name, "CUDA_VISIBLE_DEVICES") &&
			    strncmp(s->env.v[k].name, "NIXL_TELEMETRY_", 15))
				return true;
		if (engine_command_relevant(s->command_line))
			return true;
	}
	return false;
}

/* A kustomize component (components/x/patch-dgd.yaml) holds DGD fragments:
 * services without an image or a command.  They are not deployments, so
 * nothing can be judged, but saying "no deployment found" would be wrong;
 * say what they are, what they set, and how to get something to check. */
static bool env_report_patches(struct ci_report *r, const struct manifest_set *ms)
{
	const struct deployment *first = NULL;
	size_t n = 0;
	for (size_t i = 0; i < ms->n_deps; i++) {
		const struct deployment *d = &ms->deps[i];
		if (d->kind && !strcmp(d->kind, "DynamoGraphDeployment") && d->n_svcs) {
			first = first ? first : d;
			n++;
		}
	}
	if (!n)
		return false;
	struct ci_check *c = report_check(
		r, ENV_CHECK(DEPLOYMENT), CI_SKIPPED, NULL,
		"only kustomize patches here: %zu DynamoGraphDeployment fragment%s with no image or "
		"command (first: %s, %s:%d); a patch is not a deployment",
		n, n == 1 ? "" : "s", first->name ? first->name : "unnamed",
		first->loc.file ? first->loc.file : "?", first->loc.line);
	check_set_fix(c, "render an overlay that uses it (kustomize build OVERLAY > rendered.yaml) "
			 "and run env on rendered.yaml");
	check_set_location(c, first->loc.file, first->loc.line);
	/* What the patch sets, so that -v shows what it would add. */
	for (size_t i = 0; i < ms->n_deps; i++) {
		const struct deployment *d = &ms->deps[i];
		for (size_t j = 0; j < d->n_svcs; j++)
			for (size_t k = 0; k < d->svcs[j].env.n; k++) {
				const struct env_var *v = &d->svcs[j].env.v[k];
				if (!redact_is_transport_name(v->name))
					continue;
				check_add_evidence(
					c, "%s:%d: %s: %s=%s", v->loc.file ? v->loc.file : "?",
					v->loc.line, d->svcs[j].name, v->name,
					v->value_from
						? v->value_from
						: redact_value(v->name, v->value ? v->value : ""));
			}
	}
	return true;
}

/* judged: where to release each deployment once judged, or NULL (keep). */
static void analyze(struct ci_report *r, const struct manifest_set *ms, const char *target,
		    struct manifest_set *judged)
{
	env_report_inputs(r, ms);
	size_t relevant = 0;
	for (size_t i = 0; i < ms->n_deps; i++)
		relevant += env_relevant(&ms->deps[i]);
	if (!relevant && env_report_patches(r, ms))
		return;
	if (!relevant) {
		struct ci_check *c =
			report_check(r, ENV_CHECK(DEPLOYMENT), CI_SKIPPED, NULL,
				     "no DynamoGraphDeployment or pod workload found in %s",
				     target && *target ? target : "the input");
		check_set_fix(
			c,
			"point env at a recipe folder or a manifest with a "
			"DynamoGraphDeployment, Deployment, StatefulSet, Job, Pod or LeaderWorkerSet");
		for (size_t i = 0; i < ms->n_files && i < 8; i++)
			check_add_evidence(c, "read %s", ms->files[i]);
		return;
	}
	/* Each deployment is classified once; its checks and its facts both
	 * read that one result. */
	for (size_t i = 0; i < ms->n_deps; i++) {
		if (!env_relevant(&ms->deps[i]))
			continue;
		const struct deployment *kd = &ms->deps[i];
		if (kd->kustomize_overlay) {
			/* a base is what its overlays complete: judged as they render
			 * it (cmd/env.c runs `kubectl kustomize` on each), never alone */
			const char *o = kd->kustomize_overlay;
			const char *got = manifest_kustomize_outcome(ms, o);
			if (got && !*got)
				continue; /* judged as "O (kubectl kustomize)" */
			report_na(r, ENV_CHECK(DEPLOYMENT), kd->name,
				  "a kustomize base (%s:%d): overlay %s lists its folder and "
				  "completes it; overlays were not rendered (%s), so the base "
				  "is not judged alone (render one: `kubectl kustomize %s`, and "
				  "run env on the result)",
				  kd->loc.file ? kd->loc.file : "?", kd->loc.line, o,
				  got ? got : "an overlay of an overlay, or past the 16 rendered",
				  o);
			continue;
		}
		struct env_class c;
		env_classify(ms, &ms->deps[i], &c);
		size_t first = r->n_checks;
		env_check_deployment(r, ms, &c);
		/* Every finding names its deployment's file and line, so that
		 * two deployments of one name (a recipe's variants) are told
		 * apart in every format.  A live object has no line: the
		 * object's name, its subject, is its location. */
		const struct src_loc *at = &ms->deps[i].loc;
		for (size_t k = first; at->line > 0 && k < r->n_checks; k++)
			if (!r->checks[k].loc_file)
				check_set_location(&r->checks[k], at->file, at->line);
		env_report_facts(r, &c);
		env_class_release(&c);
		if (judged)
			manifest_release_services(judged, i);
	}
}

void env_analyze(struct ci_report *r, const struct manifest_set *ms, const char *target)
{
	analyze(r, ms, target, NULL);
}

void env_analyze_release(struct ci_report *r, struct manifest_set *ms, const char *target)
{
	analyze(r, ms, target, ms);
}
