/* SPDX-License-Identifier: Apache-2.0 */
/*
 * YAML documents -> deployment model.  Pure: bytes in, structs out.
 *
 * One document becomes at most one deployment (a `kind: List` its items).
 * The walkers below read only what the env rules need and ignore the rest,
 * so an unknown field or a wrong type is never an error: it is simply not
 * there.  Aliases were expanded by the tree with a budget (ytree.c), so no
 * walk here can blow up.
 */
#include "manifest/manifest_internal.h"
#include "rules/engines.h"
#include "rules/k8s.h"
#include "manifest/ytree.h"

#include "core/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct pctx {
	struct manifest_set *ms;
	const char *file; /* ms->files[] entry */
	size_t first_dep;
	bool compute_domain;
	int docs;                  /* documents with content */
	size_t copies, copy_bytes; /* see MANIFEST_MAX_COPIES */
	bool copies_warned;
	/* set while a workload CRD's pod template is read (generic_walk) */
	const char *crd_role;
	struct src_loc crd_role_loc;
};

/* A container of the pod being built, and what it is to the pod. */
struct ctr_src {
	const struct ynode *n;
	enum ctr_kind kind;
};

#define MAX_CONTAINERS 64 /* per pod: more is not a pod anyone writes */

/* Scratch while one service is being built. */
struct sbuild {
	struct pctx *pc;
	struct deployment *dep;
	struct service *s;
	const struct ynode *v1_component_type, *v1_sub_type, *v2_type;
	const struct ynode *podspec; /* for /dev/shm volume lookups */
	struct ctr_src src[MAX_CONTAINERS];
	size_t n_src;
	struct src_loc role_label_loc;
	/* A workload CRD's own name for the pod template's role (AIBrix
	 * roles[].name, llm-d ModelService's prefill/decode key). */
	const char *crd_role;
	struct src_loc crd_role_loc;
};

static void pod_meta(struct sbuild *b, const struct ynode *meta);

static struct src_loc at(const struct pctx *pc, const struct ynode *n)
{
	struct src_loc l = {pc->file, n ? n->line : 0};
	return l;
}

static long parse_long(const char *s, long dflt)
{
	if (!s || !*s)
		return dflt;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < 0)
		return dflt;
	return v;
}

static const struct ynode *ypath(const struct ynode *n, const char *const *keys)
{
	for (; n && *keys; keys++)
		n = ymap_get(n, *keys);
	return n;
}

#define YPATH(n, ...) ypath((n), (const char *const[]){__VA_ARGS__, NULL})

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = v ? xstrdup(v) : NULL;
}

/* ---- environment ---- */

static char *value_from_text(const struct ynode *vf)
{
	const struct ynode *r;
	if ((r = ymap_get(vf, "secretKeyRef")))
		return xasprintf("<secret %s/%s>", ymap_str(r, "name") ? ymap_str(r, "name") : "?",
				 ymap_str(r, "key") ? ymap_str(r, "key") : "?");
	if ((r = ymap_get(vf, "configMapKeyRef")))
		return xasprintf("<configmap %s/%s>",
				 ymap_str(r, "name") ? ymap_str(r, "name") : "?",
				 ymap_str(r, "key") ? ymap_str(r, "key") : "?");
	if ((r = ymap_get(vf, "fieldRef")))
		return xasprintf("<field %s>",
				 ymap_str(r, "fieldPath") ? ymap_str(r, "fieldPath") : "?");
	if ((r = ymap_get(vf, "resourceFieldRef")))
		return xasprintf("<resource %s>",
				 ymap_str(r, "resource") ? ymap_str(r, "resource") : "?");
	return xstrdup("<valueFrom>");
}

static void env_apply(struct pctx *pc, struct env_list *l, const struct ynode *seq,
		      enum env_origin origin)
{
	if (!yis_seq(seq))
		return;
	for (size_t i = 0; i < seq->n; i++) {
		const struct ynode *e = seq->u.kids[i];
		const char *name = ymap_str(e, "name");
		if (!name)
			continue;
		const struct ynode *vf = ymap_get(e, "valueFrom");
		const struct ynode *vn = ymap_get(e, "value");
		struct src_loc loc = at(pc, ymap_get(e, "name"));
		bool ok;
		if (yis_map(vf)) {
			/* Never resolved: a secret's value must not enter the model. */
			char *ref = value_from_text(vf);
			ok = env_list_set(l, name, NULL, ref, origin, loc);
			free(ref);
		} else {
			/* Absent value is the empty string to Kubernetes; explicit
			 * null stays NULL as the brief of the model says. */
			const char *v = vn ? yscalar(vn) : "";
			ok = env_list_set(l, name, v, NULL, origin, loc);
		}
		if (!ok) {
			ms_diag(pc->ms, DIAG_WARN, pc->file, loc.line, 0,
				xstrdup("more than 1024 environment entries; the rest ignored"));
			return;
		}
	}
}

/* Deployment-wide env into a new service: src has unique names and dst is
 * empty, so a plain copy (no lookups) is enough. */
static void env_merge(struct pctx *pc, struct env_list *dst, const struct env_list *src)
{
	size_t bytes = 0;
	for (size_t i = 0; i < src->n; i++)
		bytes += strlen(src->v[i].name) + (src->v[i].value ? strlen(src->v[i].value) : 0) +
			 (src->v[i].value_from ? strlen(src->v[i].value_from) : 0);
	if (pc->copies + src->n > MANIFEST_MAX_COPIES ||
	    pc->copy_bytes + bytes > MANIFEST_MAX_COPY_BYTES) {
		if (!pc->copies_warned)
			ms_diag(pc->ms, DIAG_WARN, pc->file, 0, 0,
				xstrdup("deployment-wide env copied into too many services; the rest skipped"));
		pc->copies_warned = true;
		return;
	}
	pc->copies += src->n;
	pc->copy_bytes += bytes;
	for (size_t i = 0; i < src->n; i++) {
		const struct env_var *e = &src->v[i];
		if (dst->n == 0 && i == 0)
			xgrow((void **)&dst->v, &dst->cap, src->n, sizeof(*dst->v));
		struct env_var *d = XPUSH(dst->v, dst->n, dst->cap);
		d->name = xstrdup(e->name);
		d->value = e->value ? xstrdup(e->value) : NULL;
		d->value_from = e->value_from ? xstrdup(e->value_from) : NULL;
		d->origin = e->origin;
		d->loc = e->loc;
	}
}

/* src's entries over dst's (later wins). */
static void env_overlay(struct env_list *dst, const struct env_list *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const struct env_var *e = &src->v[i];
		if (!env_list_set(dst, e->name, e->value, e->value_from, e->origin, e->loc))
			break;
	}
}

struct inline_ctx {
	struct env_list *env;
	const char *file;
};

static void on_inline(void *vctx, const char *name, const char *value, int line)
{
	struct inline_ctx *ic = vctx;
	struct src_loc loc = {ic->file, line};
	env_list_set(ic->env, name, value, NULL, ENV_INLINE, loc);
}

/* argv form `command: [env, A=b, python3]`: the env program applies them. */
static void argv_env_prefix(struct inline_ctx *ic, const struct ynode *seq)
{
	if (!yis_seq(seq) || seq->n == 0 || !yscalar(seq->u.kids[0]) ||
	    !shell_is_env_word(yscalar(seq->u.kids[0])))
		return;
	for (size_t i = 1; i < seq->n; i++) {
		const char *w = yscalar(seq->u.kids[i]);
		size_t nlen;
		if (!w)
			break;
		if (w[0] == '-')
			continue;
		if (!shell_split_assignment(w, &nlen))
			break;
		if (shell_env_name_ok(w, nlen)) {
			char *name = xstrndup(w, nlen);
			on_inline(ic, name, w + nlen + 1, seq->u.kids[i]->line);
			free(name);
		}
	}
}

static bool is_shell(const char *w)
{
	static const char *const sh[] = {"sh", "bash", "dash", "zsh", "ash", "ksh", NULL};
	const char *slash = w ? strrchr(w, '/') : NULL;
	const char *base = slash ? slash + 1 : w;
	for (size_t i = 0; base && sh[i]; i++)
		if (strcmp(base, sh[i]) == 0)
			return true;
	return false;
}

/* -c, -lc, -ec, -xec...: the next word is the script. */
static bool is_dash_c(const char *w)
{
	return w && w[0] == '-' && w[1] != '-' && strchr(w, 'c') != NULL;
}

static void script(struct inline_ctx *ic, const struct ynode *n)
{
	if (yscalar(n))
		shell_scan_assignments(yscalar(n), n->line, on_inline, ic);
}

/*
 * Which strings are shell scripts: the word after `sh -c` when the container
 * runs a shell; otherwise (entrypoint unknown) any element with a blank in
 * it, since a single argv word such as `X=2` handed to a program is not an
 * assignment.  A scalar command/args is a script.
 */
static void scan_inline(struct inline_ctx *ic, const struct ynode *cmd, const struct ynode *args)
{
	const struct ynode *argv[2] = {cmd, args};
	const struct ynode *first = NULL;
	for (int k = 0; k < 2 && !first; k++) {
		if (yscalar(argv[k]))
			first = argv[k];
		else if (yis_seq(argv[k]) && argv[k]->n)
			first = argv[k]->u.kids[0];
	}
	bool shell = first && !yscalar(cmd) && is_shell(yscalar(first));
	bool want_script = false;
	for (int k = 0; k < 2; k++) {
		const struct ynode *n = argv[k];
		if (yscalar(n)) {
			script(ic, n);
			continue;
		}
		if (!yis_seq(n))
			continue;
		if (n->n && n->u.kids[0] == first && !shell)
			argv_env_prefix(ic, n);
		for (size_t i = 0; i < n->n; i++) {
			const struct ynode *e = n->u.kids[i];
			const char *w = yscalar(e);
			if (!w)
				continue;
			if (shell) {
				if (want_script) {
					script(ic, e);
					want_script = false;
					shell = false; /* later words are $0, $1... */
					continue;
				}
				if (is_dash_c(w))
					want_script = true;
			} else if (strpbrk(w, " \t\n")) {
				script(ic, e);
			}
		}
	}
}

/* ---- command line ---- */

static void cmd_append(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);
	size_t need = *len + n + 2;
	if (need > *cap) {
		*cap = need * 2;
		*buf = xrealloc(*buf, *cap);
	}
	if (*len)
		(*buf)[(*len)++] = ' ';
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
}

