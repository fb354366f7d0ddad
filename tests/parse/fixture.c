/* SPDX-License-Identifier: Apache-2.0 */
#include "fixture.h"

#include <stdarg.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

char *fixture_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap + 1);
			if (!buf)
				abort();
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

char *fixture_strip(const char *text, size_t len, size_t *out_len)
{
	const char *p = NULL, *q;
	char *o;
	size_t n;

	if (len >= 5 && memcmp(text, "# ---", 5) == 0)
		p = text;
	for (q = text; !p && q && (size_t)(q - text) < len;) {
		q = memchr(q, '\n', len - (size_t)(q - text));
		if (!q)
			break;
		q++;
		if ((size_t)(q - text) + 5 <= len && memcmp(q, "# ---", 5) == 0)
			p = q;
	}
	if (p) {
		const char *nl = memchr(p, '\n', len - (size_t)(p - text));
		p = nl ? nl + 1 : text + len;
	} else {
		p = text;
	}
	n = len - (size_t)(p - text);
	o = malloc(n + 1);
	if (!o)
		abort();
	memcpy(o, p, n);
	o[n] = '\0';
	*out_len = n;
	return o;
}

char *fixture_body(const char *name, size_t *len)
{
	char path[512];
	size_t n;
	char *raw, *body;

	snprintf(path, sizeof(path), FIXTURE_DIR "%s", name);
	raw = fixture_read(path, &n);
	if (!raw)
		fail_msg("cannot read fixture %s", path);
	body = fixture_strip(raw, n, len);
	free(raw);
	return body;
}

char *fixture_part(const char *body, int idx, size_t *len)
{
	const char *start = body, *p = body;
	int cur = 0;
	char *o;
	size_t n;

	for (;;) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl + 1 : p + strlen(p);
		bool sep = strncmp(p, "### ", 4) == 0;
		if (sep || !*p) {
			if (cur == idx) {
				n = (size_t)(p - start);
				o = malloc(n + 1);
				if (!o)
					abort();
				memcpy(o, start, n);
				o[n] = '\0';
				*len = n;
				return o;
			}
			if (!*p)
				return NULL;
			cur++;
			start = end;
		}
		p = end;
	}
}
