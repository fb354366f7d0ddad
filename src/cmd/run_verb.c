/* SPDX-License-Identifier: Apache-2.0 */
/*
 * verb_run(): the one runner every verb goes through (see cmd.h for the
 * steps).  Whatever a verb finds, the way it is refused, probed, rendered
 * and exited is written here once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/xalloc.h"

/* The kind of target o names for v: a whole deployment when v takes one
 * and --deployment/--selector say so (or v takes nothing else), else a
 * probe target when v takes one, else paths or nothing. */
static enum verb_target resolve_kind(const struct verb *v, const struct cli_opts *o)
{
	bool optional = (v->targets & VT_PROBE) || v->fleet_optional;
	if ((v->targets & VT_FLEET) && (!optional || o->deployment || o->selector))
		return VT_FLEET;
	if (v->targets & VT_PROBE)
		return VT_PROBE;
	return v->targets & VT_PATHS;
}

static int check_args(const struct verb *v, const struct cli_opts *o)
{
	if (o->n_args >= v->min_args && (v->max_args < 0 || o->n_args <= v->max_args))
		return 0;
	if (v->args_error || o->n_args < v->min_args)
		return cli_usage_error(v->name, "%s",
				       v->args_error ? v->args_error : "missing argument");
	return cli_usage_error(v->name, "unexpected argument '%s'", o->args[v->max_args]);
}

/* Step 1 and 2: every usage rule, in the order the help text reads them. */
static int check_usage(const struct verb *v, const struct cli_opts *o, enum verb_target kind)
{
	int rc;
	if ((o->given & (OPT_JOBS | OPT_DEADLINE)) && !(o->given & (OPT_DEPLOYMENT | OPT_SELECTOR)))
		return cli_usage_error(v->name,
				       "%s applies to runs over many pods "
				       "(--deployment or --selector)",
				       o->given & OPT_JOBS ? "--jobs" : "--deadline");
	if (kind == VT_FLEET) {
		rc = verb_check_fleet_target(v, o);
		return rc ? rc : check_args(v, o);
	}
	rc = cli_allow_only(v->name, o, verb_allowed_options(v, kind));
	if (!rc)
		rc = check_args(v, o);
	if (!rc && kind == VT_PROBE)
		rc = verb_check_probe_target(v, o);
	return rc;
}

/* The report's target for paths and deployments ("recipe R against
 * deployment D in namespace N" when a verb reads both); a probe names its
 * own target. */
static char *target_name(const struct verb_ctx *c)
{
	char *paths = NULL;
	if (c->verb->targets & VT_PATHS) {
		size_t len = 1;
		for (int i = 0; i < c->n_args; i++)
			len += strlen(c->args[i]) + 1;
		paths = xcalloc(len, 1);
		for (int i = 0; i < c->n_args; i++) {
			if (i)
				strcat(paths, " ");
			strcat(paths, c->args[i]);
		}
	}
	if (c->target != VT_FLEET)
		return paths ? paths : xstrdup("");
	char *fleet = fleet_target_name(&c->fleet);
	if (!paths)
		return fleet;
	char *both = xasprintf("recipe %s against %s", paths, fleet);
	free(paths);
	free(fleet);
	return both;
}

/* Whether stdout will not show a failure's check line in full: the error
 * then also goes to stderr, else it would be said twice on one screen. */
static bool says_elsewhere(const struct render_opts *o)
{
	return o->format != CI_FORMAT_TEXT || o->quiet || o->output;
}

/* Step 3 and 4 for one probe target: the names first (nothing runs with a
 * bad one), then the probe, the verb's checks, or the one failure path. */
