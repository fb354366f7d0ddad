/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/ibstatus.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

/* "Infiniband device 'mlx5_0' port 1 status:" */
static bool port_header(const char *s, char **dev, unsigned *port)
{
	const char *q, *e, *p;
	uint32_t n;
	char num[12];
	size_t i = 0;

	if (!str_istarts(s, "Infiniband device"))
		return false;
	q = strchr(s, '\'');
	if (!q)
		return false;
	e = strchr(q + 1, '\'');
	if (!e || e == q + 1)
		return false;
	p = strstr(e, "port ");
	if (!p)
		return false;
	p += 5;
	while (p[i] >= '0' && p[i] <= '9' && i + 1 < sizeof(num)) {
		num[i] = p[i];
		i++;
	}
	num[i] = '\0';
	if (!str_to_u32(num, 10, &n))
		return false;
	*dev = xstrndup(q + 1, (size_t)(e - q - 1));
	*port = n;
	return true;
}

int ibstatus_parse(const char *buf, size_t len, struct ibstatus *out)
{
	struct lines it;
	char *l;
	struct ibstatus_port *p = NULL;

	memset(out, 0, sizeof(*out));
	if (!lines_start(&it, buf, len, &out->empty))
		return 0;
	while ((l = lines_next(&it))) {
		char *s = str_lstrip(l), *k, *v, *dev;
		unsigned port;

		if (port_header(s, &dev, &port)) {
			if (out->nports >= PARSE_MAX_ITEMS) {
				free(dev);
				p = NULL;
				continue;
			}
			p = XPUSH(out->ports, out->nports, out->cap);
			memset(p, 0, sizeof(*p));
			p->device = dev;
			p->port = port;
			continue;
		}
		if (!p || !str_kv(s, ':', &k, &v))
			continue;
		if (str_ieq(k, "default gid")) {
			free(p->default_gid);
			p->default_gid = xstrdup(v);
			p->gid_unknown = str_ieq(v, "unknown");
		} else if (str_ieq(k, "base lid")) {
			ib_lid_parse(v, &p->base_lid);
		} else if (str_ieq(k, "sm lid")) {
			ib_lid_parse(v, &p->sm_lid);
		} else if (str_ieq(k, "state")) {
			p->state = ib_port_state_parse(v);
		} else if (str_ieq(k, "phys state")) {
			p->phys_state = ib_phys_state_parse(v);
		} else if (str_ieq(k, "rate")) {
			ib_rate_parse(v, &p->rate);
		} else if (str_ieq(k, "link_layer") || str_ieq(k, "link layer")) {
			p->link_layer = ib_link_layer_parse(v);
		}
	}
	lines_release(&it);
	return out->nports ? 0 : -1;
}

void ibstatus_release(struct ibstatus *s)
{
	size_t i;

	for (i = 0; i < s->nports; i++) {
		free(s->ports[i].device);
		free(s->ports[i].default_gid);
	}
	free(s->ports);
	memset(s, 0, sizeof(*s));
}
