/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Terminal-safe text.  Every byte that comes from outside the tool (YAML
 * names and values, file names, probe output, kubectl messages, pod names)
 * passes through here on its way to a terminal, so that nothing it holds
 * can move the cursor, erase a line or recolour a verdict:
 *
 *   C0 controls, DEL   \n \r \t \b \a \v \f, else \xNN (ESC is \x1b)
 *   C1 controls        \u0080 .. \u009f (as UTF-8 they are two bytes)
 *   bidi overrides     \u202a..\u202e, \u2066..\u2069 (text that reads in
 *                      another order than it runs)
 *   invalid UTF-8      \xNN for each bad byte
 *   long values        cut at a character boundary, then " [... N bytes cut]"
 *
 * JSON never goes through here: jansson escapes it exactly.
 */
#ifndef CI_SANITIZE_H
#define CI_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>

/* Default cut for one printed value (a check line, an evidence line). */
#define SANITIZE_MAX 8192

/* The escaped text of s[0..len) as a new string; at most max input bytes
 * are kept (0: no cut).  Never NULL. */
char *sanitize_mem(const char *s, size_t len, size_t max);
/* The same for a NUL-terminated string, cut at SANITIZE_MAX.  s NULL: "". */
char *sanitize_str(const char *s);
/* True when s prints as itself (nothing to escape, not too long). */
bool sanitize_is_clean(const char *s, size_t len);
/* fputs(sanitized s): the one call for printing outside bytes. */
void sanitize_fputs(FILE *out, const char *s);

#endif
