/* SPDX-License-Identifier: Apache-2.0 */
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
	fputs("check_interconnect: out of memory\n", stderr);
	exit(3); /* UNKNOWN: nothing was decided */
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

void xgrow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	*p = xrealloc(*p, ncap * elem);
	memset((char *)*p + *cap * elem, 0, (ncap - *cap) * elem);
	*cap = ncap;
}

void xshrink(void **p, size_t *cap, size_t n, size_t elem)
{
	if (n >= *cap)
		return;
	if (!n) {
		free(*p);
		*p = NULL;
	} else {
		*p = xrealloc(*p, n * elem);
	}
	*cap = n;
}

char *xstrdup(const char *s)
{
	return xstrndup(s ? s : "", strlen(s ? s : ""));
}

/* Like strndup: copies at most n bytes and stops at a NUL, so callers may
 * pass a bound larger than the string. */
char *xstrndup(const char *s, size_t n)
{
	n = strnlen(s, n);
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	/* Also keeps gcc's -Wformat-truncation quiet under -fsanitize=undefined,
	 * which otherwise sees a path with a NULL format. */
	if (!fmt)
		return xstrdup("");
	va_list cp;
	va_copy(cp, ap);
	int len = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (len < 0)
		return xstrdup("");
	char *s = xmalloc((size_t)len + 1);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
