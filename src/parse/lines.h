/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Line iteration shared by every parser.  Real tool outputs reach us pasted,
 * piped through kubectl, captured from a TTY or cut by a cap, so the iterator
 * first makes one normalised private copy: NUL bytes dropped, ANSI escape
 * sequences (CSI/OSC) removed, CRLF and lone CR turned into LF, input capped
 * at LINES_MAX_INPUT bytes.  Lines come back NUL-terminated and writable
 * (parsers tokenise in place), with trailing whitespace removed; a missing
 * final newline is no different from a present one.
 */
#ifndef CI_PARSE_LINES_H
#define CI_PARSE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINES_MAX_INPUT (16u * 1024 * 1024)
/* Parsers also cap what they collect, so that hostile input stays bounded. */
#define PARSE_MAX_ITEMS 4096

struct lines {
	char *text; /* normalised copy, owned */
	size_t len;
	size_t pos;
	size_t lineno;  /* 1-based number of the line last returned */
	bool truncated; /* the input was longer than LINES_MAX_INPUT */
};

void lines_init(struct lines *it, const char *buf, size_t len);
/* Next line, or NULL at the end.  The pointer stays valid until release. */
char *lines_next(struct lines *it);
void lines_release(struct lines *it);

/* True when the input holds nothing but whitespace (after normalisation). */
bool lines_blank_input(const char *buf, size_t len);
/*
 * lines_init unless the input is blank: then *empty is set, nothing is
 * allocated and false comes back.  For tools whose empty output is itself a
 * reading ("no devices"), distinct from output that could not be parsed.
 */
bool lines_start(struct lines *it, const char *buf, size_t len, bool *empty);

/* --- small string helpers (all bounded, NULL-safe where noted) --- */

/* Leading whitespace width, a tab counting to the next multiple of 8. */
size_t str_indent(const char *s);
const char *str_skip_ws(const char *s);
/* The same for a writable string. */
char *str_lstrip(char *s);
/* Trim leading and trailing whitespace in place; returns the new start. */
char *str_trim(char *s);
bool str_starts(const char *s, const char *prefix);
bool str_istarts(const char *s, const char *prefix);
bool str_ieq(const char *a, const char *b);
/* Case-insensitive substring search; NULL-safe. */
const char *str_icontains(const char *hay, const char *needle);
/*
 * Split "key<sep>value" at the first sep: both sides trimmed in place.
 * Returns false when sep is absent (key then holds the trimmed line).
 */
bool str_kv(char *line, char sep, char **key, char **val);
/* Split on runs of spaces/tabs, in place; returns the number of tokens. */
size_t str_split_ws(char *s, char **tok, size_t max);
/* Strict unsigned parsers: the whole (trimmed) string must be the number. */
bool str_to_u64(const char *s, int base, uint64_t *out);
bool str_to_u32(const char *s, int base, uint32_t *out);
/* Leading decimal number ("26.562 GB/s" -> 26.562); false if none. */
bool str_lead_double(const char *s, double *out);

#endif
