/* SPDX-License-Identifier: Apache-2.0 */
#include <stdlib.h>
#include <string.h>

#include "core/report_live.h"
#include "core/xalloc.h"

void ci_live_init(struct ci_live *l)
{
	memset(l, 0, sizeof(*l));
	l->pid = -1;
}

static void strv_release(struct ci_strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

void ci_live_release(struct ci_live *l)
{
	free(l->engine);
	free(l->comm);
	free(l->how);
	free(l->why);
	strv_release(&l->plugins);
	strv_release(&l->ucx_modules);
	strv_release(&l->ucx_dirs);
	free(l->libfabric);
	strv_release(&l->providers);
	strv_release(&l->descriptors);
	for (size_t i = 0; i < l->n_ports; i++)
		free(l->ports[i].name);
	free(l->ports);
	for (size_t i = 0; i < l->n_ifs; i++)
		free(l->ifs[i].name);
	free(l->ifs);
	for (size_t i = 0; i < l->n_errors; i++)
		free(l->errors[i].status);
	free(l->errors);
	free(l->nixl_why);
	free(l->spoiled);
	free(l->conclusion);
	ci_live_init(l);
}

void ci_strv_add(struct ci_strv *sv, const char *s)
{
	if (sv->n == sv->cap) {
		sv->cap = sv->cap ? sv->cap * 2 : 4;
		sv->v = xrealloc(sv->v, sv->cap * sizeof(*sv->v));
	}
	sv->v[sv->n++] = xstrdup(s);
}

void ci_strv_add_unique(struct ci_strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return;
	ci_strv_add(sv, s);
}

static struct ci_live_bytes *push_bytes(struct ci_live_bytes **v, size_t *n, const char *name,
					unsigned port, uint64_t tx, uint64_t rx)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	struct ci_live_bytes *b = &(*v)[(*n)++];
	*b = (struct ci_live_bytes){.name = xstrdup(name), .port = port, .tx = tx, .rx = rx};
	return b;
}

struct ci_live_bytes *ci_live_add_port(struct ci_live *l, const char *name, unsigned port,
				       uint64_t tx, uint64_t rx)
{
	return push_bytes(&l->ports, &l->n_ports, name, port, tx, rx);
}

struct ci_live_bytes *ci_live_add_if(struct ci_live *l, const char *name, uint64_t tx, uint64_t rx)
{
	return push_bytes(&l->ifs, &l->n_ifs, name, 0, tx, rx);
}

void ci_live_add_error(struct ci_live *l, const char *status, double delta)
{
	l->errors = xrealloc(l->errors, (l->n_errors + 1) * sizeof(*l->errors));
	l->errors[l->n_errors++] =
		(struct ci_live_error){.status = xstrdup(status), .delta = delta};
}

const char *ci_live_path_name(enum ci_live_path p)
{
	switch (p) {
	case CI_PATH_RDMA: return "rdma";
	case CI_PATH_TCP: return "tcp";
	case CI_PATH_HOST_STAGING: return "host-staging";
	case CI_PATH_LOCAL: return "local";
	case CI_PATH_IDLE: return "idle";
	case CI_PATH_LOOPBACK: return "loopback";
	case CI_PATH_MNNVL: return "mnnvl";
	case CI_PATH_SPOILED: return "spoiled";
	default: return "unknown";
	}
}
