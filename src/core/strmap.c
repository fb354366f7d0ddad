/* SPDX-License-Identifier: Apache-2.0 */
/* The string -> index map of strmap.h. */
#include "core/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void strmap_release(struct strmap *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

static size_t strmap_hash(const char *s)
{
	size_t h = (size_t)14695981039346656037u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (size_t)1099511628211u;
	return h;
}

/* The slot holding key, or the empty one where it would go. */
static struct strmap_slot *strmap_find(const struct strmap *m, const char *key, size_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct strmap_slot *s = &m->slot[i];
		if (!s->key || (s->hash == h && !strcmp(s->key, key)))
			return s;
	}
}

static void strmap_grow(struct strmap *m)
{
	struct strmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 16;
	m->slot = xcalloc(m->cap, sizeof(*m->slot));
	/* Rehash by the kept hashes: no string is read again. */
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.slot[i].key)
			continue;
		size_t mask = m->cap - 1, j = old.slot[i].hash & mask;
		while (m->slot[j].key)
			j = (j + 1) & mask;
		m->slot[j] = old.slot[i];
	}
	free(old.slot);
}

size_t strmap_get(const struct strmap *m, const char *key)
{
	if (!m->cap)
		return STRMAP_NONE;
	const struct strmap_slot *s = strmap_find(m, key, strmap_hash(key));
	return s->key ? s->val : STRMAP_NONE;
}

size_t strmap_put(struct strmap *m, const char *key, size_t val)
{
	if ((m->n + 1) * 2 > m->cap)
		strmap_grow(m);
	size_t h = strmap_hash(key);
	struct strmap_slot *s = strmap_find(m, key, h);
	if (s->key)
		return s->val;
	s->key = key;
	s->hash = h;
	s->val = val;
	m->n++;
	return val;
}
