/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/lines.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* Length of the escape sequence starting at p[0] == ESC (at least 1). */
static size_t ansi_len(const char *p, size_t left)
{
	size_t i;

	if (left < 2)
		return 1;
	if (p[1] == '[') {
		/* CSI: parameter and intermediate bytes, then one final byte */
		for (i = 2; i < left; i++) {
			unsigned char c = (unsigned char)p[i];
			if (c >= 0x40 && c <= 0x7e)
				return i + 1;
			if (c < 0x20 || c > 0x3f)
				return i; /* malformed: drop what we saw */
		}
		return left;
	}
	if (p[1] == ']') {
		/* OSC: up to BEL or ESC \ */
		for (i = 2; i < left; i++) {
			if (p[i] == '\a')
				return i + 1;
			if (p[i] == '\x1b' && i + 1 < left && p[i + 1] == '\\')
				return i + 2;
			if (p[i] == '\n')
				return i;
		}
		return left;
	}
	if (p[1] == '\n' || p[1] == '\r')
		return 1;
	return 2;
}

void lines_init(struct lines *it, const char *buf, size_t len)
{
	size_t i, o = 0;

	memset(it, 0, sizeof(*it));
	if (!buf)
		len = 0;
	if (len > LINES_MAX_INPUT) {
		len = LINES_MAX_INPUT;
		it->truncated = true;
	}
	it->text = xmalloc(len + 1);
	for (i = 0; i < len; i++) {
		char c = buf[i];
		if (c == '\0')
			continue;
		if (c == '\x1b') {
			i += ansi_len(buf + i, len - i) - 1;
			continue;
		}
		if (c == '\r') {
			if (i + 1 < len && buf[i + 1] == '\n')
				continue;
			c = '\n';
		}
		it->text[o++] = c;
	}
	it->text[o] = '\0';
	it->len = o;
}

static bool is_hspace(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

char *lines_next(struct lines *it)
{
	char *start, *nl, *end;

	if (!it->text || it->pos >= it->len)
		return NULL;
	start = it->text + it->pos;
	nl = memchr(start, '\n', it->len - it->pos);
	if (nl) {
		*nl = '\0';
		it->pos = (size_t)(nl - it->text) + 1;
		end = nl;
	} else {
		it->pos = it->len;
		end = it->text + it->len;
	}
	while (end > start && is_hspace(end[-1]))
		end--;
	*end = '\0';
	it->lineno++;
	return start;
}

void lines_release(struct lines *it)
{
	free(it->text);
	memset(it, 0, sizeof(*it));
}

bool lines_blank_input(const char *buf, size_t len)
{
	struct lines it;
	char *l;
	bool blank = true;

	lines_init(&it, buf, len);
	while ((l = lines_next(&it)))
		if (*str_skip_ws(l)) {
			blank = false;
			break;
		}
	lines_release(&it);
	return blank;
}

bool lines_start(struct lines *it, const char *buf, size_t len, bool *empty)
{
	if (lines_blank_input(buf, len)) {
		*empty = true;
		return false;
	}
	lines_init(it, buf, len);
	return true;
}

size_t str_indent(const char *s)
{
	size_t w = 0;

	for (; *s == ' ' || *s == '\t'; s++)
		w = *s == '\t' ? (w / 8 + 1) * 8 : w + 1;
	return w;
}

const char *str_skip_ws(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

char *str_lstrip(char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

char *str_trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	*e = '\0';
	return s;
}

bool str_starts(const char *s, const char *prefix)
{
	return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_istarts(const char *s, const char *prefix)
{
	return s && strncasecmp(s, prefix, strlen(prefix)) == 0;
}

bool str_ieq(const char *a, const char *b)
{
	return a && b && strcasecmp(a, b) == 0;
}

const char *str_icontains(const char *hay, const char *needle)
{
	size_t n;

	if (!hay || !needle)
		return NULL;
	n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return hay;
	return n ? NULL : hay;
}

bool str_kv(char *line, char sep, char **key, char **val)
{
	char *p = strchr(line, sep);

	if (!p) {
		*key = str_trim(line);
		*val = NULL;
		return false;
	}
	*p = '\0';
	*key = str_trim(line);
	*val = str_trim(p + 1);
	return true;
}

size_t str_split_ws(char *s, char **tok, size_t max)
{
	size_t n = 0;

	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (n == max)
			break;
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

bool str_to_u64(const char *s, int base, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s)
		return false;
	s = str_skip_ws(s);
	if (!isxdigit((unsigned char)*s))
		return false;
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    !isxdigit((unsigned char)s[2]))
		return false;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || end == s)
		return false;
	if (*str_skip_ws(end))
		return false;
	*out = v;
	return true;
}

bool str_to_u32(const char *s, int base, uint32_t *out)
{
	uint64_t v;

	if (!str_to_u64(s, base, &v) || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

bool str_lead_double(const char *s, double *out)
{
	char tmp[64];
	size_t n = 0;
	bool dot = false;

	if (!s)
		return false;
	s = str_skip_ws(s);
	/* digits and one dot only: strtod would also take hex, inf and nan */
	while (n + 1 < sizeof(tmp) && (isdigit((unsigned char)s[n]) || (s[n] == '.' && !dot))) {
		if (s[n] == '.')
			dot = true;
		tmp[n] = s[n];
		n++;
	}
	tmp[n] = '\0';
	if (!n || (n == 1 && dot))
		return false;
	*out = strtod(tmp, NULL);
	return true;
}
