/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON renderer (jansson).  The shape is described by
 * schema/check_interconnect.schema.json and validated in the tests.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/render.h"
#include "core/render_json.h"

/* jansson refuses invalid UTF-8; input files may hold any bytes, so those
 * strings are passed through json_stringn after replacing bad bytes. */
json_t *render_json_string(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (j)
		return j;
	size_t n = strlen(s);
	char *copy = malloc(n + 1);
	if (!copy)
		return json_string("");
	for (size_t i = 0; i <= n; i++)
		copy[i] = (s[i] & 0x80) ? '?' : s[i];
	j = json_string(copy);
	free(copy);
	return j ? j : json_string("");
}

json_t *render_json_tool(void)
{
	return json_pack("{s:s,s:s}", "name", "check_interconnect", "version", CI_VERSION);
}

static json_t *counts_json(struct ci_counts n)
{
	return json_pack("{s:I,s:I,s:I,s:I}", "ok", (json_int_t)n.ok, "warn", (json_int_t)n.warn,
			 "fail", (json_int_t)n.fail, "skipped", (json_int_t)n.skipped);
}

static json_t *check_json(const struct ci_check *c)
{
	json_t *ev = json_array();
	for (size_t i = 0; i < c->n_evidence; i++)
		json_array_append_new(ev, render_json_string(c->evidence[i]));
	json_t *j = json_object();
	json_object_set_new(j, "id", json_string(c->id));
	json_object_set_new(j, "status", json_string(status_name(c->status)));
	json_object_set_new(j, "critical", json_boolean(c->critical));
	json_object_set_new(j, "layer", json_string(layer_name(c->layer)));
	json_object_set_new(j, "subject",
			    c->subject ? render_json_string(c->subject) : json_null());
	/* Only where a file says it (present for every env finding). */
	if (c->loc_file) {
		json_t *at = json_pack("{s:o}", "file", render_json_string(c->loc_file));
		if (c->loc_line > 0)
			json_object_set_new(at, "line", json_integer(c->loc_line));
		json_object_set_new(j, "location", at);
	}
	json_object_set_new(j, "detail", render_json_string(c->detail));
	json_object_set_new(j, "fix", c->fix ? render_json_string(c->fix) : json_null());
	json_object_set_new(j, "evidence", ev);
	return j;
}

static json_t *verdict_json(const struct ci_verdict *v)
{
	json_t *ff = json_array();
	for (size_t i = 0; i < v->n_fix_first; i++)
		json_array_append_new(ff, json_string(v->fix_first[i]));
	return json_pack("{s:s,s:b,s:o,s:o,s:i}", "status", verdict_name(v->kind), "trusted",
			 v->trusted, "summary", render_json_string(v->summary), "fix_first", ff,
			 "exit_code", verdict_exit_code(v));
}

static json_t *report_json(const struct ci_report *r, const struct ci_verdict *v)
{
	json_t *j = json_object();
	json_object_set_new(j, "command", json_string(r->command));
	json_object_set_new(j, "target", render_json_string(r->target));
	if (r->child_label)
		json_object_set_new(j, "label", render_json_string(r->child_label));

	json_t *checks = json_array();
	for (size_t i = 0; i < r->n_checks; i++)
		json_array_append_new(checks, check_json(&r->checks[i]));
	json_object_set_new(j, "checks", checks);

	json_t *settings = json_array();
	for (size_t i = 0; i < r->n_facts; i++) {
		const struct ci_fact *f = &r->facts[i];
		json_array_append_new(settings, json_pack("{s:o,s:o,s:o,s:o}", "name",
							  render_json_string(f->name), "value",
							  render_json_string(f->value), "subject",
							  render_json_string(f->subject), "source",
							  render_json_string(f->source)));
	}
	json_object_set_new(j, "settings", settings);

	json_t *steps = json_array();
	for (size_t i = 0; i < r->n_steps; i++)
		json_array_append_new(steps, json_pack("{s:o,s:o}", "description",
						       render_json_string(r->steps[i].description),
						       "command",
						       render_json_string(r->steps[i].command)));
	json_object_set_new(j, "next_steps", steps);
	if (r->live)
		json_object_set_new(j, "live", render_json_live(r->live));

	if (r->n_children) {
		json_t *pods = json_array();
		for (size_t i = 0; i < r->n_children; i++) {
			struct ci_verdict cv;
			verdict_compute(&r->children[i], &cv);
			json_array_append_new(pods, report_json(&r->children[i], &cv));
			verdict_release(&cv);
		}
		json_object_set_new(j, "pods", pods);
	}
	json_object_set_new(j, "counts", counts_json(report_counts(r)));
	json_object_set_new(j, "verdict", verdict_json(v));
	return j;
}

void render_json(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		 const struct render_opts *o)
{
	(void)o;
	json_t *j = report_json(r, v);
	json_t *doc = json_object();
	json_object_set_new(doc, "schema", json_string("check_interconnect/v1"));
	json_object_set_new(doc, "tool", render_json_tool());
	char when[32];
	render_rfc3339(render_timestamp(), when, sizeof(when));
	json_object_set_new(doc, "generated_at", json_string(when));
	json_object_update(doc, j);
	json_decref(j);
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
}
