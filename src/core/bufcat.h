/* SPDX-License-Identifier: Apache-2.0 */
#ifndef CI_BUFCAT_H
#define CI_BUFCAT_H

#include <stddef.h>

/* Append a formatted string to the NUL-terminated buf of size len,
 * truncating silently: for one-line details built piece by piece, where a
 * cut list is better than no detail. */
void bufcatf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
