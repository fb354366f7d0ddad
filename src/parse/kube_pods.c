/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The answer of `kubectl get pods -o json`: the pure parser (the call
 * itself is src/probe/kube_get_pods.c).  The parser keeps only a few fields of each Pod and trusts nothing: every
 * field may be missing or of the wrong JSON type, strings are bounded and
 * cleaned of control bytes, and item counts are capped.
 */
#include "parse/kube_pods.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void kube_pod_list_init(struct kube_pod_list *l)
{
	memset(l, 0, sizeof(*l));
}

static void pod_release(struct kube_pod *p)
{
	free(p->name);
	free(p->namespace_);
	free(p->phase);
	free(p->node_name);
	free(p->pod_ip);
	free(p->dgd);
	free(p->component_type);
	free(p->sub_component_type);
	free(p->component);
	free(p->deletion_timestamp);
	for (size_t i = 0; i < p->n_containers; i++)
		free(p->containers[i].name);
	free(p->containers);
}

void kube_pod_list_release(struct kube_pod_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		pod_release(&l->pods[i]);
	free(l->pods);
	memset(l, 0, sizeof(*l));
}

/* A copy of a JSON string value: NULL when absent, not a string, empty,
 * too long, or holding NUL.  Control bytes become '?' so that a value can
 * never break a report line. */
static char *str_of(json_t *v)
{
	if (!json_is_string(v))
		return NULL;
	size_t n = json_string_length(v);
	const char *s = json_string_value(v);
	if (!n || n > KUBE_POD_MAX_STR || memchr(s, '\0', n))
		return NULL;
	char *c = xstrndup(s, n);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)c[i] < 0x20 || c[i] == 0x7f)
			c[i] = '?';
	return c;
}

static json_t *get(json_t *o, const char *key)
{
	return json_is_object(o) ? json_object_get(o, key) : NULL;
}

static struct kube_container *container_named(struct kube_pod *p, const char *name)
{
	for (size_t i = 0; i < p->n_containers; i++)
		if (p->containers[i].name && !strcmp(p->containers[i].name, name))
			return &p->containers[i];
	return NULL;
}

static void read_containers(struct kube_pod *p, json_t *pod)
{
	json_t *specs = get(get(pod, "spec"), "containers");
	json_t *stats = get(get(pod, "status"), "containerStatuses");
	size_t i, ns = json_is_array(specs) ? json_array_size(specs) : 0;
	size_t nt = json_is_array(stats) ? json_array_size(stats) : 0;

	if (ns > KUBE_POD_MAX_CONTAINERS)
		ns = KUBE_POD_MAX_CONTAINERS;
	if (nt > KUBE_POD_MAX_CONTAINERS)
		nt = KUBE_POD_MAX_CONTAINERS;
	/* Room for both lists: a status without a spec entry is still a container. */
	p->containers = xcalloc(ns + nt + 1, sizeof(*p->containers));
	for (i = 0; i < ns; i++) {
		char *name = str_of(get(json_array_get(specs, i), "name"));
		if (!name || container_named(p, name)) {
			free(name);
			continue;
		}
		p->containers[p->n_containers++].name = name;
	}
	for (i = 0; i < nt; i++) {
		json_t *st = json_array_get(stats, i);
		char *name = str_of(get(st, "name"));
		if (!name)
			continue;
		size_t k;
		for (k = 0; k < p->n_containers && strcmp(p->containers[k].name, name); k++)
			;
		if (k == p->n_containers)
			p->containers[p->n_containers++].name = name;
		else
			free(name);
		p->containers[k].has_status = true;
		/* jansson's type macros evaluate their argument twice: no calls in them */
		json_t *ready = get(st, "ready");
		json_t *running = get(get(st, "state"), "running");
		p->containers[k].ready = json_is_true(ready);
		p->containers[k].running = json_is_object(running);
	}
}

/* 0 when the item was a pod with a name. */
static int read_pod(struct kube_pod *p, json_t *item)
{
	json_t *meta = get(item, "metadata");
	json_t *labels = get(meta, "labels");

	memset(p, 0, sizeof(*p));
	p->name = str_of(get(meta, "name"));
	if (!p->name)
		return -1;
	p->namespace_ = str_of(get(meta, "namespace"));
	p->deletion_timestamp = str_of(get(meta, "deletionTimestamp"));
	p->phase = str_of(get(get(item, "status"), "phase"));
	p->pod_ip = str_of(get(get(item, "status"), "podIP"));
	p->node_name = str_of(get(get(item, "spec"), "nodeName"));
	p->dgd = str_of(get(labels, KUBE_LABEL_DGD));
	p->component_type = str_of(get(labels, KUBE_LABEL_COMPONENT_TYPE));
	p->sub_component_type = str_of(get(labels, KUBE_LABEL_SUB_COMPONENT));
	p->component = str_of(get(labels, KUBE_LABEL_COMPONENT));
	read_containers(p, item);
	return 0;
}

