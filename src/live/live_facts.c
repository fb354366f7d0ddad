/* SPDX-License-Identifier: Apache-2.0 */
/*
 * live_facts_read(): the live:* sections of a transcript into live_facts.
 * Pure: no judging here (live_checks.c does that), and a reading that could
 * not be made is recorded with its reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "live/live.h"
#include "parse/lines.h"

void live_facts_init(struct live_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->pid = -1;
	f->s[0].uptime = f->s[1].uptime = -1;
}

static void sample_release(struct live_sample *s)
{
	for (size_t i = 0; i < s->n_ports; i++)
		free(s->ports[i].dev);
	if (s->have_netdev)
		net_dev_release(&s->netdev);
	prom_text_release(&s->nixl.p);
}

void live_facts_release(struct live_facts *f)
{
	free(f->engine);
	free(f->exe);
	free(f->how);
	free(f->why);
	proc_maps_release(&f->maps);
	proc_fds_release(&f->fds);
	sample_release(&f->s[0]);
	sample_release(&f->s[1]);
	free(f->logs_why);
	free(f->tm_exporter);
	free(f->tm_enable);
	free(f->tm_from);
	free(f->tm_metrics);
	if (f->logs_read)
		logscan_release(&f->logs);
	for (size_t i = 0; i < f->n_hits; i++)
		free(f->hits[i].evidence);
	free(f->hits);
	live_facts_init(f);
}

/* "key=value" lines of a small section; calls fn for each. */
static void kv_lines(const struct section *s, void (*fn)(void *, const char *, const char *),
		     void *arg)
{
	struct lines it;
	char *l, *k, *v;
	lines_init(&it, s->body, s->len);
	while ((l = lines_next(&it)))
		if (str_kv(l, '=', &k, &v))
			fn(arg, k, v);
	lines_release(&it);
}

static void proc_kv(void *arg, const char *k, const char *v)
{
	struct live_facts *f = arg;
	uint32_t pid;
	if (!strcmp(k, "pid") && str_to_u32(v, 10, &pid) && pid > 0 && pid < (1u << 22))
		f->pid = (int)pid;
	else if (!strcmp(k, "engine") && *v && !f->engine)
		f->engine = xstrndup(v, 64);
	else if (!strcmp(k, "exe") && *v && !f->exe)
		f->exe = xstrndup(v, 64);
	else if (!strcmp(k, "how") && *v && !f->how)
		f->how = xstrndup(v, 16);
	else if (!strcmp(k, "readable"))
		f->readable = !strcmp(v, "yes");
	else if (!strcmp(k, "why") && *v && !f->why)
		f->why = xstrndup(v, 160);
	else if (!strcmp(k, "nixl_procs")) {
		uint32_t n;
		if (str_to_u32(v, 10, &n) && n < 100000)
			f->nixl_procs = n;
	} else if (!strcmp(k, "tm_exporter") && *v && !f->tm_exporter) {
		f->tm_exporter = xstrndup(v, 32);
	} else if (!strcmp(k, "tm_enable") && *v && !f->tm_enable) {
		f->tm_enable = xstrndup(v, 16);
	} else if (!strcmp(k, "tm_from") && *v && !f->tm_from) {
		f->tm_from = xstrndup(v, 16);
	} else if (!strcmp(k, "tm_metrics") && *v && !f->tm_metrics) {
		f->tm_metrics = xstrndup(v, 120);
	} else if (!strcmp(k, "observe")) {
		uint32_t n;
		if (str_to_u32(v, 10, &n) && n <= 3600)
			f->observe_s = n;
	}
}

static void read_proc(struct live_facts *f, const struct transcript *t)
{
	const struct section *s = transcript_get(t, SEC_LIVE_PROC);
	if (!s)
		return;
	f->collected = true;
	kv_lines(s, proc_kv, f);
	f->found = f->pid > 0;
	if (!f->found) {
		f->readable = false;
		if (!f->why)
			f->why = xstrdup("no engine process found in the pod");
		return;
	}
	const struct section *m = transcript_get(t, SEC_LIVE_MAPS);
	const struct section *d = transcript_get(t, SEC_LIVE_FD);
	if (f->readable && m && m->rc == 0 && !m->capped)
		f->have_maps = proc_maps_parse(m->body, m->len, &f->maps) == 0;
	if (f->readable && d && d->rc == 0 && !d->capped)
		f->have_fds = proc_fds_parse(d->body, d->len, &f->fds) == 0;
	if (f->readable && (!f->have_maps || !f->have_fds)) {
		f->readable = false;
		if (!f->why)
			f->why = xasprintf("/proc/%d/%s could not be read", f->pid,
					   f->have_maps ? "fd" : "maps");
	}
}

/* "sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data" and the EFA
 * "sys/class/infiniband/efa_0/ports/1/hw_counters/tx_bytes". */