static void cmd_collect(char **buf, size_t *len, size_t *cap, const struct ynode *n)
{
	if (yscalar(n)) {
		cmd_append(buf, len, cap, yscalar(n));
	} else if (yis_seq(n)) {
		for (size_t i = 0; i < n->n; i++)
			if (yscalar(n->u.kids[i]))
				cmd_append(buf, len, cap, yscalar(n->u.kids[i]));
	}
}

static int first_line(const struct ynode *n)
{
	if (!n)
		return 0;
	if (yis_seq(n) && n->n)
		return n->u.kids[0]->line;
	return n->line;
}

/* ---- resources, security, volumes ---- */

static void res_put(struct pctx *pc, struct kv_list *l, const char *key, const struct ynode *v)
{
	const char *val = yscalar(v);
	if (val)
		kv_list_set(l, key, val, at(pc, v));
}

struct res_ctx {
	struct pctx *pc;
	struct kv_list *l;
	bool dynamo; /* v1alpha1 style: `custom:` holds extended resources */
};

static bool on_res_custom(void *vctx, const struct ynode *k, const struct ynode *v)
{
	struct res_ctx *rc = vctx;
	if (yscalar(k))
		res_put(rc->pc, rc->l, yscalar(k), v);
	return true;
}

static bool on_res(void *vctx, const struct ynode *k, const struct ynode *v)
{
	struct res_ctx *rc = vctx;
	const char *key = yscalar(k);
	if (!key)
		return true;
	if (rc->dynamo && strcmp(key, "custom") == 0 && yis_map(v))
		ymap_each(v, on_res_custom, rc);
	else
		res_put(rc->pc, rc->l, key, v);
	return true;
}

/* Requests first, then limits: where both name a resource, limits win. */
static void resources_apply(struct pctx *pc, struct service *s, const struct ynode *res,
			    bool dynamo)
{
	struct res_ctx rc = {pc, &s->resources, dynamo};
	ymap_each(ymap_get(res, "requests"), on_res, &rc);
	ymap_each(ymap_get(res, "limits"), on_res, &rc);
}

static void caps_apply(struct pctx *pc, struct kv_list *l, const struct ynode *sc,
		       const char *where)
{
	const struct ynode *add = YPATH(sc, "capabilities", "add");
	if (yscalar(add)) {
		kv_list_set(l, yscalar(add), where, at(pc, add));
		return;
	}
	if (!yis_seq(add))
		return;
	for (size_t i = 0; i < add->n; i++)
		if (yscalar(add->u.kids[i]))
			kv_list_set(l, yscalar(add->u.kids[i]), where, at(pc, add->u.kids[i]));
}

static void security_apply(struct pctx *pc, struct service *s, const struct ynode *sc,
			   const char *where)
{
	if (!yis_map(sc))
		return;
	caps_apply(pc, &s->cap_add, sc, where);
	const struct ynode *p = ymap_get(sc, "privileged");
	if (p && yscalar(p)) {
		s->privileged = ytrue(p);
		s->privileged_loc = at(pc, p);
	}
}

static const struct ynode *volume_named(const struct ynode *podspec, const char *name)
{
	const struct ynode *vols = ymap_get(podspec, "volumes");
	if (!yis_seq(vols) || !name)
		return NULL;
	for (size_t i = 0; i < vols->n; i++) {
		const char *vn = ymap_str(vols->u.kids[i], "name");
		if (vn && strcmp(vn, name) == 0)
			return vols->u.kids[i];
	}
	return NULL;
}

static void mounts_apply(struct pctx *pc, struct service *s, const struct ynode *podspec,
			 const struct ynode *mounts)
{
	if (!yis_seq(mounts))
		return;
	for (size_t i = 0; i < mounts->n; i++) {
		const struct ynode *m = mounts->u.kids[i];
		const char *path = ymap_str(m, "mountPath");
		if (!path || strcmp(path, "/dev/shm") != 0 || s->shm_size)
			continue;
		const struct ynode *ed =
			ymap_get(volume_named(podspec, ymap_str(m, "name")), "emptyDir");
		const char *medium = ymap_str(ed, "medium");
		if (medium && strcasecmp(medium, "Memory") == 0) {
			const char *size = ymap_str(ed, "sizeLimit");
			s->shm_size = xstrdup(size ? size : "");
			s->shm_loc = at(pc, m);
		}
	}
}

/* Whether a command line runs an engine (or a transfer test): what makes
 * a container the worker's engine container. */
static bool runs_engine(const char *cmd)
{
	/* rules/engines.c: the engines' entry points, a container that only
	 * passes an engine's flags to its image's entrypoint, a Ray node */
	return engine_of_command(cmd, NULL) != ENGINE_NONE || engine_of_flags(cmd) != ENGINE_NONE ||
	       engine_ray_start(cmd, NULL);
}

static void kv_copy_into(struct kv_list *dst, const struct kv_list *src)
{
	for (size_t i = 0; i < src->n; i++)
		kv_list_set(dst, src->v[i].key, src->v[i].value, src->v[i].loc);
}

static void env_merge(struct pctx *pc, struct env_list *dst, const struct env_list *src);

/* One container: its own environment on top of the service's (which, at
 * this point, holds only the deployment-wide and service entries), its
 * command, resources and security context. */
static void container_build(struct sbuild *b, const struct ctr_src *src, size_t idx)
{
	struct pctx *pc = b->pc;
	struct service *s = b->s;
	const struct ynode *c = src->n; /* NULL: v1alpha1 main container left implicit */
	if (c && !yis_map(c))
		return;
	struct container *k = XPUSH(s->ctrs, s->n_ctrs, s->cap_ctrs);
	memset(k, 0, sizeof(*k));
	k->kind = src->kind;
	k->loc = c ? at(pc, c) : s->loc;
	const struct ynode *n;
	if ((n = ymap_get(c, "name")) && yscalar(n))
		k->name = xstrdup(yscalar(n));
	else
		k->name = src->kind == CTR_MAIN && idx == 0 ? NULL
							    : xasprintf("container-%zu", idx + 1);
	if ((n = ymap_get(c, "image")) && yscalar(n))
		k->image = xstrdup(yscalar(n));
	/* Deployment-wide first, then the service's: everything later
	 * overrides it. */
	env_merge(pc, &k->env, &b->dep->env);
	env_overlay(&k->env, &s->env);
	kv_copy_into(&k->env_from, &s->env_from);
	env_apply(pc, &k->env, ymap_get(c, "env"), ENV_CONTAINER);
	const struct ynode *ef = ymap_get(c, "envFrom");
	if (yis_seq(ef)) {
		for (size_t i = 0; i < ef->n; i++) {
			const struct ynode *e = ef->u.kids[i];
			const struct ynode *r;
			if ((r = ymap_get(e, "secretRef")) && ymap_str(r, "name"))
				kv_list_add(&k->env_from, "secret", ymap_str(r, "name"), at(pc, r));
			else if ((r = ymap_get(e, "configMapRef")) && ymap_str(r, "name"))
				kv_list_add(&k->env_from, "configmap", ymap_str(r, "name"),
					    at(pc, r));
		}
	}
	const struct ynode *cmd = ymap_get(c, "command"), *args = ymap_get(c, "args");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	cmd_collect(&buf, &len, &cap, cmd);
	cmd_collect(&buf, &len, &cap, args);
	k->command_line = buf ? xrealloc(buf, len + 1) : NULL; /* cmd_append reserves twice */
	if (buf) {
		k->command_loc.file = pc->file;
		k->command_loc.line = first_line(cmd ? cmd : args);
	}
	const struct engine_default_launch *dl =
		buf ? NULL : engine_default_launch(b->dep->kind, k->name);
	if (dl) {
		/* the controller gives the command (rules/engines.c) */
		const struct env_var *more =
			dl->args_env ? env_list_find(&k->env, dl->args_env) : NULL;
		k->command_line = more && more->value ? xasprintf("%s %s", dl->command, more->value)
						      : xstrdup(dl->command);
		k->command_loc = more && more->value ? more->loc : k->loc;
	}
	struct inline_ctx ic = {&k->env, pc->file};
	scan_inline(&ic, cmd, args);
	/* The DGD's service-level resources are the main container's. */
	if (src->kind == CTR_MAIN)
		kv_copy_into(&k->resources, &s->resources);
	struct res_ctx rc = {pc, &k->resources, false};
	ymap_each(ymap_get(ymap_get(c, "resources"), "requests"), on_res, &rc);
	ymap_each(ymap_get(ymap_get(c, "resources"), "limits"), on_res, &rc);
	const struct ynode *sc = ymap_get(c, "securityContext");
	if (yis_map(sc)) {
		caps_apply(pc, &k->cap_add, sc, "container");
		const struct ynode *p = ymap_get(sc, "privileged");
		if (p && yscalar(p)) {
			k->privileged = ytrue(p);
			k->privileged_loc = at(pc, p);
		}
	}
	if (src->kind != CTR_INIT)
		mounts_apply(pc, s, b->podspec, ymap_get(c, "volumeMounts"));
	k->engine = src->kind != CTR_INIT && runs_engine(k->command_line);
}

static bool is_sidecar_name(const char *name);

/*
 * Every container of the pod, then the service's view: the engine
 * container's environment and command, and the union of what the running
 * containers request.  The engine container is the first that runs an
 * engine (main, then extra containers, then native sidecars); when none
 * visibly does (the image's default entrypoint), the main container.
 */
