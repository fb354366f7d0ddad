/* SPDX-License-Identifier: Apache-2.0 */
/*
 * live_report_fill(): the live section of the report (core/report_live.h)
 * from the facts, the window's summary and the node.live.* checks just
 * added: what the engine loaded and holds, what moved per port and per
 * interface, NIXL's counters, and the path that evidence shows.  Pure.
 */
#include <stdlib.h>
#include <string.h>

#include "core/report_live.h"
#include "core/xalloc.h"
#include "live/live.h"
#include "parse/lines.h"

/* rdma-core's verbs providers, by the library each one is. */
static const char *const verbs_providers[] = {
	"libmlx5", "libmlx4", "libefa",        "libbnxt_re", "libirdma", "librxe",   "libsiw",
	"libhns",  "libqedr", "libvmw_pvrdma", "libmana",    "libionic", "liberdma", NULL,
};

static bool is_ucx_lib(const char *b)
{
	return str_starts(b, "libuct") || str_starts(b, "libucp.") || str_starts(b, "libucs.") ||
	       str_starts(b, "libucm");
}

/* "libmlx5.so.1" -> "mlx5 (verbs)"; "libefa-fi.so" -> "efa (libfabric)". */
static void add_provider(struct ci_live *l, const char *b)
{
	const char *fi = strstr(b, "-fi.so");
	if (str_starts(b, "lib") && fi) {
		char *p = xasprintf("%.*s (libfabric)", (int)(fi - b - 3), b + 3);
		ci_strv_add_unique(&l->providers, p);
		free(p);
		return;
	}
	for (size_t i = 0; verbs_providers[i]; i++) {
		size_t n = strlen(verbs_providers[i]);
		if (!strncmp(b, verbs_providers[i], n) && (b[n] == '.' || b[n] == '-')) {
			char *p = xasprintf("%s (verbs)", verbs_providers[i] + 3);
			ci_strv_add_unique(&l->providers, p);
			free(p);
			return;
		}
	}
}

static void fill_loaded(struct ci_live *l, const struct live_facts *f, bool *ucx, bool *fabric,
			bool *cuda)
{
	*ucx = *fabric = *cuda = false;
	for (size_t i = 0; i < f->maps.n; i++) {
		const char *p = f->maps.paths[i], *b = path_basename(p);
		if (str_starts(b, "libplugin_")) {
			const char *end = strstr(b, ".so");
			size_t n = end ? (size_t)(end - b) - 10 : strlen(b + 10);
			char *name = xstrndup(b + 10, n);
			ci_strv_add_unique(&l->plugins, name);
			*ucx |= !strcmp(name, "UCX");
			*fabric |= !strcmp(name, "LIBFABRIC");
			free(name);
		} else if (is_ucx_lib(b)) {
			ci_strv_add_unique(&l->ucx_modules, b);
			*cuda |= str_starts(b, "libuct_cuda");
			if (str_starts(b, "libucp.")) {
				char *dir = xstrndup(p, (size_t)(b - p) ? (size_t)(b - p) - 1 : 0);
				ci_strv_add_unique(&l->ucx_dirs, *dir ? dir : "/");
				free(dir);
			}
		} else if (str_starts(b, "libfabric.so")) {
			if (!l->libfabric)
				l->libfabric = xstrdup(p);
		} else {
			add_provider(l, b);
		}
	}
	/* The devices a transport opens; not /dev/null and the like. */
	for (size_t i = 0; i < f->fds.n; i++) {
		const char *t = f->fds.targets[i];
		if (str_starts(t, "/dev/infiniband/") || str_starts(t, "/dev/gdrdrv") ||
		    str_starts(t, "/dev/nvidia"))
			ci_strv_add(&l->descriptors, t);
	}
}

