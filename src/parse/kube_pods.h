/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pod discovery, the answer: the pure parser of `kubectl get pods -o json`
 * (a v1 List of Pods, or one Pod; the call is probe/kube_get_pods.h).  Only
 * what the checks need is kept: names, placement, readiness and the Dynamo
 * operator's labels.
 */
#ifndef CI_KUBE_PODS_H
#define CI_KUBE_PODS_H

#include <stdbool.h>
#include <stddef.h>

/* The Dynamo operator's labels on every pod it creates. */
#define KUBE_LABEL_DGD            "nvidia.com/dynamo-graph-deployment-name"
#define KUBE_LABEL_COMPONENT_TYPE "nvidia.com/dynamo-component-type"
#define KUBE_LABEL_SUB_COMPONENT  "nvidia.com/dynamo-sub-component-type"
#define KUBE_LABEL_COMPONENT      "nvidia.com/dynamo-component"

/* Caps, so that no answer can make the parser grow without bound. */
#define KUBE_PODS_MAX_BYTES     (64u << 20)
#define KUBE_PODS_MAX           65536 /* fleets of 10,000 pods and more */
#define KUBE_POD_MAX_CONTAINERS 64
#define KUBE_POD_MAX_STR        1024 /* longer strings are dropped (NULL) */

struct kube_container {
	char *name;
	bool ready;      /* status.containerStatuses[].ready */
	bool running;    /* its state is `running` */
	bool has_status; /* a containerStatuses entry was found */
};

struct kube_pod {
	char *name, *namespace_;
	char *phase;     /* "Running", "Pending", ...; NULL when absent */
	char *node_name; /* spec.nodeName; NULL when not scheduled */
	char *pod_ip;    /* status.podIP; NULL when none yet */
	/* the operator's labels; NULL when absent */
	char *dgd, *component_type, *sub_component_type, *component;
	char *deletion_timestamp;          /* set: the pod is terminating */
	struct kube_container *containers; /* spec.containers order */
	size_t n_containers;
};

struct kube_pod_list {
	struct kube_pod *pods;
	size_t n, cap;
	bool truncated;  /* more than KUBE_PODS_MAX items (the rest dropped) */
	size_t left_out; /* how many items that cap dropped (said in a warn) */
	size_t skipped;  /* items that were not objects or had no name */
};

void kube_pod_list_init(struct kube_pod_list *l);
void kube_pod_list_release(struct kube_pod_list *l);

/* Pure parser.  Returns 0 when json is a v1 List (items[]) or a single Pod
 * object; -1 otherwise (not JSON, not an object, no items array, over
 * KUBE_PODS_MAX_BYTES).  out must be initialised; it is filled as far as the
 * input allows even on -1. */
int kube_pods_parse(const char *json, size_t len, struct kube_pod_list *out);

/* Pure: l as a v1 List that kube_pods_parse reads back to the same list,
 * holding only the fields kept (no pod spec, so no environment value:
 * what the support bundle stores).  Caller frees (malloc'ed). */
char *kube_pods_dump(const struct kube_pod_list *l);

/* The pod named `name`, or NULL. */
const struct kube_pod *kube_pods_find(const struct kube_pod_list *l, const char *name);
/* Running, not terminating, and every container ready. */
bool kube_pod_ready(const struct kube_pod *p);

/* Label selectors as kubectl's -l takes them, restricted to what the tool
 * itself builds or a user reasonably types: characters [A-Za-z0-9._/=,!-]
 * and set forms `key in (a,b)` / `key notin (a,b)` (spaces only there).
 * Never starts with '-'; at most 1024 bytes. */
bool kube_selector_valid(const char *sel);

#endif
