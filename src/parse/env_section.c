/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/env_section.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

static bool name_ok(const char *p, size_t n)
{
	if (!n || n > 128 || (p[0] >= '0' && p[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			return false;
	}
	return true;
}

static bool have_name(const struct env_section *e, const char *p, size_t n)
{
	for (size_t i = 0; i < e->n; i++)
		if (strlen(e->v[i].name) == n && !memcmp(e->v[i].name, p, n))
			return true;
	return false;
}

int env_section_parse(const char *buf, size_t len, struct env_section *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf)
		return -1;
	if (len > LINES_MAX_INPUT)
		len = LINES_MAX_INPUT;
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *eq = memchr(p, '=', (size_t)(le - p));
		if (eq && name_ok(p, (size_t)(eq - p)) && !have_name(out, p, (size_t)(eq - p))) {
			if (out->n >= PARSE_MAX_ITEMS) {
				out->truncated = true;
				break;
			}
			struct env_entry *v = XPUSH(out->v, out->n, out->cap);
			v->name = xstrndup(p, (size_t)(eq - p));
			/* as written: the renderer escapes, JSON stays exact */
			v->value = xmalloc((size_t)(le - eq));
			memcpy(v->value, eq + 1, (size_t)(le - eq - 1));
			v->value[le - eq - 1] = '\0';
		}
		p = nl ? nl + 1 : end;
	}
	return out->n ? 0 : -1;
}

void env_section_release(struct env_section *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].name);
		free(e->v[i].value);
	}
	free(e->v);
	memset(e, 0, sizeof(*e));
}
