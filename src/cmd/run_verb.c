/* SPDX-License-Identifier: Apache-2.0 */
/*
 * verb_run(): the one runner every verb goes through (see cmd.h for the
 * steps).  Whatever a verb finds, the way it is refused, probed, rendered
 * and exited is written here once.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "core/render_json.h"
#include "core/xalloc.h"
#include "probe/bundle.h"

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
	if ((o->given & (OPT_JOBS | OPT_DEADLINE | OPT_ALL_NAMESPACES)) &&
	    !(o->given & (OPT_DEPLOYMENT | OPT_SELECTOR)))
		return cli_usage_error(v->name,
				       "%s applies to runs over many pods "
				       "(--deployment or --selector)",
				       o->given & OPT_JOBS       ? "--jobs"
				       : o->given & OPT_DEADLINE ? "--deadline"
								 : "-A/--all-namespaces");
	if (kind == VT_FLEET) {
		rc = verb_check_fleet_target(v, o);
		return rc ? rc : check_args(v, o);
	}
	rc = cli_options_refuse(v->name, o, verb_allowed_options(v, kind));
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
	if (c->bundle && out.err == PROBE_OK && out.raw) {
		/* secret-free as --save-probe writes it (telemetry labels) */
		size_t len = 0;
		char *saved = probe_transcript_saved(out.raw, out.raw_len, &len);
		bundle_add(c->bundle, "probe/transcript", saved, len);
		free(saved);
	}
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

/* One rendering of r into memory, for the bundle. */
static char *render_to_string(const struct ci_report *r, const struct render_opts *ro,
			      render_fn *fn, size_t *len)
{
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);
	if (!m)
		return NULL;
	struct ci_verdict vd;
	verdict_compute(r, &vd);
	fn(m, r, &vd, ro);
	verdict_release(&vd);
	fclose(m);
	return buf;
}

static void put(json_t *o, const char *key, const char *v)
{
	if (v)
		json_object_set_new(o, key, json_string(v));
}

/* --bundle: the report as text and JSON, then manifest.json (what the
 * bundle holds and the target the replay resolves), then into place. */
static bool bundle_finish(struct verb_ctx *c, const struct ci_report *r, render_fn *text)
{
	struct render_opts ro = c->render;
	ro.color = false;
	ro.quiet = false;
	ro.output = NULL;
	size_t len = 0;
	char *t = render_to_string(r, &ro, text, &len);
	if (t)
		bundle_add(c->bundle, "report.txt", t, len);
	free(t);
	ro.format = CI_FORMAT_JSON;
	t = render_to_string(r, &ro, render_json, &len);
	if (t)
		bundle_add(c->bundle, "report.json", t, len);
	free(t);

	const struct fleet_target *ft = &c->fleet;
	json_t *tg = json_object();
	json_object_set_new(tg, "kind",
			    json_string(c->target == VT_FLEET   ? "fleet"
					: c->target == VT_PROBE ? "probe"
								: "paths"));
	put(tg, "name", r->target);
	put(tg, "namespace", ft->probe.namespace_);
	if (ft->all_namespaces)
		json_object_set_new(tg, "all_namespaces", json_true());
	put(tg, "deployment", ft->deployment);
	put(tg, "selector", ft->selector);
	put(tg, "container", ft->probe.container);
	json_object_set_new(tg, "timeout_s", json_real(probe_target_timeout(&ft->probe)));
	json_object_set_new(tg, "deadline_s", json_real(ft->deadline_s));
	json_object_set_new(tg, "jobs", json_integer(ft->jobs));
	json_t *files = json_array();
	for (size_t i = 0; i < bundle_count(c->bundle); i++) {
		const char *name;
		size_t n;
		bundle_entry_at(c->bundle, i, &name, &n);
		json_array_append_new(files,
				      json_pack("{s:s,s:I}", "name", name, "bytes", (json_int_t)n));
	}
	char stamp[32];
	render_rfc3339(render_timestamp(), stamp, sizeof(stamp));
	json_t *m = json_pack("{s:s,s:o,s:s,s:s,s:o,s:o}", "schema", "check_interconnect/bundle/v1",
			      "tool", render_json_tool(), "generated_at", stamp, "command",
			      c->verb->name, "target", tg, "files", files);
	char *ms = m ? json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	if (ms)
		bundle_add(c->bundle, "manifest.json", ms, strlen(ms));
	free(ms);
	json_decref(m);
	char *why = NULL;
	bool ok = bundle_commit(c->bundle, &why);
	c->bundle = NULL;
	if (!ok)
		cli_error("%s: %s", c->verb->name, why ? why : "cannot write --bundle");
	free(why);
	return ok;
}

