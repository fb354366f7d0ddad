/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `check_interconnect agent`: every --interval, one scan of the node.
 *
 *  1. The node checks: the node verb's probe and rules, once per scan (one
 *     process tree per scan, never one per engine; src/probe/probe.sh),
 *     without its live sections (the engines are read below, each in its
 *     pod, instead of the one engine the probe picks).
 *  2. Every engine process, read in C with no process started
 *     (probe/proc_scan.c): the same detection as node.live.process (a NIXL
 *     plugin mapped, else an engine's command line: rules/engines.c) over
 *     all processes, grouped by container; its pod named from its cgroup
 *     and the kubelet's log folders (parse/pod_cgroup.c, rules/kubelet.c).
 *  3. Its evidence as `node --observe` reads it: the probe's live:* sections
 *     rebuilt from /proc/PID/{maps,fd,environ,net/dev} and sysfs, the
 *     previous scan's sample as the window's first, so live/ decides the
 *     path and the node.live.* checks exactly as for node --observe.
 *  4. The text of the scan, served by agent_http.c or written once.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/agent.h"
#include "cmd/cmd.h"
#include "core/xalloc.h"
#include "core/strmap.h"
#include "live/live.h"
#include "node/node.h"
#include "node/node_desc.h"
#include "parse/pod_cgroup.h"
#include "parse/transcript.h"
#include "probe/proc_scan.h"
#include "probe/run_command.h"
#include "rules/engines.h"
#include "rules/kubelet.h"
#include "rules/nixl_telemetry.h"

/* One engine, kept from scan to scan by its key (the container id, else
 * the cgroup path, else the pid). */
struct engine {
	char *key;
	bool seen;
	int pid;
	char ns[POD_NAME_MAX + 1], pod[POD_NAME_MAX + 1], container[POD_NAME_MAX + 1];
	char uid[POD_UID_MAX + 1], cid[POD_CID_MAX + 1];
	char engine[32];
	/* the last sample, the next window's first */
	bool have_prev;
	char *prev_sample, *prev_netdev, *prev_nixl;
	bool prev_nixl_ok;
	/* the agent's own byte counter */
	bool have_last;
	double last_nixl;
	double kv_bytes[AGENT_PATH_COUNT];
	bool kv_used[AGENT_PATH_COUNT];
	enum agent_path path;
	enum ci_verdict_kind verdict;
};

struct agent {
	struct proc_root root;
	const char *sysroot;
	char node[256];
	unsigned window_s;
	struct engine *e;
	size_t n, cap;
	unsigned long long errors[AGENT_ERR_COUNT];
	unsigned long long scans;
	/* the node checks of the last scan that ran them */
	bool have_node;
	enum ci_verdict_kind node_verdict;
	struct agent_check_view *checks;
	size_t n_checks;
	struct probe_target probe;
};

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* --- pod names ------------------------------------------------------------ */

struct pod_names {
	struct pod_ref *pods; /* /var/log/pods: uid -> ns, pod */
	size_t n_pods;
	struct pod_ref *ctrs; /* /var/log/containers: cid -> ns, pod, container */
	size_t n_ctrs;
	struct strmap by_uid, by_cid;
};

static void list_dir(const struct proc_root *r, const char *dir, bool containers,
		     struct pod_ref **out, size_t *n)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	char **names = NULL;
	size_t nn = proc_list_dir(r, dir, 100000, &names);
	for (size_t i = 0; i < nn; i++) {
		struct pod_ref ref;
		bool ok = containers ? pod_container_log_parse(names[i], &ref)
				     : pod_logdir_parse(names[i], &ref);
		free(names[i]);
		if (!ok)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 32;
			*out = xrealloc(*out, cap * sizeof(**out));
		}
		(*out)[(*n)++] = ref;
	}
	free(names);
}

