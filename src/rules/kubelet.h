/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How a node's own files name the pod a process runs in, with no API call
 * (the agent verb, src/cmd/agent.c): the cgroup path the kubelet and the
 * container runtime give a container, and the kubelet's log layout.  Rows
 * with their source; the parser that reads them is src/parse/pod_cgroup.c.
 */
#ifndef CI_RULES_KUBELET_H
#define CI_RULES_KUBELET_H

#include <stddef.h>

#include "parse/pod_cgroup.h"

/* The cgroup forms a container's path takes (prefix/suffix around its id,
 * the pod's component), every runtime and driver the kubelet supports. */
const struct pod_cgroup_forms *kubelet_cgroup_forms(void);

/* The kubelet's log layout under the node's root (pkg/kubelet/kuberuntime):
 *   /var/log/pods/<namespace>_<pod>_<uid>/<container>/<restart>.log
 *   /var/log/containers/<pod>_<namespace>_<container>-<container id>.log */
#define KUBELET_POD_LOGS_DIR       "var/log/pods"
#define KUBELET_CONTAINER_LOGS_DIR "var/log/containers"
extern const char *const kubelet_logs_source;
extern const char *const kubelet_cgroup_source;

#endif