static void containers_finish(struct sbuild *b)
{
	struct pctx *pc = b->pc;
	struct service *s = b->s;
	for (size_t i = 0; i < b->n_src; i++)
		container_build(b, &b->src[i], i);
	if (!s->n_ctrs) {
		/* no container written (a patch): deployment-wide, then service */
		struct env_list own = s->env;
		memset(&s->env, 0, sizeof(s->env));
		env_merge(pc, &s->env, &b->dep->env);
		env_overlay(&s->env, &own);
		env_list_release(&own);
		return;
	}
	size_t eng = s->n_ctrs, main_i = s->n_ctrs;
	for (size_t i = 0; i < s->n_ctrs; i++) {
		if (s->ctrs[i].engine && eng == s->n_ctrs)
			eng = i;
		if (s->ctrs[i].kind == CTR_MAIN && main_i == s->n_ctrs &&
		    !is_sidecar_name(s->ctrs[i].name))
			main_i = i;
	}
	if (main_i == s->n_ctrs)
		main_i = 0;
	if (eng == s->n_ctrs)
		eng = main_i;
	s->engine_ctr = eng;
	struct container *e = &s->ctrs[eng];
	/* A finding about an engine that runs beside the main container
	 * names the container the user has to edit. */
	if (eng != main_i)
		s->label = xasprintf("%s (%s %s)", s->name ? s->name : "(unnamed)",
				     e->kind == CTR_SIDECAR ? "sidecar" : "container",
				     e->name ? e->name : "?");
	env_list_release(&s->env);
	kv_list_release(&s->env_from);
	s->ctr_view = true; /* env, env_from, command_line: the engine container's */
	service_view_sync(s);
	set_str(&s->container, e->name);
	if (e->image) {
		set_str(&s->image, e->image);
		s->image_loc = e->loc;
		const struct ynode *im = ymap_get(b->src[eng].n, "image"); /* NULL-safe */
		if (im)
			s->image_loc = at(pc, im);
	}
	s->command_loc = e->command_loc;
	for (size_t i = 0; i < s->n_ctrs; i++) {
		const struct container *k = &s->ctrs[i];
		if (k->kind == CTR_INIT)
			continue;
		kv_copy_into(&s->resources, &k->resources);
		for (size_t j = 0; j < k->cap_add.n; j++)
			kv_list_set(&s->cap_add, k->cap_add.v[j].key, k->cap_add.v[j].value,
				    k->cap_add.v[j].loc);
		if (k->privileged && !s->privileged) {
			s->privileged = true;
			s->privileged_loc = k->privileged_loc;
		}
	}
}

/* containers[] (the main one by name, else the first), then native
 * sidecars and init containers. */
static void pod_containers(struct sbuild *b, const struct ynode *ps, const struct ynode *main_c,
			   bool main_is_first)
{
	const struct ynode *cs = ymap_get(ps, "containers");
	if (main_c && b->n_src < MAX_CONTAINERS)
		b->src[b->n_src++] = (struct ctr_src){main_c, CTR_MAIN};
	if (yis_seq(cs))
		for (size_t i = 0; i < cs->n && b->n_src < MAX_CONTAINERS; i++) {
			if (cs->u.kids[i] == main_c)
				continue;
			bool as_main = main_is_first && !main_c;
			b->src[b->n_src++] =
				(struct ctr_src){cs->u.kids[i], as_main ? CTR_MAIN : CTR_EXTRA};
		}
	const struct ynode *ic = ymap_get(ps, "initContainers");
	if (yis_seq(ic))
		for (size_t i = 0; i < ic->n && b->n_src < MAX_CONTAINERS; i++) {
			const char *rp = ymap_str(ic->u.kids[i], "restartPolicy");
			bool side = rp && !strcmp(rp, "Always");
			b->src[b->n_src++] =
				(struct ctr_src){ic->u.kids[i], side ? CTR_SIDECAR : CTR_INIT};
		}
}

static void claims_apply(struct pctx *pc, struct service *s, const struct ynode *seq)
{
	if (!yis_seq(seq))
		return;
	for (size_t i = 0; i < seq->n; i++) {
		const struct ynode *c = seq->u.kids[i];
		const char *name = ymap_str(c, "name");
		if (!name)
			continue;
		/* Current API names the template at top level; v1alpha2-era
		 * manifests put it under `source:`. */
		const char *tmpl = ymap_str(c, "resourceClaimTemplateName");
		if (!tmpl)
			tmpl = ymap_str(ymap_get(c, "source"), "resourceClaimTemplateName");
		if (!tmpl)
			tmpl = ymap_str(c, "resourceClaimName");
		if (!tmpl)
			tmpl = ymap_str(ymap_get(c, "source"), "resourceClaimName");
		kv_list_set(&s->resource_claims, name, tmpl ? tmpl : "", at(pc, c));
	}
}

static void podspec_apply(struct sbuild *b, const struct ynode *ps)
{
	struct pctx *pc = b->pc;
	struct service *s = b->s;
	if (!yis_map(ps))
		return;
	b->podspec = ps;
	const struct ynode *n;
	if ((n = ymap_get(ps, "hostIPC")) && yscalar(n)) {
		s->host_ipc = ytrue(n);
		s->host_ipc_loc = at(pc, n);
	}
	if ((n = ymap_get(ps, "hostNetwork")) && yscalar(n)) {
		s->host_network = ytrue(n);
		s->host_network_loc = at(pc, n);
	}
	const struct ynode *vols = ymap_get(ps, "volumes");
	if (yis_seq(vols)) {
		for (size_t i = 0; i < vols->n; i++) {
			const struct ynode *v = vols->u.kids[i];
			const char *path = ymap_str(ymap_get(v, "hostPath"), "path");
			if (path)
				kv_list_set(&s->host_paths,
					    ymap_str(v, "name") ? ymap_str(v, "name") : "", path,
					    at(pc, v));
		}
	}
	claims_apply(pc, s, ymap_get(ps, "resourceClaims"));
	if ((n = YPATH(ps, "affinity", "podAntiAffinity"))) {
		s->anti_affinity = true;
		s->anti_affinity_loc = at(pc, n);
		/* Only a required term keeps two pods off one node; a preferred
		 * one yields when the scheduler is short of nodes. */
		const struct ynode *req =
			ymap_get(n, "requiredDuringSchedulingIgnoredDuringExecution");
		for (size_t i = 0; yis_seq(req) && i < req->n; i++) {
			const char *tk = ymap_str(req->u.kids[i], "topologyKey");
			if (tk && !strcmp(tk, "kubernetes.io/hostname")) {
				s->anti_affinity_required = true;
				s->anti_affinity_loc = at(pc, req->u.kids[i]);
			}
		}
	}
	const struct ynode *tsc = ymap_get(ps, "topologySpreadConstraints");
	if (yis_seq(tsc)) {
		for (size_t i = 0; i < tsc->n; i++) {
			const struct ynode *k = ymap_get(tsc->u.kids[i], "topologyKey");
			if (yscalar(k) && strcmp(yscalar(k), "kubernetes.io/hostname") == 0) {
				const char *wu = ymap_str(tsc->u.kids[i], "whenUnsatisfiable");
				const char *ms_ = ymap_str(tsc->u.kids[i], "maxSkew");
				s->anti_affinity = true;
				s->anti_affinity_loc = at(pc, k);
				/* DoNotSchedule with maxSkew 1 spreads one pod per node
				 * only while nodes are free; count it as required. */
				if (wu && !strcmp(wu, "DoNotSchedule") &&
				    (!ms_ || !strcmp(ms_, "1")))
					s->anti_affinity_required = true;
			}
		}
	}
	/* Pod-level securityContext has no capabilities in Kubernetes, but
	 * some hand-written manifests put them there; record what is written. */
	security_apply(pc, s, ymap_get(ps, "securityContext"), "pod");
}

static bool is_sidecar_name(const char *name)
{
	static const char *const side[] = {"sidecar", "istio-proxy",   "envoy", "linkerd-proxy",
					   "fluent",  "log-collector", NULL};
	for (size_t i = 0; name && side[i]; i++)
		if (strstr(name, side[i]))
			return true;
	return false;
}

/* The container the operator treats as the worker: `main`, else the first
 * that is not a well-known proxy or log sidecar, else the first. */
static const struct ynode *main_container(const struct ynode *ps)
{
	const struct ynode *cs = ymap_get(ps, "containers");
	if (!yis_seq(cs) || cs->n == 0)
		return NULL;
	for (size_t i = 0; i < cs->n; i++) {
		const char *n = ymap_str(cs->u.kids[i], "name");
		if (n && strcmp(n, "main") == 0)
			return cs->u.kids[i];
	}
	for (size_t i = 0; i < cs->n; i++)
		if (!is_sidecar_name(ymap_str(cs->u.kids[i], "name")))
			return cs->u.kids[i];
	return cs->u.kids[0];
}

/* ---- roles ---- */

static bool name_has(const char *name, const char *what)
{
	return name && strcasestr(name, what) != NULL;
}

static void role_set(struct service *s, enum svc_role r, char *source, struct src_loc loc)
{
	s->role = r;
	free(s->role_source);
	s->role_source = source;
	s->role_loc = loc;
}

static enum svc_role role_word(const char *w)
{
	if (!w)
		return ROLE_UNKNOWN;
	if (strcasecmp(w, "frontend") == 0)
		return ROLE_FRONTEND;
	if (strcasecmp(w, "worker") == 0)
		return ROLE_WORKER;
	if (strcasecmp(w, "prefill") == 0)
		return ROLE_PREFILL;
	if (strcasecmp(w, "decode") == 0)
		return ROLE_DECODE;
	return ROLE_OTHER;
}

/* "kv_role": "kv_producer" inside a --kv-transfer-config JSON. */
static const char *kv_role_of(const char *cmd)
{
	const char *p = cmd ? strstr(cmd, "kv_role") : NULL;
	for (; p; p = strstr(p + 7, "kv_role")) {
		const char *q = p + 7;
		while (*q == '"' || *q == '\'' || *q == '\\' || *q == ' ' || *q == ':' || *q == '=')
			q++;
		if (!strncmp(q, "kv_producer", 11))
			return "kv_producer";
		if (!strncmp(q, "kv_consumer", 11))
			return "kv_consumer";
	}
	return NULL;
}