static void pod_names_read(const struct proc_root *r, struct pod_names *p)
{
	memset(p, 0, sizeof(*p));
	list_dir(r, KUBELET_POD_LOGS_DIR, false, &p->pods, &p->n_pods);
	list_dir(r, KUBELET_CONTAINER_LOGS_DIR, true, &p->ctrs, &p->n_ctrs);
	strmap_init(&p->by_uid);
	strmap_init(&p->by_cid);
	for (size_t i = 0; i < p->n_pods; i++)
		(void)strmap_put(&p->by_uid, p->pods[i].uid, i);
	for (size_t i = 0; i < p->n_ctrs; i++)
		(void)strmap_put(&p->by_cid, p->ctrs[i].cid, i);
}

static void pod_names_release(struct pod_names *p)
{
	strmap_release(&p->by_uid);
	strmap_release(&p->by_cid);
	free(p->pods);
	free(p->ctrs);
	memset(p, 0, sizeof(*p));
}

/* Name the engine from its cgroup: the container's link names all three;
 * else the pod folder names namespace and pod (and the container when the
 * pod has one container folder only: not looked for, the id stands). */
static void name_engine(struct engine *e, const struct pod_cgroup *cg, const struct pod_names *p)
{
	snprintf(e->ns, sizeof(e->ns), "unknown");
	snprintf(e->pod, sizeof(e->pod), "%s", cg->pod ? cg->uid : "unknown");
	if (cg->container)
		snprintf(e->container, sizeof(e->container), "%.12s", cg->cid);
	else
		snprintf(e->container, sizeof(e->container), "pid-%d", e->pid);
	snprintf(e->uid, sizeof(e->uid), "%s", cg->pod ? cg->uid : "");
	snprintf(e->cid, sizeof(e->cid), "%s", cg->container ? cg->cid : "");
	size_t i;
	if (cg->pod && (i = strmap_get(&p->by_uid, cg->uid)) != STRMAP_NONE) {
		snprintf(e->ns, sizeof(e->ns), "%s", p->pods[i].ns);
		snprintf(e->pod, sizeof(e->pod), "%s", p->pods[i].pod);
	}
	if (cg->container && (i = strmap_get(&p->by_cid, cg->cid)) != STRMAP_NONE) {
		snprintf(e->ns, sizeof(e->ns), "%s", p->ctrs[i].ns);
		snprintf(e->pod, sizeof(e->pod), "%s", p->ctrs[i].pod);
		snprintf(e->container, sizeof(e->container), "%s", p->ctrs[i].container);
	}
}

/* --- one engine's evidence -------------------------------------------------- */

static const char *engine_word(enum engine_id id)
{
	switch (id) {
	case ENGINE_VLLM: return "vllm";
	case ENGINE_SGLANG: return "sglang";
	case ENGINE_TRTLLM: return "trtllm";
	case ENGINE_DYNAMO_VLLM: return "dynamo.vllm";
	case ENGINE_DYNAMO_SGLANG: return "dynamo.sglang";
	case ENGINE_DYNAMO_TRTLLM: return "dynamo.trtllm";
	case ENGINE_DYNAMO_MOCKER: return "dynamo.mocker";
	default: return "";
	}
}

/* NIXL's telemetry switches from the engine's filtered environment. */
struct tm_env {
	char enable[16], exporter[40], metrics[120];
	unsigned port;
};

static void tm_env_read(const char *env, struct tm_env *t)
{
	memset(t, 0, sizeof(*t));
	const char *en = nixl_tm_var(NIXL_TM_VAR_ENABLE)->name;
	const char *ex = nixl_tm_var(NIXL_TM_VAR_EXPORTER)->name;
	const char *me = nixl_tm_var(NIXL_TM_VAR_ENABLED_METRICS)->name;
	const struct nixl_tm_exporter *exp = NULL;
	char ports[2][16] = {"", ""};
	size_t ne;
	const struct nixl_tm_exporter *all = nixl_tm_exporters(&ne);
	for (const char *l = env; l && *l;) {
		size_t n = strcspn(l, "\n");
		const char *eq = memchr(l, '=', n);
		if (eq) {
			size_t kn = (size_t)(eq - l), vn = n - kn - 1;
			const char *v = eq + 1;
#define TM_IS(name) (strlen(name) == kn && !memcmp(l, name, kn))
			if (TM_IS(en))
				snprintf(t->enable, sizeof(t->enable), "%.*s", (int)vn, v);
			else if (TM_IS(ex))
				snprintf(t->exporter, sizeof(t->exporter), "%.*s", (int)vn, v);
			else if (TM_IS(me))
				snprintf(t->metrics, sizeof(t->metrics), "%.*s", (int)vn, v);
			for (size_t i = 0; i < ne && i < 2; i++)
				if (TM_IS(all[i].port_var))
					snprintf(ports[i], sizeof(ports[i]), "%.*s", (int)vn, v);
#undef TM_IS
		}
		l += n + (l[n] == '\n');
	}
	exp = nixl_tm_exporter_find(t->exporter);
	if (!exp)
		return;
	/* the exporter's own port variable, else its default */
	for (size_t i = 0; i < ne && i < 2; i++)
		if (!strcmp(all[i].port_var, exp->port_var) && *ports[i]) {
			char *end;
			unsigned long p = strtoul(ports[i], &end, 10);
			if (!*end && p > 0 && p < 65536)
				t->port = (unsigned)p;
			return;
		}
	t->port = exp->default_port;
}