static struct live_port *port_slot(struct live_sample *s, const char *dev, size_t dlen,
				   unsigned port)
{
	for (size_t i = 0; i < s->n_ports; i++)
		if (s->ports[i].port == port && strlen(s->ports[i].dev) == dlen &&
		    !strncmp(s->ports[i].dev, dev, dlen))
			return &s->ports[i];
	if (s->n_ports >= LIVE_MAX_PORTS)
		return NULL;
	struct live_port *p = &s->ports[s->n_ports++];
	p->dev = xstrndup(dev, dlen);
	p->port = port;
	return p;
}

static void sample_counter(struct live_sample *s, const char *path, const char *val)
{
	static const char pre[] = "sys/class/infiniband/";
	uint64_t v;
	uint32_t port;
	if (!str_starts(path, pre) || !str_to_u64(val, 10, &v))
		return;
	const char *dev = path + sizeof(pre) - 1;
	const char *slash = strchr(dev, '/');
	if (!slash || !str_starts(slash, "/ports/"))
		return;
	const char *pn = slash + 7, *ps = strchr(pn, '/');
	char num[12];
	if (!ps || (size_t)(ps - pn) >= sizeof(num))
		return;
	memcpy(num, pn, (size_t)(ps - pn));
	num[ps - pn] = '\0';
	if (!str_to_u32(num, 10, &port))
		return;
	const char *name = strrchr(ps, '/') + 1;
	struct live_port *p;
	/* port_xmit_data / port_rcv_data count octets divided by 4 (IBTA
	 * PortCounters; the kernel's sysfs reads the extended 64-bit
	 * counters where the HCA has them). */
	if (str_starts(ps, "/counters/") && !strcmp(name, "port_xmit_data")) {
		if ((p = port_slot(s, dev, (size_t)(slash - dev), port))) {
			p->tx = v * 4;
			p->sat_tx = v == LIVE_PORT32_MAX;
		}
	} else if (str_starts(ps, "/counters/") && !strcmp(name, "port_rcv_data")) {
		if ((p = port_slot(s, dev, (size_t)(slash - dev), port))) {
			p->rx = v * 4;
			p->sat_rx = v == LIVE_PORT32_MAX;
		}
	} else if (str_starts(ps, "/hw_counters/") &&
		   (!strcmp(name, "tx_bytes") || !strcmp(name, "rx_bytes") ||
		    !strcmp(name, "rdma_read_bytes") || !strcmp(name, "rdma_write_bytes") ||
		    !strcmp(name, "rdma_read_resp_bytes") ||
		    !strcmp(name, "rdma_write_recv_bytes"))) {
		/* EFA's hw_counters are bytes already.  tx_bytes/rx_bytes count
		 * everything the port moved (kernel drivers/infiniband/hw/efa,
		 * EFA_STATS); the rdma_* pairs only stand in where an older
		 * device has no tx/rx counters, so nothing is counted twice. */
		if (!(p = port_slot(s, dev, (size_t)(slash - dev), port)))
			return;
		p->efa = true;
		if (!strcmp(name, "tx_bytes")) {
			p->tx = v;
			p->have_txrx = true;
		} else if (!strcmp(name, "rx_bytes")) {
			p->rx = v;
			p->have_txrx = true;
		} else if (!strcmp(name, "rdma_write_bytes") ||
			   !strcmp(name, "rdma_read_resp_bytes")) {
			p->rdma_tx += v;
		} else {
			p->rdma_rx += v;
		}
	}
}

struct sample_ctx {
	struct live_sample *s;
};

static void sample_kv(void *arg, const char *k, const char *v)
{
	struct live_sample *s = ((struct sample_ctx *)arg)->s;
	if (!strcmp(k, "uptime")) {
		double d;
		if (str_lead_double(v, &d) && d >= 0)
			s->uptime = d;
	} else if (!strcmp(k, "nixl")) {
		snprintf(s->nixl_why, sizeof(s->nixl_why), "%s", v);
	} else {
		sample_counter(s, k, v);
	}
}

static void read_sample(struct live_sample *s, const struct transcript *t, const char *sec,
			const char *netsec, const char *nixlsec)
{
	const struct section *x = transcript_get(t, sec);
	if (!x)
		return;
	s->have = true;
	struct sample_ctx c = {s};
	kv_lines(x, sample_kv, &c);
	const struct section *n = transcript_get(t, netsec);
	if (n && n->rc == 0 && !n->capped)
		s->have_netdev = net_dev_parse(n->body, n->len, &s->netdev) == 0;
	const struct section *p = transcript_get(t, nixlsec);
	if (p && p->rc == 0 && !p->capped && prom_text_parse(p->body, p->len, &s->nixl.p) == 0) {
		/* Whichever name this NIXL publishes (rules/nixl_telemetry.c):
		 * agent_tx_bytes before 1.1.0, agent_tx_bytes_total from it. */
		size_t nm;
		const struct nixl_tm_metric *m = nixl_tm_metrics(&nm);
		for (size_t i = 0; i < nm; i++) {
			double sum;
			if (m[i].what == NIXL_TM_TX_BYTES && !s->nixl.tx_name &&
			    prom_text_sum(&s->nixl.p, m[i].name, &sum)) {
				s->nixl.tx = sum;
				s->nixl.tx_name = m[i].name;
			} else if (m[i].what == NIXL_TM_RX_BYTES && !s->nixl.rx_name &&
				   prom_text_sum(&s->nixl.p, m[i].name, &sum)) {
				s->nixl.rx = sum;
				s->nixl.rx_name = m[i].name;
			}
		}
		s->nixl.have = s->nixl.tx_name || s->nixl.rx_name;
	}
	if (p && p->capped && !*s->nixl_why) {
		/* A cut exposition is not NIXL's (NIXL_TM_SCRAPE_MAX says why):
		 * its counters may lack series, so none are read. */
		s->nixl_cut = true;
		snprintf(s->nixl_why, sizeof(s->nixl_why),
			 "NIXL's telemetry endpoint was cut at %u bytes: it sent more than "
			 "NIXL's exposition ever holds, so no counter was read",
			 NIXL_TM_SCRAPE_MAX);
	}
	if (!s->nixl.have && !*s->nixl_why && p)
		snprintf(
			s->nixl_why, sizeof(s->nixl_why), "%s",
			"NIXL's telemetry endpoint gave no agent_tx_bytes/agent_rx_bytes counters");
}

