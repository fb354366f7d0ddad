/* SPDX-License-Identifier: Apache-2.0 */
/* Ownership of the model and the small list primitives the reader uses. */
#include "manifest/manifest_internal.h"

#include "core/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The index behind manifest_name_count(); allocated by manifest_set_init so
 * that a const set can still fill it on first use. */
struct manifest_names {
	const char **v; /* ms->deps[i].name (borrowed), sorted */
	size_t n;
	size_t built_for; /* ms->n_deps when sorted; SIZE_MAX: never */
};

void manifest_set_init(struct manifest_set *ms)
{
	memset(ms, 0, sizeof(*ms));
	ms->names = xcalloc(1, sizeof(*ms->names));
	ms->names->built_for = SIZE_MAX;
}

static int cmp_name_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t manifest_name_count(const struct manifest_set *ms, const char *name)
{
	if (!name)
		return 0;
	struct manifest_names *ix = ms->names;
	if (!ix) {
		/* A set made without manifest_set_init: count the slow way. */
		size_t same = 0;
		for (size_t i = 0; i < ms->n_deps; i++)
			same += ms->deps[i].name && !strcmp(ms->deps[i].name, name);
		return same;
	}
	if (ix->built_for != ms->n_deps) {
		free(ix->v);
		ix->v = xcalloc(ms->n_deps ? ms->n_deps : 1, sizeof(*ix->v));
		ix->n = 0;
		for (size_t i = 0; i < ms->n_deps; i++)
			if (ms->deps[i].name)
				ix->v[ix->n++] = ms->deps[i].name;
		if (ix->n)
			qsort(ix->v, ix->n, sizeof(*ix->v), cmp_name_ptr);
		ix->built_for = ms->n_deps;
	}
	/* lower and upper bound of name */
	size_t lo = 0, hi = ix->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(ix->v[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t first = lo;
	hi = ix->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(ix->v[mid], name) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - first;
}

void ms_diag(struct manifest_set *ms, enum diag_severity sev, const char *file, int line, int col,
	     char *msg)
{
	struct diag *d = XPUSH(ms->diags, ms->n_diags, ms->cap_diags);
	d->severity = sev;
	d->file = file ? xstrdup(file) : NULL;
	d->line = line;
	d->col = col;
	d->message = msg;
}

const char *ms_add_file(struct manifest_set *ms, const char *name)
{
	char **slot = XPUSH(ms->files, ms->n_files, ms->cap_files);
	*slot = xstrdup(name);
	return *slot;
}

struct env_var *env_list_find(const struct env_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

bool env_list_set(struct env_list *l, const char *name, const char *value, const char *value_from,
		  enum env_origin origin, struct src_loc loc)
{
	struct env_var *e = env_list_find(l, name);
	if (e) {
		free(e->value);
		free(e->value_from);
	} else {
		if (l->n >= MANIFEST_MAX_ENV)
			return false;
		e = XPUSH(l->v, l->n, l->cap);
		e->name = xstrdup(name);
	}
	e->value = value ? xstrdup(value) : NULL;
	e->value_from = value_from ? xstrdup(value_from) : NULL;
	e->origin = origin;
	e->loc = loc;
	return true;
}

void env_list_release(struct env_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].value);
		free(l->v[i].value_from);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

struct kv *kv_list_find(const struct kv_list *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return &l->v[i];
	return NULL;
}

bool kv_list_add(struct kv_list *l, const char *key, const char *value, struct src_loc loc)
{
	if (l->n >= MANIFEST_MAX_KV)
		return false;
	struct kv *e = XPUSH(l->v, l->n, l->cap);
	e->key = xstrdup(key);
	e->value = xstrdup(value ? value : "");
	e->loc = loc;
	return true;
}

bool kv_list_set(struct kv_list *l, const char *key, const char *value, struct src_loc loc)
{
	struct kv *e = kv_list_find(l, key);
	if (!e)
		return kv_list_add(l, key, value, loc);
	free(e->value);
	e->value = xstrdup(value ? value : "");
	e->loc = loc;
	return true;
}

void kv_list_release(struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ---- compaction: a built model gives back what its arrays reserved ---- */

static void env_compact(struct env_list *l)
{
	xshrink((void **)&l->v, &l->cap, l->n, sizeof(*l->v));
}

static void kv_compact(struct kv_list *l)
{
	xshrink((void **)&l->v, &l->cap, l->n, sizeof(*l->v));
}

void service_view_sync(struct service *s)
{
	if (!s->ctr_view || s->engine_ctr >= s->n_ctrs)
		return;
	const struct container *e = &s->ctrs[s->engine_ctr];
	s->env = e->env;
	s->env_from = e->env_from;
	s->command_line = e->command_line;
}

static void service_compact(struct service *s)
{
	if (!s->ctr_view) {
		env_compact(&s->env);
		kv_compact(&s->env_from);
	}
	struct kv_list *kvs[] = {&s->resources,       &s->cap_add, &s->host_paths,
				 &s->resource_claims, &s->labels,  &s->annotations};
	for (size_t i = 0; i < sizeof(kvs) / sizeof(kvs[0]); i++)
		kv_compact(kvs[i]);
	for (size_t i = 0; i < s->n_ctrs; i++) {
		struct container *c = &s->ctrs[i];
		env_compact(&c->env);
		kv_compact(&c->env_from);
		kv_compact(&c->resources);
		kv_compact(&c->cap_add);
	}
	xshrink((void **)&s->ctrs, &s->cap_ctrs, s->n_ctrs, sizeof(*s->ctrs));
	service_view_sync(s);
}

void manifest_compact(struct manifest_set *ms, size_t first_dep)
{
	for (size_t i = first_dep; i < ms->n_deps; i++) {
		struct deployment *d = &ms->deps[i];
		env_compact(&d->env);
		for (size_t j = 0; j < d->n_svcs; j++)
			service_compact(&d->svcs[j]);
		xshrink((void **)&d->svcs, &d->cap_svcs, d->n_svcs, sizeof(*d->svcs));
	}
}

void service_release(struct service *s)
{
	free(s->name);
	free(s->role_source);
	free(s->image);
	free(s->container);
	if (s->ctr_view) { /* the engine container's, released below */
		memset(&s->env, 0, sizeof(s->env));
		memset(&s->env_from, 0, sizeof(s->env_from));
		s->command_line = NULL;
	}
	env_list_release(&s->env);
	kv_list_release(&s->env_from);
	free(s->command_line);
	kv_list_release(&s->resources);
	kv_list_release(&s->cap_add);
	kv_list_release(&s->host_paths);
	free(s->shm_size);
	kv_list_release(&s->resource_claims);
	for (size_t i = 0; i < s->n_ctrs; i++) {
		struct container *c = &s->ctrs[i];
		free(c->name);
		free(c->image);
		env_list_release(&c->env);
		kv_list_release(&c->env_from);
		free(c->command_line);
		kv_list_release(&c->resources);
		kv_list_release(&c->cap_add);
	}
	free(s->ctrs);
	free(s->nodes_how);
	free(s->label);
	kv_list_release(&s->labels);
	kv_list_release(&s->annotations);
	free(s->role_label);
	free(s->model);
}

void manifest_release_services(struct manifest_set *ms, size_t dep)
{
	struct deployment *d = &ms->deps[dep];
	env_list_release(&d->env);
	for (size_t j = 0; j < d->n_svcs; j++)
		service_release(&d->svcs[j]);
	free(d->svcs);
	d->svcs = NULL;
	d->n_svcs = d->cap_svcs = 0;
}

void manifest_set_release(struct manifest_set *ms)
{
	for (size_t i = 0; i < ms->n_deps; i++) {
		struct deployment *d = &ms->deps[i];
		free(d->name);
		free(d->kind);
		free(d->api_version);
		free(d->framework);
		free(d->paired_with);
		free(d->ns);
		free(d->kustomize_overlay);
		env_list_release(&d->env);
		for (size_t j = 0; j < d->n_svcs; j++)
			service_release(&d->svcs[j]);
		free(d->svcs);
	}
	free(ms->deps);
	for (size_t i = 0; i < ms->n_cms; i++) {
		free(ms->cms[i].name);
		free(ms->cms[i].text);
		kv_list_release(&ms->cms[i].data);
	}
	free(ms->cms);
	for (size_t i = 0; i < ms->n_claims; i++) {
		free(ms->claims[i].name);
		free(ms->claims[i].classes);
	}
	free(ms->claims);
	kv_list_release(&ms->nads);
	kv_list_release(&ms->kbases);
	kv_list_release(&ms->krendered);
	for (size_t i = 0; i < ms->n_diags; i++) {
		free(ms->diags[i].file);
		free(ms->diags[i].message);
	}
	free(ms->diags);
	for (size_t i = 0; i < ms->n_files; i++)
		free(ms->files[i]);
	free(ms->files);
	if (ms->names)
		free(ms->names->v);
	free(ms->names);
	memset(ms, 0, sizeof(*ms));
}

/* ---- lookups for the rules ---- */

const struct env_var *service_env_get(const struct service *s, const char *name)
{
	return s && name ? env_list_find(&s->env, name) : NULL;
}

const char *service_resource_get(const struct service *s, const char *key)
{
	const struct kv *e = s && key ? kv_list_find(&s->resources, key) : NULL;
	return e ? e->value : NULL;
}

/* "CAP_IPC_LOCK" and "ipc_lock" mean IPC_LOCK to the kernel's parser too. */
static const char *cap_base(const char *c)
{
	return strncasecmp(c, "CAP_", 4) == 0 ? c + 4 : c;
}

bool service_has_cap(const struct service *s, const char *cap)
{
	if (!s || !cap)
		return false;
	for (size_t i = 0; i < s->cap_add.n; i++) {
		const char *c = cap_base(s->cap_add.v[i].key);
		if (strcasecmp(c, cap_base(cap)) == 0 || strcasecmp(c, "ALL") == 0)
			return true;
	}
	return false;
}

const struct container *service_engine_container(const struct service *s)
{
	return s && s->n_ctrs ? &s->ctrs[s->engine_ctr < s->n_ctrs ? s->engine_ctr : 0] : NULL;
}

const struct container *service_container_with_resource(const struct service *s, const char *key)
{
	for (size_t i = 0; s && key && i < s->n_ctrs; i++)
		if (s->ctrs[i].kind != CTR_INIT && kv_list_find(&s->ctrs[i].resources, key))
			return &s->ctrs[i];
	return NULL;
}

const struct container *service_container_with_cap(const struct service *s, const char *cap)
{
	for (size_t i = 0; s && cap && i < s->n_ctrs; i++) {
		const struct container *c = &s->ctrs[i];
		if (c->kind == CTR_INIT)
			continue;
		for (size_t k = 0; k < c->cap_add.n; k++) {
			const char *a = cap_base(c->cap_add.v[k].key);
			if (strcasecmp(a, cap_base(cap)) == 0 || strcasecmp(a, "ALL") == 0)
				return c;
		}
	}
	return NULL;
}

/* ---- DRA ---- */

const struct claim_template *manifest_claim_template(const struct manifest_set *ms,
						     const char *name)
{
	for (size_t i = 0; ms && name && i < ms->n_claims; i++)
		if (!strcmp(ms->claims[i].name, name))
			return &ms->claims[i];
	return NULL;
}

/* Device classes as the DRA drivers name them: NVIDIA's ComputeDomain
 * driver publishes compute-domain-default-channel.nvidia.com (and the
 * daemon class); IMEX channels are the MNNVL memory path.  GPU classes
 * (gpu.nvidia.com, gpu.intel.com, mig.nvidia.com) are devices, not a
 * fabric; RDMA/NIC classes (rdma-*, *dranet*, *.net, sriov) are NICs. */
enum claim_kind manifest_claim_kind(const struct manifest_set *ms, const char *name)
{
	const struct claim_template *t = manifest_claim_template(ms, name);
	if (!t)
		return CLAIM_UNKNOWN;
	if (t->compute_domain || strstr(t->classes, "compute-domain") ||
	    strcasestr(t->classes, "imex"))
		return CLAIM_MNNVL;
	if (strcasestr(t->classes, "rdma") || strcasestr(t->classes, "dranet") ||
	    strcasestr(t->classes, "sriov") || strcasestr(t->classes, "nic"))
		return CLAIM_NIC;
	if (strcasestr(t->classes, "gpu") || strcasestr(t->classes, "mig."))
		return CLAIM_GPU;
	return CLAIM_OTHER;
}