/* NIXL's reading of a boolean that says "off" (nixl::config). */
static bool tm_off(const char *v)
{
	static const char *const off[] = {"n", "no", "off", "false", "disable", "0"};
	for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++)
		if (!strcasecmp(v, off[i]))
			return true;
	return false;
}

/* The pod's own IPv4 address, from its network namespace's view
 * (/proc/PID/net/fib_trie: the "/32 host LOCAL" entries), the first that
 * is not loopback; 127.0.0.1 when there is none (a pod sharing the host's
 * namespace, or a test tree). */
static void pod_address(const struct proc_root *r, int pid, char *addr, size_t size)
{
	snprintf(addr, size, "127.0.0.1");
	char path[64];
	snprintf(path, sizeof(path), "proc/%d/net/fib_trie", pid);
	struct strbuf sb;
	strbuf_init(&sb);
	if (proc_read(r, path, PROC_SMALL_MAX, &sb, NULL)) {
		char last[64] = "";
		for (const char *l = sb.buf; *l;) {
			size_t n = strcspn(l, "\n");
			const char *p = l;
			while (*p == ' ' || *p == '|' || *p == '-' || *p == '+')
				p++;
			if (p < l + n && *p >= '0' && *p <= '9') {
				size_t k = strspn(p, "0123456789.");
				if (k < sizeof(last))
					snprintf(last, sizeof(last), "%.*s", (int)k, p);
			} else if (memmem(l, n, "/32 host LOCAL", 14) && *last &&
				   strncmp(last, "127.", 4)) {
				snprintf(addr, size, "%s", last);
				break;
			}
			l += n + (l[n] == '\n');
		}
	}
	strbuf_release(&sb);
}

static double mono_now(void)
{
	return run_now();
}

static double wall_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static enum agent_path path_of(const struct live_summary *s, const struct live_facts *f)
{
	switch (s->path) {
	case LIVE_PATH_RDMA: {
		bool efa = f->s[1].n_ports > 0;
		for (size_t i = 0; i < f->s[1].n_ports; i++)
			efa = efa && f->s[1].ports[i].efa;
		return efa ? AGENT_PATH_EFA : AGENT_PATH_RDMA;
	}
	case LIVE_PATH_TCP:
	case LIVE_PATH_LOOPBACK: return AGENT_PATH_TCP;
	case LIVE_PATH_MNNVL: return AGENT_PATH_MNNVL;
	case LIVE_PATH_LOCAL: return AGENT_PATH_NVLINK;
	case LIVE_PATH_IDLE: return AGENT_PATH_IDLE;
	default: return AGENT_PATH_UNKNOWN;
	}
}

static char *dup_buf(const struct strbuf *b)
{
	return xstrdup(b->len ? b->buf : "");
}

