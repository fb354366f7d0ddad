/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pod a process runs in, from the node's own files (no API call):
 *   /proc/PID/cgroup   the pod UID and the container id, e.g. (cgroup v2,
 *     systemd driver, containerd)
 *     "0::/kubepods.slice/kubepods-burstable.slice/
 *      kubepods-burstable-pod3f1c_9a2e.slice/cri-containerd-<64 hex>.scope"
 *     (cgroupfs driver) "0::/kubepods/burstable/pod3f1c-9a2e/<64 hex>"
 *     and cgroup v1 lines ("12:memory:/kubepods/...", "1:name=systemd:/...");
 *   a /var/log/pods entry name    "<namespace>_<pod>_<uid>";
 *   a /var/log/containers name    "<pod>_<namespace>_<container>-<id>.log".
 * The forms (prefixes, suffixes) are data from src/rules/kubelet.c, passed
 * in; parsing is pure.  Namespace, pod and container names are DNS labels
 * or subdomains (no '_'), so '_' splits them unambiguously.
 */
#ifndef CI_PARSE_POD_CGROUP_H
#define CI_PARSE_POD_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

struct pod_cgroup_scope {
	const char *prefix, *suffix; /* around the container id in its component */
	const char *runtime;         /* "containerd", "cri-o", ... */
};

struct pod_cgroup_forms {
	const char *qos_root;     /* "kubepods": an ancestor component contains it */
	const char *pod_prefix;   /* "pod" before the UID */
	const char *slice_suffix; /* ".slice": the systemd driver's pod component */
	const struct pod_cgroup_scope *scopes;
	size_t n_scopes;
};

#define POD_UID_MAX  64
#define POD_CID_MAX  64
#define POD_NAME_MAX 253

struct pod_cgroup {
	bool pod;                  /* a pod UID was found */
	char uid[POD_UID_MAX + 1]; /* with '-' (the systemd '_' escaping undone) */
	bool container;            /* a container id was found */
	char cid[POD_CID_MAX + 1]; /* lower-case hex */
	const char *runtime;       /* the form's, or NULL */
	char path[512];            /* the cgroup path read (first kubepods line, else
				     * the v2 line, else the first), cut to fit */
};

/* 0 when the input held at least one cgroup line, -1 otherwise.  *out is
 * zeroed first; pod/container say what was found.  Reads at most 64 KiB. */
int pod_cgroup_parse(const char *buf, size_t len, const struct pod_cgroup_forms *f,
		     struct pod_cgroup *out);

struct pod_ref {
	char ns[POD_NAME_MAX + 1], pod[POD_NAME_MAX + 1];
	char uid[POD_UID_MAX + 1];
	char container[POD_NAME_MAX + 1];
	char cid[POD_CID_MAX + 1];
};

/* "<namespace>_<pod>_<uid>" (a /var/log/pods entry): ns, pod, uid. */
bool pod_logdir_parse(const char *name, struct pod_ref *out);
/* "<pod>_<namespace>_<container>-<id>.log" (a /var/log/containers entry):
 * pod, ns, container, cid. */
bool pod_container_log_parse(const char *name, struct pod_ref *out);

#endif