enum svc_role manifest_role_from_command(const char *cmd, char *how, size_t howsz)
{
	char w[32];
	if (how && howsz)
		how[0] = '\0';
	if (!cmd)
		return ROLE_UNKNOWN;
	if (shell_disagg_mode(cmd, w, sizeof(w))) {
		enum svc_role r = role_word(w);
		bool modern = strstr(cmd, "--disaggregation-mode") != NULL;
		if (r == ROLE_PREFILL || r == ROLE_DECODE) {
			/* Name the flag the command really uses: older vLLM
			 * workers say --is-prefill-worker. */
			if (modern)
				snprintf(how, howsz, "--disaggregation-mode %s", w);
			else
				snprintf(how, howsz, "--is-prefill-worker");
			return r;
		}
		if (!strcmp(w, "encode")) {
			snprintf(how, howsz, "--disaggregation-mode encode");
			return ROLE_OTHER;
		}
	}
	/* TRT-LLM's own server: context = prefill, generation = decode. */
	if (shell_flag_word(cmd, "--server_role", w, sizeof(w)) ||
	    shell_flag_word(cmd, "--server-role", w, sizeof(w))) {
		if (!strcmp(w, "context")) {
			snprintf(how, howsz, "--server_role CONTEXT");
			return ROLE_PREFILL;
		}
		if (!strcmp(w, "generation")) {
			snprintf(how, howsz, "--server_role GENERATION");
			return ROLE_DECODE;
		}
	}
	/* vLLM's producer/consumer connectors name the side in kv_role. */
	const char *kr = strstr(cmd, "kv-transfer-config") || strstr(cmd, "kv_transfer_config")
				 ? kv_role_of(cmd)
				 : NULL;
	if (kr) {
		snprintf(how, howsz, "--kv-transfer-config kv_role %s", kr);
		return !strcmp(kr, "kv_producer") ? ROLE_PREFILL : ROLE_DECODE;
	}
	return ROLE_UNKNOWN;
}

/* Declared type first; a bare "worker" (or nothing) is refined by what the
 * engine is told on its command line, then by the service name. */
static void role_decide(struct sbuild *b, bool allow_name)
{
	struct service *s = b->s;
	struct pctx *pc = b->pc;
	const struct ynode *ct = b->v2_type ? b->v2_type : b->v1_component_type;
	const char *ctw = yscalar(ct);
	const char *key = b->v2_type ? "type" : "componentType";
	const char *sub = yscalar(b->v1_sub_type);

	if (sub && (role_word(sub) == ROLE_PREFILL || role_word(sub) == ROLE_DECODE)) {
		role_set(s, role_word(sub), xasprintf("subComponentType: %s", sub),
			 at(pc, b->v1_sub_type));
		return;
	}
	enum svc_role r = role_word(ctw);
	if (r != ROLE_UNKNOWN && r != ROLE_WORKER) {
		role_set(s, r, xasprintf("%s: %s", key, ctw), at(pc, ct));
		return;
	}
	/* The operator's labels on a rendered pod template (Grove cliques,
	 * LWS): what the DGD declared. */
	const struct kv *lab = kv_list_find(&s->labels, "nvidia.com/dynamo-sub-component-type");
	if (lab &&
	    (role_word(lab->value) == ROLE_PREFILL || role_word(lab->value) == ROLE_DECODE)) {
		role_set(s, role_word(lab->value),
			 xasprintf("label nvidia.com/dynamo-sub-component-type=%s", lab->value),
			 lab->loc);
		return;
	}
	char how[96];
	enum svc_role mr = manifest_role_from_command(s->command_line, how, sizeof(how));
	if (mr == ROLE_PREFILL || mr == ROLE_DECODE || mr == ROLE_OTHER) {
		role_set(s, mr, xstrdup(how), s->command_loc);
		return;
	}
	/* A role label of the project that deploys the pair (llm-d.ai/role),
	 * then the role name of a workload CRD (AIBrix roles[].name). */
	const char *eq = s->role_label ? strchr(s->role_label, '=') : NULL;
	if (eq && (role_word(eq + 1) == ROLE_PREFILL || role_word(eq + 1) == ROLE_DECODE)) {
		role_set(s, role_word(eq + 1), xasprintf("label %s", s->role_label),
			 b->role_label_loc);
		return;
	}
	if (b->crd_role &&
	    (role_word(b->crd_role) == ROLE_PREFILL || role_word(b->crd_role) == ROLE_DECODE)) {
		role_set(s, role_word(b->crd_role), xasprintf("role %s", b->crd_role),
			 b->crd_role_loc);
		return;
	}
	lab = kv_list_find(&s->labels, "nvidia.com/dynamo-component-type");
	if (!ct && lab) {
		enum svc_role lr = role_word(lab->value);
		role_set(s, lr == ROLE_UNKNOWN ? ROLE_OTHER : lr,
			 xasprintf("label nvidia.com/dynamo-component-type=%s", lab->value),
			 lab->loc);
		return;
	}
	if (allow_name && (r == ROLE_WORKER || ctw == NULL)) {
		if (name_has(s->name, "prefill")) {
			role_set(s, ROLE_PREFILL, xasprintf("service name %s", s->name), s->loc);
			return;
		}
		if (name_has(s->name, "decode")) {
			role_set(s, ROLE_DECODE, xasprintf("service name %s", s->name), s->loc);
			return;
		}
	}
	if (r == ROLE_WORKER) {
		role_set(s, ROLE_WORKER, xasprintf("%s: %s", key, ctw), at(pc, ct));
		return;
	}
	if (allow_name && strcmp(b->dep->kind, "DynamoGraphDeployment") == 0 &&
	    name_has(s->name, "frontend")) {
		role_set(s, ROLE_FRONTEND, xasprintf("service name %s", s->name), s->loc);
		return;
	}
	role_set(s, ROLE_UNKNOWN, xstrdup("not declared"), s->loc);
}

/* ---- services ---- */

static struct service *svc_new(struct pctx *pc, struct deployment *d, const char *name,
			       const struct ynode *at_node, struct sbuild *b)
{
	if (d->n_svcs >= MANIFEST_MAX_SERVICES) {
		ms_diag(pc->ms, DIAG_WARN, pc->file, at_node ? at_node->line : 0, 0,
			xasprintf("%s: more than 1024 services; the rest ignored", d->name));
		return NULL;
	}
	struct service *s = XPUSH(d->svcs, d->n_svcs, d->cap_svcs);
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->replicas = 1;
	s->node_count = 1;
	s->loc = at(pc, at_node);
	memset(b, 0, sizeof(*b));
	b->pc = pc;
	b->dep = d;
	b->s = s;
	/* s->env holds the service's own entries until the containers are
	 * built: each container starts from the deployment-wide entries, then
	 * these (containers_finish). */
	return s;
}

/* The word after FLAG ("--model X", "--model=X", "serve X"), as written,
 * or NULL; a following flag is no value. */
static char *model_word(const char *cmd, const char *flag)
{
	size_t fl = strlen(flag);
	for (const char *p = cmd ? strstr(cmd, flag) : NULL; p; p = strstr(p + 1, flag)) {
		const char *q = p + fl;
		if (*q != '=' && *q != ' ' && *q != '\t')
			continue;
		while (*q == '=' || *q == ' ' || *q == '\t' || *q == '"' || *q == '\'')
			q++;
		size_t n = 0;
		while (q[n] && !strchr(" \t\n\"'\\", q[n]) && n < 200)
			n++;
		if (n && q[0] != '-')
			return xstrndup(q, n);
	}
	return NULL;
}

static void svc_finish(struct sbuild *b)
{
	struct service *s = b->s;
	containers_finish(b);
	const struct kv *g = kv_list_find(&s->resources, "gpu");
	if (!g)
		g = kv_list_find(&s->resources, "nvidia.com/gpu");
	if (g) {
		s->gpus = parse_long(g->value, 0);
		s->gpus_loc = g->loc;
	}
	/* The model served: grouping KV endpoints of one model in a namespace. */
	static const char *const mflags[] = {"--model", "--model-path", "--model_path",
					     " serve",  "trtllm-serve", NULL};
	for (size_t i = 0; !s->model && mflags[i]; i++)
		s->model = model_word(s->command_line, mflags[i]);
}

static void scalar_long(struct pctx *pc, const struct ynode *n, long *dst, struct src_loc *loc)
{
	if (!yscalar(n))
		return;
	*dst = parse_long(yscalar(n), *dst);
	*loc = at(pc, n);
}

/* What a DGD service declared about its role, kept until every service of
 * the deployment is built (the name rule needs to see the others). */
struct role_in {
	const struct ynode *v1_component_type, *v1_sub_type, *v2_type;
};

struct dgd_ctx {
	struct pctx *pc;
	struct deployment *d;
	struct role_in *roles;
	size_t n_roles, cap_roles;
};

static void role_remember(struct dgd_ctx *dc, const struct sbuild *b)
{
	struct role_in *r = XPUSH(dc->roles, dc->n_roles, dc->cap_roles);
	r->v1_component_type = b->v1_component_type;
	r->v1_sub_type = b->v1_sub_type;
	r->v2_type = b->v2_type;
}

static bool by_name(const struct service *s)
{
	return s->role_source && strncmp(s->role_source, "service name", 12) == 0;
}

/*
 * A name such as "VllmDecodeWorker" means decode only when the deployment
 * also has a prefill side: Dynamo's aggregated vLLM examples name their one
 * worker that way.  So roles are decided for all services first, and a
 * name-only prefill/decode without its counterpart falls back to what was
 * declared.
 */
static void dgd_roles(struct dgd_ctx *dc)
{
	struct deployment *d = dc->d;
	for (size_t i = 0; i < d->n_svcs && i < dc->n_roles; i++) {
		struct sbuild b = {.pc = dc->pc,
				   .dep = d,
				   .s = &d->svcs[i],
				   .v1_component_type = dc->roles[i].v1_component_type,
				   .v1_sub_type = dc->roles[i].v1_sub_type,
				   .v2_type = dc->roles[i].v2_type};
		role_decide(&b, true);
	}
	bool prefill = false, decode = false;
	for (size_t i = 0; i < d->n_svcs; i++) {
		prefill |= d->svcs[i].role == ROLE_PREFILL;
		decode |= d->svcs[i].role == ROLE_DECODE;
	}
	for (size_t i = 0; i < d->n_svcs && i < dc->n_roles; i++) {
		struct service *s = &d->svcs[i];
		if (!by_name(s) || (s->role == ROLE_PREFILL && decode) ||
		    (s->role == ROLE_DECODE && prefill) ||
		    (s->role != ROLE_PREFILL && s->role != ROLE_DECODE))
			continue;
		struct sbuild b = {.pc = dc->pc,
				   .dep = d,
				   .s = s,
				   .v1_component_type = dc->roles[i].v1_component_type,
				   .v1_sub_type = dc->roles[i].v1_sub_type,
				   .v2_type = dc->roles[i].v2_type};
		role_decide(&b, false);
	}
	free(dc->roles);
	dc->roles = NULL;
	dc->n_roles = dc->cap_roles = 0;
}