static int run_probe(struct verb_ctx *c, struct ci_report *r)
{
	const struct verb *v = c->verb;
	char *why = NULL;
	if (!probe_target_check(&c->probe, &why)) {
		int rc = cli_usage_error(v->name, "%s", why ? why : "invalid target");
		free(why);
		return rc;
	}
	if (v->start)
		v->start(c);
	struct probe_outcome out;
	probe_collect(&c->probe, NULL, &out);
	int rc = VERB_RENDER;
	const char *msg = out.message ? out.message : probe_error_name(out.err);
	if (out.err == PROBE_BAD_TARGET) {
		/* A target that fails validation (a --sysroot that is not a
		 * folder) is a usage error: nothing ran, no report. */
		rc = cli_usage_error(v->name, "%s", msg);
	} else {
		report_init(r, v->name, out.target ? out.target : "local host");
		if (out.err != PROBE_OK) {
			/* Said once: the check carries it, and stderr too when
			 * the check will not be read there (another format, -q,
			 * --output). */
			if (says_elsewhere(&c->render))
				cli_error("%s: %s", v->name, msg);
			struct ci_check *k =
				report_check(r, v->probe_check, CI_SKIPPED, r->target, "%s", msg);
			if (probe_error_fix(out.err))
				check_set_fix(k, "%s", probe_error_fix(out.err));
		} else {
			v->judge(c, r, &out.t);
		}
		if (out.save_error) {
			/* The analysis stands as it is; the exit code says the
			 * transcript was not kept. */
			cli_error("%s: %s", v->name, out.save_error);
			c->save_failed = true;
		}
	}
	if (v->stop)
		v->stop(c);
	probe_outcome_release(&out);
	return rc;
}

/* Step 3 and 4 for a whole deployment. */
static int run_fleet(struct verb_ctx *c, struct ci_report *r)
{
	if (c->verb->run)
		return c->verb->run(c, r);
	struct fleet_result res;
	memset(&res, 0, sizeof(res));
	int rc = fleet_run(&c->fleet, c->verb->fleet, r, &res);
	if (res.error && says_elsewhere(&c->render))
		cli_error("%s: %s", c->verb->name, res.error);
	fleet_result_release(&res);
	return rc == CI_EXIT_USAGE ? rc : VERB_RENDER;
}

/* Step 5: a report that could not be written is not a verdict.  stdout is
 * flushed here, once, so that its errno is the write's. */
static int check_stdout(int rc)
{
	int err = fflush(stdout) ? errno : 0;
	if (err || ferror(stdout)) {
		cli_error("cannot write the output: %s", err ? strerror(err) : "write error");
		return CI_EXIT_IO;
	}
	return rc;
}

int verb_run(const struct verb *v, const struct cli_opts *o)
{
	enum verb_target kind = resolve_kind(v, o);
	int rc = check_usage(v, o, kind);
	if (rc)
		return rc;
	struct verb_ctx c;
	verb_ctx_init(&c, v, o);
	c.target = kind;
	if (v->check && (rc = v->check(&c)))
		return rc;
	/* --output is opened before any probe runs: a target that cannot be
	 * written is said now, not after a long probe whose report it would
	 * lose. */
	struct render_output out;
	memset(&out, 0, sizeof(out));
	if (c.render.output) {
		if (render_output_open(&out, c.render.output) != 0)
			return CI_EXIT_IO;
		c.render.out = &out;
	}

	struct ci_report r;
	memset(&r, 0, sizeof(r));
	if (kind == VT_PROBE) {
		rc = run_probe(&c, &r);
	} else {
		char *target = target_name(&c);
		report_init(&r, v->name, target);
		free(target);
		rc = kind == VT_FLEET ? run_fleet(&c, &r) : v->run(&c, &r);
	}
	/* The fleet layout is for pods; env --deployment reads one object. */
	bool pods = kind == VT_FLEET && !v->fleet_optional;
	if (rc == VERB_RENDER) {
		rc = report_finish_as(&r, &c.render, pods ? fleet_render_text : render_text);
		if (c.save_failed)
			rc = CI_EXIT_IO;
	}
	report_release(&r);
	render_output_abort(&out); /* not rendered (a usage error): nothing left */
	return check_stdout(rc);
}
