/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A map from borrowed strings to indices: open addressing, FNV-1a, the
 * hash kept per slot so that a lookup compares strings only on a real
 * match.  For grouping many items by a value in one pass (the fleet checks
 * over thousands of pods), where a scan per item would be quadratic.
 *
 *	struct strmap m;
 *	strmap_init(&m);
 *	size_t g = strmap_put(&m, key, n_groups);  // key's index, or n_groups if new
 *	if (g == n_groups)
 *		n_groups++;                           // ...and key must outlive the map
 *	strmap_release(&m);
 *
 * Keys are not copied: each must stay valid (and unchanged) while the map is
 * used.  Allocation failure exits (xalloc).
 */
#ifndef CI_STRMAP_H
#define CI_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct strmap_slot {
	const char *key; /* NULL: empty */
	size_t hash;
	size_t val;
};

struct strmap {
	struct strmap_slot *slot;
	size_t cap, n; /* cap: 0 or a power of two, at most half full */
};

#define STRMAP_NONE SIZE_MAX

void strmap_init(struct strmap *m);
void strmap_release(struct strmap *m);
/* key's value, or STRMAP_NONE. */
size_t strmap_get(const struct strmap *m, const char *key);
/* key's value when present; else key -> val is added and val returned. */
size_t strmap_put(struct strmap *m, const char *key, size_t val);

#endif