/* Sample, window and judge one engine (pid, the process read). */
static void engine_read(struct agent *a, struct engine *e, const struct proc_entry *pe,
			unsigned nixl_procs, const char *how)
{
	struct strbuf fds, env, sample, netdev, nixl, procsec;
	strbuf_init(&fds);
	strbuf_init(&env);
	strbuf_init(&sample);
	strbuf_init(&netdev);
	strbuf_init(&nixl);
	strbuf_init(&procsec);
	char path[64], comm[64] = "";
	bool readable = pe->maps_read && proc_read_fds(&a->root, pe->pid, &fds);
	if (!readable)
		a->errors[AGENT_ERR_PROC_READ]++;
	bool env_ok = proc_read_environ(&a->root, pe->pid, &env);
	snprintf(path, sizeof(path), "proc/%d/comm", pe->pid);
	struct strbuf cb;
	strbuf_init(&cb);
	if (proc_read(&a->root, path, 64, &cb, NULL) && cb.len)
		snprintf(comm, sizeof(comm), "%.*s", (int)strcspn(cb.buf, "\n"), cb.buf);
	strbuf_release(&cb);
	struct tm_env tm;
	tm_env_read(env_ok ? env.buf : "", &tm);

	/* the sample: this machine's clock, the RDMA ports of the devices it
	 * holds open (a host's ports are every engine's: the ones it holds
	 * are the ones its bytes can cross), its namespace's interfaces, and
	 * NIXL's counters from its exporter */
	strbuf_addf(&sample, "uptime=%.2f\n", mono_now());
	for (const char *l = fds.buf; l && *l;) {
		size_t n = strcspn(l, "\n");
		const char *t = memmem(l, n, "/dev/infiniband/uverbs", 22);
		if (t) {
			unsigned u = (unsigned)strtoul(t + 22, NULL, 10);
			char dev[64];
			if (proc_uverbs_ibdev(&a->root, u, dev, sizeof(dev)))
				proc_read_port_counters(&a->root, dev, &sample);
		}
		l += n + (l[n] == '\n');
	}
	snprintf(path, sizeof(path), "proc/%d/net/dev", pe->pid);
	bool net_ok = proc_read(&a->root, path, PROC_SMALL_MAX, &netdev, NULL);
	bool nixl_ok = false;
	if (tm.port && !(*tm.enable && tm_off(tm.enable))) {
		char addr[64];
		const char *why = NULL;
		struct strbuf body;
		strbuf_init(&body);
		pod_address(&a->root, pe->pid, addr, sizeof(addr));
		if (proc_http_get(addr, tm.port, "/metrics", AGENT_NIXL_TIMEOUT_MS, PROC_HTTP_MAX,
				  &body, &why) == 0) {
			nixl_ok = true;
			/* agent_* lines only, as probe.sh keeps */
			for (const char *l = body.buf; l && *l;) {
				size_t n = strcspn(l, "\n");
				if (n >= 6 && !memcmp(l, "agent_", 6)) {
					strbuf_add(&nixl, l, n);
					strbuf_addch(&nixl, '\n');
				}
				l += n + (l[n] == '\n');
			}
		} else {
			a->errors[AGENT_ERR_NIXL_SCRAPE]++;
			strbuf_addf(&sample, "nixl=NIXL's exporter on %s:%u did not answer (%s)\n",
				    addr, tm.port, why ? why : "error");
		}
		strbuf_release(&body);
	}

	/* the probe's live sections, rebuilt */
	strbuf_addf(&procsec, "observe=%u\npid=%d\nhow=%s\nengine=%s\nexe=%s\nnixl_procs=%u\n",
		    a->window_s, pe->pid, how, e->engine, comm, nixl_procs);
	strbuf_addf(&procsec, "tm_from=%s\ntm_enable=%s\ntm_exporter=%s\ntm_metrics=%s\n",
		    env_ok ? "env" : "probe", tm.enable, tm.exporter, tm.metrics);
	strbuf_addf(&procsec, "readable=%s\n", readable ? "yes" : "no");
	if (!readable)
		strbuf_addf(&procsec, "why=/proc/%d/maps or /proc/%d/fd cannot be read\n", pe->pid,
			    pe->pid);
	struct transcript t;
	transcript_init(&t);
	transcript_put(&t, SEC_LIVE_PROC, procsec.buf, procsec.len, 0);
	if (readable) {
		transcript_put(&t, SEC_LIVE_MAPS, pe->maps.len ? pe->maps.buf : "", pe->maps.len,
			       0);
		transcript_put(&t, SEC_LIVE_FD, fds.len ? fds.buf : "", fds.len, 0);
	}
	const char *s0 = e->have_prev ? e->prev_sample : NULL;
	if (s0) {
		transcript_put(&t, SEC_LIVE_SAMPLE0, s0, strlen(s0), 0);
		if (e->prev_netdev)
			transcript_put(&t, SEC_LIVE_NETDEV0, e->prev_netdev, strlen(e->prev_netdev),
				       0);
		if (e->prev_nixl_ok)
			transcript_put(&t, SEC_LIVE_NIXL0, e->prev_nixl, strlen(e->prev_nixl), 0);
	}
	transcript_put(&t, s0 ? SEC_LIVE_SAMPLE1 : SEC_LIVE_SAMPLE0, sample.buf, sample.len, 0);
	if (net_ok)
		transcript_put(&t, s0 ? SEC_LIVE_NETDEV1 : SEC_LIVE_NETDEV0, netdev.buf, netdev.len,
			       0);
	if (nixl_ok)
		transcript_put(&t, s0 ? SEC_LIVE_NIXL1 : SEC_LIVE_NIXL0, nixl.len ? nixl.buf : "",
			       nixl.len, 0);

	struct live_facts f;
	live_facts_init(&f);
	live_facts_read(&f, &t);
	struct live_summary s;
	live_summarize(&f, &s);
	e->path = path_of(&s, &f);
	struct ci_report r;
	report_init(&r, "agent", e->pod);
	live_checks_run(&r, &f, "engine");
	struct ci_verdict v;
	verdict_compute(&r, &v);
	e->verdict = v.kind;
	verdict_release(&v);
	report_release(&r);

	/* the agent's own counter: NIXL's bytes since the last scan; a fall
	 * is a restart (its counters began again), and its new value is what
	 * moved since, as Prometheus' rate() reads a reset */
	const struct live_nixl *now = &f.s[s0 ? 1 : 0].nixl;
	if (now->have) {
		double cur = now->tx + now->rx;
		if (e->have_last) {
			double d = cur >= e->last_nixl ? cur - e->last_nixl : cur;
			e->kv_bytes[e->path] += d;
			e->kv_used[e->path] = true;
		}
		e->last_nixl = cur;
		e->have_last = true;
	}
	e->kv_used[e->path] = true; /* the current path's series exists from 0 */
	live_summary_release(&s);
	live_facts_release(&f);
	transcript_release(&t);

	free(e->prev_sample);
	free(e->prev_netdev);
	free(e->prev_nixl);
	e->prev_sample = dup_buf(&sample);
	e->prev_netdev = net_ok ? dup_buf(&netdev) : NULL;
	e->prev_nixl = dup_buf(&nixl);
	e->prev_nixl_ok = nixl_ok;
	e->have_prev = true;
	strbuf_release(&fds);
	strbuf_release(&env);
	strbuf_release(&sample);
	strbuf_release(&netdev);
	strbuf_release(&nixl);
	strbuf_release(&procsec);
}