static void read_logs(struct live_facts *f, const struct section *s)
{
	if (!s)
		return;
	f->have_logs = true;
	if (s->rc != 0) {
		char l[160] = "";
		struct lines it;
		char *first;
		lines_init(&it, s->body, s->len);
		if ((first = lines_next(&it)))
			snprintf(l, sizeof(l), "%s", first);
		lines_release(&it);
		f->logs_why = xstrdup(*l ? l : "kubectl logs failed");
		return;
	}
	f->logs_read = true;
	f->logs_cut = s->capped;
	f->logs_bytes = s->len;
	for (size_t i = 0; i < s->len; i++)
		f->logs_lines += s->body[i] == '\n';
	(void)logscan_parse(s->body, s->len, &f->logs);
	/* Then every line the sources' format strings account for (rules/
	 * logs.h), unless a symptom already names it. */
	struct lines it;
	char *l;
	lines_init(&it, s->body, s->len);
	while ((l = lines_next(&it))) {
		const char *t = str_skip_ws(l);
		enum log_src src;
		const struct log_rule *rule;
		if (!*t || logscan_line_known(t) || !(rule = log_rule_match(t, &src)))
			continue;
		enum log_meaning mean = log_line_meaning(rule, src, t);
		size_t k = 0;
		while (k < f->n_hits && (f->hits[k].rule != rule || f->hits[k].meaning != mean))
			k++;
		if (k < f->n_hits) {
			f->hits[k].count++;
			continue;
		}
		if (f->n_hits >= LIVE_MAX_LOG_HITS)
			continue;
		f->hits = xrealloc(f->hits, (f->n_hits + 1) * sizeof(*f->hits));
		f->hits[f->n_hits++] =
			(struct live_log_hit){.rule = rule,
					      .src = src,
					      .meaning = mean,
					      .evidence = xstrndup(t, strnlen(t, 300)),
					      .count = 1};
	}
	lines_release(&it);
}

/* Why no exporter was scraped, from the switches the probe read (the
 * engine's own environment, else its own). */
static void tm_why(const struct live_facts *f, struct live_sample *s, const struct section *p)
{
	if (p || s->nixl.have || *s->nixl_why)
		return;
	if (!f->tm_from) {
		snprintf(s->nixl_why, sizeof(s->nixl_why), "NIXL telemetry was not read");
		return;
	}
	const char *where = !strcmp(f->tm_from, "env") ? "the engine's environment"
						       : "the probe's environment (the "
							 "engine's could not be read)";
	const char *ex = nixl_tm_var(NIXL_TM_VAR_EXPORTER)->name;
	if (!f->tm_exporter)
		snprintf(s->nixl_why, sizeof(s->nixl_why), "%s sets no %s", where, ex);
	else if (!nixl_tm_exporter_find(f->tm_exporter))
		snprintf(s->nixl_why, sizeof(s->nixl_why), "%s=%s in %s serves no /metrics", ex,
			 f->tm_exporter, where);
	else
		snprintf(s->nixl_why, sizeof(s->nixl_why), "%s=%s in %s",
			 nixl_tm_var(NIXL_TM_VAR_ENABLE)->name, f->tm_enable ? f->tm_enable : "",
			 where);
}

void live_facts_read(struct live_facts *f, const struct transcript *t)
{
	read_logs(f, transcript_get(t, SEC_LIVE_LOGS));
	read_proc(f, t);
	read_sample(&f->s[0], t, SEC_LIVE_SAMPLE0, SEC_LIVE_NETDEV0, SEC_LIVE_NIXL0);
	read_sample(&f->s[1], t, SEC_LIVE_SAMPLE1, SEC_LIVE_NETDEV1, SEC_LIVE_NIXL1);
	for (int i = 0; i < 2; i++)
		if (f->s[i].have)
			tm_why(f, &f->s[i], transcript_get(t, i ? SEC_LIVE_NIXL1 : SEC_LIVE_NIXL0));
}

bool live_facts_asked(const struct live_facts *f)
{
	return f->s[0].have || f->s[1].have || f->have_logs;
}
