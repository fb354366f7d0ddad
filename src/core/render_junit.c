/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JUnit XML, the report CI systems and cluster acceptance suites ingest:
 * one <testsuite> for the run's own checks and one per pod of a fleet run,
 * one <testcase> per check.  fail is a <failure type="fail">, warn a
 * <failure type="warn"> (a known risk keeps the transport from being
 * trusted, as the verdict says), a critical skipped an <error
 * type="unknown"> (a check that had to be made and could not: the run is
 * not green, as its verdict unknown says), any other skipped a <skipped>.
 * The structure is the Jenkins xunit plugin's JUnit schema (junit-10.xsd,
 * tests/junit/), checked with xmllint in the tests: <testsuites> carries
 * no skipped count there.  A finding with a location is named and opened
 * with its file and line.  Outside text is sanitised, then escaped for
 * XML; XML 1.0 cannot carry control characters even escaped (the
 * sanitiser has already turned them into visible \xNN), nor U+FFFE,
 * U+FFFF, surrogates or broken UTF-8: those bytes are written \xNN too.
 */
#include <stdlib.h>
#include <string.h>

#include "core/render.h"

/* The length of the UTF-8 sequence at p when it encodes a character XML
 * 1.0 allows (its Char production: #x9 | #xA | #xD | [#x20-#xD7FF] |
 * [#xE000-#xFFFD] | [#x10000-#x10FFFF]), else 0: a control, a surrogate,
 * U+FFFE or U+FFFF, an overlong or broken sequence.  One such character
 * makes the whole report invalid XML, escaped or not. */
static size_t xml_char_len(const unsigned char *p)
{
	unsigned c = p[0];
	if (c < 0x80)
		return c >= 0x20 || c == 0x9 || c == 0xa || c == 0xd ? 1 : 0;
	size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
	if (!n || c > 0xf4)
		return 0;
	unsigned long cp = c & (0x3f >> (n - 1));
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0; /* overlong, or past Unicode */
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

static void xml_text(FILE *out, const char *s)
{
	char *c = render_clean(s);
	for (const char *p = c; *p;) {
		size_t n = xml_char_len((const unsigned char *)p);
		if (!n) {
			/* shown as the sanitiser shows a control: visible bytes */
			fprintf(out, "\\x%02x", (unsigned char)*p++);
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default: fwrite(p, 1, n, out);
		}
		p += n;
	}
	free(c);
}

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	xml_text(out, value);
	fputc('"', out);
}

/* "env.ucx.tls" -> classname "env.ucx", the grouping CI viewers show. */
static void classname(FILE *out, const char *id)
{
	const char *dot = strrchr(id, '.');
	fputs(" classname=\"", out);
	if (dot) {
		char part[128];
		snprintf(part, sizeof(part), "%.*s", (int)(dot - id), id);
		xml_text(out, part);
	} else {
		xml_text(out, id);
	}
	fputc('"', out);
}

/* A critical check that was skipped: the tool could not tell. */
static bool is_error(const struct ci_check *c)
{
	return c->status == CI_SKIPPED && c->critical;
}

static void testcase(FILE *out, const struct ci_check *c)
{
	char *at = render_check_location(c);
	fputs("    <testcase", out);
	classname(out, c->id);
	fputs(" name=\"", out);
	xml_text(out, c->id);
	if ((c->subject && *c->subject) || at) {
		fputs(" (", out);
		xml_text(out, c->subject && *c->subject ? c->subject : "");
		if (at) {
			fputs(c->subject && *c->subject ? " at " : "at ", out);
			xml_text(out, at);
		}
		fputc(')', out);
	}
	fputs("\" time=\"0\"", out);
	if (c->status == CI_OK) {
		fputs("/>\n", out);
		free(at);
		return;
	}
	fputs(">\n", out);
	if (c->status == CI_SKIPPED && !c->critical) {
		fputs("      <skipped", out);
		attr(out, "message", c->detail);
		fputs("/>\n", out);
	} else {
		const char *el = is_error(c) ? "error" : "failure";
		fprintf(out, "      <%s", el);
		attr(out, "type", is_error(c) ? "unknown" : c->status == CI_FAIL ? "fail" : "warn");
		attr(out, "message", c->detail);
		fputc('>', out);
		if (at) {
			fputs("at ", out);
			xml_text(out, at);
			fputc('\n', out);
		}
		if (c->fix) {
			fputs("fix: ", out);
			xml_text(out, c->fix);
			fputc('\n', out);
		}
		for (size_t i = 0; i < c->n_evidence; i++) {
			fputs("&gt; ", out);
			xml_text(out, c->evidence[i]);
			fputc('\n', out);
		}
		fprintf(out, "</%s>\n", el);
	}
	fputs("    </testcase>\n", out);
	free(at);
}

struct junit_counts {
	size_t tests, failures, errors, skipped;
};

static void count(const struct ci_report *r, bool deep, struct junit_counts *n)
{
	for (size_t i = 0; i < r->n_checks; i++) {
		const struct ci_check *c = &r->checks[i];
		n->tests++;
		n->failures += c->status == CI_FAIL || c->status == CI_WARN;
		n->errors += is_error(c);
		n->skipped += c->status == CI_SKIPPED && !c->critical;
	}
	for (size_t i = 0; deep && i < r->n_children; i++)
		count(&r->children[i], deep, n);
}

/* <testsuites> has no skipped attribute in junit-10.xsd; <testsuite> has. */
static void counts_attrs(FILE *out, const struct ci_report *r, bool deep, const char *when)
{
	struct junit_counts n = {0};
	count(r, deep, &n);
	fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\"", n.tests, n.failures,
		n.errors);
	if (!deep)
		fprintf(out, " skipped=\"%zu\"", n.skipped);
	fputs(" time=\"0\"", out);
	if (when)
		attr(out, "timestamp", when);
}

static void suite(FILE *out, const struct ci_report *r, const char *name, const char *when,
		  const struct ci_verdict *v)
{
	fputs("  <testsuite", out);
	attr(out, "name", name);
	counts_attrs(out, r, false, when);
	fputs(">\n", out);
	if (v) {
		fputs("    <properties>\n      <property name=\"verdict\"", out);
		attr(out, "value", verdict_name(v->kind));
		fputs("/>\n      <property name=\"summary\"", out);
		attr(out, "value", v->summary);
		fputs("/>\n    </properties>\n", out);
	}
	for (size_t i = 0; i < r->n_checks; i++)
		testcase(out, &r->checks[i]);
	fputs("  </testsuite>\n", out);
	/* JUnit suites do not nest in what CI systems read: a pod's suite
	 * follows its parent's. */
	for (size_t i = 0; i < r->n_children; i++)
		suite(out, &r->children[i], r->children[i].target, when, NULL);
}

void render_junit(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		  const struct render_opts *o)
{
	(void)o;
	char when[32];
	render_rfc3339(render_timestamp(), when, sizeof(when));
	/* JUnit's timestamp is ISO 8601 without a zone: the 'Z' is dropped. */
	when[strlen(when) - 1] = '\0';
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", out);
	char *name = NULL;
	size_t nl = strlen(r->command) + strlen(r->target) + 32;
	name = malloc(nl);
	if (!name)
		return;
	snprintf(name, nl, "check_interconnect %s", r->command);
	attr(out, "name", name);
	counts_attrs(out, r, true, NULL);
	fputs(">\n", out);
	snprintf(name, nl, "%s: %s", r->command, r->target);
	suite(out, r, name, when, v);
	fputs("</testsuites>\n", out);
	free(name);
}
