/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A growing string for the fleet details ("p0 (prefill), d0 (decode)"):
 * unlike core's bufcatf, a fleet list is never cut, since which pod differs
 * is the whole point of the line.  Zero-initialise; free(b.s) when done.
 */
#ifndef CI_FLEET_SBUF_H
#define CI_FLEET_SBUF_H

#include <stddef.h>

struct sbuf {
	char *s;
	size_t len, cap;
};

void sbuf_add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text so far; "" when nothing was added. */
const char *sbuf_str(const struct sbuf *b);

#endif