static void engine_free(struct engine *e)
{
	free(e->key);
	free(e->prev_sample);
	free(e->prev_netdev);
	free(e->prev_nixl);
}

/* --- the scan ---------------------------------------------------------------- */

struct group {
	char *key;
	size_t first; /* index in the process list of the process read */
	bool nixl;
	unsigned nixl_procs;
	enum engine_id id;
	struct pod_cgroup cg;
};

static void scan_engines(struct agent *a)
{
	struct proc_list pl;
	if (proc_list_read(&a->root, &pl) != 0) {
		a->errors[AGENT_ERR_PROC_READ]++;
		return;
	}
	struct pod_names names;
	pod_names_read(&a->root, &names);
	struct group *g = NULL;
	size_t ng = 0, cg = 0;
	struct strmap by_key;
	strmap_init(&by_key);
	struct strbuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < pl.n; i++) {
		const struct proc_entry *pe = &pl.v[i];
		enum engine_id id = engine_of_command(pe->cmdline, NULL);
		if (id == ENGINE_TEST)
			id = ENGINE_NONE;
		if (!pe->nixl && id == ENGINE_NONE)
			continue;
		char path[64];
		snprintf(path, sizeof(path), "proc/%d/cgroup", pe->pid);
		strbuf_reset(&sb);
		struct pod_cgroup c;
		memset(&c, 0, sizeof(c));
		if (proc_read(&a->root, path, PROC_SMALL_MAX, &sb, NULL))
			(void)pod_cgroup_parse(sb.buf, sb.len, kubelet_cgroup_forms(), &c);
		char *key = c.container                      ? xasprintf("c:%s", c.cid)
			    : *c.path && strcmp(c.path, "/") ? xasprintf("g:%s", c.path)
							     : xasprintf("p:%d", pe->pid);
		size_t k = strmap_put(&by_key, key, ng);
		if (k == ng) {
			if (ng == cg) {
				cg = cg ? cg * 2 : 16;
				g = xrealloc(g, cg * sizeof(*g));
			}
			g[ng++] = (struct group){
				.key = key, .first = i, .nixl = pe->nixl, .id = id, .cg = c};
		} else {
			free(key);
			/* the one that mapped NIXL is the one whose bytes move */
			if (pe->nixl && !g[k].nixl) {
				g[k].first = i;
				g[k].nixl = true;
			}
			if (g[k].id == ENGINE_NONE)
				g[k].id = id;
		}
		if (pe->nixl)
			g[k].nixl_procs++;
	}
	strbuf_release(&sb);
	strmap_release(&by_key);

	/* match the engines kept from the last scan */
	struct strmap old;
	strmap_init(&old);
	for (size_t i = 0; i < a->n; i++) {
		a->e[i].seen = false;
		(void)strmap_put(&old, a->e[i].key, i);
	}
	size_t n_before = a->n;
	for (size_t i = 0; i < ng; i++) {
		size_t k = strmap_get(&old, g[i].key);
		struct engine *e;
		if (k != STRMAP_NONE && k < n_before) {
			e = &a->e[k];
			free(g[i].key);
		} else {
			if (a->n == a->cap) {
				a->cap = a->cap ? a->cap * 2 : 16;
				a->e = xrealloc(a->e, a->cap * sizeof(*a->e));
			}
			e = &a->e[a->n++];
			memset(e, 0, sizeof(*e));
			e->key = g[i].key;
			e->path = AGENT_PATH_UNKNOWN;
		}
		e->seen = true;
		const struct proc_entry *pe = &pl.v[g[i].first];
		e->pid = pe->pid;
		snprintf(e->engine, sizeof(e->engine), "%s", engine_word(g[i].id));
		name_engine(e, &g[i].cg, &names);
		engine_read(a, e, pe, g[i].nixl_procs, g[i].nixl ? "nixl" : "cmdline");
	}
	strmap_release(&old);
	/* engines gone since the last scan: their series end */
	size_t w = 0;
	for (size_t i = 0; i < a->n; i++) {
		if (a->e[i].seen)
			a->e[w++] = a->e[i];
		else
			engine_free(&a->e[i]);
	}
	a->n = w;
	free(g);
	pod_names_release(&names);
	proc_list_release(&pl);
}

