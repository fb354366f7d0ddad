/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pod discovery, the call: ONE read-only `kubectl get pods`, answered into a
 * struct kube_pod_list (parse/kube_pods.h).  The nixl verb uses it to find
 * the peer of the probed pod; the fleet fan-out to list a deployment's pods.
 */
#ifndef CI_KUBE_GET_PODS_H
#define CI_KUBE_GET_PODS_H

#include "parse/kube_pods.h"
#include "probe/probe.h"

/* kubectl's argv for the one read-only list (NULL-terminated, pointers into
 * the arguments): KUBECTL [--context C] [--kubeconfig F] get pods -n NS
 * [-l SEL] -o json; namespace_ NULL: --all-namespaces instead of -n NS (-A).  Returns argc, or -1 with *why (malloc'ed) when a name
 * is invalid: nothing must run then. */
#define KUBE_GET_ARGV_MAX 14
int kube_get_pods_argv(const char *kubectl, const char *context, const char *kubeconfig,
		       const char *namespace_, const char *selector,
		       const char *argv[KUBE_GET_ARGV_MAX], char **why);

/* Run that one call under `deadline` (run_now() clock; <= 0: none) and parse
 * the answer into out (initialised by the caller).  kubectl, --context and
 * --kubeconfig come from o.  Returns PROBE_OK, or an error with *errmsg
 * (malloc'ed, one line) classified like `kubectl exec` failures.  *calls
 * (may be NULL) is incremented when kubectl actually ran.  Thread-safe. */
enum probe_error kube_get_pods(const struct probe_target *o, const char *namespace_,
			       const char *selector, double deadline, struct kube_pod_list *out,
			       char **errmsg, int *calls);

#endif