static void fill_window(struct ci_live *l, const struct live_facts *f, const struct live_summary *s)
{
	l->observed = s->observed;
	if (!s->observed)
		return;
	l->seconds = s->seconds;
	l->measured = s->measured;
	l->have_lo = s->have_lo;
	l->lo_tx = s->lo_tx;
	l->lo_rx = s->lo_rx;
	l->spoiled = s->spoiled.len ? xstrdup(s->spoiled.buf) : NULL;
	for (size_t i = 0; i < s->n_ports; i++)
		ci_live_add_port(l, s->ports[i].name, s->ports[i].port, s->ports[i].tx,
				 s->ports[i].rx);
	for (size_t i = 0; i < s->n_ifs; i++)
		ci_live_add_if(l, s->ifs[i].name, s->ifs[i].tx, s->ifs[i].rx);
	l->nixl = s->nixl;
	l->nixl_tx = s->nixl_tx;
	l->nixl_rx = s->nixl_rx;
	l->nixl_errors = s->nixl_errors;
	for (size_t i = 0; i < s->n_errors; i++)
		ci_live_add_error(l, s->errors[i].status, s->errors[i].delta);
	if (!s->nixl)
		l->nixl_why = xstrdup(*f->s[1].nixl_why   ? f->s[1].nixl_why
				      : *f->s[0].nixl_why ? f->s[0].nixl_why
							  : "no NIXL telemetry was read");
}

/* The path the window shows: live_path_decide()'s, as the report names it. */
static enum ci_live_path path_of(const struct live_facts *f, const struct live_summary *s,
				 bool ucx_only, bool cuda)
{
	switch (s->path) {
	case LIVE_PATH_UNSEEN:
		for (size_t i = 0; i < f->logs.n; i++)
			if (f->logs.v[i].sym == LOG_TCP_FALLBACK)
				return CI_PATH_TCP;
		return CI_PATH_UNKNOWN;
	case LIVE_PATH_IDLE: return CI_PATH_IDLE;
	case LIVE_PATH_SPOILED: return CI_PATH_SPOILED;
	case LIVE_PATH_UNATTRIBUTED: return CI_PATH_UNKNOWN;
	case LIVE_PATH_RDMA:
		/* UCX without its CUDA transports treats VRAM as host memory
		 * (node.live.loaded): what went over RDMA was staged. */
		return ucx_only && !cuda ? CI_PATH_HOST_STAGING : CI_PATH_RDMA;
	case LIVE_PATH_TCP: return CI_PATH_TCP;
	case LIVE_PATH_LOOPBACK: return CI_PATH_LOOPBACK;
	case LIVE_PATH_MNNVL: return CI_PATH_MNNVL;
	case LIVE_PATH_LOCAL: return CI_PATH_LOCAL;
	}
	return CI_PATH_UNKNOWN;
}

/* The check that decided: the window's when there was one, else what the
 * process loaded, else which process it was, else the log. */
static const struct ci_check *decisive(const struct ci_report *r, size_t first)
{
	static const char *const order[] = {"node.live.traffic", "node.live.loaded",
					    "node.live.process", "node.live.logs", NULL};
	for (size_t k = 0; order[k]; k++)
		for (size_t i = first; i < r->n_checks; i++)
			if (!strcmp(r->checks[i].id, order[k]))
				return &r->checks[i];
	return NULL;
}

void live_report_fill(struct ci_report *r, const struct live_facts *f, const struct live_summary *s,
		      size_t first_check)
{
	if (!f->collected && !f->have_logs)
		return;
	struct ci_live *l = xcalloc(1, sizeof(*l));
	ci_live_init(l);
	l->logs = f->have_logs;
	l->found = f->found;
	l->readable = f->readable;
	if (f->found)
		l->pid = f->pid;
	l->engine = f->engine ? xstrdup(f->engine) : NULL;
	l->comm = f->exe ? xstrdup(f->exe) : NULL;
	l->how = f->how ? xstrdup(f->how) : NULL;
	l->why = f->why ? xstrdup(f->why) : NULL;
	bool ucx = false, fabric = false, cuda = false;
	if (f->found && f->readable)
		fill_loaded(l, f, &ucx, &fabric, &cuda);
	fill_window(l, f, s);
	l->path = path_of(f, s, ucx && !fabric, cuda);
	const struct ci_check *c = decisive(r, first_check);
	if (!c)
		l->conclusion = xstrdup("nothing live was collected");
	else if (!s->observed && l->path == CI_PATH_UNKNOWN)
		l->conclusion = xasprintf("no traffic window was observed (--observe SECONDS); %s",
					  c->detail);
	else
		l->conclusion = xstrdup(c->detail);
	if (r->live) {
		ci_live_release(r->live);
		free(r->live);
	}
	r->live = l;
}
