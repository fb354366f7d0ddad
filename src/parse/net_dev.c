/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/net_dev.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

static bool ifname_ok(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > 15) /* IFNAMSIZ - 1 */
		return false;
	for (; *s; s++)
		if (*s == '/' || *s == ' ' || *s == '|' || (unsigned char)*s < 0x21)
			return false;
	return true;
}

int net_dev_parse(const char *buf, size_t len, struct net_devs *out)
{
	struct lines it;
	char *l, *tok[17];

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		char *colon = strchr(l, ':');
		uint64_t rx, tx;
		if (!colon || strchr(l, '|'))
			continue;
		*colon = '\0';
		char *name = str_trim(l);
		if (!ifname_ok(name) || str_split_ws(colon + 1, tok, 17) < 16)
			continue;
		if (!str_to_u64(tok[0], 10, &rx) || !str_to_u64(tok[8], 10, &tx))
			continue;
		if (net_dev_find(out, name))
			continue;
		if (out->n >= PARSE_MAX_ITEMS) {
			out->capped = true;
			continue;
		}
		struct net_dev_if *d = XPUSH(out->v, out->n, out->cap);
		d->name = xstrdup(name);
		d->rx_bytes = rx;
		d->tx_bytes = tx;
	}
	lines_release(&it);
	return out->n ? 0 : -1;
}

void net_dev_release(struct net_devs *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].name);
	free(d->v);
	memset(d, 0, sizeof(*d));
}

const struct net_dev_if *net_dev_find(const struct net_devs *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].name, name))
			return &d->v[i];
	return NULL;
}
