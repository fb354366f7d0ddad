/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one growing string builder (git's strbuf is the model).  A detail line
 * is built piece by piece: strbuf_addf() appends, strbuf_joinf() appends a
 * list item with a separator before every item but the first (the
 * `*buf ? ", " : ""` idiom), and the _capped variants stop at a byte cap and
 * say so: the line ends in "... (N more)", never in a silent cut.
 *
 *	struct strbuf sb = STRBUF_INIT;
 *	for (...)
 *		strbuf_joinf(&sb, ", ", "%s/%u", dev, port);
 *	report_check(r, d, CI_WARN, subj, "down: %s", sb.buf);
 *	strbuf_release(&sb);
 *
 * sb.buf is always a NUL-terminated string ("" before the first append), so
 * it can be passed to printf as is.  Allocation failure exits (xalloc).
 */
#ifndef CI_STRBUF_H
#define CI_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *buf;    /* never NULL: strbuf_slopbuf until the first append */
	size_t len;   /* bytes before the NUL */
	size_t alloc; /* bytes allocated; 0 while buf is the shared "" */
	size_t more;  /* items a cap left out (see strbuf_joinf_capped) */
	size_t mark;  /* where the "... (N more)" marker starts, once there is one */
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT                   \
	{                             \
		.buf = strbuf_slopbuf \
	}

void strbuf_init(struct strbuf *sb);
/* Free the text and leave sb empty (and reusable). */
void strbuf_release(struct strbuf *sb);
/* Empty the text, keep the allocation. */
void strbuf_reset(struct strbuf *sb);
/* Hand the text to the caller (free() it); sb is left empty. */
char *strbuf_detach(struct strbuf *sb);

void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Append sep unless sb is empty, then the item: builds "a, b, c". */
void strbuf_joinf(struct strbuf *sb, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void strbuf_joinstr(struct strbuf *sb, const char *sep, const char *s);

/*
 * As strbuf_joinf, but the text stays within about cap bytes: an item that
 * would pass the cap, and every item after it, is counted instead of added,
 * and the text ends in "<sep>... (N more)" (the marker itself may pass the
 * cap).  Returns whether the item was added.
 */
bool strbuf_joinf_capped(struct strbuf *sb, size_t cap, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* strbuf_joinf_capped with no separator. */
bool strbuf_addf_capped(struct strbuf *sb, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
