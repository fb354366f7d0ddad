/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/prom_text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/redact.h"
#include "core/xalloc.h"
#include "parse/lines.h"

static bool name_char(char c, bool first)
{
	return isalpha((unsigned char)c) || c == '_' || c == ':' ||
	       (!first && isdigit((unsigned char)c));
}

/* Read a metric or label name at *p; returns its length (0: none). */
static size_t read_name(const char *p)
{
	size_t n = 0;
	while (p[n] && name_char(p[n], n == 0))
		n++;
	return n;
}

static void sample_free(struct prom_sample *s)
{
	free(s->name);
	for (size_t i = 0; i < s->n_labels; i++) {
		free(s->labels[i].name);
		free(s->labels[i].value);
	}
	memset(s, 0, sizeof(*s));
}

/* `{a="x",b="y\"z"}` at *pp; advances *pp past the closing brace. */
static bool read_labels(const char **pp, struct prom_sample *s)
{
	const char *p = *pp + 1;
	for (;;) {
		p = str_skip_ws(p);
		if (*p == '}') {
			*pp = p + 1;
			return true;
		}
		size_t n = read_name(p);
		if (!n)
			return false;
		const char *lname = p;
		p = str_skip_ws(p + n);
		if (*p != '=')
			return false;
		p = str_skip_ws(p + 1);
		if (*p != '"')
			return false;
		p++;
		size_t cap = strlen(p) + 1, k = 0;
		char *val = xmalloc(cap);
		while (*p && *p != '"') {
			if (*p == '\\' && p[1]) {
				p++;
				val[k++] = *p == 'n' ? '\n' : *p;
			} else {
				val[k++] = *p;
			}
			p++;
		}
		val[k] = '\0';
		if (*p != '"') {
			free(val);
			return false;
		}
		p++;
		if (s->n_labels < PROM_MAX_LABELS) {
			/* The one redaction rule, at the source: an exporter's
			 * labels may carry a token, a URL password or a
			 * JSON blob, and every output and the checks see only
			 * what is kept here. */
			char *name = xstrndup(lname, n);
			char *shown =
				redact_is_secret_name(name) ? xstrdup(REDACTED) : redact_text(val);
			free(val);
			s->labels[s->n_labels].name = name;
			s->labels[s->n_labels].value = shown;
			s->n_labels++;
		} else {
			free(val);
		}
		p = str_skip_ws(p);
		if (*p == ',')
			p++;
	}
}

static bool read_value(const char *p, double *out)
{
	char *end;
	p = str_skip_ws(p);
	if (!*p)
		return false;
	errno = 0;
	double d = strtod(p, &end);
	if (end == p || errno == ERANGE)
		return false;
	if (*end && *end != ' ' && *end != '\t')
		return false;
	*out = d;
	return true;
}

int prom_text_parse(const char *buf, size_t len, struct prom_text *out)
{
	struct lines it;
	char *l;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		const char *p = str_skip_ws(l);
		if (!*p || *p == '#')
			continue;
		size_t n = read_name(p);
		struct prom_sample s;
		memset(&s, 0, sizeof(s));
		if (!n) {
			out->bad_lines++;
			continue;
		}
		s.name = xstrndup(p, n);
		p += n;
		if (*p == '{' && !read_labels(&p, &s)) {
			sample_free(&s);
			out->bad_lines++;
			continue;
		}
		if (!read_value(p, &s.value) || isnan(s.value)) {
			sample_free(&s);
			out->bad_lines++;
			continue;
		}
		if (out->n >= PARSE_MAX_ITEMS) {
			sample_free(&s);
			out->capped = true;
			continue;
		}
		*XPUSH(out->v, out->n, out->cap) = s;
	}
	lines_release(&it);
	return out->n ? 0 : -1;
}

void prom_text_release(struct prom_text *p)
{
	for (size_t i = 0; i < p->n; i++)
		sample_free(&p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

bool prom_text_sum(const struct prom_text *p, const char *name, double *sum)
{
	bool any = false;
	*sum = 0;
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].name, name)) {
			*sum += p->v[i].value;
			any = true;
		}
	return any;
}

const char *prom_sample_label(const struct prom_sample *s, const char *label)
{
	for (size_t i = 0; i < s->n_labels; i++)
		if (!strcmp(s->labels[i].name, label))
			return s->labels[i].value;
	return NULL;
}
