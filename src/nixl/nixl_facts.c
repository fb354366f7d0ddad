/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nixl_facts_read(): the NIXL/UCX view of one probe transcript.  The node
 * facts (environment, RDMA devices, fi_info, GPUs) come from the node area's
 * reader, so that `node` and `nixl` never disagree about the same pod; the
 * rest (which, ucx_info, plugins, Python metadata) is read here through the
 * parsers of src/parse.  Nothing here judges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"
#include "nixl/nixl.h"
#include "node/node_checks.h"
#include "node/sections.h"
#include "parse/lines.h"
#include "parse/logscan.h"
#include "rules/nixl.h"

static const char *const tool_names[NT_COUNT] = {
	[NT_NIXLBENCH] = "nixlbench",       [NT_NIXL_TEST] = "nixl_test",
	[NT_NIXL_EXAMPLE] = "nixl_example", [NT_KVBENCH] = "kvbench",
	[NT_ETCDCTL] = "etcdctl",           [NT_UCX_PERFTEST] = "ucx_perftest",
	[NT_UCX_INFO] = "ucx_info",         [NT_FI_INFO] = "fi_info",
};

const char *nixl_tool_name(enum nixl_tool t)
{
	return (unsigned)t < NT_COUNT ? tool_names[t] : "?";
}

void nixl_facts_init(struct nixl_facts *f)
{
	memset(f, 0, sizeof(*f));
	node_facts_init(&f->node);
}

void nixl_facts_release(struct nixl_facts *f)
{
	node_facts_release(&f->node);
	for (size_t i = 0; i < NT_COUNT; i++)
		free(f->tool_path[i]);
	if (f->have_ucxv)
		ucx_version_release(&f->ucxv);
	if (f->have_ucxd)
		ucx_devices_release(&f->ucxd);
	free(f->ucx_cuda_missing);
	for (size_t i = 0; i < f->n_plugin_dirs; i++)
		free(f->plugin_dirs[i]);
	for (size_t i = 0; i < f->n_plugins; i++) {
		free(f->plugins[i].name);
		free(f->plugins[i].path);
	}
	for (size_t i = 0; i < f->n_py; i++) {
		free(f->py[i].name);
		free(f->py[i].version);
		free(f->py[i].path);
	}
	memset(f, 0, sizeof(*f));
}

const char *nixl_env(const struct nixl_facts *f, const char *name)
{
	return node_env_get(&f->node, name);
}

bool nixl_has_plugin(const struct nixl_facts *f, const char *name)
{
	for (size_t i = 0; i < f->n_plugins; i++)
		if (!strcasecmp(f->plugins[i].name, name))
			return true;
	return false;
}

static void read_which(struct nixl_facts *f, const struct section *s)
{
	if (!s)
		return;
	f->have_which = true;
	struct lines it;
	char *l;
	lines_init(&it, s->body, s->len);
	while ((l = lines_next(&it))) {
		char *eq = strchr(l, '=');
		if (!eq)
			continue;
		*eq = '\0';
		const char *path = str_trim(eq + 1);
		for (size_t i = 0; i < NT_COUNT; i++)
			if (!strcmp(l, tool_names[i]) && *path && !f->tool_path[i])
				f->tool_path[i] = xstrdup(path);
	}
	lines_release(&it);
}

