/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `env --deployment NAME -n NS`: ONE read-only
 *   kubectl get dynamographdeployments.nvidia.com NAME -n NS -o json
 * whose answer (JSON is YAML) the manifest reader parses like a file.  The
 * API server returns the object in its preferred version; the reader takes
 * both DGD versions by structure, so either is fine.
 */
#ifndef CI_KUBE_DGD_H
#define CI_KUBE_DGD_H

#include <stddef.h>

#include "probe/probe.h"

#define KUBE_DGD_RESOURCE "dynamographdeployments.nvidia.com"
#define KUBE_DGD_ARGV_MAX 14

/* KUBECTL [--context C] [--kubeconfig F] get dynamographdeployments.nvidia.com
 * NAME -n NS -o json.  Returns argc, or -1 with *why (malloc'ed) when a
 * name is invalid: nothing must run then. */
int kube_get_dgd_argv(const char *kubectl, const char *context, const char *kubeconfig,
		      const char *namespace_, const char *name, const char *argv[KUBE_DGD_ARGV_MAX],
		      char **why);

/* Run it under `deadline` (run_now() clock; <= 0: none) with the kubectl,
 * --context and --kubeconfig of t (kubectl NULL: "kubectl" on PATH).
 * PROBE_OK: *out (malloc'ed, NUL-terminated) holds the answer.  Else
 * *errmsg (one line).  PROBE_BAD_TARGET: a name was invalid, nothing ran. */
enum probe_error kube_get_dgd(const struct probe_target *t, const char *name, double deadline,
			      char **out, size_t *out_len, char **errmsg);

#endif
