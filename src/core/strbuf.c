/* SPDX-License-Identifier: Apache-2.0 */
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* What an empty strbuf points at, so that sb.buf is always a string.  It is
 * never written: every write first grows into a real allocation. */
char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb)
{
	*sb = (struct strbuf)STRBUF_INIT;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	sb->more = 0;
	sb->mark = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->alloc ? sb->buf : xstrdup("");
	strbuf_init(sb);
	return s;
}

/* Room for n more bytes and the NUL; doubling keeps long lists linear. */
static void grow(struct strbuf *sb, size_t n)
{
	if (sb->len + n + 1 <= sb->alloc)
		return;
	size_t want = (sb->len + n + 1) * 2;
	if (want < 64)
		want = 64;
	if (!sb->alloc) {
		sb->buf = xmalloc(want);
		sb->buf[0] = '\0';
	} else {
		sb->buf = xrealloc(sb->buf, want);
	}
	sb->alloc = want;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
	if (!n)
		return;
	grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

/* As git's strbuf_vaddf: format into the room there is, and again after
 * growing when it did not fit. */
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	grow(sb, 64);
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n <= 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= sb->alloc - sb->len) {
		grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_joinstr(struct strbuf *sb, const char *sep, const char *s)
{
	if (sb->len)
		strbuf_addstr(sb, sep);
	strbuf_addstr(sb, s);
}

void strbuf_joinf(struct strbuf *sb, const char *sep, const char *fmt, ...)
{
	if (sb->len)
		strbuf_addstr(sb, sep);
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

static bool vjoin_capped(struct strbuf *sb, size_t cap, const char *sep, const char *fmt,
			 va_list ap)
{
	if (!sb->more) {
		/* Append, then take it back if it passed the cap. */
		size_t before = sb->len;
		if (sb->len)
			strbuf_addstr(sb, sep);
		strbuf_vaddf(sb, fmt, ap);
		if (sb->len <= cap)
			return true;
		sb->len = before;
		sb->buf[sb->len] = '\0';
		sb->mark = sb->len;
	}
	/* Rewrite the marker in place, so that the text is complete after
	 * every call and no "finish" step can be forgotten. */
	sb->more++;
	sb->len = sb->mark;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
	strbuf_addf(sb, "%s... (%zu more)", sb->len ? sep : "", sb->more);
	return false;
}

bool strbuf_joinf_capped(struct strbuf *sb, size_t cap, const char *sep, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool added = vjoin_capped(sb, cap, sep, fmt, ap);
	va_end(ap);
	return added;
}

bool strbuf_addf_capped(struct strbuf *sb, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool added = vjoin_capped(sb, cap, "", fmt, ap);
	va_end(ap);
	return added;
}
