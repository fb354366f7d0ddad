/* SPDX-License-Identifier: Apache-2.0 */
/*
 * live_summarize(): the two samples of an observation window turned into
 * what moved, per path.  Counters that went backwards (a reset, a device
 * that came and went) count as nothing rather than as a wrap of 2^64.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "live/live.h"
#include "parse/lines.h"

static uint64_t grew(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

static const struct live_port *find_port(const struct live_sample *s, const char *dev,
					 unsigned port)
{
	for (size_t i = 0; i < s->n_ports; i++)
		if (s->ports[i].port == port && !strcmp(s->ports[i].dev, dev))
			return &s->ports[i];
	return NULL;
}

/* "mlx5_0" -> stem "mlx5_", number 0; false when there is no trailing number. */
static bool split_num(const char *name, size_t *stem, unsigned *num)
{
	size_t n = strlen(name), i = n;
	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	if (i == n || n - i > 4)
		return false;
	*stem = i;
	*num = 0;
	for (size_t k = i; k < n; k++)
		*num = *num * 10 + (unsigned)(name[k] - '0');
	return true;
}

/* The devices that moved bytes, as "mlx5_0..mlx5_3" when they are one run
 * of numbers, else listed ("mlx5_0, mlx5_4"), capped with "... (N more)". */
static void name_devs(const char **devs, size_t n, struct strbuf *out)
{
	if (!n)
		return;
	bool run = n > 2;
	size_t stem0 = 0;
	unsigned prev = 0;
	for (size_t i = 0; i < n && run; i++) {
		size_t stem;
		unsigned num;
		if (!split_num(devs[i], &stem, &num) ||
		    (i && (stem != stem0 || strncmp(devs[i], devs[0], stem) || num != prev + 1)))
			run = false;
		stem0 = stem;
		prev = num;
	}
	if (run) {
		strbuf_addf(out, "%s..%s", devs[0], devs[n - 1]);
		return;
	}
	for (size_t i = 0; i < n; i++)
		strbuf_joinf_capped(out, LIVE_LINE_CAP, ", ", "%s", devs[i]);
}

static void sum_errors(const struct live_sample *a, const struct live_sample *b,
		       struct live_summary *s)
{
	for (size_t i = 0; i < b->nixl.p.n; i++) {
		const struct prom_sample *x = &b->nixl.p.v[i];
		if (strcmp(x->name, "agent_errors_total"))
			continue;
		s->nixl_errors_exported = true;
		const char *st = prom_sample_label(x, "status");
		const char *ag = prom_sample_label(x, "agent_name");
		double before = 0;
		for (size_t j = 0; j < a->nixl.p.n; j++) {
			const struct prom_sample *y = &a->nixl.p.v[j];
			const char *st2 = prom_sample_label(y, "status");
			const char *ag2 = prom_sample_label(y, "agent_name");
			if (!strcmp(y->name, x->name) && !strcmp(st ? st : "", st2 ? st2 : "") &&
			    !strcmp(ag ? ag : "", ag2 ? ag2 : ""))
				before = y->value;
		}
		if (x->value <= before)
			continue;
		double grew_by = x->value - before;
		s->nixl_errors += grew_by;
		/* One entry per status, whichever agent counted it. */
		const char *name = st ? st : "unlabelled";
		size_t k = 0;
		while (k < s->n_errors && strcmp(s->errors[k].status, name))
			k++;
		if (k == s->n_errors) {
			s->errors = xrealloc(s->errors, (s->n_errors + 1) * sizeof(*s->errors));
			s->errors[s->n_errors++] = (struct live_error){.status = name};
		}
		s->errors[k].delta += grew_by;
	}
	/* One line: the statuses that fit, then how many did not. */
	for (size_t k = 0; k < s->n_errors; k++)
		strbuf_joinf_capped(&s->error_statuses, LIVE_LINE_CAP, ", ", "%s +%.0f",
				    s->errors[k].status, s->errors[k].delta);
}

void live_summarize(const struct live_facts *f, struct live_summary *s)
{
	memset(s, 0, sizeof(*s));
	strbuf_init(&s->rdma_devs);
	strbuf_init(&s->error_statuses);
	const struct live_sample *a = &f->s[0], *b = &f->s[1];
	s->observed = a->have && b->have;
	if (!s->observed)
		return;
	s->seconds = a->uptime >= 0 && b->uptime > a->uptime ? b->uptime - a->uptime
							     : (double)f->observe_s;

	const char *moved[LIVE_MAX_PORTS];
	size_t n_moved = 0;
	s->ports = xcalloc(b->n_ports ? b->n_ports : 1, sizeof(*s->ports));
	for (size_t i = 0; i < b->n_ports; i++) {
		const struct live_port *p1 = &b->ports[i];
		const struct live_port *p0 = find_port(a, p1->dev, p1->port);
		if (!p0)
			continue;
		bool rdma_only = p1->efa && !p1->have_txrx;
		uint64_t tx = rdma_only ? grew(p0->rdma_tx, p1->rdma_tx) : grew(p0->tx, p1->tx);
		uint64_t rx = rdma_only ? grew(p0->rdma_rx, p1->rdma_rx) : grew(p0->rx, p1->rx);
		s->ports[s->n_ports++] =
			(struct live_delta){.name = p1->dev, .port = p1->port, .tx = tx, .rx = rx};
		s->rdma_tx += tx;
		s->rdma_rx += rx;
		if (tx + rx > 0) {
			bool dup = false;
			for (size_t k = 0; k < n_moved; k++)
				dup |= !strcmp(moved[k], p1->dev);
			if (!dup)
				moved[n_moved++] = p1->dev;
		}
	}
	name_devs(moved, n_moved, &s->rdma_devs);

	if (a->have_netdev && b->have_netdev) {
		s->ifs = xcalloc(b->netdev.n ? b->netdev.n : 1, sizeof(*s->ifs));
		for (size_t i = 0; i < b->netdev.n; i++) {
			const struct net_dev_if *i1 = &b->netdev.v[i];
			const struct net_dev_if *i0 = net_dev_find(&a->netdev, i1->name);
			if (!i0 || !strcmp(i1->name, "lo"))
				continue;
			struct live_delta *d = &s->ifs[s->n_ifs++];
			*d = (struct live_delta){.name = i1->name,
						 .tx = grew(i0->tx_bytes, i1->tx_bytes),
						 .rx = grew(i0->rx_bytes, i1->rx_bytes)};
			s->tcp_tx += d->tx;
			s->tcp_rx += d->rx;
		}
	}

	s->nixl = a->nixl.have && b->nixl.have;
	if (s->nixl) {
		s->nixl_tx = b->nixl.tx > a->nixl.tx ? b->nixl.tx - a->nixl.tx : 0;
		s->nixl_rx = b->nixl.rx > a->nixl.rx ? b->nixl.rx - a->nixl.rx : 0;
		sum_errors(a, b, s);
	}
}

void live_summary_release(struct live_summary *s)
{
	free(s->ports);
	free(s->ifs);
	free(s->errors);
	strbuf_release(&s->rdma_devs);
	strbuf_release(&s->error_statuses);
	memset(s, 0, sizeof(*s));
}