/* v1alpha1: spec.services.<Name> */
static bool on_v1_service(void *vctx, const struct ynode *k, const struct ynode *v)
{
	struct dgd_ctx *dc = vctx;
	struct pctx *pc = dc->pc;
	struct sbuild b;
	if (!yscalar(k) || !yis_map(v))
		return true;
	struct service *s = svc_new(pc, dc->d, yscalar(k), k, &b);
	if (!s)
		return false;
	b.v1_component_type = ymap_get(v, "componentType");
	b.v1_sub_type = ymap_get(v, "subComponentType");
	env_apply(pc, &s->env, ymap_get(v, "envs"), ENV_SERVICE);
	const char *efs = ymap_str(v, "envFromSecret");
	if (efs)
		kv_list_add(&s->env_from, "secret", efs, at(pc, ymap_get(v, "envFromSecret")));
	scalar_long(pc, ymap_get(v, "replicas"), &s->replicas, &s->replicas_loc);
	scalar_long(pc, YPATH(v, "multinode", "nodeCount"), &s->node_count, &s->node_count_loc);
	const struct ynode *shm = ymap_get(v, "sharedMemory");
	if (yscalar(ymap_get(shm, "size")) && !ytrue(ymap_get(shm, "disabled"))) {
		s->shm_size = xstrdup(ymap_str(shm, "size"));
		s->shm_loc = at(pc, ymap_get(shm, "size"));
	}
	resources_apply(pc, s, ymap_get(v, "resources"), true);
	pod_meta(&b, ymap_get(v, "extraPodMetadata"));
	const struct ynode *eps = ymap_get(v, "extraPodSpec");
	podspec_apply(&b, eps);
	/* extraPodSpec is a PodSpec plus mainContainer: its containers[] are
	 * extra containers beside main, its initContainers[] init containers
	 * and native sidecars. */
	const struct ynode *mc = ymap_get(eps, "mainContainer");
	b.src[b.n_src++] = (struct ctr_src){mc, CTR_MAIN};
	pod_containers(&b, eps, NULL, false);
	svc_finish(&b);
	role_remember(dc, &b);
	return true;
}

/* v1beta1: spec.components[] */
static void v2_component(struct dgd_ctx *dc, const struct ynode *c)
{
	struct pctx *pc = dc->pc;
	struct sbuild b;
	const char *name = ymap_str(c, "name");
	if (!yis_map(c))
		return;
	struct service *s = svc_new(pc, dc->d, name ? name : "<unnamed>", c, &b);
	if (!s)
		return;
	b.v2_type = ymap_get(c, "type");
	env_apply(pc, &s->env, ymap_get(c, "envs"), ENV_SERVICE);
	env_apply(pc, &s->env, ymap_get(c, "env"), ENV_SERVICE);
	const char *efs = ymap_str(c, "envFromSecret");
	if (efs)
		kv_list_add(&s->env_from, "secret", efs, at(pc, ymap_get(c, "envFromSecret")));
	scalar_long(pc, ymap_get(c, "replicas"), &s->replicas, &s->replicas_loc);
	scalar_long(pc, YPATH(c, "multinode", "nodeCount"), &s->node_count, &s->node_count_loc);
	const struct ynode *shm = ymap_get(c, "sharedMemorySize");
	if (!yscalar(shm))
		shm = YPATH(c, "sharedMemory", "size");
	if (yscalar(shm)) {
		s->shm_size = xstrdup(yscalar(shm));
		s->shm_loc = at(pc, shm);
	}
	resources_apply(pc, s, ymap_get(c, "resources"), true);
	const struct ynode *ps = YPATH(c, "podTemplate", "spec");
	pod_meta(&b, YPATH(c, "podTemplate", "metadata"));
	podspec_apply(&b, ps);
	pod_containers(&b, ps, main_container(ps), false);
	svc_finish(&b);
	role_remember(dc, &b);
}

static struct deployment *dep_new(struct pctx *pc, const struct ynode *root, const char *kind,
				  int doc_index)
{
	struct manifest_set *ms = pc->ms;
	struct deployment *d = XPUSH(ms->deps, ms->n_deps, ms->cap_deps);
	memset(d, 0, sizeof(*d));
	const char *name =
		YPATH(root, "metadata", "name") ? yscalar(YPATH(root, "metadata", "name")) : NULL;
	d->name = xstrdup(name ? name : "<unnamed>");
	d->kind = xstrdup(kind);
	const char *api = ymap_str(root, "apiVersion");
	d->api_version = api ? xstrdup(api) : NULL;
	d->loc = at(pc, root);
	d->doc_index = doc_index;
	const char *ns = yscalar(YPATH(root, "metadata", "namespace"));
	d->ns = ns ? xstrdup(ns) : NULL;
	return d;
}

static void build_dgd(struct pctx *pc, const struct ynode *root, int doc_index)
{
	struct deployment *d = dep_new(pc, root, "DynamoGraphDeployment", doc_index);
	const struct ynode *spec = ymap_get(root, "spec");
	const char *fw = ymap_str(spec, "backendFramework");
	d->framework = fw ? xstrdup(fw) : NULL;
	env_apply(pc, &d->env, ymap_get(spec, "envs"), ENV_DEPLOYMENT);
	env_apply(pc, &d->env, ymap_get(spec, "env"), ENV_DEPLOYMENT);
	struct dgd_ctx dc = {.pc = pc, .d = d};
	/* Structure decides, not apiVersion: a v1alpha1 file edited by hand to
	 * v1beta1 (or the reverse) still says what it means. */
	const struct ynode *svcs = ymap_get(spec, "services");
	if (yis_map(svcs))
		ymap_each(svcs, on_v1_service, &dc);
	const struct ynode *comps = ymap_get(spec, "components");
	if (yis_seq(comps))
		for (size_t i = 0; i < comps->n; i++)
			v2_component(&dc, comps->u.kids[i]);
	dgd_roles(&dc);
}

static bool on_label(void *vctx, const struct ynode *k, const struct ynode *v)
{
	struct sbuild *b = vctx;
	if (yscalar(k) && yscalar(v) && !strncmp(yscalar(k), "nvidia.com/dynamo-", 18))
		kv_list_set(&b->s->labels, yscalar(k), yscalar(v), at(b->pc, v));
	else if (yscalar(k) && yscalar(v) && k8s_role_label(yscalar(k)) && !b->s->role_label) {
		b->s->role_label = xasprintf("%s=%s", yscalar(k), yscalar(v));
		b->role_label_loc = at(b->pc, v);
	}
	return true;
}

#define MAX_ANNOTATIONS 64 /* per pod template */

static bool on_annotation(void *vctx, const struct ynode *k, const struct ynode *v)
{
	struct sbuild *b = vctx;
	if (b->s->annotations.n >= MAX_ANNOTATIONS)
		return false;
	if (yscalar(k) && yscalar(v))
		kv_list_set(&b->s->annotations, yscalar(k), yscalar(v), at(b->pc, v));
	return true;
}

/* A pod template's metadata: the labels and annotations the model reads. */
static void pod_meta(struct sbuild *b, const struct ynode *meta)
{
	ymap_each(ymap_get(meta, "labels"), on_label, b);
	ymap_each(ymap_get(meta, "annotations"), on_annotation, b);
}

/* Multi-node flags of an engine that a plain workload runs: its pods form
 * one engine over N nodes (vLLM/SGLang --nnodes, TRT-LLM through mpirun is
 * not visible here). */
static void nodes_from_flags(struct service *s)
{
	static const char *const flags[] = {"--nnodes", "--num-nodes", "--num_nodes", NULL};
	char w[32];
	/* A Ray node (rules/engines.c): `ray start --address` joins a head,
	 * `ray start --head` starts the cluster an engine then spans; the pods
	 * that run them are one engine over at least two nodes. */
	bool head = false;
	if (engine_ray_start(s->command_line, &head) && s->node_count < 2) {
		s->node_count = 2;
		s->node_count_loc = s->command_loc;
		free(s->nodes_how);
		s->nodes_how = xstrdup(head ? "ray start --head (a Ray cluster: one engine over "
					      "nodes)"
					    : "ray start --address (joins a Ray head: one engine "
					      "over nodes)");
		return;
	}
	for (size_t i = 0; flags[i]; i++) {
		if (!shell_flag_word(s->command_line, flags[i], w, sizeof(w)))
			continue;
		long n = parse_long(w, 0);
		if (n > 1 && n > s->node_count) {
			s->node_count = n;
			s->node_count_loc = s->command_loc;
			free(s->nodes_how);
			s->nodes_how = xasprintf("%s %ld", flags[i], n);
		}
		return;
	}
}

/* Plain pod spec: one service per pod template, its containers read as a
 * DGD worker's are (the engine container decides the name). */
static void pod_services(struct pctx *pc, struct deployment *d, const struct ynode *ps,
			 const struct ynode *meta, const struct ynode *replicas, long node_count,
			 const char *svc_name)
{
	const struct ynode *cs = ymap_get(ps, "containers");
	if (!yis_seq(cs) || !cs->n)
		return;
	struct sbuild b;
	struct service *s = svc_new(pc, d, svc_name ? svc_name : d->name, cs->u.kids[0], &b);
	if (!s)
		return;
	scalar_long(pc, replicas, &s->replicas, &s->replicas_loc);
	s->node_count = node_count;
	b.crd_role = pc->crd_role;
	b.crd_role_loc = pc->crd_role_loc;
	pod_meta(&b, meta);
	podspec_apply(&b, ps);
	pod_containers(&b, ps, NULL, true);
	svc_finish(&b);
	if (!svc_name && s->n_ctrs) {
		const struct container *e = &s->ctrs[s->engine_ctr];
		free(s->name);
		s->name = xasprintf("%s/%s", d->name, e->name ? e->name : "container");
		s->loc = e->loc;
		/* the name already says which container runs the engine */
		free(s->label);
		s->label = NULL;
	}
	nodes_from_flags(s);
	role_decide(&b, false);
}

