/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The output sanitiser (see sanitize.h).  A small UTF-8 decoder decides
 * what one character is: a byte that does not start a well-formed,
 * shortest-form sequence is printed as \xNN, so no terminal can read a
 * half sequence as the start of a control.
 */
#include "core/sanitize.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* Length of the well-formed UTF-8 sequence at p (1..4) and its code point,
 * or 0 when the bytes there are not one (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF). */
static size_t utf8_seq(const unsigned char *p, size_t left, uint32_t *cp)
{
	unsigned char c = p[0];
	size_t n;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/* Code points that are printed as \uNNNN although they are valid: the C1
 * controls, and the bidi controls that make text display in another order
 * than a shell reads it. */
static bool cp_escaped(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

static const char *c0_name(unsigned char c)
{
	switch (c) {
	case '\a': return "\\a";
	case '\b': return "\\b";
	case '\t': return "\\t";
	case '\n': return "\\n";
	case '\v': return "\\v";
	case '\f': return "\\f";
	case '\r': return "\\r";
	default: return NULL;
	}
}

bool sanitize_is_clean(const char *s, size_t len)
{
	if (len > SANITIZE_MAX)
		return false;
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			i++;
			continue;
		}
		uint32_t cp;
		size_t n = utf8_seq(p + i, len - i, &cp);
		if (!n || cp < 0x20 || cp == 0x7f || cp_escaped(cp))
			return false;
		i += n;
	}
	return true;
}

char *sanitize_mem(const char *s, size_t len, size_t max)
{
	if (!s)
		len = 0;
	size_t keep = max && len > max ? max : len;
	/* Worst case: every byte becomes \xNN (4) or \uNNNN (6 for 2..3 bytes). */
	size_t cap = keep * 4 + 64;
	char *out = xmalloc(cap), *o = out;
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < keep) {
		unsigned char c = p[i];
		if (c >= 0x20 && c < 0x7f) {
			*o++ = (char)c;
			i++;
			continue;
		}
		uint32_t cp;
		size_t n = utf8_seq(p + i, len - i, &cp);
		if (n > 1 && i + n > keep)
			break; /* a character across the cut: cut before it */
		if (!n) {
			o += sprintf(o, "\\x%02x", c);
			i++;
		} else if (n == 1) {
			const char *name = c0_name(c);
			if (name) {
				memcpy(o, name, 2);
				o += 2;
			} else {
				o += sprintf(o, "\\x%02x", c);
			}
			i++;
		} else if (cp_escaped(cp)) {
			o += sprintf(o, "\\u%04x", (unsigned)cp);
			i += n;
		} else {
			memcpy(o, p + i, n);
			o += n;
			i += n;
		}
	}
	if (i < len)
		o += sprintf(o, " [... %zu bytes cut]", len - i);
	*o = '\0';
	return out;
}

char *sanitize_str(const char *s)
{
	return sanitize_mem(s, s ? strlen(s) : 0, SANITIZE_MAX);
}

void sanitize_fputs(FILE *out, const char *s)
{
	if (!s)
		return;
	size_t len = strlen(s);
	if (sanitize_is_clean(s, len)) {
		fwrite(s, 1, len, out);
		return;
	}
	char *e = sanitize_mem(s, len, SANITIZE_MAX);
	fputs(e, out);
	free(e);
}