static const char *jstr(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* --replay BUNDLE: the command line the bundle was taken with, from its
 * manifest (the replay's target is the bundle's, whatever else is given);
 * *man keeps the strings alive. */
static int replay_bundle(const struct verb *v, struct cli_opts *o, struct bundle *b, json_t **man)
{
	char *why = NULL;
	if (!bundle_read(o->replay, b, &why)) {
		int rc = cli_usage_error(v->name, "--replay %s", why ? why : "unreadable");
		free(why);
		return rc;
	}
	const struct bundle_entry *e = bundle_find(b, "manifest.json");
	*man = e ? json_loadb(e->data, e->len, 0, NULL) : NULL;
	const char *cmd = jstr(*man, "command");
	const json_t *tg = json_object_get(*man, "target");
	const char *kind = jstr(tg, "kind");
	if (!cmd || !kind)
		return cli_usage_error(v->name, "--replay %s: a bundle without its manifest.json",
				       o->replay);
	if (strcmp(cmd, v->name))
		return cli_usage_error(v->name,
				       "--replay %s is a bundle of '%s': replay it with '%s "
				       "--replay'",
				       o->replay, cmd, cmd);
	if (!strcmp(kind, "paths"))
		return cli_usage_error(v->name,
				       "--replay %s: an %s bundle keeps the report, not its "
				       "recipes: run %s on them again",
				       o->replay, cmd, cmd);
	if (!strcmp(kind, "fleet")) {
		o->given &= ~OPT_REPLAY;
		o->given |= OPT_NAMESPACE | OPT_TIMEOUT | OPT_JOBS;
		o->namespace_ = jstr(tg, "namespace");
		o->all_namespaces = json_is_true(json_object_get(tg, "all_namespaces"));
		if (o->all_namespaces)
			o->given |= OPT_ALL_NAMESPACES;
		o->deployment = jstr(tg, "deployment");
		o->selector = jstr(tg, "selector");
		o->container = jstr(tg, "container");
		o->given |= (o->deployment ? OPT_DEPLOYMENT : 0) |
			    (o->selector ? OPT_SELECTOR : 0) | (o->container ? OPT_CONTAINER : 0);
		o->timeout_s = json_real_value(json_object_get(tg, "timeout_s"));
		o->deadline_s = json_real_value(json_object_get(tg, "deadline_s"));
		if (o->deadline_s > 0)
			o->given |= OPT_DEADLINE;
		json_int_t jobs = json_integer_value(json_object_get(tg, "jobs"));
		o->jobs = jobs < 1 ? 1 : (unsigned long)jobs;
	}
	return 0;
}

int verb_run(const struct verb *v, const struct cli_opts *o_in)
{
	struct cli_opts ro = *o_in;
	const struct cli_opts *o = &ro;
	struct bundle rb;
	memset(&rb, 0, sizeof(rb));
	json_t *man = NULL;
	int rc = 0;
	if ((ro.given & OPT_REPLAY) && bundle_looks_like(ro.replay))
		rc = replay_bundle(v, &ro, &rb, &man);
	enum verb_target kind = resolve_kind(v, o);
	if (!rc)
		rc = check_usage(v, o, kind);
	if (rc) {
		bundle_release(&rb);
		json_decref(man);
		return rc;
	}
	struct verb_ctx c;
	verb_ctx_init(&c, v, o);
	c.target = kind;
	if (rb.n && kind == VT_FLEET)
		c.fleet.replay = &rb;
	if (rb.n && kind == VT_PROBE) {
		const struct bundle_entry *t = bundle_find(&rb, "probe/transcript");
		static const char none[] = "";
		c.probe.replay_data = t ? t->data : none;
		c.probe.replay_len = t ? t->len : 0;
		c.probe.replay_target = jstr(json_object_get(man, "target"), "name");
	}
	if (v->check && (rc = v->check(&c))) {
		bundle_release(&rb);
		json_decref(man);
		return rc;
	}
	if (o->bundle) {
		char *why = NULL;
		c.bundle = bundle_create(o->bundle, render_timestamp(), &why);
		if (!c.bundle) {
			rc = cli_usage_error(v->name, "%s", why ? why : "cannot write --bundle");
			free(why);
			bundle_release(&rb);
			json_decref(man);
			return rc;
		}
		c.fleet.bundle = c.bundle;
	}
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
	render_fn *text = pods ? fleet_render_text : render_text;
	bool bundle_ok = true;
	if (c.bundle && rc == VERB_RENDER)
		bundle_ok = bundle_finish(&c, &r, text);
	else if (c.bundle)
		bundle_abort(c.bundle);
	if (rc == VERB_RENDER) {
		rc = report_finish_as(&r, &c.render, text);
		if (c.save_failed || !bundle_ok)
			rc = CI_EXIT_IO;
	}
	report_release(&r);
	bundle_release(&rb);
	json_decref(man);
	render_output_abort(&out); /* not rendered (a usage error): nothing left */
	return check_stdout(rc);
}