static void build_lws(struct pctx *pc, const struct ynode *root, int doc_index)
{
	struct deployment *d = dep_new(pc, root, "LeaderWorkerSet", doc_index);
	const struct ynode *spec = ymap_get(root, "spec");
	const struct ynode *lwt = ymap_get(spec, "leaderWorkerTemplate");
	long size = parse_long(ymap_str(lwt, "size"), 1);
	const struct ynode *leader = YPATH(lwt, "leaderTemplate", "spec");
	const struct ynode *worker = YPATH(lwt, "workerTemplate", "spec");
	size_t before = d->n_svcs;
	if (leader) {
		char *n = xasprintf("%s/leader", d->name);
		pod_services(pc, d, leader, YPATH(lwt, "leaderTemplate", "metadata"),
			     ymap_get(spec, "replicas"), size, n);
		free(n);
	}
	if (worker) {
		char *n = xasprintf("%s/worker", d->name);
		pod_services(pc, d, worker, YPATH(lwt, "workerTemplate", "metadata"),
			     ymap_get(spec, "replicas"), size, n);
		free(n);
	}
	for (size_t i = before; i < d->n_svcs; i++) {
		struct service *s = &d->svcs[i];
		d->operator_rendered |= s->labels.n > 0; /* the operator's labels */
		if (YPATH(lwt, "size"))
			s->node_count_loc = at(pc, YPATH(lwt, "size"));
		/* one group of size pods is one engine: the Dynamo operator
		 * renders a worker's multinode.nodeCount as its group size */
		if (size > 1 && s->node_count == size && !s->nodes_how)
			s->nodes_how = xasprintf("LeaderWorkerSet size %ld", size);
	}
}

static void build_configmap(struct pctx *pc, const struct ynode *root)
{
	struct manifest_set *ms = pc->ms;
	struct configmap *cm = XPUSH(ms->cms, ms->n_cms, ms->cap_cms);
	memset(cm, 0, sizeof(*cm));
	const char *name = yscalar(YPATH(root, "metadata", "name"));
	cm->name = xstrdup(name ? name : "<unnamed>");
	cm->loc = at(pc, root);
	const struct ynode *data = ymap_get(root, "data");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	if (yis_map(data)) {
		for (size_t i = 0; i + 1 < data->n; i += 2) {
			const char *k = yscalar(data->u.kids[i]);
			const char *v = yscalar(data->u.kids[i + 1]);
			if (!k || !v)
				continue;
			kv_list_set(&cm->data, k, v, at(pc, data->u.kids[i + 1]));
			size_t n = strlen(v);
			if (len + n + 2 > cap) {
				cap = (len + n + 2) * 2;
				buf = xrealloc(buf, cap);
			}
			memcpy(buf + len, v, n);
			len += n;
			buf[len++] = '\n';
			buf[len] = '\0';
		}
	}
	cm->text = buf ? buf : xstrdup("");
}

/* ---- DRA: resource claim templates ---- */

static void claim_template_add(struct pctx *pc, const char *name, const char *classes, bool cd,
			       const struct ynode *at_node)
{
	struct manifest_set *ms = pc->ms;
	if (ms->n_claims >= MANIFEST_MAX_SERVICES)
		return;
	struct claim_template *t = XPUSH(ms->claims, ms->n_claims, ms->cap_claims);
	t->name = xstrdup(name);
	t->classes = xstrdup(classes);
	t->compute_domain = cd;
	t->loc = at(pc, at_node);
}

static void class_append(char **buf, const char *cls)
{
	if (!cls)
		return;
	char *n = *buf ? xasprintf("%s,%s", *buf, cls) : xstrdup(cls);
	free(*buf);
	*buf = n;
}

/* spec.spec.devices.requests[]: deviceClassName directly (v1beta1) or under
 * exactly: / firstAvailable[] (resource.k8s.io/v1). */
static void build_claim_template(struct pctx *pc, const struct ynode *root)
{
	const char *name = yscalar(YPATH(root, "metadata", "name"));
	const struct ynode *reqs = YPATH(root, "spec", "spec", "devices", "requests");
	if (!name)
		return;
	char *classes = NULL;
	for (size_t i = 0; yis_seq(reqs) && i < reqs->n && i < 64; i++) {
		const struct ynode *r = reqs->u.kids[i];
		class_append(&classes, ymap_str(r, "deviceClassName"));
		class_append(&classes, ymap_str(ymap_get(r, "exactly"), "deviceClassName"));
		const struct ynode *fa = ymap_get(r, "firstAvailable");
		for (size_t j = 0; yis_seq(fa) && j < fa->n && j < 16; j++)
			class_append(&classes, ymap_str(fa->u.kids[j], "deviceClassName"));
	}
	claim_template_add(pc, name, classes ? classes : "", false, root);
	free(classes);
}

/* ---- Grove PodCliqueSet (what the operator renders a DGD into) ---- */

static bool on_clique_label(void *vctx, const struct ynode *k, const struct ynode *v)
{
	return on_label(vctx, k, v);
}

static void build_pcs(struct pctx *pc, const struct ynode *root, int doc_index)
{
	struct deployment *d = dep_new(pc, root, "PodCliqueSet", doc_index);
	d->operator_rendered = true;
	const struct ynode *tmpl = YPATH(root, "spec", "template");
	const struct ynode *cliques = ymap_get(tmpl, "cliques");
	if (!yis_seq(cliques))
		return;
	/* A scaling group (leader + workers of one multi-node engine) spans
	 * as many nodes as its cliques have pods. */
	const struct ynode *groups = ymap_get(tmpl, "podCliqueScalingGroups");
	for (size_t i = 0; i < cliques->n; i++) {
		const struct ynode *c = cliques->u.kids[i];
		const struct ynode *cs = ymap_get(c, "spec");
		const struct ynode *ps = ymap_get(cs, "podSpec");
		const char *cn = ymap_str(c, "name");
		if (!yis_map(ps))
			continue;
		struct sbuild b;
		char *name = xasprintf("%s/%s", d->name, cn ? cn : "clique");
		struct service *s = svc_new(pc, d, name, c, &b);
		free(name);
		if (!s)
			return;
		scalar_long(pc, ymap_get(cs, "replicas"), &s->replicas, &s->replicas_loc);
		ymap_each(ymap_get(c, "labels"), on_clique_label, &b);
		ymap_each(ymap_get(cs, "labels"), on_clique_label, &b);
		podspec_apply(&b, ps);
		pod_containers(&b, ps, main_container(ps), false);
		svc_finish(&b);
		long nodes = 0;
		for (size_t g = 0; yis_seq(groups) && g < groups->n; g++) {
			const struct ynode *names = ymap_get(groups->u.kids[g], "cliqueNames");
			bool member = false;
			for (size_t k = 0; yis_seq(names) && k < names->n; k++)
				member |= cn && yscalar(names->u.kids[k]) &&
					  !strcmp(yscalar(names->u.kids[k]), cn);
			for (size_t k = 0; member && yis_seq(names) && k < names->n; k++)
				for (size_t j = 0; j < cliques->n; j++) {
					const char *o = ymap_str(cliques->u.kids[j], "name");
					if (o && yscalar(names->u.kids[k]) &&
					    !strcmp(o, yscalar(names->u.kids[k])))
						nodes += parse_long(
							ymap_str(YPATH(cliques->u.kids[j], "spec"),
								 "replicas"),
							1);
				}
		}
		if (nodes > 1) {
			s->node_count = nodes;
			s->nodes_how = xasprintf("podCliqueScalingGroup of %ld pods", nodes);
		}
		nodes_from_flags(s);
		role_decide(&b, false);
	}
}

/*
 * A workload CRD the model has no schema for (AIBrix StormService, llm-d
 * ModelService, KubeRay RayService, ...): any map holding containers[] is
 * a pod spec, read as a plain pod's.  The role comes from the CRD's own
 * naming: the "name" of the list item that holds the template (AIBrix
 * roles[].name, rules/k8s.c) or a prefill/decode key above it (llm-d
 * ModelService spec.prefill).  Depth and templates are capped.
 */
#define GENERIC_MAX_DEPTH 12

static void generic_walk(struct pctx *pc, struct deployment *d, const struct ynode *n,
			 const struct ynode *meta, const struct ynode *role,
			 const struct ynode *group, int depth)
{
	if (!n || depth > GENERIC_MAX_DEPTH || d->n_svcs >= MANIFEST_MAX_SERVICES)
		return;
	if (yis_seq(n)) {
		for (size_t i = 0; i < n->n; i++)
			generic_walk(pc, d, n->u.kids[i], meta, role, group, depth + 1);
		return;
	}
	if (!yis_map(n))
		return;
	const struct ynode *cs = ymap_get(n, "containers");
	if (yis_seq(cs) && cs->n && yis_map(cs->u.kids[0])) {
		const char *rw = yscalar(role);
		char *name = rw ? xasprintf("%s/%s", d->name, rw) : NULL;
		pc->crd_role = rw;
		pc->crd_role_loc = at(pc, role);
		size_t before = d->n_svcs;
		long size = group ? parse_long(yscalar(group), 1) : 1;
		pod_services(pc, d, n, meta, ymap_get(n, "replicas"), size > 1 ? size : 1, name);
		for (size_t i = before; size > 1 && i < d->n_svcs; i++) {
			struct service *s = &d->svcs[i];
			s->node_count_loc = at(pc, group);
			if (s->node_count == size && !s->nodes_how)
				s->nodes_how = xasprintf("leader/worker group of %ld pods", size);
		}
		pc->crd_role = NULL;
		free(name);
		return;
	}
	/* a list item's name (roles[].name, groupName) names what is below */
	const struct ynode *own = ymap_get(n, "name");
	if (!yscalar(own))
		own = ymap_get(n, "groupName");
	if (yscalar(own))
		role = own;
	for (size_t i = 0; i + 1 < n->n; i += 2) {
		const struct ynode *k = n->u.kids[i], *v = n->u.kids[i + 1];
		const char *key = yscalar(k);
		if (!key || !strcmp(key, "metadata") || !strcmp(key, "status") ||
		    k8s_sidecar_patch_key(key))
			continue;
		const struct ynode *r = role;
		if (!strcasecmp(key, "prefill") || !strcasecmp(key, "decode"))
			r = k;
		const struct ynode *g = group;
		if (k8s_group_size_key(key) && yscalar(ymap_get(v, "size")))
			g = ymap_get(v, "size");
		generic_walk(pc, d, v, !strcmp(key, "spec") ? ymap_get(n, "metadata") : meta, r, g,
			     depth + 1);
	}
}

static void build_generic(struct pctx *pc, const struct ynode *root, const char *kind,
			  int doc_index)
{
	const struct ynode *spec = ymap_get(root, "spec");
	if (!yis_map(spec))
		return;
	struct deployment *d = dep_new(pc, root, kind, doc_index);
	d->generic = true;
	generic_walk(pc, d, spec, NULL, NULL, NULL, 0);
	if (!d->n_svcs) {
		/* not a workload after all: drop it */
		struct manifest_set *ms = pc->ms;
		free(d->name);
		free(d->kind);
		free(d->api_version);
		free(d->ns);
		free(d->svcs);
		ms->n_deps--;
	}
}

