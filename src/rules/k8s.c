/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/k8s.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Resource names device plugins advertise.  A fabric row is a NIC; a
 * K8S_NET_NONE row is an accelerator (never shown as an unrecognised
 * resource).  Names beyond these go through the general rule. */
static const struct k8s_name_row resources[] = {
	{"rdma/", true, K8S_NET_RDMA, "RDMA shared device plugin resource",
	 "Mellanox/k8s-rdma-shared-dev-plugin README (resourcePrefix \"rdma\": "
	 "rdma/hca_shared_devices_a, rdma/ib)"},
	{"vpc.amazonaws.com/efa", false, K8S_NET_EFA, "EFA device plugin resource",
	 "aws/eks-charts stable/aws-efa-k8s-device-plugin (resource vpc.amazonaws.com/efa)"},
	{"networking.gke.io.networks/rdma", true, K8S_NET_ROCE, "GKE RDMA network resource",
	 "GKE docs \"Run RDMA workloads on A3 Ultra/A4\" (networking.gke.io.networks/rdma-0..7)"},
	{"nvidia.com/hostdev", false, K8S_NET_RDMA, "NVIDIA Network Operator host-device resource",
	 "Mellanox/network-operator example/crs HostDeviceNetwork (resourceName hostdev)"},
	{"nvidia.com/gpu", false, K8S_NET_NONE, "GPU",
	 "NVIDIA/k8s-device-plugin README (nvidia.com/gpu)"},
	{"nvidia.com/mig-", true, K8S_NET_NONE, "MIG slice",
	 "NVIDIA/k8s-device-plugin docs (MIG strategy mixed: nvidia.com/mig-<profile>)"},
	{"amd.com/gpu", false, K8S_NET_NONE, "GPU", "ROCm/k8s-device-plugin README (amd.com/gpu)"},
	{"gpu.intel.com/", true, K8S_NET_NONE, "GPU",
	 "intel/intel-device-plugins-for-kubernetes cmd/gpu_plugin (gpu.intel.com/i915, xe)"},
	{"aws.amazon.com/neuron", true, K8S_NET_NONE, "Neuron device",
	 "aws-neuron/neuron-helm-charts neuron-device-plugin (aws.amazon.com/neuron, neuroncore)"},
	{"google.com/tpu", false, K8S_NET_NONE, "TPU", "GKE docs \"Deploy TPU workloads\""},
	{"habana.ai/gaudi", false, K8S_NET_NONE, "Gaudi",
	 "HabanaAI habana-k8s-device-plugin (habana.ai/gaudi)"},
};

/* Pod annotations that attach networks to a pod. */
static const struct k8s_name_row annotations[] = {
	{"k8s.v1.cni.cncf.io/networks", false, K8S_NET_NONE, "Multus network annotation",
	 "k8snetworkplumbingwg/multus-cni docs/how-to-use.md (k8s.v1.cni.cncf.io/networks)"},
	{"v1.multus-cni.io/default-network", false, K8S_NET_NONE, "Multus default network",
	 "k8snetworkplumbingwg/multus-cni docs/configuration.md"},
	{"networking.gke.io/interfaces", false, K8S_NET_NONE, "GKE multi-network interfaces",
	 "GKE docs \"Set up multi-network support for Pods\" (networking.gke.io/interfaces)"},
	{"k8s.volcengine.com/pod-networks", false, K8S_NET_NONE, "Volcengine VKE pod networks",
	 "vllm-project/aibrix samples/disaggregation/vllm/1p1d.yaml (VKE RDMA cniConf)"},
};

static const struct k8s_role_label role_labels[] = {
	{"llm-d.ai/role", "llm-d/llm-d guides/pd-disaggregation (llm-d.ai/role: prefill|decode)"},
	{"nvidia.com/dynamo-sub-component-type",
	 "ai-dynamo/dynamo deploy/operator internal/consts (sub-component-type prefill|decode)"},
	{"app.kubernetes.io/component",
	 "kubernetes.io docs \"Recommended Labels\" (component: a role within the app)"},
};

const char *const k8s_nad_kind = "NetworkAttachmentDefinition";
const char *const k8s_nad_source =
	"k8snetworkplumbingwg/multi-net-spec v1.3 (NetworkAttachmentDefinition spec.config)";
const char *const k8s_role_list_key = "roles";
const char *const k8s_role_list_source =
	"vllm-project/aibrix api/orchestration/v1alpha1 stormservice_types.go "
	"(RoleSpec.Name under spec.template.spec.roles)";

/* Keys whose containers[] patch sidecars a profile injects.  Each row's
 * source: */
static const char *const sidecar_patch_keys[] = {
	/* sgl-project/rbg api/workloads/v1alpha1 rolebasedgroup_types.go:
	 * RoleSpec.EngineRuntimes []EngineRuntime{ProfileName, Containers},
	 * "injects sidecar containers into this role's pods" (e.g. Patio
	 * worker registration) from a ClusterEngineRuntimeProfile */
	"engineRuntimes",
	NULL,
};

bool k8s_sidecar_patch_key(const char *key)
{
	for (size_t i = 0; key && sidecar_patch_keys[i]; i++)
		if (!strcmp(key, sidecar_patch_keys[i]))
			return true;
	return false;
}

