/* SPDX-License-Identifier: Apache-2.0 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "fleet/fleet_sbuf.h"

void sbuf_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *t = NULL;
	if (vasprintf(&t, fmt, ap) < 0)
		t = NULL;
	va_end(ap);
	if (!t)
		return;
	size_t tl = strlen(t);
	/* Doubling keeps a long pod list linear, not quadratic. */
	if (b->len + tl + 1 > b->cap) {
		b->cap = (b->len + tl + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, t, tl + 1);
	b->len += tl;
	free(t);
}

const char *sbuf_str(const struct sbuf *b)
{
	return b->s ? b->s : "";
}
