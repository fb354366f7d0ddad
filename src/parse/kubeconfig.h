/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A kubeconfig file (~/.kube/config, $KUBECONFIG), only what the namespace
 * of a context needs: current-context and each context's namespace.  As
 * kubectl does, no network call is involved: the namespace a command runs
 * in when -n is omitted is written in this file.
 */
#ifndef CI_PARSE_KUBECONFIG_H
#define CI_PARSE_KUBECONFIG_H

#include <stddef.h>

struct kubeconfig_context {
	char *name;
	char *namespace_; /* NULL when the context names none */
};

/* Contexts kept per file (a cap like every parser's). */
#define KUBECONFIG_MAX_CONTEXTS 4096

struct kubeconfig {
	char *current_context; /* NULL when unset or empty */
	struct kubeconfig_context *contexts;
	size_t n_contexts, cap_contexts;
	size_t events;     /* YAML events read: the work done, for the bound's tests */
	const char *error; /* static: why -1 (a cap, not YAML), or NULL */
};

/* Parse buf[0..len) under the recipe reader's caps (core/yaml_limits.h:
 * bytes, depth, nodes); 0, or -1 when it is not a YAML mapping or a cap
 * stopped it (kc is then empty but valid, error says why).  Any bytes are
 * safe. */
int kubeconfig_parse(const char *buf, size_t len, struct kubeconfig *kc);
void kubeconfig_release(struct kubeconfig *kc);
/* The context called name, or NULL. */
const struct kubeconfig_context *kubeconfig_context(const struct kubeconfig *kc, const char *name);

#endif