/* The node checks: the node verb's probe and rules, its live sections
 * left out (each engine is read on its own). */
static void scan_node(struct agent *a)
{
	struct probe_outcome out;
	probe_collect(&a->probe, NULL, &out);
	struct ci_report r;
	report_init(&r, "agent", a->node);
	if (out.err != PROBE_OK) {
		a->errors[AGENT_ERR_NODE_PROBE]++;
		report_check(&r, NODE_CHECK(PROBE), CI_SKIPPED, a->node, "%s",
			     out.message ? out.message : probe_error_name(out.err));
	} else {
		for (size_t i = 0; i < out.t.n; i++)
			if (!strncmp(out.t.s[i].name, "live:", 5))
				out.t.s[i].name[0] = 'x'; /* not a section the readers know */
		node_analyze(&r, &out.t, a->node);
	}
	struct ci_verdict v;
	verdict_compute(&r, &v);
	a->node_verdict = v.kind;
	verdict_release(&v);
	for (size_t i = 0; i < a->n_checks; i++)
		free(a->checks[i].id);
	free(a->checks);
	a->checks = NULL;
	a->n_checks = 0;
	/* one series per check id: the worst status over its subjects */
	static const int rank[] = {[CI_OK] = 0, [CI_WARN] = 1, [CI_SKIPPED] = 2, [CI_FAIL] = 3};
	struct strmap ids;
	strmap_init(&ids);
	a->checks = xcalloc(r.n_checks ? r.n_checks : 1, sizeof(*a->checks));
	for (size_t i = 0; i < r.n_checks; i++) {
		const struct ci_check *c = &r.checks[i];
		size_t k = strmap_put(&ids, c->id, a->n_checks);
		if (k == a->n_checks) {
			a->checks[a->n_checks++] = (struct agent_check_view){.id = xstrdup(c->id),
									     .status = c->status};
		} else if (rank[c->status] > rank[a->checks[k].status]) {
			a->checks[k].status = c->status;
		}
	}
	strmap_release(&ids);
	a->have_node = true;
	report_release(&r);
	probe_outcome_release(&out);
}

