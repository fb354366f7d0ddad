/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/ibstat.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

/* "CA 'mlx5_0'" -> "mlx5_0" (quotes optional). */
static char *ca_name(const char *rest)
{
	const char *s = str_skip_ws(rest), *e;

	if (*s == '\'' || *s == '"') {
		char q = *s++;
		e = strchr(s, q);
		if (!e)
			e = s + strlen(s);
	} else {
		e = s;
		while (*e && *e != ' ' && *e != '\t')
			e++;
	}
	if (e == s)
		return NULL;
	return xstrndup(s, (size_t)(e - s));
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

static void port_field(struct ibstat_port *p, const char *k, const char *v)
{
	if (str_ieq(k, "State")) {
		set_str(&p->state_text, v);
		p->state = ib_port_state_parse(v);
	} else if (str_ieq(k, "Physical state")) {
		set_str(&p->phys_state_text, v);
		p->phys_state = ib_phys_state_parse(v);
	} else if (str_ieq(k, "Rate")) {
		struct ib_rate r;
		if (ib_rate_parse(v, &r))
			p->rate_gbps = r.gbps;
	} else if (str_ieq(k, "Base lid")) {
		ib_lid_parse(v, &p->base_lid);
	} else if (str_ieq(k, "SM lid")) {
		ib_lid_parse(v, &p->sm_lid);
	} else if (str_ieq(k, "LMC")) {
		uint32_t x;
		if (str_to_u32(v, 10, &x))
			p->lmc = x;
	} else if (str_ieq(k, "Port GUID")) {
		ib_guid_parse(v, &p->port_guid);
	} else if (str_ieq(k, "Link layer")) {
		p->link_layer = ib_link_layer_parse(v);
	}
}

static void ca_field(struct ibstat_ca *ca, const char *k, const char *v)
{
	if (str_ieq(k, "CA type")) {
		set_str(&ca->ca_type, v);
	} else if (str_ieq(k, "Number of ports")) {
		uint32_t x;
		if (str_to_u32(v, 10, &x))
			ca->nports_declared = x;
	} else if (str_ieq(k, "Firmware version")) {
		set_str(&ca->fw_ver, v);
	} else if (str_ieq(k, "Hardware version")) {
		set_str(&ca->hw_ver, v);
	} else if (str_ieq(k, "Node GUID")) {
		ib_guid_parse(v, &ca->node_guid);
	} else if (str_ieq(k, "System image GUID")) {
		ib_guid_parse(v, &ca->sys_image_guid);
	}
}

int ibstat_parse(const char *buf, size_t len, struct ibstat *out)
{
	struct lines it;
	char *l;
	struct ibstat_ca *ca = NULL;
	struct ibstat_port *port = NULL;
	bool any = false;

	memset(out, 0, sizeof(*out));
	if (!lines_start(&it, buf, len, &out->empty))
		return 0;
	while ((l = lines_next(&it))) {
		char *s = str_lstrip(l), *k, *v;

		if (!*s)
			continue;
		if (str_starts(s, "ibpanic:")) {
			const char *q;
			char *msg = str_trim(s + 8);
			any = true;
			out->panic = true;
			if (!out->panic_msg)
				out->panic_msg = xstrdup(msg);
			q = strstr(msg, "device '");
			if (q && !out->panic_device)
				out->panic_device = ca_name(q + 7);
			continue;
		}
		/* "CA 'mlx5_0'" starts a device; never indented in real output,
		 * but a paste may have indented everything. */
		if (str_starts(s, "CA '") || str_starts(s, "CA \"")) {
			char *name = ca_name(s + 2);
			port = NULL;
			if (!name || out->ncas >= PARSE_MAX_ITEMS) {
				free(name);
				ca = NULL;
				continue;
			}
			ca = XPUSH(out->cas, out->ncas, out->cap);
			memset(ca, 0, sizeof(*ca));
			ca->name = name;
			any = true;
			continue;
		}
		if (!ca)
			continue;
		if (str_istarts(s, "Port ") && s[strlen(s) - 1] == ':') {
			uint32_t num;
			s[strlen(s) - 1] = '\0';
			if (!str_to_u32(s + 5, 10, &num) || ca->nports >= 256) {
				port = NULL;
				continue;
			}
			port = XPUSH(ca->ports, ca->nports, ca->cap);
			memset(port, 0, sizeof(*port));
			port->num = num;
			continue;
		}
		if (!str_kv(s, ':', &k, &v))
			continue;
		/* Port keys and CA keys do not overlap, so a paste that lost its
		 * indentation still lands every key in the right place. */
		if (port && (str_ieq(k, "State") || str_ieq(k, "Physical state") ||
			     str_ieq(k, "Rate") || str_ieq(k, "Base lid") || str_ieq(k, "SM lid") ||
			     str_ieq(k, "LMC") || str_ieq(k, "Port GUID") ||
			     str_ieq(k, "Link layer") || str_ieq(k, "Capability mask")))
			port_field(port, k, v);
		else
			ca_field(ca, k, v);
	}
	lines_release(&it);
	return any ? 0 : -1;
}

void ibstat_release(struct ibstat *s)
{
	size_t i, j;

	for (i = 0; i < s->ncas; i++) {
		struct ibstat_ca *ca = &s->cas[i];
		for (j = 0; j < ca->nports; j++) {
			free(ca->ports[j].state_text);
			free(ca->ports[j].phys_state_text);
		}
		free(ca->ports);
		free(ca->name);
		free(ca->ca_type);
		free(ca->fw_ver);
		free(ca->hw_ver);
	}
	free(s->cas);
	free(s->panic_msg);
	free(s->panic_device);
	memset(s, 0, sizeof(*s));
}

const struct ibstat_ca *ibstat_find(const struct ibstat *s, const char *ca)
{
	size_t i;

	for (i = 0; i < s->ncas; i++)
		if (ca && strcmp(s->cas[i].name, ca) == 0)
			return &s->cas[i];
	return NULL;
}
