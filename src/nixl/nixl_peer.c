/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The peer of the probed pod, from the one `kubectl get pods` list: a pod of
 * the same DynamoGraphDeployment with the other role (prefill <-> decode), so
 * that the pair test exercises the path KV really takes.  Pure.
 *
 * A fleet run picks a peer for every pod of one list, so the list is
 * indexed once (nixl_peer_index_init): a scan of the list per pick made a
 * 10,000-pod nixl or all run cost 10^8 comparisons, the index a few per pod
 * (tests/nixl/test_nixl_scale.c counts them).
 *
 * The ranking is (not ready, on the probed pod's node, name, list order),
 * lowest first, among the Running, not terminating workers of the probed
 * pod's DGD with the other role.  Only the second key depends on the
 * probed pod, and only through "same node or not", so per tier (ready, or
 * Running but not ready) three members decide every pick: the first by
 * (name, list order), the second, and the first not on the first one's
 * node.  The best member off self's node is the first one when it is
 * neither self nor on self's node, else the first off the first one's node
 * (self's node then; when self is the first and has no node, every other
 * member is off it: the second).  When none is off self's node, every
 * member but self is on it: the first that is not self.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
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

static bool is_down(const struct kube_pod *p)
{
	return !p->phase || strcmp(p->phase, "Running") || p->deletion_timestamp;
}

static bool same_node(const struct kube_pod *a, const struct kube_pod *b)
{
	return a->node_name && b->node_name && !strcmp(a->node_name, b->node_name);
}

/* a before b in (name, list order), for an a that comes later in the list
 * than b: a name strictly lower (equal names keep the earlier pod). */
static bool name_before(const struct kube_pod *a, const struct kube_pod *b)
{
	return strcmp(a->name, b->name) < 0;
}

static void tier_add(struct nixl_peer_tier *t, const struct kube_pod *p)
{
	if (!t->first || name_before(p, t->first)) {
		t->second = t->first;
		t->first = p;
	} else if (!t->second || name_before(p, t->second)) {
		t->second = p;
	}
}

/* The second pass, once every tier knows its first member. */
static void tier_add_other(struct nixl_peer_tier *t, const struct kube_pod *p)
{
	if (p == t->first || same_node(p, t->first))
		return;
	if (!t->other_node || name_before(p, t->other_node))
		t->other_node = p;
}

/* The groups pod p of DGD d belongs to; returns how many (at most 2). */
static size_t groups_of(struct nixl_peer_dgd *d, const struct kube_pod *p,
			struct nixl_peer_group *g[2])
{
	size_t k = 0;
	g[k++] = &d->any;
	if (p->sub_component_type && !strcmp(p->sub_component_type, "prefill"))
		g[k++] = &d->prefill;
	else if (p->sub_component_type && !strcmp(p->sub_component_type, "decode"))
		g[k++] = &d->decode;
	return k;
}

static struct nixl_peer_tier *tier_of(struct nixl_peer_group *g, const struct kube_pod *p)
{
	return kube_pod_ready(p) ? &g->ready : &g->up;
}

/* A DGD is a namespaced object: the same name in two namespaces (a fleet
 * listed with -A) is two deployments, so its key holds the namespace. */
static char *dgd_key(const struct kube_pod *p)
{
	return xasprintf("%s/%s", p->namespace_ ? p->namespace_ : "", p->dgd);
}

void nixl_peer_index_init(struct nixl_peer_index *ix, const struct kube_pod_list *l)
{
	memset(ix, 0, sizeof(*ix));
	ix->list = l;
	strmap_init(&ix->by_name);
	strmap_init(&ix->by_dgd);
	/* Each worker's DGD slot, so that the second pass looks up nothing. */
	size_t *slot = xcalloc(l->n ? l->n : 1, sizeof(*slot));
	for (size_t i = 0; i < l->n; i++) {
		const struct kube_pod *p = &l->pods[i];
		slot[i] = STRMAP_NONE;
		if (p->name)
			strmap_put(&ix->by_name, p->name, i); /* the first of a name */
		if (!p->dgd || !is_worker(p))
			continue;
		char *key = dgd_key(p);
		size_t d = strmap_put(&ix->by_dgd, key, ix->n_dgds);
		if (d == ix->n_dgds) {
			ix->dgd_keys = xrealloc(ix->dgd_keys, (ix->n_dgds + 1) * sizeof(char *));
			ix->dgd_keys[ix->n_dgds] = key;
			memset(XPUSH(ix->dgds, ix->n_dgds, ix->cap_dgds), 0, sizeof(*ix->dgds));
		} else {
			free(key);
		}
		slot[i] = d;
		struct nixl_peer_group *g[2];
		for (size_t k = groups_of(&ix->dgds[d], p, g), j = 0; j < k; j++) {
			g[j]->n++;
			if (is_down(p))
				g[j]->n_down++;
			else
				tier_add(tier_of(g[j], p), p);
		}
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct kube_pod *p = &l->pods[i];
		if (slot[i] == STRMAP_NONE || is_down(p))
			continue;
		struct nixl_peer_group *g[2];
		for (size_t k = groups_of(&ix->dgds[slot[i]], p, g), j = 0; j < k; j++)
			tier_add_other(tier_of(g[j], p), p);
	}
	free(slot);
}

void nixl_peer_index_release(struct nixl_peer_index *ix)
{
	strmap_release(&ix->by_name);
	strmap_release(&ix->by_dgd);
	for (size_t i = 0; i < ix->n_dgds; i++)
		free(ix->dgd_keys[i]);
	free(ix->dgd_keys);
	free(ix->dgds);
	memset(ix, 0, sizeof(*ix));
}

/* The best member of t for self, or NULL (the file's comment says why
 * these three members are enough). */
static const struct kube_pod *tier_pick(const struct nixl_peer_tier *t, const struct kube_pod *self)
{
	const struct kube_pod *m = t->first;
	if (!m)
		return NULL;
	if (m != self && !same_node(m, self))
		return m;
	if (m == self && !self->node_name)
		return t->second;
	if (t->other_node)
		return t->other_node;
	return m != self ? m : t->second;
}

static void describe(struct nixl_peer_choice *out, const struct kube_pod *self, const char *want,
		     const struct kube_pod *best, size_t n_role, size_t n_down)
{
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
	bool same = same_node(self, best);
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
		 same ? " (the same node as the probed pod: this pair does not cross the fabric)"
		      : (self->node_name && best->node_name ? ", another node than the probed pod"
							    : ""),
		 also);
}