static void build_nad(struct pctx *pc, const struct ynode *root)
{
	const char *name = yscalar(YPATH(root, "metadata", "name"));
	const struct ynode *cfg = YPATH(root, "spec", "config");
	if (name)
		kv_list_set(&pc->ms->nads, name, yscalar(cfg) ? yscalar(cfg) : "", at(pc, root));
}

static size_t dir_len(const char *path);

/* DIR/REF with "." and ".." segments folded ("a/b/overlays/x" + "../../base"
 * -> "a/b/base"); a ".." above DIR's start is kept. */
static char *path_join_norm(const char *dir, size_t dl, const char *ref)
{
	char *joined = dl ? xasprintf("%.*s/%s", (int)dl, dir, ref) : xstrdup(ref);
	size_t n = strlen(joined);
	char *out = xmalloc(n + 1);
	size_t o = 0;
	for (const char *p = joined; *p;) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 0 || (len == 1 && p[0] == '.')) {
			/* skip "" and "." */
		} else if (len == 2 && p[0] == '.' && p[1] == '.' && o &&
			   !(o >= 2 && out[o - 1] == '.' && out[o - 2] == '.')) {
			while (o && out[o - 1] != '/')
				o--;
			if (o)
				o--;
		} else {
			if (o || joined[0] == '/')
				out[o++] = '/';
			memcpy(out + o, p, len);
			o += len;
		}
		p += len;
		if (*p == '/')
			p++;
	}
	out[o] = '\0';
	free(joined);
	return out;
}

/* A Kustomization: the folders it lists as resources (bases) and the
 * Components it applies complete into what this folder renders. */
static void build_kustomization(struct pctx *pc, const struct ynode *root)
{
	size_t dl = dir_len(pc->file);
	static const char *const keys[] = {"resources", "bases", "components", NULL};
	for (size_t k = 0; keys[k]; k++) {
		const struct ynode *seq = ymap_get(root, keys[k]);
		for (size_t i = 0; yis_seq(seq) && i < seq->n && i < 64; i++) {
			const char *ref = yscalar(seq->u.kids[i]);
			size_t rl = ref ? strlen(ref) : 0;
			/* a file (deploy.yaml) or a remote URL is not a base folder */
			if (!rl || strstr(ref, "://") ||
			    (rl > 5 && !strcmp(ref + rl - 5, ".yaml")) ||
			    (rl > 4 && !strcmp(ref + rl - 4, ".yml")))
				continue;
			char *base = path_join_norm(pc->file, dl, ref);
			char *self = dl ? xasprintf("%.*s", (int)dl, pc->file) : xstrdup(".");
			/* one row per (base, overlay): a base of five overlays is
			 * rendered by each */
			bool dup = false;
			for (size_t j = 0; j < pc->ms->kbases.n && !dup; j++)
				dup = !strcmp(pc->ms->kbases.v[j].key, base) &&
				      !strcmp(pc->ms->kbases.v[j].value, self);
			if (!dup && pc->ms->kbases.n < MANIFEST_MAX_KBASES)
				kv_list_add(&pc->ms->kbases, base, self, at(pc, seq->u.kids[i]));
			free(base);
			free(self);
		}
	}
}

static const char *const pod_template_kinds[] = {
	"Deployment", "StatefulSet",           "DaemonSet",   "ReplicaSet",
	"Job",        "ReplicationController", "PodTemplate", NULL,
};

static void build_object(struct pctx *pc, const struct ynode *root, int doc_index, int depth)
{
	const char *kind = ymap_str(root, "kind");
	if (!kind) {
		/* a Kustomization needs no kind: its file name says what it is */
		const char *slash = pc->file ? strrchr(pc->file, '/') : NULL;
		if (depth == 0 && k8s_kustomization_file(slash ? slash + 1 : pc->file))
			build_kustomization(pc, root);
		return;
	}
	const struct ynode *spec = ymap_get(root, "spec");
	if (strcmp(kind, "DynamoGraphDeployment") == 0) {
		build_dgd(pc, root, doc_index);
	} else if (strcmp(kind, "ComputeDomain") == 0) {
		pc->ms->n_compute_domains++;
		pc->compute_domain = true;
		/* The channel template it creates is what workers claim. */
		const struct ynode *t = YPATH(spec, "channel", "resourceClaimTemplate", "name");
		if (yscalar(t))
			claim_template_add(pc, yscalar(t),
					   "compute-domain-default-channel.nvidia.com", true, t);
	} else if (strcmp(kind, "ResourceClaimTemplate") == 0) {
		build_claim_template(pc, root);
	} else if (strcmp(kind, "PodCliqueSet") == 0) {
		build_pcs(pc, root, doc_index);
	} else if (strcmp(kind, "ConfigMap") == 0) {
		build_configmap(pc, root);
	} else if (strcmp(kind, "Kustomization") == 0) {
		build_kustomization(pc, root);
	} else if (strcmp(kind, "LeaderWorkerSet") == 0) {
		build_lws(pc, root, doc_index);
	} else if (strcmp(kind, "List") == 0 || strcmp(kind, "DynamoGraphDeploymentList") == 0) {
		const struct ynode *items = ymap_get(root, "items");
		if (yis_seq(items) && depth == 0)
			for (size_t i = 0; i < items->n; i++)
				build_object(pc, items->u.kids[i], doc_index, depth + 1);
	} else {
		const struct ynode *ps = NULL, *replicas = NULL;
		if (strcmp(kind, "Pod") == 0) {
			ps = spec;
		} else if (strcmp(kind, "CronJob") == 0) {
			ps = YPATH(spec, "jobTemplate", "spec", "template", "spec");
		} else {
			for (size_t i = 0; pod_template_kinds[i]; i++)
				if (strcmp(kind, pod_template_kinds[i]) == 0)
					ps = YPATH(strcmp(kind, "PodTemplate") == 0 ? root : spec,
						   "template", "spec");
			/* Any other kind with a pod template (Argo Rollout, ...). */
			if (!ps && yis_seq(YPATH(spec, "template", "spec", "containers")))
				ps = YPATH(spec, "template", "spec");
			replicas = ymap_get(spec, "replicas");
			if (strcmp(kind, "Job") == 0)
				replicas = ymap_get(spec, "parallelism");
		}
		if (!yis_map(ps)) {
			if (!strcmp(kind, k8s_nad_kind))
				build_nad(pc, root);
			else if (strcmp(kind, "Pod") && strcmp(kind, "CronJob"))
				build_generic(pc, root, kind, doc_index);
			return;
		}
		struct deployment *d = dep_new(pc, root, kind, doc_index);
		const struct ynode *meta =
			strcmp(kind, "Pod") == 0 ? ymap_get(root, "metadata") : NULL;
		if (!meta && ps) {
			/* the template's metadata sits beside its spec */
			const struct ynode *tp =
				strcmp(kind, "CronJob") == 0
					? YPATH(spec, "jobTemplate", "spec", "template")
					: YPATH(strcmp(kind, "PodTemplate") == 0 ? root : spec,
						"template");
			meta = ymap_get(tp, "metadata");
		}
		pod_services(pc, d, ps, meta, replicas, 1, NULL);
		d->operator_rendered = d->n_svcs && d->svcs[0].labels.n;
	}
}

static void on_doc(void *vctx, const struct ynode *root, int doc_index)
{
	struct pctx *pc = vctx;
	if (yscalar(root) || yis_map(root) || yis_seq(root))
		pc->docs++;
	if (yis_map(root))
		build_object(pc, root, doc_index, 0);
}

/* ---- envFrom: configMapRef and configMapKeyRef from ConfigMaps in the input ---- */

static size_t dir_len(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	return slash ? (size_t)(slash - path) : 0;
}

static bool cm_visible(const struct configmap *cm, const char *file, bool same_file)
{
	const char *cf = cm->loc.file;
	if (!cf || !file)
		return false;
	if (cf == file || strcmp(cf, file) == 0)
		return true;
	if (same_file)
		return false;
	size_t a = dir_len(cf), b = dir_len(file);
	return a == b && strncmp(cf, file, a) == 0;
}

static const struct configmap *cm_find(const struct manifest_set *ms, const char *name,
				       const char *file, bool same_file)
{
	/* A file's own pass sees only its ConfigMaps, the tail of ms->cms
	 * (appended while it was parsed): scanning them all made the
	 * per-file passes cost files x ConfigMaps. */
	size_t from = 0;
	if (same_file) {
		from = ms->n_cms;
		while (from > 0 && ms->cms[from - 1].loc.file == file)
			from--;
	}
	for (size_t i = from; i < ms->n_cms; i++)
		if (strcmp(ms->cms[i].name, name) == 0 && cm_visible(&ms->cms[i], file, same_file))
			return &ms->cms[i];
	return NULL;
}

/*
 * Kubernetes gives env[] precedence over envFrom, and a shell assignment
 * runs later still, so a ConfigMap entry is added only where no other
 * source set the name.  Idempotent: safe to run per file and again per
 * folder.
 */
struct cm_budget {
	size_t n, bytes;
};

static void resolve_env(const struct manifest_set *ms, const struct deployment *d,
			struct env_list *env, const struct kv_list *env_from, bool same_file,
			struct cm_budget *bud)
{
	for (size_t k = 0; k < env_from->n; k++) {
		if (strcmp(env_from->v[k].key, "configmap") != 0)
			continue;
		const struct configmap *cm =
			cm_find(ms, env_from->v[k].value, d->loc.file, same_file);
		size_t cm_bytes = cm ? strlen(cm->text) : 0;
		if (cm && (cm->data.n > bud->n || cm_bytes > bud->bytes))
			continue;
		if (cm) {
			bud->n -= cm->data.n;
			bud->bytes -= cm_bytes;
		}
		for (size_t m = 0; cm && m < cm->data.n; m++) {
			const struct kv *e = &cm->data.v[m];
			if (shell_env_name_ok(e->key, strlen(e->key)) &&
			    !env_list_find(env, e->key))
				env_list_set(env, e->key, e->value, NULL, ENV_CONFIGMAP, e->loc);
		}
	}
	/* configMapKeyRef: keep the reference, add the literal. */
	for (size_t k = 0; k < env->n; k++) {
		struct env_var *e = &env->v[k];
		if (e->value || !e->value_from || strncmp(e->value_from, "<configmap ", 11) != 0)
			continue;
		const char *ref = e->value_from + 11;
		const char *slash = strrchr(ref, '/');
		if (!slash)
			continue;
		char *cmname = xstrndup(ref, (size_t)(slash - ref));
		char *key = xstrndup(slash + 1, strlen(slash + 1) - 1);
		const struct configmap *cm = cm_find(ms, cmname, d->loc.file, same_file);
		const struct kv *v = cm ? kv_list_find(&cm->data, key) : NULL;
		if (v && strlen(v->value) < bud->bytes && bud->n) {
			bud->bytes -= strlen(v->value);
			bud->n--;
			e->value = xstrdup(v->value);
		}
		free(cmname);
		free(key);
	}
}