static void read_ucx(struct nixl_facts *f, const struct transcript *t)
{
	/* One `ucx_info -v -d` run answers both (the script reruns -v alone
	 * when that run printed no version); transcripts of earlier scripts
	 * hold separate -v and -d sections. */
	const struct section *vd = transcript_get(t, SEC_UCX_INFO_VD);
	const struct section *v = transcript_get(t, SEC_UCX_INFO_V);
	const struct section *d = vd ? vd : transcript_get(t, SEC_UCX_INFO_D);
	if (!v)
		v = vd;

	node_tool_state(v, v == vd ? "ucx_info -v -d" : "ucx_info -v", &f->ucx_v_t);
	node_tool_state(d, d == vd ? "ucx_info -v -d" : "ucx_info -d", &f->ucx_d_t);
	/* One wording for a missing tool, whichever listing asked. */
	if (f->ucx_v_t.state == TOOL_MISSING)
		snprintf(f->ucx_v_t.why, sizeof(f->ucx_v_t.why),
			 "ucx_info is not on PATH in this image");
	if (f->ucx_d_t.state == TOOL_MISSING)
		snprintf(f->ucx_d_t.why, sizeof(f->ucx_d_t.why),
			 "ucx_info is not on PATH in this image");
	if (f->ucx_v_t.state == TOOL_OK) {
		if (ucx_version_parse(v->body, v->len, &f->ucxv) == 0) {
			f->have_ucxv = true;
		} else {
			f->ucx_v_t.state = TOOL_FAILED;
			snprintf(f->ucx_v_t.why, sizeof(f->ucx_v_t.why),
				 "ucx_info -v printed no UCX version");
		}
	}
	if (d && !d->missing && d->len) {
		struct logscan ls;
		if (logscan_parse(d->body, d->len, &ls) == 0) {
			const struct log_finding *lf =
				logscan_get(&ls, LOG_UCX_CUDA_MODULE_MISSING);
			if (lf && lf->evidence)
				f->ucx_cuda_missing = xstrdup(lf->evidence);
		}
		logscan_release(&ls);
	}
	if (f->ucx_d_t.state == TOOL_OK) {
		if (ucx_devices_parse(d->body, d->len, &f->ucxd) == 0) {
			f->have_ucxd = true;
		} else {
			ucx_devices_release(&f->ucxd);
			f->ucx_d_t.state = TOOL_FAILED;
			snprintf(f->ucx_d_t.why, sizeof(f->ucx_d_t.why),
				 "ucx_info -d listed no memory domain or transport");
		}
	}
}

/* "dir/" lines, then "dir/libplugin_X.so" per plugin. */
static void read_plugins(struct nixl_facts *f, const struct section *s)
{
	if (!s)
		return;
	f->have_plugins = true;
	struct lines it;
	char *l;
	lines_init(&it, s->body, s->len);
	while ((l = lines_next(&it))) {
		l = str_trim(l);
		size_t n = strlen(l);
		if (!n)
			continue;
		if (l[n - 1] == '/') {
			if (f->n_plugin_dirs < NIXL_MAX_PLUGIN_DIRS)
				f->plugin_dirs[f->n_plugin_dirs++] = xstrndup(l, n - 1);
			continue;
		}
		const char *base = strrchr(l, '/');
		base = base ? base + 1 : l;
		if (!str_starts(base, "libplugin_") || n < 4 || strcmp(l + n - 3, ".so"))
			continue;
		const char *name = base + 10;
		size_t nl = strlen(name) - 3;
		/* auditwheel may rename a bundled library "libplugin_UCX-<hash>.so"
		 * (rules/nixl.c): the plugin's name is before the hash */
		nl = nixl_layout_strip_hash(name, nl);
		if (!nl || f->n_plugins >= NIXL_MAX_PLUGINS)
			continue;
		char *nm = xstrndup(name, nl);
		if (nixl_has_plugin(f, nm)) {
			free(nm); /* the same plugin in two roots: the first wins */
			continue;
		}
		f->plugins[f->n_plugins].name = nm;
		f->plugins[f->n_plugins++].path = xstrdup(l);
	}
	lines_release(&it);
}

/* "<METADATA path>: Name: x" / "<path>: Version: y": grouped by path, each
 * group read by the shared METADATA parser. */
static void read_python(struct nixl_facts *f, const struct section *s)
{
	if (!s)
		return;
	f->have_python = true;
	char *paths[NIXL_MAX_PY] = {0};
	char *bufs[NIXL_MAX_PY] = {0};
	size_t n = 0;
	struct lines it;
	char *l;
	lines_init(&it, s->body, s->len);
	while ((l = lines_next(&it))) {
		char *k = strstr(l, ": Name:");
		if (!k)
			k = strstr(l, ": Version:");
		if (!k)
			continue;
		*k = '\0';
		const char *header = k + 2;
		size_t i;
		for (i = 0; i < n && strcmp(paths[i], l); i++)
			;
		if (i == n) {
			if (n == NIXL_MAX_PY)
				continue;
			paths[n] = xstrdup(l);
			bufs[n++] = xstrdup("");
		}
		if (strlen(bufs[i]) < 4096) {
			char *nb = xasprintf("%s%s\n", bufs[i], header);
			free(bufs[i]);
			bufs[i] = nb;
		}
	}
	lines_release(&it);
	for (size_t i = 0; i < n; i++) {
		struct pip_meta m;
		if (pip_meta_parse(bufs[i], strlen(bufs[i]), &m) == 0 &&
		    !strncasecmp(m.name, "nixl", 4)) {
			struct nixl_py *p = &f->py[f->n_py++];
			p->name = xstrdup(m.name);
			p->version = xstrdup(m.version);
			p->path = paths[i];
			paths[i] = NULL;
		}
		pip_meta_release(&m);
		free(paths[i]);
		free(bufs[i]);
	}
}

