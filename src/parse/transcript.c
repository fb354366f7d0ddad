/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The transcript parser: bytes in, sections out.  Pure (no I/O, no globals);
 * every loop is bounded by the input length and the caps in transcript.h.
 *
 * Forging: the script prefixes every byte of tool output with '|' at the
 * start of each line, so only lines written by the script itself can begin
 * with "@@".  The parser therefore looks at directives only on lines that
 * start with '@', and treats every '|' line as data, whatever follows.
 */
#include "parse/transcript.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void transcript_init(struct transcript *t)
{
	memset(t, 0, sizeof(*t));
}

void transcript_release(struct transcript *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->s[i].name);
		free(t->s[i].body);
	}
	free(t->s);
	memset(t, 0, sizeof(*t));
}

bool transcript_name_valid(const char *name, size_t len)
{
	if (!len || len > TRANSCRIPT_MAX_NAME)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == ':' || c == '/' || c == '-'))
			return false;
	}
	return true;
}

const struct section *transcript_get(const struct transcript *t, const char *name)
{
	if (!t || !name)
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->s[i].name, name))
			return &t->s[i];
	return NULL;
}

void transcript_put(struct transcript *t, const char *name, const char *body, size_t len, int rc)
{
	struct section *s = NULL;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->s[i].name, name)) {
			s = &t->s[i];
			free(s->body);
			break;
		}
	if (!s) {
		s = XPUSH(t->s, t->n, t->cap);
		memset(s, 0, sizeof(*s));
		s->name = xstrdup(name);
	}
	s->body = xmalloc(len + 1);
	memcpy(s->body, body, len);
	s->body[len] = '\0';
	s->len = len;
	s->rc = rc;
	s->capped = s->timed_out = s->missing = false;
}

void transcript_put_capped(struct transcript *t, const char *name, const char *body, size_t len,
			   int rc)
{
	transcript_put(t, name, body, len, rc);
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->s[i].name, name))
			t->s[i].capped = true;
}

/* Parser state: the open section (an index into t->s, or none) and the
 * growth capacity of its body. */
struct pstate {
	struct transcript *t;
	bool open;
	size_t cur;
	size_t body_cap;
};

/* Does the line [p, p+n) start with the word w followed by a space or its
 * end?  Returns the rest (after one space) or NULL. */
static const char *word(const char *p, size_t n, const char *w, size_t *rest_len)
{
	size_t wl = strlen(w);
	if (n < wl || memcmp(p, w, wl))
		return NULL;
	if (n == wl) {
		*rest_len = 0;
		return p + n;
	}
	if (p[wl] != ' ' && p[wl] != '\t')
		return NULL;
	*rest_len = n - wl - 1;
	return p + wl + 1;
}

/* Split off the next space/tab-separated token of [*p, *p+*n). */
static bool token(const char **p, size_t *n, const char **tok, size_t *tl)
{
	while (*n && (**p == ' ' || **p == '\t')) {
		(*p)++;
		(*n)--;
	}
	if (!*n)
		return false;
	*tok = *p;
	while (*n && **p != ' ' && **p != '\t') {
		(*p)++;
		(*n)--;
	}
	*tl = (size_t)(*p - *tok);
	return true;
}

static void close_open(struct pstate *ps)
{
	ps->open = false;
	ps->body_cap = 0;
}

static bool name_taken(const struct transcript *t, const char *name, size_t len)
{
	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->s[i].name) == len && !memcmp(t->s[i].name, name, len))
			return true;
	return false;
}

static void on_begin(struct pstate *ps, const char *rest, size_t rl)
{
	const char *name;
	size_t nl;
	/* A begin while a section is open: the script never does this, so the
	 * open one was cut (a tool killed mid-output); it keeps rc -1. */
	if (ps->open)
		close_open(ps);
	if (!token(&rest, &rl, &name, &nl) || !transcript_name_valid(name, nl)) {
		ps->t->dropped++;
		return;
	}
	/* Duplicates keep the FIRST: the script writes each name once, so a
	 * second one can only come from a mangled or spliced transcript; the
	 * first is what ran first, and refusing the later one means data that
	 * arrives later can never replace data already parsed. */
	if (name_taken(ps->t, name, nl)) {
		ps->t->dropped++;
		return;
	}
	if (ps->t->n >= TRANSCRIPT_MAX_SECTIONS) {
		ps->t->dropped++;
		ps->t->truncated = true;
		return;
	}
	struct section *s = XPUSH(ps->t->s, ps->t->n, ps->t->cap);
	memset(s, 0, sizeof(*s));
	s->name = xstrndup(name, nl);
	s->body = xcalloc(1, 1);
	s->rc = -1;
	ps->open = true;
	ps->cur = ps->t->n - 1;
	ps->body_cap = 1;
}