/*
 * Kubernetes gives env[] precedence over envFrom, and a shell assignment
 * runs later still, so a ConfigMap entry is added only where no other
 * source set the name.  Idempotent: safe to run per file and again per
 * folder.  Every container's environment is resolved; the service's is
 * the engine container's (service.ctr_view), else its own.
 */
void manifest_resolve_configmaps(struct manifest_set *ms, size_t first_dep, bool same_file)
{
	struct cm_budget bud = {MANIFEST_MAX_COPIES, MANIFEST_MAX_COPY_BYTES};
	if (!ms->n_cms)
		return;
	for (size_t i = first_dep; i < ms->n_deps; i++) {
		struct deployment *d = &ms->deps[i];
		for (size_t j = 0; j < d->n_svcs; j++) {
			struct service *s = &d->svcs[j];
			if (!s->ctr_view)
				resolve_env(ms, d, &s->env, &s->env_from, same_file, &bud);
			for (size_t c = 0; c < s->n_ctrs; c++)
				resolve_env(ms, d, &s->ctrs[c].env, &s->ctrs[c].env_from, same_file,
					    &bud);
			service_view_sync(s);
		}
	}
}

/* ---- prefill/decode pairs of plain workloads ---- */

static bool plain_workload(const struct deployment *d)
{
	return d->kind && strcmp(d->kind, "DynamoGraphDeployment") &&
	       strcmp(d->kind, "PodCliqueSet") && !d->paired_with;
}

static bool has_role(const struct deployment *d, enum svc_role r)
{
	for (size_t i = 0; i < d->n_svcs; i++)
		if (d->svcs[i].role == r)
			return true;
	return false;
}

/* The model a workload's KV endpoints serve: the first engine's, as its
 * last path component ("Qwen/Qwen3-8B" and "/models/Qwen3-8B" are one
 * model); NULL when none is named or the name is a variable the reader
 * cannot expand ($(MODEL), ${MODEL}). */
static const char *endpoint_model(const struct deployment *d, size_t *len)
{
	for (size_t i = 0; i < d->n_svcs; i++) {
		const char *m = d->svcs[i].model;
		if (!m || (d->svcs[i].role != ROLE_PREFILL && d->svcs[i].role != ROLE_DECODE))
			continue;
		if (strchr(m, '$'))
			return NULL;
		size_t n = strlen(m);
		while (n > 1 && m[n - 1] == '/')
			n--;
		const char *base = m;
		for (size_t k = 0; k + 1 < n; k++)
			if (m[k] == '/')
				base = m + k + 1;
		*len = n - (size_t)(base - m);
		return base;
	}
	return NULL;
}

/*
 * KV endpoints of one model in one namespace form a pair or a set (issue
 * 20): two workloads pair when they share a folder (or a stream), their
 * namespaces do not differ and the models they serve do not differ.  An
 * unnamed namespace or model is the one the other names (kubectl apply -n,
 * a model from a variable), so it never splits a pair.
 */
static bool same_kv_group(const struct deployment *a, const struct deployment *b)
{
	size_t dl = dir_len(a->loc.file);
	if (dir_len(b->loc.file) != dl || (dl && strncmp(a->loc.file, b->loc.file, dl)))
		return false;
	if (a->ns && b->ns && strcmp(a->ns, b->ns))
		return false;
	size_t la = 0, lb = 0;
	const char *ma = endpoint_model(a, &la), *mb = endpoint_model(b, &lb);
	return !ma || !mb || (la == lb && strncasecmp(ma, mb, la) == 0);
}

/*
 * Plain workloads of one KV group (same_kv_group) whose engines are told
 * to be prefill and decode (by their flags: the model never reads a role
 * from a name) are one disaggregated deployment and must be checked as a
 * pair.  Their services move into the first of them; the others keep none
 * and name it in paired_with.
 */
static void pair_workloads(struct manifest_set *ms, size_t first_dep)
{
	for (size_t i = first_dep; i < ms->n_deps; i++) {
		struct deployment *a = &ms->deps[i];
		if (!plain_workload(a) || !(has_role(a, ROLE_PREFILL) || has_role(a, ROLE_DECODE)))
			continue;
		bool pre = has_role(a, ROLE_PREFILL), dec = has_role(a, ROLE_DECODE);
		size_t members = 0;
		for (size_t j = i + 1; j < ms->n_deps; j++) {
			const struct deployment *b = &ms->deps[j];
			if (!plain_workload(b) || !same_kv_group(a, b))
				continue;
			bool bp = has_role(b, ROLE_PREFILL), bd = has_role(b, ROLE_DECODE);
			if (bp || bd) {
				members++;
				pre |= bp;
				dec |= bd;
			}
		}
		if (!members || !pre || !dec)
			continue;
		char *name = xstrdup(a->name);
		for (size_t j = i + 1; j < ms->n_deps; j++) {
			struct deployment *b = &ms->deps[j];
			if (!plain_workload(b) || !same_kv_group(a, b) ||
			    !(has_role(b, ROLE_PREFILL) || has_role(b, ROLE_DECODE)))
				continue;
			for (size_t k = 0; k < b->n_svcs && a->n_svcs < MANIFEST_MAX_SERVICES; k++)
				*XPUSH(a->svcs, a->n_svcs, a->cap_svcs) = b->svcs[k];
			for (size_t k = a->n_svcs < MANIFEST_MAX_SERVICES ? b->n_svcs : 0;
			     k < b->n_svcs; k++)
				service_release(&b->svcs[k]);
			b->n_svcs = 0;
			b->paired_with = xstrdup(a->name);
			char *n2 = xasprintf("%s + %s", name, b->name);
			free(name);
			name = n2;
		}
		free(a->name);
		a->name = name;
	}
}

/* A deployment whose folder a Kustomization of the input lists as a base. */
static void mark_kustomize_bases(struct manifest_set *ms, size_t first_dep)
{
	for (size_t i = first_dep; i < ms->n_deps && ms->kbases.n; i++) {
		struct deployment *d = &ms->deps[i];
		size_t dl = dir_len(d->loc.file);
		if (!dl || d->kustomize_overlay)
			continue;
		for (size_t j = 0; j < ms->kbases.n; j++) {
			const char *b = ms->kbases.v[j].key;
			if (b && strlen(b) == dl && !strncmp(b, d->loc.file, dl)) {
				d->kustomize_overlay = xstrdup(ms->kbases.v[j].value);
				break;
			}
		}
	}
}

size_t manifest_kustomize_overlays(const struct manifest_set *ms, const char **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < ms->kbases.n && n < max; i++) {
		const char *o = ms->kbases.v[i].value;
		bool seen = kv_list_find(&ms->kbases, o) != NULL;
		for (size_t k = 0; k < n && !seen; k++)
			seen = strcmp(out[k], o) == 0;
		if (!seen)
			out[n++] = o;
	}
	return n;
}

void manifest_kustomize_note(struct manifest_set *ms, const char *overlay, const char *outcome)
{
	kv_list_set(&ms->krendered, overlay, outcome, (struct src_loc){0});
}

const char *manifest_kustomize_outcome(const struct manifest_set *ms, const char *overlay)
{
	const struct kv *e = kv_list_find(&ms->krendered, overlay);
	return e ? e->value : NULL;
}

void manifest_finish(struct manifest_set *ms, size_t first_dep)
{
	manifest_resolve_configmaps(ms, first_dep, false);
	pair_workloads(ms, first_dep);
	mark_kustomize_bases(ms, first_dep);
	manifest_compact(ms, first_dep);
}

/* ---- entry ---- */

static bool looks_binary(const char *buf, size_t len)
{
	/* UTF-16/32 text has NULs but starts with a BOM that libyaml reads. */
	if (len >= 2 && (((unsigned char)buf[0] == 0xff && (unsigned char)buf[1] == 0xfe) ||
			 ((unsigned char)buf[0] == 0xfe && (unsigned char)buf[1] == 0xff)))
		return false;
	return memchr(buf, '\0', len) != NULL;
}

void manifest_parse_bytes(struct manifest_set *ms, const char *name, const char *buf, size_t len)
{
	struct pctx pc = {.ms = ms,
			  .file = ms_add_file(ms, name ? name : "<input>"),
			  .first_dep = ms->n_deps};
	if (len > MANIFEST_MAX_FILE_BYTES) {
		ms_diag(ms, DIAG_ERROR, pc.file, 0, 0,
			xasprintf("file too large (%zu bytes, limit %u MiB), skipped", len,
				  MANIFEST_MAX_FILE_BYTES >> 20));
		return;
	}
	if (!buf)
		len = 0;
	if (len && looks_binary(buf, len)) {
		ms_diag(ms, DIAG_ERROR, pc.file, 0, 0,
			xstrdup("not a text/YAML file (binary data), skipped"));
		return;
	}
	struct yerror err;
	if (!ytree_parse(len ? buf : "", len, on_doc, &pc, &err)) {
		ms_diag(ms, DIAG_ERROR, pc.file, err.line, err.col, err.message);
	} else if (pc.docs == 0) {
		ms_diag(ms, DIAG_NOTE, pc.file, 0, 0, xstrdup("empty file: no YAML documents"));
	}
	if (pc.compute_domain)
		for (size_t i = pc.first_dep; i < ms->n_deps; i++)
			ms->deps[i].has_compute_domain = true;
	manifest_resolve_configmaps(ms, pc.first_dep, true);
	manifest_compact(ms, pc.first_dep);
}
