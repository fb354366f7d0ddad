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

/* One series' identity: its labels as they are, in order. */
static void series_key(const struct prom_sample *x, struct strbuf *k)
{
	strbuf_reset(k);
	for (size_t i = 0; i < x->n_labels; i++)
		strbuf_addf(k, "%s=%s,", x->labels[i].name, x->labels[i].value);
}

static bool same_series(const struct prom_sample *x, const struct prom_sample *y)
{
	if (strcmp(x->name, y->name) || x->n_labels != y->n_labels)
		return false;
	for (size_t i = 0; i < x->n_labels; i++)
		if (strcmp(x->labels[i].name, y->labels[i].name) ||
		    strcmp(x->labels[i].value, y->labels[i].value))
			return false;
	return true;
}

/* The label that tells ranks apart, when a series carries one
 * (prometheus_mp's pid: rules/nixl_telemetry.c). */
static const char *rank_of(const struct prom_sample *x, const char **label)
{
	size_t n;
	const struct nixl_tm_exporter *e = nixl_tm_exporters(&n);
	for (size_t i = 0; i < n; i++) {
		const char *v;
		if (e[i].rank_label && (v = prom_sample_label(x, e[i].rank_label))) {
			*label = e[i].rank_label;
			return v;
		}
	}
	return NULL;
}

/* NIXL's byte counters, series by series: a series that fell (the agent
 * restarted, its counters began again) or vanished spoils the sum; one
 * that appeared began during the window and counts from zero. */
static void nixl_bytes(const struct live_sample *a, const struct live_sample *b,
		       struct live_summary *s)
{
	struct strbuf k;
	strbuf_init(&k);
	s->nixl_tx_name = b->nixl.tx_name;
	s->nixl_rx_name = b->nixl.rx_name;
	for (int pass = 0; pass < 2; pass++) {
		const char *name = pass ? b->nixl.rx_name : b->nixl.tx_name;
		if (!name)
			continue;
		for (size_t i = 0; i < b->nixl.p.n; i++) {
			const struct prom_sample *x = &b->nixl.p.v[i];
			if (strcmp(x->name, name))
				continue;
			const struct prom_sample *y = NULL;
			for (size_t j = 0; j < a->nixl.p.n && !y; j++)
				if (same_series(x, &a->nixl.p.v[j]))
					y = &a->nixl.p.v[j];
			double before = y ? y->value : 0;
			if (x->value < before) {
				series_key(x, &k);
				s->nixl_spoiled = true;
				strbuf_joinf_capped(
					&s->spoiled, LIVE_LINE_CAP, "; ",
					"NIXL's %s{%.*s} fell from %.0f to %.0f (the agent "
					"restarted)",
					name, k.len ? (int)k.len - 1 : 0, k.buf, before, x->value);
				continue;
			}
			double d = x->value - before;
			if (pass)
				s->nixl_rx += d;
			else
				s->nixl_tx += d;
			const char *label = NULL, *rank = rank_of(x, &label);
			if (rank && !pass) {
				s->n_ranks++;
				strbuf_joinf_capped(&s->ranks, LIVE_LINE_CAP, ", ", "%s %s +%.0f",
						    label, rank, d);
			}
		}
		/* A series of the first sample that the second lacks: its agent
		 * went away with what it had moved. */
		for (size_t j = 0; j < a->nixl.p.n; j++) {
			const struct prom_sample *y = &a->nixl.p.v[j];
			if (strcmp(y->name, name))
				continue;
			bool found = false;
			for (size_t i = 0; i < b->nixl.p.n && !found; i++)
				found = same_series(y, &b->nixl.p.v[i]);
			if (!found) {
				series_key(y, &k);
				s->nixl_spoiled = true;
				strbuf_joinf_capped(
					&s->spoiled, LIVE_LINE_CAP, "; ",
					"NIXL's %s{%.*s} is gone at the second sample (the "
					"agent exited)",
					name, k.len ? (int)k.len - 1 : 0, k.buf);
			}
		}
	}
	strbuf_release(&k);
}

