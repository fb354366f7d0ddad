/* SPDX-License-Identifier: Apache-2.0 */
#include "core/report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/report_live.h"
#include "core/xalloc.h"

void report_init(struct ci_report *r, const char *command, const char *target)
{
	memset(r, 0, sizeof(*r));
	r->command = xstrdup(command);
	r->target = xstrdup(target ? target : "");
}

static void check_release(struct ci_check *c)
{
	free(c->id);
	free(c->subject);
	free(c->detail);
	free(c->fix);
	for (size_t i = 0; i < c->n_evidence; i++)
		free(c->evidence[i]);
	free(c->evidence);
	free(c->loc_file);
}

void report_release(struct ci_report *r)
{
	for (size_t i = 0; i < r->n_checks; i++)
		check_release(&r->checks[i]);
	free(r->checks);
	for (size_t i = 0; i < r->n_facts; i++) {
		free(r->facts[i].name);
		free(r->facts[i].value);
		free(r->facts[i].subject);
		free(r->facts[i].source);
	}
	free(r->facts);
	for (size_t i = 0; i < r->n_steps; i++) {
		free(r->steps[i].description);
		free(r->steps[i].command);
	}
	free(r->steps);
	for (size_t i = 0; i < r->n_children; i++)
		report_release(&r->children[i]);
	free(r->children);
	free(r->command);
	free(r->target);
	free(r->child_label);
	free(r->loc_file);
	if (r->live) {
		ci_live_release(r->live);
		free(r->live);
	}
	memset(r, 0, sizeof(*r));
}

/* Details and fixes are one line by contract: fold any newline a caller
 * passed through from the input. */
static char *one_line(char *s)
{
	for (char *p = s; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	return s;
}

static struct ci_check *vadd(struct ci_report *r, const char *id, enum ci_status st, bool critical,
			     enum ci_layer layer, const char *subject, const char *fmt, va_list ap)
{
	struct ci_check *c = XPUSH(r->checks, r->n_checks, r->cap_checks);
	memset(c, 0, sizeof(*c));
	c->id = xstrdup(id);
	c->status = st;
	c->critical = critical;
	c->layer = layer;
	c->subject = subject ? xstrdup(subject) : NULL;
	c->detail = one_line(xvasprintf(fmt, ap));
	return c;
}

struct ci_check *report_add(struct ci_report *r, const char *id, enum ci_status st, bool critical,
			    enum ci_layer layer, const char *subject, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct ci_check *c = vadd(r, id, st, critical, layer, subject, fmt, ap);
	va_end(ap);
	return c;
}

struct ci_check *report_check(struct ci_report *r, const struct check_desc *d, enum ci_status st,
			      const char *subject, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct ci_check *c = vadd(r, d->id, st, d->critical, d->layer, subject, fmt, ap);
	va_end(ap);
	c->flags = d->flags;
	c->noun = d->noun;
	c->source = d->source;
	return c;
}

struct ci_check *report_na(struct ci_report *r, const struct check_desc *d, const char *subject,
			   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct ci_check *c = vadd(r, d->id, CI_SKIPPED, false, d->layer, subject, fmt, ap);
	va_end(ap);
	c->flags = d->flags;
	c->noun = d->noun;
	c->source = d->source;
	return c;
}

struct ci_check *report_check_as(struct ci_report *r, const struct check_desc *d, enum ci_status st,
				 bool critical, enum ci_layer layer, const char *subject,
				 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct ci_check *c = vadd(r, d->id, st, critical, layer, subject, fmt, ap);
	va_end(ap);
	c->flags = d->flags;
	c->noun = d->noun;
	c->source = d->source;
	return c;
}

const struct check_desc *check_desc_find(const struct check_desc *table, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(table[i].id, id))
			return &table[i];
	return NULL;
}

void check_set_fix(struct ci_check *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(c->fix);
	c->fix = one_line(xvasprintf(fmt, ap));
	va_end(ap);
}

void check_add_evidence(struct ci_check *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char **slot = XPUSH(c->evidence, c->n_evidence, c->cap_evidence);
	*slot = one_line(xvasprintf(fmt, ap));
	va_end(ap);
}

void check_set_location(struct ci_check *c, const char *file, int line)
{
	if (!file || !*file)
		return;
	free(c->loc_file);
	c->loc_file = one_line(xstrdup(file));
	c->loc_line = line > 0 ? line : 0;
}

void report_add_fact(struct ci_report *r, const char *name, const char *value, const char *subject,
		     const char *source)
{
	struct ci_fact *f = XPUSH(r->facts, r->n_facts, r->cap_facts);
	f->name = xstrdup(name);
	f->value = xstrdup(value);
	f->subject = xstrdup(subject);
	f->source = xstrdup(source);
}

void report_add_step(struct ci_report *r, const char *description, const char *command)
{
	struct ci_step *s = XPUSH(r->steps, r->n_steps, r->cap_steps);
	s->description = one_line(xstrdup(description));
	s->command = xstrdup(command);
}

void report_adopt_child(struct ci_report *r, struct ci_report *child)
{
	struct ci_report *slot = XPUSH(r->children, r->n_children, r->cap_children);
	*slot = *child;
	memset(child, 0, sizeof(*child));
}

struct ci_counts report_counts(const struct ci_report *r)
{
	struct ci_counts n = {0};
	for (size_t i = 0; i < r->n_checks; i++) {
		switch (r->checks[i].status) {
		case CI_OK: n.ok++; break;
		case CI_WARN: n.warn++; break;
		case CI_FAIL: n.fail++; break;
		case CI_SKIPPED: n.skipped++; break;
		}
	}
	for (size_t i = 0; i < r->n_children; i++) {
		struct ci_counts c = report_counts(&r->children[i]);
		n.ok += c.ok;
		n.warn += c.warn;
		n.fail += c.fail;
		n.skipped += c.skipped;
	}
	return n;
}

const char *status_name(enum ci_status st)
{
	static const char *const names[] = {"ok", "warn", "fail", "skipped"};
	return (unsigned)st < 4 ? names[st] : "?";
}

int verdict_severity(enum ci_verdict_kind k)
{
	switch (k) {
	case CI_BLOCKED: return 0;
	case CI_UNKNOWN: return 1;
	case CI_DEGRADED: return 2;
	default: return 3;
	}
}

const char *verdict_name(enum ci_verdict_kind k)
{
	static const char *const names[] = {"ready", "degraded", "blocked", "unknown"};
	return (unsigned)k < 4 ? names[k] : "?";
}

const char *layer_name(enum ci_layer l)
{
	static const char *const names[] = {"fabric", "driver", "environment", "tuning"};
	return (unsigned)l < 4 ? names[l] : "?";
}
