/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/ibv_devinfo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

static unsigned lead_uint(const char *v)
{
	double d;

	if (!str_lead_double(v, &d) || d < 0 || d > 4e9)
		return 0;
	return (unsigned)d;
}

static bool port_field(struct ibv_port *p, const char *k, const char *v)
{
	if (strcmp(k, "state") == 0)
		p->state = ib_port_state_parse(v);
	else if (strcmp(k, "phys_state") == 0)
		p->phys_state = ib_phys_state_parse(v);
	else if (strcmp(k, "max_mtu") == 0)
		p->max_mtu = lead_uint(v);
	else if (strcmp(k, "active_mtu") == 0)
		p->active_mtu = lead_uint(v);
	else if (strcmp(k, "sm_lid") == 0)
		ib_lid_parse(v, &p->sm_lid);
	else if (strcmp(k, "port_lid") == 0)
		ib_lid_parse(v, &p->port_lid);
	else if (strcmp(k, "link_layer") == 0)
		p->link_layer = ib_link_layer_parse(v);
	else if (strcmp(k, "active_width") == 0)
		set_str(&p->active_width, v);
	else if (strcmp(k, "active_speed") == 0)
		set_str(&p->active_speed, v);
	else if (str_starts(k, "GID[")) {
		if (p->ngids < 256)
			*XPUSH(p->gids, p->ngids, p->cap_gids) = xstrdup(v);
	} else
		return false;
	return true;
}

static void dev_field(struct ibv_device *d, const char *k, const char *v)
{
	if (strcmp(k, "transport") == 0)
		set_str(&d->transport, v);
	else if (strcmp(k, "fw_ver") == 0)
		set_str(&d->fw_ver, v);
	else if (strcmp(k, "node_guid") == 0)
		set_str(&d->node_guid, v);
	else if (strcmp(k, "board_id") == 0)
		set_str(&d->board_id, v);
	else if (strcmp(k, "vendor_part_id") == 0)
		d->vendor_part_id = lead_uint(v);
	else if (strcmp(k, "phys_port_cnt") == 0)
		d->phys_port_cnt = lead_uint(v);
}

/* "2 HCAs found:" -> 2 */
static bool hcas_found(const char *s, int *n)
{
	uint64_t v = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p) && v < 1000000)
		v = v * 10 + (uint64_t)(*p++ - '0');
	if (!str_istarts(str_skip_ws(p), "HCAs found") && !str_istarts(str_skip_ws(p), "HCA found"))
		return false;
	*n = (int)v;
	return true;
}

int ibv_devinfo_parse(const char *buf, size_t len, struct ibv_devinfo *out)
{
	struct lines it;
	char *l;
	struct ibv_device *dev = NULL;
	struct ibv_port *port = NULL;
	bool listing = false, any = false;

	memset(out, 0, sizeof(*out));
	out->hcas_found = -1;
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		char *s = str_lstrip(l), *k, *v;
		int n;

		if (!*s)
			continue;
		if (str_starts(s, "libibverbs: Warning:")) {
			if (str_icontains(s, "no userspace device-specific driver"))
				out->no_driver_warnings++;
			any = true;
			continue;
		}
		if (str_istarts(s, "No IB devices found")) {
			out->no_devices = true;
			any = true;
			continue;
		}
		if (hcas_found(s, &n)) {
			out->hcas_found = n;
			listing = true;
			any = true;
			dev = NULL;
			port = NULL;
			continue;
		}
		if (!str_kv(s, ':', &k, &v)) {
			/* -l names, or -v flag lists under a key */
			if (listing && !dev && out->nnames < PARSE_MAX_ITEMS && !strchr(k, ' '))
				*XPUSH(out->names, out->nnames, out->cap_names) = xstrdup(k);
			continue;
		}
		if (strcmp(k, "hca_id") == 0) {
			port = NULL;
			if (!*v || out->ndevs >= PARSE_MAX_ITEMS) {
				dev = NULL;
				continue;
			}
			dev = XPUSH(out->devs, out->ndevs, out->cap);
			memset(dev, 0, sizeof(*dev));
			dev->hca_id = xstrdup(v);
			any = true;
			listing = false;
			continue;
		}
		if (!dev)
			continue;
		if (strcmp(k, "port") == 0) {
			uint32_t num;
			if (!str_to_u32(v, 10, &num) || dev->nports >= 256) {
				port = NULL;
				continue;
			}
			port = XPUSH(dev->ports, dev->nports, dev->cap);
			memset(port, 0, sizeof(*port));
			port->num = num;
			continue;
		}
		if (port && port_field(port, k, v))
			continue;
		dev_field(dev, k, v);
	}
	lines_release(&it);
	return any ? 0 : -1;
}

void ibv_devinfo_release(struct ibv_devinfo *d)
{
	size_t i, j, g;

	for (i = 0; i < d->ndevs; i++) {
		struct ibv_device *dev = &d->devs[i];
		for (j = 0; j < dev->nports; j++) {
			struct ibv_port *p = &dev->ports[j];
			free(p->active_width);
			free(p->active_speed);
			for (g = 0; g < p->ngids; g++)
				free(p->gids[g]);
			free(p->gids);
		}
		free(dev->ports);
		free(dev->hca_id);
		free(dev->transport);
		free(dev->fw_ver);
		free(dev->node_guid);
		free(dev->board_id);
	}
	free(d->devs);
	for (i = 0; i < d->nnames; i++)
		free(d->names[i]);
	free(d->names);
	memset(d, 0, sizeof(*d));
}

const struct ibv_device *ibv_devinfo_find(const struct ibv_devinfo *d, const char *hca)
{
	size_t i;

	for (i = 0; i < d->ndevs; i++)
		if (hca && strcmp(d->devs[i].hca_id, hca) == 0)
			return &d->devs[i];
	return NULL;
}
