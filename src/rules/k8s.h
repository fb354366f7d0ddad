/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes: how a pod asks for a fabric.  The resource names device
 * plugins advertise, the network annotations of Multus and the clouds'
 * CNIs, and the general rule for a name no row knows: an extended resource
 * or network whose name says RDMA, HCA, RoCE, InfiniBand, SR-IOV or EFA.
 * Each row carries its source (docs/checks.md cites the same).
 */
#ifndef CI_RULES_K8S_H
#define CI_RULES_K8S_H

#include <stdbool.h>
#include <stddef.h>

enum k8s_net {
	K8S_NET_NONE = 0,
	K8S_NET_RDMA, /* an RDMA NIC whose link layer the name does not say */
	K8S_NET_IB,
	K8S_NET_ROCE,
	K8S_NET_EFA,
};

struct k8s_name_row {
	const char *name;   /* the resource name, or its prefix */
	bool prefix;        /* name is a prefix ("rdma/") */
	enum k8s_net net;   /* K8S_NET_NONE: an accelerator, not a fabric */
	const char *what;   /* what it is, for evidence */
	const char *source; /* project, file, version */
};

/* A row for an extended resource name (device plugins), or NULL. */
const struct k8s_name_row *k8s_resource_row(const char *name);

/* The general rule: what fabric a resource, network or device class name
 * names by its words (split on anything not a letter or digit): "rdma",
 * "hca", "sriov" -> RDMA; "roce" -> RoCE; "ib", "infiniband" -> InfiniBand;
 * "efa" -> EFA.  K8S_NET_NONE when it names none. */
enum k8s_net k8s_name_fabric(const char *name);

/* What a resource key of a pod asks for: the row's fabric when a row knows
 * it, else the general rule for an extended resource (a name with a
 * domain, "vendor.example/rdma_vf").  *row: the row, or NULL when the
 * general rule decided. */
enum k8s_net k8s_resource_fabric(const char *name, const struct k8s_name_row **row);

/* An extended resource that is neither a fabric nor a known accelerator:
 * shown in the fabric finding so that it is never silently ignored. */
bool k8s_resource_unrecognised(const char *name);

/* A pod annotation that attaches networks (Multus, a cloud's CNI): its row,
 * or NULL. */
const struct k8s_name_row *k8s_network_annotation(const char *key);

/* The kind of a Multus network definition, its source. */
extern const char *const k8s_nad_kind;
extern const char *const k8s_nad_source;

/* Labels by which the projects that deploy disaggregated serving say a
 * pod's role; the value is the role word ("prefill", "decode"). */
struct k8s_role_label {
	const char *key;
	const char *source;
};
const struct k8s_role_label *k8s_role_label(const char *key);
/* The field a workload CRD names its roles by (AIBrix StormService
 * spec.template.spec.roles[].name) and the keys under which a CRD holds a
 * pod template per role (llm-d ModelService spec.prefill / spec.decode). */
extern const char *const k8s_role_list_key;
extern const char *const k8s_role_list_source;

/* A key under which a workload CRD holds sidecar patches, not pod specs:
 * the containers below it are merged into containers a profile injects
 * (RBG roles[].engineRuntimes[].containers), never an engine of their own. */
bool k8s_sidecar_patch_key(const char *key);

/* A key under which a workload CRD holds one engine's group of pods and
 * its size (RBG roles[].leaderWorkerPattern.size): the pods below it are
 * one engine over that many pods, as a LeaderWorkerSet's are.  NULL when
 * key is none; else the source. */
const char *k8s_group_size_key(const char *key);

/* A file name kustomize reads as a folder's Kustomization (whose apiVersion
 * and kind are optional): kustomize api/konfig/general.go
 * RecognizedKustomizationFileNames. */
bool k8s_kustomization_file(const char *basename);

const char *k8s_net_name(enum k8s_net n);

#endif