void nixl_peer_pick(const struct nixl_peer_index *ix, const char *self_name,
		    struct nixl_peer_choice *out)
{
	size_t at = self_name ? strmap_get(&ix->by_name, self_name) : STRMAP_NONE;
	nixl_peer_pick_pod(ix, at == STRMAP_NONE ? NULL : &ix->list->pods[at], self_name, out);
}

void nixl_peer_pick_pod(const struct nixl_peer_index *ix, const struct kube_pod *self,
			const char *self_name, struct nixl_peer_choice *out)
{
	memset(out, 0, sizeof(*out));
	out->state = PEER_NOT_FOUND;
	out->self = self;
	if (!self || !self->dgd) {
		snprintf(out->why, sizeof(out->why),
			 "pod %s carries no %s label (not deployed by the Dynamo operator?): "
			 "name the peer with --peer POD",
			 self_name ? self_name : "?", KUBE_LABEL_DGD);
		return;
	}
	const char *want = other_role(self->sub_component_type);
	char *key = dgd_key(self);
	size_t d = strmap_get(&ix->by_dgd, key);
	free(key);
	if (d == STRMAP_NONE) { /* no worker at all in self's DGD */
		describe(out, self, want, NULL, 0, 0);
		return;
	}
	const struct nixl_peer_dgd *dg = &ix->dgds[d];
	const struct nixl_peer_group *g = !want                     ? &dg->any
					  : !strcmp(want, "decode") ? &dg->decode
								    : &dg->prefill;
	/* Only the any group can hold self (the others hold the other role). */
	bool member = g == &dg->any && is_worker(self);
	size_t n_role = g->n - member, n_down = g->n_down - (member && is_down(self));
	const struct kube_pod *best = tier_pick(&g->ready, self);
	if (!best)
		best = tier_pick(&g->up, self);
	describe(out, self, want, best, n_role, n_down);
}

void nixl_pick_peer(const struct kube_pod_list *l, const char *self_name,
		    struct nixl_peer_choice *out)
{
	struct nixl_peer_index ix;
	nixl_peer_index_init(&ix, l);
	nixl_peer_pick(&ix, self_name, out);
	nixl_peer_index_release(&ix);
}
