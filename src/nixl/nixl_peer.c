/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The peer of the probed pod, from the one `kubectl get pods` list: a pod of
 * the same DynamoGraphDeployment with the other role (prefill <-> decode), so
 * that the pair test exercises the path KV really takes.  Pure.
 */
#include <stdio.h>
#include <string.h>

#include "nixl/nixl.h"

static const char *other_role(const char *role)
{
	if (role && !strcmp(role, "prefill"))
		return "decode";
	if (role && !strcmp(role, "decode"))
		return "prefill";
	return NULL;
}

static bool is_worker(const struct kube_pod *p)
{
	if (p->component_type && !strcmp(p->component_type, "frontend"))
		return false;
	return (p->component_type && !strcmp(p->component_type, "worker")) ||
	       (p->sub_component_type && (!strcmp(p->sub_component_type, "prefill") ||
					  !strcmp(p->sub_component_type, "decode")));
}

/* Lower is better. */
static int rank(const struct kube_pod *p, const struct kube_pod *self)
{
	int r = 0;
	if (!kube_pod_ready(p))
		r += 2;
	if (self->node_name && p->node_name && !strcmp(self->node_name, p->node_name))
		r += 1;
	return r;
}

void nixl_pick_peer(const struct kube_pod_list *l, const char *self_name,
		    struct nixl_peer_choice *out)
{
	memset(out, 0, sizeof(*out));
	out->state = PEER_NOT_FOUND;
	const struct kube_pod *self = kube_pods_find(l, self_name);
	out->self = self;
	if (!self || !self->dgd) {
		snprintf(out->why, sizeof(out->why),
			 "pod %s carries no %s label (not deployed by the Dynamo operator?): "
			 "name the peer with --peer POD",
			 self_name ? self_name : "?", KUBE_LABEL_DGD);
		return;
	}
	const char *want = other_role(self->sub_component_type);
	const struct kube_pod *best = NULL;
	int best_rank = 0;
	size_t n_role = 0, n_down = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct kube_pod *p = &l->pods[i];
		if (p == self || !p->dgd || strcmp(p->dgd, self->dgd) || !is_worker(p))
			continue;
		if (want ? !p->sub_component_type || strcmp(p->sub_component_type, want) : false)
			continue;
		n_role++;
		if (!p->phase || strcmp(p->phase, "Running") || p->deletion_timestamp) {
			n_down++;
			continue;
		}
		int r = rank(p, self);
		if (!best || r < best_rank || (r == best_rank && strcmp(p->name, best->name) < 0)) {
			best = p;
			best_rank = r;
		}
	}
	const char *role_word = want ? want : "worker";
	if (!best) {
		if (n_role)
			snprintf(
				out->why, sizeof(out->why),
				"no Running %s pod in deployment %s (%zu found, none Running or all "
				"terminating): name the peer with --peer POD",
				role_word, self->dgd, n_role);
		else
			snprintf(out->why, sizeof(out->why),
				 "no other %s pod in deployment %s: name the peer with --peer POD",
				 role_word, self->dgd);
		return;
	}
	out->state = PEER_FOUND;
	out->peer = best;
	bool ready = kube_pod_ready(best);
	bool same_node =
		self->node_name && best->node_name && !strcmp(self->node_name, best->node_name);
	char also[96] = "";
	if (n_role > 1)
		snprintf(also, sizeof(also), "; %zu %s pods in all, %zu not Running", n_role,
			 role_word, n_down);
	snprintf(out->why, sizeof(out->why),
		 "%s pod %s of deployment %s (the probed pod is %s): %s on node %s%s%s", role_word,
		 best->name, self->dgd,
		 self->sub_component_type ? self->sub_component_type
					  : "a worker without a prefill/decode role",
		 ready ? "Running and ready" : "Running but not ready",
		 best->node_name ? best->node_name : "(unknown)",
		 same_node
			 ? " (the same node as the probed pod: this pair does not cross the fabric)"
			 : (self->node_name && best->node_name
				    ? ", another node than the probed pod"
				    : ""),
		 also);
}
