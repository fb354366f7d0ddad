/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SARIF 2.1.0 (OASIS), so that a recipe repository's CI shows env findings
 * inline (GitHub code scanning, GitLab).  One run; its rules are the check
 * ids that occur, each with its docs/checks.md text and its descriptor's
 * source (properties.source, and in the help); one result per check
 * that is not ok, located at the file:line[:column] its subject or evidence
 * names, else at its deployment (ci_check.loc_file); a pod's finding also
 * names the pod as a logical location.  What GitHub's ingestion requires
 * (docs.github.com, "SARIF support for code scanning"; the SARIF
 * Multitool's GH10xx rules): a physical location with a region on every
 * result, paths relative to the checkout, tool.driver.informationUri, rule
 * help, and partialFingerprints that survive edits of unrelated lines.
 * Validated against the vendored schema in tests/sarif/ and, where it is
 * installed, by the Multitool with GitHub's rules (tests/formats/).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/check_docs.h"
#include "core/render.h"
#include "core/render_json.h"
#include "core/xalloc.h"

#define SARIF_SCHEMA \
	"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

struct loc {
	char *file;
	long line, col;
};

struct sarif {
	json_t *rules, *results;
	json_t *rule_index; /* id -> index into rules */
	const char *cwd;    /* render_opts.cwd */
	bool absolute;      /* some location is a file:// URI */
};

/* "path:LINE[:COL]" at the start of s, followed by ": " or the end: the
 * form the env verb gives every place it read (manifest_load, env rules). */
static bool parse_loc(const char *s, struct loc *l)
{
	for (const char *p = s; *p && *p != ' '; p++) {
		if (*p != ':' || !isdigit((unsigned char)p[1]) || p == s)
			continue;
		char *end;
		long line = strtol(p + 1, &end, 10), col = 0;
		if (*end == ':' && isdigit((unsigned char)end[1]))
			col = strtol(end + 1, &end, 10);
		if (line < 1 || (*end && !(end[0] == ':' && (end[1] == ' ' || !end[1]))))
			continue;
		l->file = xstrndup(s, (size_t)(p - s));
		l->line = line;
		l->col = col;
		return true;
	}
	return false;
}

/* SARIF wants URIs: a relative path stays relative (to the checkout root,
 * %SRCROOT%, the folder the tool ran in), and so does an absolute one under
 * that folder; any other absolute path becomes file:// (code scanning maps
 * it only through invocations[].workingDirectory).  Percent-encoded. */
static char *uri_encode(const char *prefix, const char *path)
{
	char *uri = xmalloc(strlen(prefix) + strlen(path) * 3 + 1);
	char *p = uri + sprintf(uri, "%s", prefix);
	for (const unsigned char *q = (const unsigned char *)path; *q; q++) {
		if (isalnum(*q) || strchr("/-._~", *q))
			*p++ = (char)*q;
		else
			p += sprintf(p, "%%%02X", *q);
	}
	*p = '\0';
	return uri;
}

static json_t *artifact_location(struct sarif *s, const char *path)
{
	size_t cl = s->cwd ? strlen(s->cwd) : 0;
	if (path[0] == '/' && cl > 1 && !strncmp(path, s->cwd, cl) && path[cl] == '/')
		path += cl + 1;
	bool abs = path[0] == '/';
	while (!abs && path[0] == '.' && path[1] == '/')
		path += 2;
	char *uri = uri_encode(abs ? "file://" : "", path);
	json_t *a = json_pack("{s:s}", "uri", uri);
	if (abs)
		s->absolute = true;
	else
		json_object_set_new(a, "uriBaseId", json_string("%SRCROOT%"));
	free(uri);
	return a;
}

/* A region is what code scanning annotates: a finding about a whole file
 * (line 0: it could not be read) is placed at its first line. */
static json_t *location_json(struct sarif *s, const struct loc *l)
{
	json_t *phys = json_pack("{s:o}", "artifactLocation", artifact_location(s, l->file));
	json_t *region = json_pack("{s:I}", "startLine", (json_int_t)(l->line > 0 ? l->line : 1));
	if (l->col > 0)
		json_object_set_new(region, "startColumn", json_integer(l->col));
	json_object_set_new(phys, "region", region);
	return json_pack("{s:o}", "physicalLocation", phys);
}

/* The evidence line the finding is about: the first located one whose
 * reading the detail quotes ("UCX_TLS=tcp,cuda_copy leaves no RDMA
 * transport" is about the line that reads UCX_TLS=tcp,cuda_copy), else the
 * first located one.  SIZE_MAX when none names a place. */
static size_t primary_evidence(const struct ci_check *c)
{
	size_t first = SIZE_MAX;
	for (size_t i = 0; i < c->n_evidence; i++) {
		struct loc l;
		if (!parse_loc(c->evidence[i], &l))
			continue;
		free(l.file);
		if (first == SIZE_MAX)
			first = i;
		const char *rest = strstr(c->evidence[i], ": ");
		if (rest && rest[2] && strstr(c->detail, rest + 2))
			return i;
	}
	return first;
}

/* "env.pod.anti_affinity" -> "EnvPodAntiAffinity": the rule's friendly
 * name (SARIF 3.49.7, one Pascal-case identifier). */
static char *rule_name(const char *id)
{
	char *n = xmalloc(strlen(id) + 1), *p = n;
	bool up = true;
	for (const char *q = id; *q; q++) {
		if (!isalnum((unsigned char)*q)) {
			up = true;
			continue;
		}
		*p++ = up ? (char)toupper((unsigned char)*q) : *q;
		up = false;
	}
	*p = '\0';
	return n;
}

static json_t *rule_json(const struct ci_check *c)
{
	const struct check_doc *d = check_doc_find(c->id);
	const char *src = c->source && *c->source ? c->source : NULL;
	char *name = rule_name(c->id);
	json_t *rule = json_pack("{s:s,s:s}", "id", c->id, "name", name);
	free(name);
	if (d) {
		/* The help says where the rule's truth comes from, its
		 * descriptor's source: after the docs' text, unless that text
		 * quotes it already (a table row's source cell; an entry cut
		 * at its 1500 characters has lost its own). */
		char *text = src && !strstr(d->text, src)
				     ? xasprintf("%s Source: %s.", d->text, src)
				     : xstrdup(d->text);
		char *md = xasprintf("%s\n\nSee [docs/checks.md](%s/blob/main/docs/checks.md#%s) "
				     "in check_interconnect.",
				     text, CI_HOMEPAGE, d->anchor);
		char *uri = xasprintf("%s/blob/main/docs/checks.md#%s", CI_HOMEPAGE, d->anchor);
		json_object_set_new(rule, "shortDescription", json_pack("{s:s}", "text", c->id));
		json_object_set_new(rule, "fullDescription", json_pack("{s:s}", "text", d->text));
		json_object_set_new(rule, "helpUri", json_string(uri));
		json_object_set_new(rule, "help",
				    json_pack("{s:s,s:s}", "text", text, "markdown", md));
		free(md);
		free(uri);
		free(text);
	} else if (src) {
		char *text = xasprintf("Source: %s.", src);
		json_object_set_new(rule, "help", json_pack("{s:s}", "text", text));
		free(text);
	}
	/* tags: what code scanning filters alerts by. */
	json_t *props = json_pack("{s:[s,s],s:s,s:b}", "tags", "interconnect", layer_name(c->layer),
				  "layer", layer_name(c->layer), "critical", c->critical);
	if (d) {
		char *doc = xasprintf("docs/checks.md#%s", d->anchor);
		json_object_set_new(props, "documentation", json_string(doc));
		free(doc);
	}
	if (src)
		json_object_set_new(props, "source", json_string(src));
	json_object_set_new(rule, "properties", props);
	return rule;
}

static size_t rule_of(struct sarif *s, const struct ci_check *c)
{
	json_t *ix = json_object_get(s->rule_index, c->id);
	if (ix)
		return (size_t)json_integer_value(ix);
	size_t n = json_array_size(s->rules);
	json_array_append_new(s->rules, rule_json(c));
	json_object_set_new(s->rule_index, c->id, json_integer((json_int_t)n));
	return n;
}

/* partialFingerprints: what code scanning matches a result by across runs
 * (docs.github.com, "SARIF support for code scanning").  Its own key, not
 * primaryLocationLineHash (the upload action computes that one from the
 * source and warns when a tool's differs); FNV-1a 64 over what names the
 * finding, the rule, the pod, the subject and its file, and not the line,
 * so that an edit above a deployment does not open a new alert. */
static json_t *fingerprint(const struct ci_check *c, const char *pod)
{
	const char *parts[] = {c->id, pod ? pod : "", c->subject ? c->subject : "",
			       c->loc_file ? c->loc_file : ""};
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		for (const unsigned char *p = (const unsigned char *)parts[i];; p++) {
			h = (h ^ *p) * 0x100000001b3ULL; /* the NUL separates the parts */
			if (!*p)
				break;
		}
	char hex[17];
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	return json_pack("{s:s}", "checkInterconnect/v1", hex);
}

static void add_result(struct sarif *s, const struct ci_check *c, const struct ci_report *owner,
		       const char *pod)
{
	/* fail and warn are findings (error, warning); a critical skip is an
	 * open question SARIF calls "open" (a level other than none is only
	 * for kind "fail"); ok and a non-critical skip (not applicable) are
	 * no result at all. */
	const char *level, *kind;
	switch (c->status) {
	case CI_FAIL:
		level = "error";
		kind = "fail";
		break;
	case CI_WARN:
		level = "warning";
		kind = "fail";
		break;
	case CI_SKIPPED:
		if (!c->critical)
			return;
		level = "none";
		kind = "open";
		break;
	default: return;
	}
	size_t ri = rule_of(s, c);
	char *text = xasprintf("%s%s%s%s%s%s%s", pod ? pod : "", pod ? ": " : "",
			       c->subject && *c->subject ? c->subject : "",
			       c->subject && *c->subject ? ": " : "", c->detail,
			       c->fix ? ". Fix: " : "", c->fix ? c->fix : "");
	json_t *res = json_pack("{s:s,s:I,s:s,s:s,s:{s:o}}", "ruleId", c->id, "ruleIndex",
				(json_int_t)ri, "kind", kind, "level", level, "message", "text",
				render_json_string(text));
	free(text);

	json_t *locs = json_array(), *related = json_array();
	struct loc l;
	size_t primary = SIZE_MAX;
	if (c->subject && parse_loc(c->subject, &l)) {
		json_array_append_new(locs, location_json(s, &l));
		free(l.file);
	} else {
		primary = primary_evidence(c);
	}
	for (size_t i = 0; i < c->n_evidence; i++) {
		if (i != primary || !parse_loc(c->evidence[i], &l))
			continue;
		json_array_append_new(locs, location_json(s, &l));
		free(l.file);
	}
	/* No line of its own: where its deployment is written (a pod's: the
	 * deployment it belongs to, in the recipe the run read). */
	if (!json_array_size(locs) && (c->loc_file || (owner && owner->loc_file))) {
		struct loc at = {c->loc_file ? c->loc_file : owner->loc_file,
				 c->loc_file ? c->loc_line : owner->loc_line, 0};
		json_array_append_new(locs, location_json(s, &at));
	}
	/* A pod's finding: the pod, as a logical location beside the manifest
	 * it came from (when the run read one), or alone. */
	if (pod) {
		const char *slash = strrchr(pod, '/');
		json_t *lg = json_pack(
			"[{s:o,s:o,s:s}]", "name", render_json_string(slash ? slash + 1 : pod),
			"fullyQualifiedName", render_json_string(pod), "kind", "resource");
		if (json_array_size(locs))
			json_object_set_new(json_array_get(locs, 0), "logicalLocations", lg);
		else
			json_array_append_new(locs, json_pack("{s:o}", "logicalLocations", lg));
	}
	for (size_t i = 0; i < c->n_evidence; i++) {
		if (i == primary || !parse_loc(c->evidence[i], &l))
			continue;
		/* The other places the finding names (the side of a prefill/
		 * decode pair that is right): related, with what was read there. */
		json_t *j = location_json(s, &l);
		free(l.file);
		json_object_set_new(j, "id", json_integer((json_int_t)json_array_size(related)));
		json_object_set_new(j, "message",
				    json_pack("{s:o}", "text", render_json_string(c->evidence[i])));
		json_array_append_new(related, j);
	}
	if (json_array_size(locs))
		json_object_set_new(res, "locations", locs);
	else
		json_decref(locs);
	if (json_array_size(related))
		json_object_set_new(res, "relatedLocations", related);
	else
		json_decref(related);
	json_object_set_new(res, "partialFingerprints", fingerprint(c, pod));
	json_object_set_new(res, "properties",
			    json_pack("{s:s,s:b,s:s}", "status", status_name(c->status), "critical",
				      c->critical, "layer", layer_name(c->layer)));
	json_array_append_new(s->results, res);
}

static void add_report(struct sarif *s, const struct ci_report *r, const char *pod)
{
	for (size_t i = 0; i < r->n_checks; i++)
		add_result(s, &r->checks[i], r, pod);
	for (size_t i = 0; i < r->n_children; i++)
		add_report(s, &r->children[i], r->children[i].target);
}

void render_sarif(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		  const struct render_opts *o)
{
	struct sarif s = {json_array(), json_array(), json_object(), o ? o->cwd : NULL, false};
	add_report(&s, r, NULL);

	json_t *driver = json_pack("{s:s,s:s,s:s,s:s,s:o}", "name", "check_interconnect",
				   "informationUri", CI_HOMEPAGE, "version", CI_VERSION,
				   "semanticVersion", CI_VERSION, "rules", s.rules);
	char when[32];
	render_rfc3339(render_timestamp(), when, sizeof(when));
	json_t *inv = json_pack("{s:b,s:s,s:i}", "executionSuccessful", true, "endTimeUtc", when,
				"exitCode", verdict_exit_code(v));
	/* An absolute file:// location is mapped into the checkout through
	 * the folder the tool ran in (the Multitool's GH1006). */
	if (s.absolute && s.cwd) {
		char *slash = xasprintf("%s/", s.cwd), *dir = uri_encode("file://", slash);
		json_object_set_new(inv, "workingDirectory", json_pack("{s:s}", "uri", dir));
		free(dir);
		free(slash);
	}
	json_t *run = json_pack("{s:{s:o},s:[o],s:o}", "tool", "driver", driver, "invocations", inv,
				"results", s.results);
	json_object_set_new(run, "properties",
			    json_pack("{s:s,s:o,s:o,s:b}", "command", r->command, "target",
				      render_json_string(r->target), "verdict",
				      json_string(verdict_name(v->kind)), "trusted", v->trusted));
	json_object_set_new(json_object_get(run, "properties"), "summary",
			    render_json_string(v->summary));
	json_t *doc = json_pack("{s:s,s:s,s:[o]}", "$schema", SARIF_SCHEMA, "version", "2.1.0",
				"runs", run);
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
	json_decref(s.rule_index);
}
