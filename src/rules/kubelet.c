/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/kubelet.h"

const char *const kubelet_cgroup_source =
	"kubernetes/kubernetes pkg/kubelet/cm/cgroup_manager_linux.go (systemd driver: "
	"each name part joined with '-' into a .slice, '-' in a part escaped as '_'), "
	"pkg/kubelet/cm/pod_container_manager_linux.go (podCgroupNamePrefix \"pod\" + "
	"the pod UID), pkg/kubelet/cm/qos_container_manager_linux.go (kubepods, "
	"burstable, besteffort), v1.31";

const char *const kubelet_logs_source =
	"kubernetes/kubernetes pkg/kubelet/kuberuntime/helpers.go BuildPodLogsDirectory "
	"(namespace_pod_uid, logPathDelimiter \"_\"), BuildContainerLogsDirectory; "
	"pkg/kubelet/kuberuntime/legacy.go legacyLogSymlink "
	"(/var/log/containers/pod_namespace_container-containerID.log), v1.31";

/* The container's own component below its pod's: the runtime's id with the
 * prefix and suffix its cgroup driver gives it.  Each layout is one that
 * falcosecurity/libs userspace/libsinsp/cri.cpp (CRI_CGROUP_LAYOUT) resolves
 * a container id from, by runtime and driver. */
static const struct pod_cgroup_scope scopes[] = {
	/* containerd CRI with SystemdCgroup: parent "<slice>:cri-containerd:<id>",
	 * runc's systemd driver names the unit cri-containerd-<id>.scope */
	{"cri-containerd-", ".scope", "containerd"},
	/* cri-o with cgroup_manager systemd: unit crio-<id>.scope (conmon's
	 * crio-conmon-<id> is not a container id) */
	{"crio-", ".scope", "cri-o"},
	/* cri-dockerd with docker's systemd driver: docker-<id>.scope */
	{"docker-", ".scope", "docker"},
	/* cri-o with cgroup_manager cgroupfs: <pod cgroup>/crio-<id> */
	{"crio-", "", "cri-o"},
	/* containerd with the cgroupfs driver: <pod cgroup>/<id> */
	{"", "", "cgroupfs"},
};

static const struct pod_cgroup_forms forms = {
	.qos_root = "kubepods",
	.pod_prefix = "pod",
	.slice_suffix = ".slice",
	.scopes = scopes,
	.n_scopes = sizeof(scopes) / sizeof(scopes[0]),
};

const struct pod_cgroup_forms *kubelet_cgroup_forms(void)
{
	return &forms;
}
