/* SPDX-License-Identifier: Apache-2.0 */
#include "manifest/ytree.h"

#include "core/xalloc.h"
#include "manifest/deploy_model.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

/* ---- arena: one per document, so a document's tree is freed in one go ---- */

struct chunk {
	struct chunk *next;
	size_t used, size;
	max_align_t data[];
};

struct arena {
	struct chunk *head;
};

#define CHUNK_BYTES (32u * 1024u)

static void *arena_alloc(struct arena *a, size_t n)
{
	n = (n + 15u) & ~(size_t)15u;
	struct chunk *c = a->head;
	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK_BYTES ? n : CHUNK_BYTES;
		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *p = (char *)c->data + c->used;
	c->used += n;
	return p;
}

static void arena_release(struct arena *a)
{
	struct chunk *c = a->head;
	while (c) {
		struct chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = NULL;
}

/* ---- anchors: open addressing, so many aliases stay linear ---- */

struct anchor {
	const char *name;
	const struct ynode *node;
};

struct anchors {
	struct anchor *slot;
	size_t cap, n; /* cap is a power of two */
};

static size_t anchor_hash(const char *s)
{
	size_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static void anchors_put(struct anchors *t, const char *name, const struct ynode *node);

static void anchors_grow(struct anchors *t)
{
	struct anchors old = *t;
	t->cap = old.cap ? old.cap * 2 : 64;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	t->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slot[i].name)
			anchors_put(t, old.slot[i].name, old.slot[i].node);
	free(old.slot);
}

/* A redefined anchor replaces the old one: aliases refer to the latest. */
static void anchors_put(struct anchors *t, const char *name, const struct ynode *node)
{
	if ((t->n + 1) * 2 > t->cap)
		anchors_grow(t);
	size_t i = anchor_hash(name) & (t->cap - 1);
	while (t->slot[i].name && strcmp(t->slot[i].name, name) != 0)
		i = (i + 1) & (t->cap - 1);
	if (!t->slot[i].name)
		t->n++;
	t->slot[i].name = name;
	t->slot[i].node = node;
}

static const struct ynode *anchors_get(const struct anchors *t, const char *name)
{
	if (!t->cap)
		return NULL;
	size_t i = anchor_hash(name) & (t->cap - 1);
	while (t->slot[i].name) {
		if (strcmp(t->slot[i].name, name) == 0)
			return t->slot[i].node;
		i = (i + 1) & (t->cap - 1);
	}
	return NULL;
}

static void anchors_clear(struct anchors *t)
{
	if (t->slot)
		memset(t->slot, 0, t->cap * sizeof(*t->slot));
	t->n = 0;
}

/* ---- builder ---- */

struct frame {
	struct ynode *node;
	const char *anchor;        /* arena copy, or NULL */
	const struct ynode **kids; /* scratch, kept between uses of this depth */
	size_t n, cap;
};

struct builder {
	struct arena arena;
	struct anchors anchors;
	struct frame frames[MANIFEST_MAX_DEPTH + 1];
	int depth;
	const struct ynode *root;
	size_t nodes; /* in the file, as written */
	struct yerror *err;
	bool failed;
	const char *buf;
	size_t len;
};

static size_t sat_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

/* Takes ownership of msg.  Only the first failure is kept: it is the cause. */
static void fail(struct builder *b, const yaml_mark_t *m, char *msg)
{
	if (b->failed) {
		free(msg);
		return;
	}
	b->failed = true;
	b->err->line = m ? (int)m->line + 1 : 0;
	b->err->col = m ? (int)m->column + 1 : 0;
	b->err->message = msg;
}

static char *arena_strdup(struct arena *a, const char *s, size_t n)
{
	char *d = arena_alloc(a, n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static void add_child(struct builder *b, const struct ynode *child, const yaml_mark_t *m)
{
	if (b->depth == 0) {
		b->root = child;
		return;
	}
	struct frame *f = &b->frames[b->depth - 1];
	struct ynode *parent = f->node;
	*XPUSH(f->kids, f->n, f->cap) = child;
	parent->weight = sat_add(parent->weight, child->weight);
	parent->bytes = sat_add(parent->bytes, child->bytes);
	/* Every ancestor's weight is at least its descendants', so checking the
	 * open collections catches an alias bomb before it grows further. */
	if (parent->weight > MANIFEST_MAX_EXPANDED)
		fail(b, m,
		     xstrdup("aliases expand to more than 200000 nodes (alias bomb?); rest of file skipped"));
	else if (parent->bytes > MANIFEST_MAX_EXPANDED_BYTES)
		fail(b, m,
		     xstrdup("aliases expand to more than 16 MiB of text (alias bomb?); rest of file skipped"));
}

static struct ynode *new_node(struct builder *b, unsigned char kind, const yaml_mark_t *m)
{
	if (++b->nodes > MANIFEST_MAX_NODES) {
		fail(b, m, xstrdup("more than 200000 YAML nodes; rest of file skipped"));
		return NULL;
	}
	struct ynode *n = arena_alloc(&b->arena, sizeof(*n));
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	n->weight = 1;
	return n;
}

static void set_anchor(struct builder *b, const struct ynode *n, const yaml_char_t *anchor)
{
	if (anchor)
		anchors_put(
			&b->anchors,
			arena_strdup(&b->arena, (const char *)anchor, strlen((const char *)anchor)),
			n);
}

static bool is_null_scalar(const yaml_event_t *ev)
{
	const char *tag = (const char *)ev->data.scalar.tag;
	if (tag && strcmp(tag, "tag:yaml.org,2002:null") == 0)
		return true;
	if (tag && strcmp(tag, "!") != 0)
		return false; /* !!str null is the text "null" */
	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *v = (const char *)ev->data.scalar.value;
	return ev->data.scalar.length == 0 || strcmp(v, "~") == 0 || strcmp(v, "null") == 0 ||
	       strcmp(v, "Null") == 0 || strcmp(v, "NULL") == 0;
}

static void on_scalar(struct builder *b, const yaml_event_t *ev)
{
	struct ynode *n = new_node(b, YN_SCALAR, &ev->start_mark);
	if (!n)
		return;
	yaml_scalar_style_t st = ev->data.scalar.style;
	n->n = ev->data.scalar.length;
	n->u.s = arena_strdup(&b->arena, (const char *)ev->data.scalar.value, n->n);
	n->bytes = n->n;
	n->is_null = is_null_scalar(ev);
	n->plain = st == YAML_PLAIN_SCALAR_STYLE;
	/* The mark of `key: |` is the indicator; the text starts a line below,
	 * which is where a user looks for `export UCX_TLS=...`. */
	if (st == YAML_LITERAL_SCALAR_STYLE || st == YAML_FOLDED_SCALAR_STYLE)
		n->line++;
	add_child(b, n, &ev->start_mark);
	set_anchor(b, n, ev->data.scalar.anchor);
}

static void on_start(struct builder *b, const yaml_event_t *ev, unsigned char kind,
		     const yaml_char_t *anchor)
{
	if (b->depth >= MANIFEST_MAX_DEPTH) {
		fail(b, &ev->start_mark,
		     xstrdup("nesting deeper than 64 levels; rest of file skipped"));
		return;
	}
	struct ynode *n = new_node(b, kind, &ev->start_mark);
	if (!n)
		return;
	struct frame *f = &b->frames[b->depth++];
	f->node = n;
	f->n = 0;
	f->anchor =
		anchor ? arena_strdup(&b->arena, (const char *)anchor, strlen((const char *)anchor))
		       : NULL;
}

static void on_end(struct builder *b, const yaml_event_t *ev)
{
	if (b->depth == 0)
		return;
	struct frame *f = &b->frames[--b->depth];
	struct ynode *n = f->node;
	n->n = f->n;
	n->u.kids = arena_alloc(&b->arena, (f->n ? f->n : 1) * sizeof(*n->u.kids));
	if (f->n)
		memcpy(n->u.kids, f->kids, f->n * sizeof(*n->u.kids));
	/* Odd child count cannot come from a well-formed event stream, but the
	 * walkers index pairs, so never leave a dangling key. */
	if (n->kind == YN_MAP && (n->n & 1u))
		n->n--;
	add_child(b, n, &ev->end_mark);
	if (f->anchor)
		anchors_put(&b->anchors, f->anchor, n);
}

static void on_alias(struct builder *b, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	const struct ynode *target = name ? anchors_get(&b->anchors, name) : NULL;
	if (!target) {
		fail(b, &ev->start_mark,
		     xasprintf("alias *%s refers to no complete anchor; rest of file skipped",
			       name ? name : ""));
		return;
	}
	add_child(b, target, &ev->start_mark);
}

static void offset_to_mark(const char *buf, size_t len, size_t off, yaml_mark_t *m)
{
	if (off > len)
		off = len;
	size_t line = 0, col = 0;
	for (size_t i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			line++;
			col = 0;
		} else {
			col++;
		}
	}
	m->index = off;
	m->line = line;
	m->column = col;
}

static void parser_error(struct builder *b, const yaml_parser_t *p)
{
	yaml_mark_t m = p->problem_mark;
	const char *problem = p->problem ? p->problem : "unknown error";
	switch (p->error) {
	case YAML_READER_ERROR:
		/* Reader errors carry a byte offset, not a mark. */
		offset_to_mark(b->buf, b->len, p->problem_offset, &m);
		if (strstr(problem, "UTF") || p->problem_value != -1) {
			char value[16] = "";
			if (p->problem_value != -1)
				snprintf(value, sizeof(value), " 0x%02x",
					 (unsigned)p->problem_value & 0xffu);
			fail(b, &m,
			     xasprintf("invalid YAML: %s (byte%s at offset %zu): not UTF-8 text",
				       problem, value, p->problem_offset));
		} else {
			fail(b, &m, xasprintf("invalid YAML: %s", problem));
		}
		return;
	case YAML_MEMORY_ERROR:
		fail(b, NULL, xstrdup("invalid YAML: libyaml ran out of memory"));
		return;
	default: break;
	}
	char *msg;
	if (p->context)
		msg = xasprintf("invalid YAML: %s (%s at line %zu, column %zu)", problem,
				p->context, (size_t)p->context_mark.line + 1,
				(size_t)p->context_mark.column + 1);
	else
		msg = xasprintf("invalid YAML: %s", problem);
	fail(b, &m, msg);
}

bool ytree_parse(const char *buf, size_t len, ytree_doc_fn fn, void *ctx, struct yerror *err)
{
	struct builder b;
	memset(&b, 0, sizeof(b));
	b.err = err;
	b.buf = buf;
	b.len = len;
	err->line = err->col = 0;
	err->message = NULL;

	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		fail(&b, NULL, xstrdup("libyaml could not be initialised"));
		return false;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);

	int doc_index = 0;
	bool done = false;
	while (!done && !b.failed) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			parser_error(&b, &p);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT: done = true; break;
		case YAML_DOCUMENT_START_EVENT:
			arena_release(&b.arena);
			anchors_clear(&b.anchors);
			b.root = NULL;
			b.depth = 0;
			break;
		case YAML_DOCUMENT_END_EVENT:
			if (b.root)
				fn(ctx, b.root, doc_index);
			doc_index++;
			b.root = NULL;
			break;
		case YAML_SCALAR_EVENT: on_scalar(&b, &ev); break;
		case YAML_SEQUENCE_START_EVENT:
			on_start(&b, &ev, YN_SEQ, ev.data.sequence_start.anchor);
			break;
		case YAML_MAPPING_START_EVENT:
			on_start(&b, &ev, YN_MAP, ev.data.mapping_start.anchor);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT: on_end(&b, &ev); break;
		case YAML_ALIAS_EVENT: on_alias(&b, &ev); break;
		default: break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	arena_release(&b.arena);
	free(b.anchors.slot);
	for (size_t i = 0; i <= MANIFEST_MAX_DEPTH; i++)
		free(b.frames[i].kids);
	return !b.failed;
}

/* ---- lookups ---- */

bool yis_map(const struct ynode *n)
{
	return n && n->kind == YN_MAP;
}

bool yis_seq(const struct ynode *n)
{
	return n && n->kind == YN_SEQ;
}

const char *yscalar(const struct ynode *n)
{
	if (!n || n->kind != YN_SCALAR || n->is_null)
		return NULL;
	return n->u.s;
}

static bool is_merge_key(const struct ynode *k)
{
	return k->kind == YN_SCALAR && k->plain && k->n == 2 && k->u.s[0] == '<' &&
	       k->u.s[1] == '<';
}

/* Merge sources nest (a merged map may merge another); depth keeps a
 * hostile chain of merges from recursing without end. */
static const struct ynode *map_get_depth(const struct ynode *map, const char *key, int depth)
{
	if (!yis_map(map) || depth > 8)
		return NULL;
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct ynode *k = map->u.kids[i];
		if (k->kind == YN_SCALAR && strcmp(k->u.s, key) == 0 && !is_merge_key(k))
			return map->u.kids[i + 1];
	}
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		if (!is_merge_key(map->u.kids[i]))
			continue;
		const struct ynode *v = map->u.kids[i + 1];
		if (yis_map(v)) {
			const struct ynode *r = map_get_depth(v, key, depth + 1);
			if (r)
				return r;
		} else if (yis_seq(v)) {
			/* Earlier maps in a merge list win. */
			for (size_t j = 0; j < v->n; j++) {
				const struct ynode *r = map_get_depth(v->u.kids[j], key, depth + 1);
				if (r)
					return r;
			}
		}
	}
	return NULL;
}

