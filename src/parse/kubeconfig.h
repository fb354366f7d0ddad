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

struct kubeconfig {
	char *current_context; /* NULL when unset or empty */
	struct kubeconfig_context *contexts;
	size_t n_contexts, cap_contexts;
};

/* Parse buf[0..len); 0, or -1 when it is not a YAML mapping (kc is then
 * empty but valid).  Any bytes are safe. */
int kubeconfig_parse(const char *buf, size_t len, struct kubeconfig *kc);
void kubeconfig_release(struct kubeconfig *kc);
/* The context called name, or NULL. */
const struct kubeconfig_context *kubeconfig_context(const struct kubeconfig *kc, const char *name);

#endif
