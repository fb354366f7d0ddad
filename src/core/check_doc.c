/* SPDX-License-Identifier: Apache-2.0 */
#include <string.h>

#include "core/check_docs.h"

const struct check_doc *check_doc_find(const char *id)
{
	/* The generated table is sorted by id. */
	size_t lo = 0, hi = check_docs_len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(check_docs[mid].id, id);
		if (!c)
			return &check_docs[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
