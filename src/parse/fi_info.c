/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/fi_info.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

/* Open MPI --tag-output: "[1,0]<stdout>:" (jobid, rank).  Returns the text
 * after the tag and sets *rank, or returns s unchanged with *rank = -1. */
static char *strip_tag(char *s, int *rank)
{
	char *p = s, *q;
	long r = 0;

	*rank = -1;
	if (*p != '[')
		return s;
	p++;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p != ',')
		return s;
	p++;
	if (!isdigit((unsigned char)*p))
		return s;
	while (isdigit((unsigned char)*p) && r < 1000000)
		r = r * 10 + (*p++ - '0');
	if (*p != ']')
		return s;
	p++;
	if (*p == '<') {
		q = strchr(p, '>');
		if (!q || q[1] != ':')
			return s;
		p = q + 2;
	} else if (*p == ':') {
		p++;
	} else {
		return s;
	}
	*rank = (int)r;
	return p;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

int fi_info_parse(const char *buf, size_t len, struct fi_info *out)
{
	struct lines it;
	char *l;
	/* with tagged output, ranks interleave: keep the open entry per rank */
	struct fi_info_entry *cur = NULL;
	int cur_rank = -2;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		int rank;
		char *s = str_trim(strip_tag(l, &rank)), *k, *v;

		if (str_starts(s, "fi_getinfo:")) {
			long code = strtol(s + 11, NULL, 10);
			if (code < 0 && code > -100000)
				out->getinfo_error = (int)code;
			out->no_data = out->getinfo_error == -61;
			continue;
		}
		if (!str_kv(s, ':', &k, &v))
			continue;
		if (strcmp(k, "provider") == 0) {
			if (out->n >= PARSE_MAX_ITEMS) {
				cur = NULL;
				continue;
			}
			cur = XPUSH(out->v, out->n, out->cap);
			memset(cur, 0, sizeof(*cur));
			cur->provider = xstrdup(v);
			cur->rank = rank;
			cur_rank = rank;
			continue;
		}
		if (!cur || rank != cur_rank) {
			size_t i;
			cur = NULL;
			for (i = out->n; i > 0; i--)
				if (out->v[i - 1].rank == rank) {
					cur = &out->v[i - 1];
					cur_rank = rank;
					break;
				}
			if (!cur)
				continue;
		}
		if (strcmp(k, "fabric") == 0)
			set_str(&cur->fabric, v);
		else if (strcmp(k, "domain") == 0)
			set_str(&cur->domain, v);
		else if (strcmp(k, "version") == 0)
			set_str(&cur->version, v);
		else if (strcmp(k, "type") == 0)
			set_str(&cur->type, v);
		else if (strcmp(k, "protocol") == 0)
			set_str(&cur->protocol, v);
	}
	lines_release(&it);
	return (out->n || out->getinfo_error) ? 0 : -1;
}

void fi_info_release(struct fi_info *f)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		free(f->v[i].provider);
		free(f->v[i].fabric);
		free(f->v[i].domain);
		free(f->v[i].version);
		free(f->v[i].type);
		free(f->v[i].protocol);
	}
	free(f->v);
	memset(f, 0, sizeof(*f));
}

bool fi_info_has_provider(const struct fi_info *f, const char *provider)
{
	size_t i;

	for (i = 0; provider && i < f->n; i++)
		if (strcmp(f->v[i].provider, provider) == 0)
			return true;
	return false;
}