static void render(struct agent *a, struct strbuf *out, double dur, double ts)
{
	struct agent_engine_view *ev = xcalloc(a->n ? a->n : 1, sizeof(*ev));
	for (size_t i = 0; i < a->n; i++) {
		const struct engine *e = &a->e[i];
		ev[i] = (struct agent_engine_view){
			.ns = e->ns,
			.pod = e->pod,
			.container = e->container,
			.engine = e->engine,
			.uid = e->uid,
			.cid = e->cid,
			.path = e->path,
			.verdict = e->verdict,
			.kv_bytes = e->kv_bytes,
			.kv_used = e->kv_used,
		};
	}
	struct agent_scan_view v = {
		.node = a->node,
		.have_node = a->have_node,
		.node_verdict = a->node_verdict,
		.checks = a->checks,
		.n_checks = a->n_checks,
		.engines = ev,
		.n_engines = a->n,
		.duration_s = dur,
		.timestamp_s = ts,
		.errors = a->errors,
		.scans = a->scans,
	};
	agent_metrics_render(out, &v);
	free(ev);
}

/* The node label: $NODE_NAME (the downward API's spec.nodeName), else the
 * root's kernel hostname, else this host's. */
static void node_name(struct agent *a)
{
	const char *env = getenv("NODE_NAME");
	if (env && *env && strlen(env) < sizeof(a->node)) {
		snprintf(a->node, sizeof(a->node), "%s", env);
		return;
	}
	struct strbuf sb;
	strbuf_init(&sb);
	if (proc_read(&a->root, "proc/sys/kernel/hostname", 255, &sb, NULL) && sb.len)
		snprintf(a->node, sizeof(a->node), "%.*s", (int)strcspn(sb.buf, "\n"), sb.buf);
	strbuf_release(&sb);
	if (!*a->node && gethostname(a->node, sizeof(a->node) - 1))
		snprintf(a->node, sizeof(a->node), "unknown");
}

static void agent_release(struct agent *a)
{
	for (size_t i = 0; i < a->n; i++)
		engine_free(&a->e[i]);
	free(a->e);
	for (size_t i = 0; i < a->n_checks; i++)
		free(a->checks[i].id);
	free(a->checks);
	proc_root_close(&a->root);
}

/* One scan: the engines (and the node checks), rendered into out. */
static void scan(struct agent *a, bool node, struct strbuf *out)
{
	double t0 = mono_now();
	if (node)
		scan_node(a);
	scan_engines(a);
	a->scans++;
	strbuf_reset(out);
	render(a, out, mono_now() - t0, wall_now());
}

/* Sleep until `until` (CLOCK_MONOTONIC), or a stop signal. */
static void sleep_until(double until)
{
	while (!stop_signal) {
		double left = until - mono_now();
		if (left <= 0)
			return;
		if (left > 0.2)
			left = 0.2;
		struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)(left * 1e9)};
		nanosleep(&ts, NULL);
	}
}

