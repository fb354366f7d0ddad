/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kubeconfig, through libyaml's event API with the recipe reader's caps
 * (core/yaml_limits.h): bytes, depth and events as written.  The document
 * loader (yaml_parser_load) built the whole tree first, in time that grew
 * with the square of the nesting (a 128 KB file of nested flow sequences
 * took 67 s); events let the caps stop a file at its 65th level.  Only
 * three paths are read, the first occurrence of each winning:
 *   current-context: NAME
 *   contexts: [{name: NAME, context: {namespace: NS, ...}}, ...]
 * An alias stands for no value (kubeconfigs written by kubectl have none).
 */
#include "parse/kubeconfig.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/xalloc.h"
#include "core/yaml_limits.h"

/* What a node is, for the three paths. */
enum role {
	R_OTHER,
	R_ROOT,
	R_CONTEXTS,
	R_CTX_ITEM,
	R_CTX_BODY
};
/* The key a mapping is at. */
enum key {
	K_NONE,
	K_CURRENT,
	K_CONTEXTS,
	K_NAME,
	K_CONTEXT,
	K_NAMESPACE
};

struct frame {
	bool map;
	bool want_key; /* a mapping: the next node is a key */
	bool in_key;   /* a collection used as a mapping key */
	enum role role;
	enum key key;
};

struct walk {
	struct frame st[YAML_MAX_DEPTH + 1];
	int depth;
	char *name, *ns; /* the context item being read */
	struct kubeconfig *kc;
};

static enum key key_of(enum role r, const char *s)
{
	if (r == R_ROOT && !strcmp(s, "current-context"))
		return K_CURRENT;
	if (r == R_ROOT && !strcmp(s, "contexts"))
		return K_CONTEXTS;
	if (r == R_CTX_ITEM && !strcmp(s, "name"))
		return K_NAME;
	if (r == R_CTX_ITEM && !strcmp(s, "context"))
		return K_CONTEXT;
	if (r == R_CTX_BODY && !strcmp(s, "namespace"))
		return K_NAMESPACE;
	return K_NONE;
}

static void set_once(char **dst, const char *s)
{
	if (!*dst && s && *s)
		*dst = xstrdup(s);
}

/* A scalar (s) or an alias (s NULL) in the top frame's next slot. */
static void leaf(struct walk *w, const char *s)
{
	struct frame *f = &w->st[w->depth];
	if (!f->map || f->in_key)
		return;
	if (f->want_key) {
		f->key = s ? key_of(f->role, s) : K_NONE;
		f->want_key = false;
		return;
	}
	if (f->key == K_CURRENT)
		set_once(&w->kc->current_context, s);
	else if (f->key == K_NAME && s)
		set_once(&w->name, s);
	else if (f->key == K_NAMESPACE && s)
		set_once(&w->ns, s);
	f->want_key = true;
}

/* A mapping or a sequence starts in the top frame's next slot: its role. */
static enum role child_role(const struct frame *f, bool map)
{
	if (f->in_key)
		return R_OTHER;
	if (f->map && !f->want_key) {
		if (f->key == K_CONTEXTS && !map)
			return R_CONTEXTS;
		if (f->key == K_CONTEXT && map)
			return R_CTX_BODY;
		return R_OTHER;
	}
	return !f->map && f->role == R_CONTEXTS && map ? R_CTX_ITEM : R_OTHER;
}

static void ctx_done(struct walk *w)
{
	if (w->name && w->kc->n_contexts < KUBECONFIG_MAX_CONTEXTS) {
		struct kubeconfig_context *k =
			XPUSH(w->kc->contexts, w->kc->n_contexts, w->kc->cap_contexts);
		k->name = w->name;
		k->namespace_ = w->ns;
	} else {
		free(w->name);
		free(w->ns);
	}
	w->name = w->ns = NULL;
}

/* One collection end: pop, and the parent's slot is filled. */
static void close_node(struct walk *w)
{
	if (w->st[w->depth].role == R_CTX_ITEM)
		ctx_done(w);
	w->depth--;
	struct frame *f = &w->st[w->depth];
	if (f->map && !f->in_key) {
		if (f->want_key) /* a collection as a key: its value is skipped */
			f->key = K_NONE;
		f->want_key = !f->want_key;
	}
}

static const char *cap_error(size_t len)
{
	return len > YAML_MAX_FILE_BYTES ? "bigger than the YAML size cap" : NULL;
}

int kubeconfig_parse(const char *buf, size_t len, struct kubeconfig *kc)
{
	memset(kc, 0, sizeof(*kc));
	if ((kc->error = cap_error(len)))
		return -1;
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return -1;
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	struct walk *w = xcalloc(1, sizeof(*w));
	w->kc = kc;
	w->depth = -1; /* no node open; st[0] is the root */
	int rc = -1;
	bool done = false;
	while (!done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			kc->error = "not YAML";
			break;
		}
		if (++kc->events > YAML_MAX_NODES) {
			kc->error = "more YAML nodes than the cap";
			yaml_event_delete(&ev);
			break;
		}
		switch (ev.type) {
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT: {
			bool map = ev.type == YAML_MAPPING_START_EVENT;
			if (w->depth + 1 > YAML_MAX_DEPTH - 1) {
				kc->error = "nested deeper than the YAML depth cap";
				done = true;
				break;
			}
			struct frame nf = {.map = map, .want_key = map, .role = R_OTHER};
			if (w->depth < 0) {
				if (!map) {
					done = true; /* not a mapping */
					break;
				}
				nf.role = R_ROOT;
			} else {
				const struct frame *f = &w->st[w->depth];
				nf.role = child_role(f, map);
				nf.in_key = f->in_key || (f->map && f->want_key);
			}
			w->st[++w->depth] = nf;
			break;
		}
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			if (w->depth == 0) {
				w->depth--;
				rc = 0; /* the root is complete: the first document */
				done = true;
			} else if (w->depth > 0) {
				close_node(w);
			}
			break;
		case YAML_SCALAR_EVENT:
		case YAML_ALIAS_EVENT:
			if (w->depth < 0) {
				done = true; /* a scalar document: not a mapping */
				break;
			}
			leaf(w, ev.type == YAML_SCALAR_EVENT ? (const char *)ev.data.scalar.value
							     : NULL);
			break;
		case YAML_DOCUMENT_END_EVENT:
		case YAML_STREAM_END_EVENT: done = true; break;
		default: break;
		}
		yaml_event_delete(&ev);
	}
	free(w->name);
	free(w->ns);
	free(w);
	yaml_parser_delete(&p);
	if (rc != 0) {
		/* a cut or broken file names nothing: never half a context list */
		const char *err = kc->error;
		size_t events = kc->events;
		kubeconfig_release(kc);
		kc->error = err;
		kc->events = events;
	}
	return rc;
}

void kubeconfig_release(struct kubeconfig *kc)
{
	for (size_t i = 0; i < kc->n_contexts; i++) {
		free(kc->contexts[i].name);
		free(kc->contexts[i].namespace_);
	}
	free(kc->contexts);
	free(kc->current_context);
	memset(kc, 0, sizeof(*kc));
}

const struct kubeconfig_context *kubeconfig_context(const struct kubeconfig *kc, const char *name)
{
	for (size_t i = 0; name && i < kc->n_contexts; i++)
		if (!strcmp(kc->contexts[i].name, name))
			return &kc->contexts[i];
	return NULL;
}
