/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kubeconfig, through libyaml's document loader: aliases stay references
 * (never expanded), and only three paths are read:
 *   current-context: NAME
 *   contexts: [{name: NAME, context: {namespace: NS, ...}}, ...]
 */
#include "parse/kubeconfig.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/xalloc.h"

static const char *scalar(yaml_document_t *d, yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value of key in a mapping node, or NULL. */
static yaml_node_t *get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		const char *k = scalar(d, yaml_document_get_node(d, p->key));
		if (k && !strcmp(k, key))
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

static char *dup_nonempty(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

int kubeconfig_parse(const char *buf, size_t len, struct kubeconfig *kc)
{
	memset(kc, 0, sizeof(*kc));
	yaml_parser_t p;
	yaml_document_t d;
	if (!yaml_parser_initialize(&p))
		return -1;
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	int rc = -1;
	if (yaml_parser_load(&p, &d)) {
		yaml_node_t *root = yaml_document_get_root_node(&d);
		if (root && root->type == YAML_MAPPING_NODE) {
			rc = 0;
			kc->current_context =
				dup_nonempty(scalar(&d, get(&d, root, "current-context")));
			yaml_node_t *ctxs = get(&d, root, "contexts");
			if (ctxs && ctxs->type == YAML_SEQUENCE_NODE)
				for (yaml_node_item_t *it = ctxs->data.sequence.items.start;
				     it < ctxs->data.sequence.items.top; it++) {
					yaml_node_t *c = yaml_document_get_node(&d, *it);
					const char *name = scalar(&d, get(&d, c, "name"));
					if (!name || !*name)
						continue;
					struct kubeconfig_context *k = XPUSH(
						kc->contexts, kc->n_contexts, kc->cap_contexts);
					k->name = xstrdup(name);
					k->namespace_ = dup_nonempty(scalar(
						&d, get(&d, get(&d, c, "context"), "namespace")));
				}
		}
		yaml_document_delete(&d);
	}
	yaml_parser_delete(&p);
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