static void add_item(struct kube_pod_list *out, json_t *item)
{
	struct kube_pod p;

	if (out->n >= KUBE_PODS_MAX) {
		out->truncated = true;
		out->left_out++;
		return;
	}
	if (!json_is_object(item) || read_pod(&p, item)) {
		if (json_is_object(item))
			pod_release(&p);
		out->skipped++;
		return;
	}
	*XPUSH(out->pods, out->n, out->cap) = p;
}

int kube_pods_parse(const char *json, size_t len, struct kube_pod_list *out)
{
	json_error_t jerr;
	json_t *root, *items;
	int rc = 0;

	if (!json || len > KUBE_PODS_MAX_BYTES)
		return -1;
	/* JSON_ALLOW_NUL: a "\u0000" in one pod's annotations is valid JSON
	 * and must not make the whole list unreadable; str_of() refuses such
	 * strings for the few fields read. */
	root = json_loadb(json, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
	if (!json_is_object(root)) {
		json_decref(root);
		return -1;
	}
	items = json_object_get(root, "items");
	json_t *kind = json_object_get(root, "kind");
	if (json_is_array(items)) {
		size_t i, n = json_array_size(items);
		/* Past the cap every item is still counted (left_out), never
		 * dropped silently. */
		for (i = 0; i < n; i++)
			add_item(out, json_array_get(items, i));
	} else if (json_is_string(kind) && !strcmp(json_string_value(kind), "Pod")) {
		add_item(out, root);
	} else {
		rc = -1;
	}
	json_decref(root);
	return rc;
}

const struct kube_pod *kube_pods_find(const struct kube_pod_list *l, const char *name)
{
	for (size_t i = 0; name && i < l->n; i++)
		if (!strcmp(l->pods[i].name, name))
			return &l->pods[i];
	return NULL;
}

bool kube_pod_ready(const struct kube_pod *p)
{
	if (!p->phase || strcmp(p->phase, "Running") || p->deletion_timestamp)
		return false;
	for (size_t i = 0; i < p->n_containers; i++)
		if (!p->containers[i].ready || !p->containers[i].running)
			return false;
	return true;
}

static bool sel_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '/' || c == '=' || c == ',' || c == '!' || c == '-';
}

/* Skip one `key in (v1,v2)` / `key notin (...)` tail starting at a space;
 * returns the position after ')' or NULL when it is not that form. */
static const char *set_form(const char *p)
{
	if (!strncmp(p, " in (", 5))
		p += 5;
	else if (!strncmp(p, " notin (", 8))
		p += 8;
	else
		return NULL;
	const char *start = p;
	while (*p && *p != ')') {
		if (!sel_char(*p) || *p == '=' || *p == '!' || *p == '/')
			return NULL;
		p++;
	}
	if (*p != ')' || p == start)
		return NULL;
	return p + 1;
}

bool kube_selector_valid(const char *sel)
{
	if (!sel || !*sel || sel[0] == '-' || strlen(sel) > 1024)
		return false;
	for (const char *p = sel; *p;) {
		if (*p == ' ') {
			const char *q = set_form(p);
			if (!q)
				return false;
			p = q;
			continue;
		}
		if (!sel_char(*p))
			return false;
		p++;
	}
	return true;
}

static void put_str(json_t *o, const char *key, const char *v)
{
	if (v)
		json_object_set_new(o, key, json_string(v));
}

char *kube_pods_dump(const struct kube_pod_list *l)
{
	json_t *items = json_array();
	for (size_t i = 0; i < l->n; i++) {
		const struct kube_pod *p = &l->pods[i];
		json_t *meta = json_object(), *labels = json_object();
		put_str(meta, "name", p->name);
		put_str(meta, "namespace", p->namespace_);
		put_str(meta, "deletionTimestamp", p->deletion_timestamp);
		put_str(labels, KUBE_LABEL_DGD, p->dgd);
		put_str(labels, KUBE_LABEL_COMPONENT_TYPE, p->component_type);
		put_str(labels, KUBE_LABEL_SUB_COMPONENT, p->sub_component_type);
		put_str(labels, KUBE_LABEL_COMPONENT, p->component);
		json_object_set_new(meta, "labels", labels);
		json_t *spec = json_object(), *status = json_object();
		json_t *specs = json_array(), *stats = json_array();
		put_str(spec, "nodeName", p->node_name);
		put_str(status, "phase", p->phase);
		put_str(status, "podIP", p->pod_ip);
		for (size_t k = 0; k < p->n_containers; k++) {
			const struct kube_container *c = &p->containers[k];
			json_array_append_new(specs, json_pack("{s:s}", "name", c->name));
			if (c->has_status)
				json_array_append_new(
					stats, json_pack("{s:s,s:b,s:{s:{}}}", "name", c->name,
							 "ready", c->ready, "state",
							 c->running ? "running" : "waiting"));
		}
		json_object_set_new(spec, "containers", specs);
		json_object_set_new(status, "containerStatuses", stats);
		json_array_append_new(items, json_pack("{s:s,s:s,s:o,s:o,s:o}", "apiVersion", "v1",
						       "kind", "Pod", "metadata", meta, "spec",
						       spec, "status", status));
	}
	json_t *doc =
		json_pack("{s:s,s:s,s:o}", "apiVersion", "v1", "kind", "List", "items", items);
	char *s = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	return s;
}