/* Keys whose map holds "size": pods per group, one engine per group. */
static const struct {
	const char *key;
	const char *source;
} group_size_keys[] = {
	{"leaderWorkerPattern",
	 "sgl-project/rbg api/workloads/v1alpha2 (RoleSpec Pattern.LeaderWorkerPattern.Size: "
	 "1 leader + size-1 workers per instance)"},
	{"leaderWorkerSet", "sgl-project/rbg api/workloads/v1alpha1 rolebasedgroup_types.go "
			    "(RoleSpec.LeaderWorkerSet LeaderWorkerTemplate.Size)"},
};

const char *k8s_group_size_key(const char *key)
{
	for (size_t i = 0; key && i < sizeof(group_size_keys) / sizeof(group_size_keys[0]); i++)
		if (!strcmp(key, group_size_keys[i].key))
			return group_size_keys[i].source;
	return NULL;
}

static bool row_matches(const struct k8s_name_row *r, const char *name)
{
	return r->prefix ? !strncmp(name, r->name, strlen(r->name)) : !strcmp(name, r->name);
}

const struct k8s_name_row *k8s_resource_row(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof(resources) / sizeof(resources[0]); i++)
		if (row_matches(&resources[i], name))
			return &resources[i];
	return NULL;
}

static bool word_is(const char *w, size_t n, const char *what, bool prefix)
{
	size_t m = strlen(what);
	if (n < m || strncasecmp(w, what, m))
		return false;
	/* "rdma0", "hcas", "sriovnic": a prefix word; "ib" only as a word
	 * ("ibm" is a vendor, not InfiniBand) */
	return n == m || prefix;
}

enum k8s_net k8s_name_fabric(const char *name)
{
	if (!name)
		return K8S_NET_NONE;
	enum k8s_net best = K8S_NET_NONE;
	const char *p = name;
	while (*p) {
		while (*p && !isalnum((unsigned char)*p))
			p++;
		const char *w = p;
		while (*p && isalnum((unsigned char)*p))
			p++;
		size_t n = (size_t)(p - w);
		if (!n)
			continue;
		if (word_is(w, n, "roce", true))
			return K8S_NET_ROCE;
		if (word_is(w, n, "efa", false))
			return K8S_NET_EFA;
		if (word_is(w, n, "infiniband", true) || word_is(w, n, "ib", false))
			best = K8S_NET_IB;
		else if (best == K8S_NET_NONE &&
			 (word_is(w, n, "rdma", true) || word_is(w, n, "hca", true) ||
			  word_is(w, n, "sriov", true)))
			best = K8S_NET_RDMA;
	}
	return best;
}

enum k8s_net k8s_resource_fabric(const char *name, const struct k8s_name_row **row)
{
	const struct k8s_name_row *r = k8s_resource_row(name);
	if (row)
		*row = r;
	if (r && r->net == K8S_NET_RDMA) {
		/* the row says RDMA; the name may say which (rdma/roce_gdr, rdma/ib) */
		enum k8s_net w = k8s_name_fabric(name);
		return w == K8S_NET_ROCE || w == K8S_NET_IB ? w : r->net;
	}
	if (r)
		return r->net;
	/* the general rule reads extended resources only: cpu, memory and
	 * hugepages-2Mi name no device */
	if (!name || !strchr(name, '/'))
		return K8S_NET_NONE;
	return k8s_name_fabric(name);
}

bool k8s_resource_unrecognised(const char *name)
{
	const char *slash = name ? strchr(name, '/') : NULL;
	if (!slash || k8s_resource_row(name))
		return false;
	/* kubernetes.io/ and requests.* are the platform's own names */
	if (strstr(name, "kubernetes.io/"))
		return false;
	return k8s_name_fabric(name) == K8S_NET_NONE;
}

const struct k8s_name_row *k8s_network_annotation(const char *key)
{
	if (!key)
		return NULL;
	for (size_t i = 0; i < sizeof(annotations) / sizeof(annotations[0]); i++)
		if (row_matches(&annotations[i], key))
			return &annotations[i];
	return NULL;
}

const struct k8s_role_label *k8s_role_label(const char *key)
{
	if (!key)
		return NULL;
	for (size_t i = 0; i < sizeof(role_labels) / sizeof(role_labels[0]); i++)
		if (!strcmp(role_labels[i].key, key))
			return &role_labels[i];
	return NULL;
}

/* kubernetes-sigs/kustomize api/konfig/general.go
 * (RecognizedKustomizationFileNames, kustomize v5): the names a folder's
 * Kustomization may have; the file needs no apiVersion or kind. */
bool k8s_kustomization_file(const char *basename)
{
	static const char *const names[] = {"kustomization.yaml", "kustomization.yml",
					    "Kustomization", NULL};
	for (size_t i = 0; basename && names[i]; i++)
		if (!strcmp(basename, names[i]))
			return true;
	return false;
}

const char *k8s_net_name(enum k8s_net n)
{
	switch (n) {
	case K8S_NET_RDMA: return "RDMA";
	case K8S_NET_IB: return "InfiniBand";
	case K8S_NET_ROCE: return "RoCE";
	case K8S_NET_EFA: return "EFA";
	default: return "none";
	}
}