const struct ynode *ymap_get(const struct ynode *map, const char *key)
{
	return map_get_depth(map, key, 0);
}

const char *ymap_str(const struct ynode *map, const char *key)
{
	return yscalar(ymap_get(map, key));
}

bool ytrue(const struct ynode *n)
{
	const char *s = yscalar(n);
	return s && (strcasecmp(s, "true") == 0 || strcasecmp(s, "yes") == 0 ||
		     strcasecmp(s, "on") == 0);
}

static bool map_each_depth(const struct ynode *map, ymap_pair_fn fn, void *ctx, int depth)
{
	if (!yis_map(map) || depth > 8)
		return true;
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		if (!is_merge_key(map->u.kids[i]))
			continue;
		const struct ynode *v = map->u.kids[i + 1];
		if (yis_map(v)) {
			if (!map_each_depth(v, fn, ctx, depth + 1))
				return false;
		} else if (yis_seq(v)) {
			/* Earlier maps win, so visit them last. */
			for (size_t j = v->n; j-- > 0;)
				if (!map_each_depth(v->u.kids[j], fn, ctx, depth + 1))
					return false;
		}
	}
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		if (is_merge_key(map->u.kids[i]))
			continue;
		if (!fn(ctx, map->u.kids[i], map->u.kids[i + 1]))
			return false;
	}
	return true;
}

void ymap_each(const struct ynode *map, ymap_pair_fn fn, void *ctx)
{
	map_each_depth(map, fn, ctx, 0);
}
