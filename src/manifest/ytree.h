/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small, capped YAML document tree built from libyaml's event API.
 *
 * Why events and not yaml_parser_load(): the document loader commits memory
 * for every node before we can look at it, so an 8 MiB file of "- a" lines
 * or a deeply nested flow sequence costs hundreds of MiB before any cap can
 * apply.  Streaming events lets the depth and node caps stop a file early.
 * We still build a tree (the model needs random access: `kind` may come after
 * `spec`), but a compact one in a per-document arena that is dropped as soon
 * as the document has been turned into the model.
 *
 * Aliases are resolved to the anchored node (a DAG, never a cycle: an anchor
 * is registered only once its node is complete).  Every node carries its
 * expanded size, so a billion-laughs document is refused while it is being
 * read, and the model builder can walk the DAG without a budget of its own.
 */
#ifndef CI_YTREE_H
#define CI_YTREE_H

#include <stdbool.h>
#include <stddef.h>

enum ynode_kind {
	YN_SCALAR = 0,
	YN_MAP,
	YN_SEQ
};

struct ynode {
	unsigned char kind;
	bool is_null;  /* plain null, ~, empty, or tagged !!null */
	bool plain;    /* scalar written without quotes or block style */
	int line, col; /* 1-based; block scalars: the first content line */
	size_t n;      /* scalar bytes, or children (maps: 2 per pair) */
	union {
		char *s;                   /* NUL-terminated scalar */
		const struct ynode **kids; /* maps: key, value, key, value... */
	} u;
	size_t weight; /* nodes with aliases expanded (saturating) */
	size_t bytes;  /* scalar bytes with aliases expanded (saturating) */
};

struct yerror {
	int line, col; /* 1-based, 0 when unknown */
	char *message; /* owned by the caller after ytree_parse() */
};

/* Called for each complete document; the tree is freed when it returns. */
typedef void (*ytree_doc_fn)(void *ctx, const struct ynode *root, int doc_index);

/*
 * Parse buf, calling fn for every complete document.  Returns true when the
 * whole stream was read; false with *err filled (message malloc'd) when it
 * stopped early (syntax error, caps).  Documents before the error have been
 * delivered.
 */
bool ytree_parse(const char *buf, size_t len, ytree_doc_fn fn, void *ctx, struct yerror *err);

/* Lookup helpers.  Merge keys (`<<: *base`) are honoured: own keys first. */
const struct ynode *ymap_get(const struct ynode *map, const char *key);
/* Scalar text, or NULL when n is absent, null, or not a scalar. */
const char *yscalar(const struct ynode *n);
const char *ymap_str(const struct ynode *map, const char *key);
bool yis_map(const struct ynode *n);
bool yis_seq(const struct ynode *n);
/* Truthy scalar: true/yes/on (any case). */
bool ytrue(const struct ynode *n);

/* Iterate a map's pairs, merge-key sources first (so own keys, visited
 * later, win with "later wins" consumers).  fn returns false to stop. */
typedef bool (*ymap_pair_fn)(void *ctx, const struct ynode *key, const struct ynode *value);
void ymap_each(const struct ynode *map, ymap_pair_fn fn, void *ctx);

#endif
