/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/ibdev2netdev.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

int ibdev2netdev_parse(const char *buf, size_t len, struct ibdev2netdev *out)
{
	struct lines it;
	char *l, *tok[8];
	bool empty = true;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		struct ibdev2netdev_entry *e;
		uint32_t port;
		size_t n = str_split_ws(l, tok, 8);
		char *st = NULL;

		if (!n)
			continue;
		empty = false;
		/* "mlx5_0 port 1 ==> ib0 (Up)" */
		if (n < 5 || strcmp(tok[1], "port") != 0 || strcmp(tok[3], "==>") != 0 ||
		    !str_to_u32(tok[2], 10, &port))
			continue;
		if (out->n >= PARSE_MAX_ITEMS)
			break;
		if (n >= 6 && tok[5][0] == '(') {
			size_t sl;
			st = tok[5] + 1;
			sl = strlen(st);
			if (sl && st[sl - 1] == ')')
				st[sl - 1] = '\0';
		}
		e = XPUSH(out->v, out->n, out->cap);
		e->dev = xstrdup(tok[0]);
		e->port = port;
		e->netdev = xstrdup(tok[4]);
		e->state = st ? xstrdup(st) : NULL;
		e->up = st && str_ieq(st, "Up");
	}
	lines_release(&it);
	return (out->n || empty) ? 0 : -1;
}

void ibdev2netdev_release(struct ibdev2netdev *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].dev);
		free(m->v[i].netdev);
		free(m->v[i].state);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

const struct ibdev2netdev_entry *ibdev2netdev_find(const struct ibdev2netdev *m, const char *dev)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (dev && strcmp(m->v[i].dev, dev) == 0)
			return &m->v[i];
	return NULL;
}