static bool parse_rc(const char *p, size_t n, int *rc)
{
	bool neg = false;
	long v = 0;
	if (n && *p == '-') {
		neg = true;
		p++;
		n--;
	}
	if (!n || n > 6)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (p[i] - '0');
	}
	*rc = (int)(neg ? -v : v);
	return true;
}

static void on_end(struct pstate *ps, const char *rest, size_t rl)
{
	const char *tok;
	size_t tl;
	if (!ps->open || !token(&rest, &rl, &tok, &tl))
		return;
	struct section *s = &ps->t->s[ps->cur];
	if (strlen(s->name) != tl || memcmp(s->name, tok, tl))
		return; /* not ours: the script always closes what it opened */
	while (token(&rest, &rl, &tok, &tl)) {
		if (tl > 3 && !memcmp(tok, "rc=", 3)) {
			int rc;
			if (parse_rc(tok + 3, tl - 3, &rc))
				s->rc = rc;
		} else if (tl == 6 && !memcmp(tok, "capped", 6)) {
			s->capped = true;
		} else if (tl == 7 && !memcmp(tok, "timeout", 7)) {
			s->timed_out = true;
		} else if (tl == 7 && !memcmp(tok, "missing", 7)) {
			s->missing = true;
		}
		/* unknown flags: a newer script; ignored */
	}
	close_open(ps);
}

static void on_body(struct pstate *ps, const char *p, size_t n)
{
	if (!ps->open)
		return;
	struct section *s = &ps->t->s[ps->cur];
	/* body_cap counts the NUL; grow geometrically. */
	if (s->len + n + 2 > ps->body_cap) {
		size_t cap = ps->body_cap * 2;
		if (cap < s->len + n + 2)
			cap = s->len + n + 2;
		s->body = xrealloc(s->body, cap);
		ps->body_cap = cap;
	}
	if (n)
		memcpy(s->body + s->len, p, n);
	s->len += n;
	s->body[s->len++] = '\n';
	s->body[s->len] = '\0';
}

void transcript_parse(struct transcript *t, const char *buf, size_t len)
{
	struct pstate ps = {.t = t};
	if (!buf)
		return;
	/* Over the cap: keep whole lines only (a half line could be a half
	 * value), and mark the section that was being read as capped.  The
	 * bodies together are never larger than the input, so this one cap
	 * bounds all memory. */
	bool cut = false;
	if (len > TRANSCRIPT_MAX_BYTES) {
		len = TRANSCRIPT_MAX_BYTES;
		while (len && buf[len - 1] != '\n')
			len--;
		t->truncated = cut = true;
	}
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t n = (size_t)(le - p);
		if (n && p[n - 1] == '\r')
			n--;
		const char *rest;
		size_t rl;

		if (!t->valid) {
			/* The header may follow stray lines (a login banner), never
			 * a newer version we do not understand. */
			const char *v;
			size_t vl;
			if ((rest = word(p, n, "@@ci-probe", &rl)) && token(&rest, &rl, &v, &vl) &&
			    vl == 2 && !memcmp(v, "v1", 2))
				t->valid = true;
		} else if (n && p[0] == '|') {
			on_body(&ps, p + 1, n - 1);
		} else if ((rest = word(p, n, "@@begin", &rl))) {
			on_begin(&ps, rest, rl);
		} else if ((rest = word(p, n, "@@end", &rl))) {
			on_end(&ps, rest, rl);
		} else if (word(p, n, "@@done", &rl)) {
			t->complete = true;
			break;
		}
		/* anything else: stray output, ignored */
		p = nl ? nl + 1 : end;
	}
	/* A section left open (cut transcript, or @@done without its @@end)
	 * keeps its body and rc -1. */
	if (ps.open) {
		if (cut)
			t->s[ps.cur].capped = true;
		close_open(&ps);
	}
}
