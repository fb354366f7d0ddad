/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/rdma_link.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

/* "mlx5_0/1" or "mlx5_0/1:" -> dev, port */
static bool dev_port(char *t, char **dev, unsigned *port)
{
	char *slash = strrchr(t, '/');
	size_t n = strlen(t);
	uint32_t p;

	if (n && t[n - 1] == ':')
		t[--n] = '\0';
	if (!slash || slash == t || !slash[1])
		return false;
	*slash = '\0';
	if (!str_to_u32(slash + 1, 10, &p)) {
		*slash = '/';
		return false;
	}
	*dev = t;
	*port = p;
	return true;
}

int rdma_link_parse(const char *buf, size_t len, struct rdma_link *out)
{
	struct lines it;
	char *l, *tok[64];
	bool empty = true;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		size_t n, i, first;
		char *dev = NULL;
		unsigned port = 0;
		struct rdma_link_entry *e;

		n = str_split_ws(l, tok, 64);
		if (!n)
			continue;
		empty = false;
		/* "link mlx5_0/1 ..." (current) or "1/1: mlx5_0/1: ..." (early) */
		if (strcmp(tok[0], "link") == 0 && n >= 2 && dev_port(tok[1], &dev, &port))
			first = 2;
		else if (n >= 2 && tok[0][strlen(tok[0]) - 1] == ':' &&
			 dev_port(tok[1], &dev, &port))
			first = 2;
		else
			continue;
		if (out->n >= PARSE_MAX_ITEMS)
			break;
		e = XPUSH(out->v, out->n, out->cap);
		memset(e, 0, sizeof(*e));
		e->dev = xstrdup(dev);
		e->port = port;
		for (i = first; i + 1 < n; i += 2) {
			if (strcmp(tok[i], "state") == 0)
				e->state = ib_port_state_parse(tok[i + 1]);
			else if (strcmp(tok[i], "physical_state") == 0)
				e->phys_state = ib_phys_state_parse(tok[i + 1]);
			else if (strcmp(tok[i], "netdev") == 0 && !e->netdev)
				e->netdev = xstrdup(tok[i + 1]);
		}
	}
	lines_release(&it);
	return (out->n || empty) ? 0 : -1;
}

void rdma_link_release(struct rdma_link *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].dev);
		free(l->v[i].netdev);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
