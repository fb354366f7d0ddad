/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/proc_net.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

/* Split on blanks and TABs into at most max words (in place). */
static size_t words(char *s, char **w, size_t max)
{
	size_t n = 0;
	char *p = s;
	while (*p && n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		w[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* The kernel prints each address as the hex of its in-memory (network order)
 * bytes read as a little-endian word: "0101A8C0" is 192.168.1.1. */
static bool hex_addr(const char *s, uint32_t *out)
{
	uint32_t v;
	if (strlen(s) != 8 || !str_to_u32(s, 16, &v))
		return false;
	*out = ((v & 0xffu) << 24) | ((v & 0xff00u) << 8) | ((v >> 8) & 0xff00u) | (v >> 24);
	return true;
}

int proc_route_parse(const char *buf, size_t len, struct proc_route *out)
{
	struct lines it;
	char *l, *w[12];
	bool header = false;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		size_t n = words(l, w, 12);
		if (n >= 8 && !strcmp(w[0], "Iface") && !strcmp(w[1], "Destination")) {
			header = true;
			continue;
		}
		if (!header || n < 8 || out->n >= PARSE_MAX_ITEMS)
			continue;
		struct net_route r;
		uint32_t fl;
		if (!hex_addr(w[1], &r.dest) || !hex_addr(w[2], &r.gateway) ||
		    !hex_addr(w[7], &r.mask) || !str_to_u32(w[3], 16, &fl) || strlen(w[0]) > 64)
			continue;
		r.flags = fl;
		r.iface = xstrdup(w[0]);
		*XPUSH(out->v, out->n, out->cap) = r;
	}
	lines_release(&it);
	return header ? 0 : -1;
}

void proc_route_release(struct proc_route *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].iface);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

const char *proc_route_default(const struct proc_route *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].dest == 0 && r->v[i].mask == 0 && (r->v[i].flags & 1u))
			return r->v[i].iface;
	return NULL;
}

bool net_route_link_local(const struct net_route *r)
{
	return (r->dest & 0xffff0000u) == 0xa9fe0000u && r->mask >= 0xffff0000u;
}

int proc_inet6_parse(const char *buf, size_t len, struct proc_inet6 *out)
{
	struct lines it;
	char *l, *w[8];
	size_t seen = 0, good = 0;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		size_t n = words(l, w, 8);
		if (!n)
			continue;
		seen++;
		uint32_t scope;
		if (n < 6 || strlen(w[0]) != 32 || !str_to_u32(w[3], 16, &scope) ||
		    strlen(w[5]) > 64 || out->n >= PARSE_MAX_ITEMS)
			continue;
		bool hex = true;
		for (const char *p = w[0]; *p && hex; p++)
			hex = (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
			      (*p >= 'A' && *p <= 'F');
		if (!hex)
			continue;
		struct inet6_addr a;
		memcpy(a.addr, w[0], 33);
		a.scope = scope == 0      ? INET6_GLOBAL
			  : scope == 0x10 ? INET6_HOST
			  : scope == 0x20 ? INET6_LINK
			  : scope == 0x40 ? INET6_SITE
					  : INET6_OTHER;
		a.iface = xstrdup(w[5]);
		*XPUSH(out->v, out->n, out->cap) = a;
		good++;
	}
	lines_release(&it);
	return !seen || good ? 0 : -1;
}

void proc_inet6_release(struct proc_inet6 *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i].iface);
	free(a->v);
	memset(a, 0, sizeof(*a));
}
