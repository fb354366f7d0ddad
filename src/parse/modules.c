/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/modules.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

#define MAX_USERS 256

static bool modname_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

static void add_users(struct kmod *m, char *list)
{
	char *p = list, *c;

	if (strcmp(list, "-") == 0)
		return;
	for (;;) {
		c = strchr(p, ',');
		if (c)
			*c = '\0';
		if (*p && modname_ok(p) && m->nusers < MAX_USERS)
			*XPUSH(m->users, m->nusers, m->cap) = xstrdup(p);
		if (!c)
			break;
		p = c + 1;
	}
}

static bool is_state(const char *s)
{
	return strcmp(s, "Live") == 0 || strcmp(s, "Loading") == 0 || strcmp(s, "Unloading") == 0;
}

int modules_parse(const char *buf, size_t len, struct modules *out)
{
	struct lines it;
	char *l, *tok[8];
	size_t other = 0;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		size_t n = str_split_ws(l, tok, 8);
		uint64_t size, ref = 0;
		struct kmod *m;

		if (!n)
			continue;
		if (strcmp(tok[0], "Module") == 0 && n >= 2 && strcmp(tok[1], "Size") == 0)
			continue; /* lsmod header */
		if (n < 3 || !modname_ok(tok[0]) || !str_to_u64(tok[1], 10, &size) ||
		    (strcmp(tok[2], "-") != 0 && !str_to_u64(tok[2], 10, &ref))) {
			other++;
			continue;
		}
		if (out->n >= PARSE_MAX_ITEMS)
			break;
		m = XPUSH(out->v, out->n, out->cap);
		memset(m, 0, sizeof(*m));
		m->name = xstrdup(tok[0]);
		m->size = size;
		m->refcount = strcmp(tok[2], "-") == 0 ? -1 : (ref > 1000000 ? 1000000 : (int)ref);
		if (n >= 4) {
			/* /proc/modules: users, state, address; lsmod: users only.
			 * "[permanent]" is not a module name and is dropped. */
			if (!is_state(tok[3]))
				add_users(m, tok[3]);
			if (n >= 5 && is_state(tok[4]))
				m->state = xstrdup(tok[4]);
			else if (is_state(tok[3]))
				m->state = xstrdup(tok[3]);
		}
	}
	lines_release(&it);
	return (out->n || other == 0) ? 0 : -1;
}

void modules_release(struct modules *m)
{
	size_t i, j;

	for (i = 0; i < m->n; i++) {
		for (j = 0; j < m->v[i].nusers; j++)
			free(m->v[i].users[j]);
		free(m->v[i].users);
		free(m->v[i].name);
		free(m->v[i].state);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

/* Module names treat '-' and '_' alike (the kernel does). */
static bool modname_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
		if (x != y)
			return false;
	}
	return *a == *b;
}

const struct kmod *modules_find(const struct modules *m, const char *name)
{
	size_t i;

	for (i = 0; name && i < m->n; i++)
		if (modname_eq(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}

bool modules_has(const struct modules *m, const char *name)
{
	return modules_find(m, name) != NULL;
}

bool modules_used_by(const struct modules *m, const char *name, const char *user)
{
	const struct kmod *k = modules_find(m, name);
	size_t i;

	for (i = 0; k && user && i < k->nusers; i++)
		if (modname_eq(k->users[i], user))
			return true;
	return false;
}
