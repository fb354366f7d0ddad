/* SPDX-License-Identifier: Apache-2.0 */
/* Allocation helpers that never return NULL: a CLI has no sane way to go on
 * after an allocation failure, so they print one line and exit. */
#ifndef CI_XALLOC_H
#define CI_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow *p (an array of elem-sized items, capacity *cap) to hold at least need. */
void xgrow(void **p, size_t *cap, size_t need, size_t elem);
/* Give back what xgrow reserved beyond n items (*cap becomes n; an empty
 * array is freed): for arrays that stop growing once built. */
void xshrink(void **p, size_t *cap, size_t n, size_t elem);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Append helper for the common "array + count + capacity" triple. */
#define XPUSH(arr, n, cap) (xgrow((void **)&(arr), &(cap), (n) + 1, sizeof(*(arr))), &(arr)[(n)++])

#endif