static void decide_fabric(struct nixl_facts *f)
{
	const char *fp = nixl_env(f, "FI_PROVIDER");
	size_t nefa = node_count_efa_devs(&f->node);

	if (nefa) {
		f->efa = true;
		snprintf(f->efa_how, sizeof(f->efa_how),
			 "%zu EFA device%s in /sys/class/infiniband", nefa, nefa == 1 ? "" : "s");
	} else if (f->node.fi_t.state == TOOL_OK && fi_info_has_provider(&f->node.fi, "efa")) {
		f->efa = true;
		snprintf(f->efa_how, sizeof(f->efa_how), "fi_info lists the efa provider");
	} else if (fp && !strcasecmp(fp, "efa")) {
		f->efa = true;
		snprintf(f->efa_how, sizeof(f->efa_how), "FI_PROVIDER=efa in the environment");
	}
	/* The fabric model decides (rules/fabric.h): one answer for every verb. */
	struct fabric_model m;
	node_fabric(&f->node, &m);
	f->mnnvl = m.mnnvl_domain;
}

/* The KV backend: an explicit selector in the environment, else the
 * fabric's recommended one. */
static void decide_backend(struct nixl_facts *f)
{
	static const char *const selectors[] = {
		"SGLANG_DISAGGREGATION_NIXL_BACKEND",
		"TRTLLM_NIXL_KVCACHE_BACKEND",
		NULL,
	};
	for (size_t i = 0; selectors[i]; i++) {
		const char *v = nixl_env(f, selectors[i]);
		if (!v || !*v)
			continue;
		char w[32];
		size_t n = 0;
		for (const char *p = v; *p && n < sizeof(w) - 1; p++)
			if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			    (*p >= '0' && *p <= '9') || *p == '_')
				w[n++] = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
		w[n] = '\0';
		if (!n)
			continue;
		snprintf(f->backend_name, sizeof(f->backend_name), "%s", w);
		f->backend = !strcmp(w, "UCX")         ? NB_UCX
			     : !strcmp(w, "LIBFABRIC") ? NB_LIBFABRIC
						       : NB_OTHER;
		snprintf(f->backend_how, sizeof(f->backend_how), "%s=%s in the pod environment",
			 selectors[i], v);
		return;
	}
	const char *kl = nixl_env(f, "DYN_KVBM_NIXL_BACKEND_LIBFABRIC");
	const char *ku = nixl_env(f, "DYN_KVBM_NIXL_BACKEND_UCX");
	static const char *const yes[] = {"1", "y", "yes", "true", "on", NULL};
	bool lf = false, ucx = false;
	for (size_t i = 0; yes[i]; i++) {
		lf |= kl && !strcasecmp(kl, yes[i]);
		ucx |= ku && !strcasecmp(ku, yes[i]);
	}
	if (lf != ucx) {
		f->backend = lf ? NB_LIBFABRIC : NB_UCX;
		snprintf(f->backend_name, sizeof(f->backend_name), "%s", lf ? "LIBFABRIC" : "UCX");
		snprintf(f->backend_how, sizeof(f->backend_how), "%s=%s in the pod environment",
			 lf ? "DYN_KVBM_NIXL_BACKEND_LIBFABRIC" : "DYN_KVBM_NIXL_BACKEND_UCX",
			 lf ? kl : ku);
		return;
	}
	if (f->efa) {
		f->backend = NB_LIBFABRIC;
		snprintf(f->backend_name, sizeof(f->backend_name), "LIBFABRIC");
		snprintf(
			f->backend_how, sizeof(f->backend_how),
			"assumed: EFA fabric (%s), where NIXL's LIBFABRIC backend is the recommended one",
			f->efa_how);
	} else {
		f->backend = NB_UCX;
		snprintf(f->backend_name, sizeof(f->backend_name), "UCX");
		snprintf(f->backend_how, sizeof(f->backend_how),
			 "assumed: NIXL's default, no backend selector in the pod environment");
	}
}

void nixl_facts_read(struct nixl_facts *f, const struct transcript *t)
{
	node_facts_read(&f->node, t);
	read_which(f, transcript_get(t, SEC_WHICH));
	read_ucx(f, t);
	read_plugins(f, transcript_get(t, SEC_NIXL_PLUGINS));
	read_python(f, transcript_get(t, SEC_NIXL_PYTHON));
	decide_fabric(f);
	decide_backend(f);
}