int cmd_agent_check(const struct verb_ctx *c)
{
	const struct agent_opts *o = &c->agent;
	if (c->render.format != CI_FORMAT_TEXT && c->render.format != CI_FORMAT_PROMETHEUS)
		return cli_usage_error("agent",
				       "writes Prometheus text only (--format prometheus)");
	if (!o->once && c->render.output)
		return cli_usage_error("agent", "--output applies with --once (the served agent "
						"answers on --listen)");
	if (o->once && o->listen)
		return cli_usage_error("agent", "--listen applies without --once");
	char addr[64];
	unsigned port;
	if (o->listen && !agent_listen_parse(o->listen, addr, sizeof(addr), &port))
		return cli_usage_error("agent",
				       "invalid --listen '%s' (ADDR:PORT or :PORT, an IPv4 address "
				       "and a port from 1 to 65535)",
				       o->listen);
	if (o->interval_s && o->interval_s < 1)
		return cli_usage_error("agent", "--interval is at least 1s");
	return 0;
}

int cmd_agent(struct verb_ctx *c, struct ci_report *r)
{
	(void)r;
	const struct agent_opts *o = &c->agent;
	struct agent a;
	memset(&a, 0, sizeof(a));
	a.root.fd = -1;
	a.sysroot = c->probe.sysroot;
	if (proc_root_open(&a.root, a.sysroot) != 0) {
		cli_error("agent: --sysroot %s: %s", a.sysroot ? a.sysroot : "/", strerror(errno));
		return CI_EXIT_USAGE;
	}
	a.probe = c->probe;
	a.probe.observe_s = 0;
	a.probe.save_probe = NULL;
	node_name(&a);
	double interval = o->interval_s > 0 ? o->interval_s : AGENT_DEFAULT_INTERVAL_S;
	struct strbuf text;
	strbuf_init(&text);
	if (o->once) {
		int rc = 0;
		double window = o->interval_s > 0 ? o->interval_s : AGENT_ONCE_WINDOW_S;
		a.window_s = (unsigned)ceil(window);
		double t0 = mono_now();
		scan_engines(&a); /* the window's first sample */
		sleep_until(t0 + window);
		scan(&a, true, &text);
		FILE *f = c->render.out ? c->render.out->f : stdout;
		if (fwrite(text.buf, 1, text.len, f) != text.len)
			rc = CI_EXIT_IO;
		if (c->render.out && render_output_commit(c->render.out) != 0)
			rc = CI_EXIT_IO;
		else if (!c->render.out && fflush(stdout) != 0)
			rc = CI_EXIT_IO;
		strbuf_release(&text);
		agent_release(&a);
		return rc;
	}
	a.window_s = (unsigned)ceil(interval);
	char addr[64] = "";
	unsigned port = AGENT_DEFAULT_PORT;
	if (o->listen)
		(void)agent_listen_parse(o->listen, addr, sizeof(addr), &port);
	/* SIGTERM (the kubelet's stop) and SIGINT: finish, then exit 0 */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	char *why = NULL;
	struct agent_http *h = agent_http_start(addr, port, 3 * interval + 30, &why);
	if (!h) {
		cli_error("agent: %s", why);
		free(why);
		strbuf_release(&text);
		agent_release(&a);
		return CI_EXIT_IO;
	}
	fprintf(stderr, "%s agent: node %s, every %gs, http://%s:%u/metrics\n", cli_program(),
		a.node, interval, *addr ? addr : "0.0.0.0", port);
	double node_every =
		o->node_interval_s > 0 ? o->node_interval_s : AGENT_DEFAULT_NODE_INTERVAL_S;
	double next = mono_now(), node_next = next;
	while (!stop_signal) {
		/* the node checks when they are due (a scan's own time counts
		 * against neither) */
		bool node = mono_now() >= node_next - interval / 2;
		if (node)
			node_next = mono_now() + node_every;
		scan(&a, node, &text);
		agent_http_publish(h, text.buf, text.len, mono_now());
		next += interval;
		if (next < mono_now())
			next = mono_now() + interval; /* a scan longer than the interval */
		sleep_until(next);
	}
	agent_http_stop(h);
	strbuf_release(&text);
	agent_release(&a);
	return 0;
}