static void sum_errors(const struct live_sample *a, const struct live_sample *b,
		       struct live_summary *s)
{
	for (size_t i = 0; i < b->nixl.p.n; i++) {
		const struct prom_sample *x = &b->nixl.p.v[i];
		if (strcmp(x->name, nixl_tm_errors_name()))
			continue;
		s->nixl_errors_exported = true;
		const char *st = prom_sample_label(x, "status");
		double before = 0;
		for (size_t j = 0; j < a->nixl.p.n; j++)
			if (same_series(x, &a->nixl.p.v[j]))
				before = a->nixl.p.v[j].value;
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

/* A counter that fell between the samples was reset (driver reload, port
 * reset, `perfquery -R`) or wrapped; either way its delta is unknown. */
static bool fell(uint64_t a, uint64_t b)
{
	return b < a;
}

/* The fabric model (rules/fabric.c) over the node's facts, with what the
 * window itself shows: an engine holding an IMEX channel is inside an IMEX
 * domain (the channel exists only there: NVIDIA IMEX guide), and EFA
 * hw_counters that moved are an EFA device given to the pod. */
static void live_fabric(const struct live_facts *f, struct live_summary *s, bool efa_moved)
{
	struct fabric_in in;
	if (f->have_fabric)
		in = f->fabric;
	else
		memset(&in, 0, sizeof(in));
	if (s->imex) {
		unsigned held = (unsigned)proc_fds_count(&f->fds, LIVE_IMEX);
		if (held > in.imex_channels)
			in.imex_channels = held;
		in.cluster_uuid = true;
	}
	if (efa_moved && !in.efa_nics)
		in.efa_nics = 1;
	fabric_decide(&in, &s->fabric);
	/* The kind of the ports that moved: EFA's counters say so; else the
	 * node's link layers, when they name one kind. */
	if (efa_moved) {
		s->rdma_kind = FABRIC_EFA;
		s->rdma_kind_known = true;
	} else if (f->have_fabric && in.ib_nics && !in.roce_nics) {
		s->rdma_kind = FABRIC_IB;
		s->rdma_kind_known = true;
	} else if (f->have_fabric && in.roce_nics && !in.ib_nics) {
		s->rdma_kind = FABRIC_ROCE;
		s->rdma_kind_known = true;
	}
}

void live_summarize(const struct live_facts *f, struct live_summary *s)
{
	memset(s, 0, sizeof(*s));
	strbuf_init(&s->rdma_devs);
	strbuf_init(&s->error_statuses);
	strbuf_init(&s->ranks);
	strbuf_init(&s->spoiled);
	const struct live_sample *a = &f->s[0], *b = &f->s[1];
	s->observed = a->have && b->have;
	if (!s->observed)
		return;
	/* From the first sample to the last, as the clocks read them (the
	 * probe's sleep is whole seconds; the window is what it measured). */
	s->measured = a->uptime >= 0 && b->uptime > a->uptime;
	s->seconds = s->measured ? b->uptime - a->uptime : (double)f->observe_s;
	s->fds_read = f->have_fds;
	s->imex = f->have_fds && proc_fds_count(&f->fds, LIVE_IMEX) > 0;
	bool efa_moved = false;

	const char *moved[LIVE_MAX_PORTS];
	size_t n_moved = 0;
	s->ports = xcalloc(b->n_ports ? b->n_ports : 1, sizeof(*s->ports));
	for (size_t i = 0; i < b->n_ports; i++) {
		const struct live_port *p1 = &b->ports[i];
		const struct live_port *p0 = find_port(a, p1->dev, p1->port);
		if (!p0)
			continue;
		bool rdma_only = p1->efa && !p1->have_txrx;
		uint64_t t0 = rdma_only ? p0->rdma_tx : p0->tx,
			 t1 = rdma_only ? p1->rdma_tx : p1->tx;
		uint64_t r0 = rdma_only ? p0->rdma_rx : p0->rx,
			 r1 = rdma_only ? p1->rdma_rx : p1->rx;
		const char *bad = NULL;
		if (p0->sat_tx || p1->sat_tx || p0->sat_rx || p1->sat_rx)
			bad = "is stuck at 2^32-1 words (a saturated 32-bit PortCounters "
			      "counter: the HCA has no extended counters)";
		else if (fell(t0, t1) || fell(r0, r1))
			bad = "fell (the counter was reset or wrapped)";
		if (bad) {
			s->rdma_spoiled = true;
			strbuf_joinf_capped(
				&s->spoiled, LIVE_LINE_CAP, "; ", "%s port %u %s %s", p1->dev,
				p1->port, p1->efa ? "hw_counters" : "port_xmit_data/port_rcv_data",
				bad);
			continue;
		}
		uint64_t tx = grew(t0, t1), rx = grew(r0, r1);
		s->ports[s->n_ports++] =
			(struct live_delta){.name = p1->dev, .port = p1->port, .tx = tx, .rx = rx};
		s->rdma_tx += tx;
		s->rdma_rx += rx;
		if (tx + rx > 0) {
			efa_moved |= p1->efa;
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
			if (!i0)
				continue;
			bool lo = !strcmp(i1->name, "lo");
			if (fell(i0->tx_bytes, i1->tx_bytes) || fell(i0->rx_bytes, i1->rx_bytes)) {
				s->tcp_spoiled = true;
				strbuf_joinf_capped(
					&s->spoiled, LIVE_LINE_CAP, "; ",
					"%s's /proc/net/dev bytes fell (the interface was "
					"recreated or its counters wrapped)",
					i1->name);
				continue;
			}
			uint64_t tx = grew(i0->tx_bytes, i1->tx_bytes);
			uint64_t rx = grew(i0->rx_bytes, i1->rx_bytes);
			if (lo) {
				/* Shown apart: TCP inside the pod is not a network path. */
				s->have_lo = true;
				s->lo_tx = tx;
				s->lo_rx = rx;
				continue;
			}
			s->ifs[s->n_ifs++] =
				(struct live_delta){.name = i1->name, .tx = tx, .rx = rx};
			s->tcp_tx += tx;
			s->tcp_rx += rx;
		}
	}

	/* An exporter publishes a family whose events NIXL_TELEMETRY_ENABLED_METRICS
	 * drops, frozen at 0 (rules/nixl_telemetry.h): byte counters left out
	 * are no telemetry of what moved, error counters left out no errors
	 * read. */
	s->nixl = a->nixl.have && b->nixl.have && nixl_tm_bytes_enabled(f->tm_metrics);
	if (s->nixl) {
		nixl_bytes(a, b, s);
		if (nixl_tm_errors_enabled(f->tm_metrics))
			sum_errors(a, b, s);
		else
			s->nixl_errors_dropped = true;
	}
	live_fabric(f, s, efa_moved);
	s->path = live_path_decide(s);
}

/* The one decision.  A lower bound stays a lower bound when a counter is
 * left out: RDMA (or TCP) moving half of NIXL's bytes on the counters that
 * held is proof; "nothing went over RDMA or TCP" is not, when one of them
 * was spoiled. */
enum live_path_kind live_path_decide(const struct live_summary *s)
{
	if (!s->observed)
		return LIVE_PATH_UNSEEN;
	double rdma = (double)(s->rdma_tx + s->rdma_rx), tcp = (double)(s->tcp_tx + s->tcp_rx);
	double lo = (double)(s->lo_tx + s->lo_rx);
	if (!s->nixl) {
		if (s->rdma_spoiled || s->tcp_spoiled)
			return LIVE_PATH_SPOILED;
		return rdma == 0 && tcp < LIVE_IDLE_TCP ? LIVE_PATH_IDLE : LIVE_PATH_UNATTRIBUTED;
	}
	if (s->nixl_spoiled)
		return LIVE_PATH_SPOILED;
	double kv = s->nixl_tx + s->nixl_rx;
	if (kv <= 0)
		return LIVE_PATH_IDLE;
	if (rdma >= LIVE_SHARE * kv)
		return LIVE_PATH_RDMA;
	if (tcp >= LIVE_SHARE * kv)
		return LIVE_PATH_TCP;
	/* Both agents in the pod: lo counts each byte once sent and once
	 * received, as NIXL counts it once as tx and once as rx. */
	if (lo >= LIVE_SHARE * kv)
		return LIVE_PATH_LOOPBACK;
	if (s->rdma_spoiled || s->tcp_spoiled)
		return LIVE_PATH_SPOILED;
	/* NIXL moved, no NIC and no TCP did: NVLink.  The fabric model says
	 * which: multi-node NVLink when the engine holds an IMEX channel, or
	 * (its descriptors unread) when the node's model can carry KV over
	 * MNNVL; else the bytes stayed in the node (cuda_ipc over NVLink or
	 * PCIe, or host shared memory). */
	if (s->imex || (!s->fds_read && s->fabric.can[FABRIC_MNNVL]))
		return LIVE_PATH_MNNVL;
	return LIVE_PATH_LOCAL;
}

void live_summary_release(struct live_summary *s)
{
	free(s->ports);
	free(s->ifs);
	free(s->errors);
	strbuf_release(&s->ranks);
	strbuf_release(&s->spoiled);
	strbuf_release(&s->rdma_devs);
	strbuf_release(&s->error_statuses);
	memset(s, 0, sizeof(*s));
}
