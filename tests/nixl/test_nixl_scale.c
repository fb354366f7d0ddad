/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The peer choice at fleet scale: a pick per pod of one `get pods` list
 * (a nixl or all fleet run) is linear in the pods, and the index makes the
 * same choice, with the same why, as a scan of the list per pick.
 *
 * Linked with -Wl,--wrap=strcmp (tests/nixl/meson.build), so every string
 * comparison of the index and the picks is counted: a bound on that count,
 * never a clock, proves the work grows with the pods.  The scan this
 * replaced (kube_pods_find, then every pod of the list per pick) made about
 * 64,000 comparisons per pod on the first fleet below at 10,000 pods, and
 * more with every pod; the index makes about 27 at any size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/xalloc.h"
#include "nixl/nixl.h"

#include "count_strcmp.h"

#define SCALE_PODS    10000
#define SCALE_PER_POD 60 /* the index makes about 27 (the test prints it) */

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void pod_set(struct kube_pod *p, const char *name, const char *dgd, const char *type,
		    const char *sub, const char *phase, const char *node, bool ready,
		    bool terminating)
{
	memset(p, 0, sizeof(*p));
	p->name = xstrdup(name);
	p->namespace_ = xstrdup("dynamo");
	p->dgd = dup_or_null(dgd);
	p->component_type = dup_or_null(type);
	p->sub_component_type = dup_or_null(sub);
	p->phase = dup_or_null(phase);
	p->node_name = dup_or_null(node);
	p->deletion_timestamp = terminating ? xstrdup("2026-12-01T00:00:00Z") : NULL;
	p->n_containers = 1;
	p->containers = xcalloc(1, sizeof(*p->containers));
	p->containers[0].name = xstrdup("main");
	p->containers[0].ready = ready;
	p->containers[0].running = true;
	p->containers[0].has_status = true;
}

static void list_alloc(struct kube_pod_list *l, size_t n)
{
	kube_pod_list_init(l);
	l->pods = xcalloc(n ? n : 1, sizeof(*l->pods));
	l->n = l->cap = n;
}

/* The index once, then a pick per pod: the comparisons of it all. */
static size_t picks_count(const struct kube_pod_list *l, size_t *found)
{
	n_strcmp = 0;
	*found = 0;
	struct nixl_peer_index ix;
	nixl_peer_index_init(&ix, l);
	for (size_t i = 0; i < l->n; i++) {
		struct nixl_peer_choice pc;
		nixl_peer_pick(&ix, l->pods[i].name, &pc);
		*found += pc.state == PEER_FOUND;
	}
	nixl_peer_index_release(&ix);
	return n_strcmp;
}

static void test_pick_linear(void **state)
{
	(void)state;
	size_t n = SCALE_PODS, found;
	struct kube_pod_list l;
	char name[48], node[24];

	/* The operator's shape (tests/fleet/make_cluster.py): one DGD,
	 * prefill and decode alternating, two pods per node; every 97th not
	 * Running, every 13th not ready, every 50th a frontend. */
	list_alloc(&l, n);
	for (size_t i = 0; i < n; i++) {
		const char *sub = i % 2 ? "decode" : "prefill";
		snprintf(name, sizeof(name), "llm-%s-%05zu", sub, i);
		snprintf(node, sizeof(node), "gpu-node-%04zu", i / 2);
		pod_set(&l.pods[i], name, "llm-disagg", i % 50 == 49 ? "frontend" : "worker", sub,
			i % 97 == 96 ? "Pending" : "Running", node, i % 13 != 12, false);
	}
	size_t k = picks_count(&l, &found);
	print_message("%zu pods, one DGD: %zu comparisons (%.1f per pod), %zu peers found\n", n, k,
		      (double)k / (double)n, found);
	assert_true(found > n / 2);
	assert_true(k < SCALE_PER_POD * n);
	kube_pod_list_release(&l);

	/* Every pod on one node and without a prefill/decode role (every
	 * other worker is a candidate, none off the node): the worst case for
	 * a pick that skips the candidates on its own node one by one. */
	list_alloc(&l, n);
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "agg-%05zu", n - i);
		pod_set(&l.pods[i], name, "agg", "worker", NULL, "Running", "node-0", i % 3 != 0,
			i % 101 == 0);
	}
	k = picks_count(&l, &found);
	print_message("%zu pods on one node, no roles: %zu comparisons (%.1f per pod)\n", n, k,
		      (double)k / (double)n);
	assert_int_equal(found, n);
	assert_true(k < SCALE_PER_POD * n);
	kube_pod_list_release(&l);
}

/* ---- the scan the index replaced, kept as the reference ----
 * (src/nixl/nixl_peer.c before the index: kube_pods_find, then every pod
 * of the list ranked; the why text is compared byte for byte) */

static const char *ref_other_role(const char *role)
{
	if (role && !__real_strcmp(role, "prefill"))
		return "decode";
	if (role && !__real_strcmp(role, "decode"))
		return "prefill";
	return NULL;
}

static bool ref_is_worker(const struct kube_pod *p)
{
	if (p->component_type && !__real_strcmp(p->component_type, "frontend"))
		return false;
	return (p->component_type && !__real_strcmp(p->component_type, "worker")) ||
	       (p->sub_component_type && (!__real_strcmp(p->sub_component_type, "prefill") ||
					  !__real_strcmp(p->sub_component_type, "decode")));
}

static bool ref_same_node(const struct kube_pod *a, const struct kube_pod *b)
{
	return a->node_name && b->node_name && !__real_strcmp(a->node_name, b->node_name);
}

static int ref_rank(const struct kube_pod *p, const struct kube_pod *self)
{
	return (kube_pod_ready(p) ? 0 : 2) + ref_same_node(self, p);
}

static void ref_pick(const struct kube_pod_list *l, const char *self_name,
		     struct nixl_peer_choice *out)
{
	memset(out, 0, sizeof(*out));
	out->state = PEER_NOT_FOUND;
	const struct kube_pod *self = NULL;
	for (size_t i = 0; self_name && i < l->n && !self; i++)
		if (!__real_strcmp(l->pods[i].name, self_name))
			self = &l->pods[i];
	out->self = self;
	if (!self || !self->dgd) {
		snprintf(out->why, sizeof(out->why),
			 "pod %s carries no %s label (not deployed by the Dynamo operator?): "
			 "name the peer with --peer POD",
			 self_name ? self_name : "?", KUBE_LABEL_DGD);
		return;
	}
	const char *want = ref_other_role(self->sub_component_type);
	const struct kube_pod *best = NULL;
	int best_rank = 0;
	size_t n_role = 0, n_down = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct kube_pod *p = &l->pods[i];
		if (p == self || !p->dgd || __real_strcmp(p->dgd, self->dgd) || !ref_is_worker(p))
			continue;
		if (want && (!p->sub_component_type || __real_strcmp(p->sub_component_type, want)))
			continue;
		n_role++;
		if (!p->phase || __real_strcmp(p->phase, "Running") || p->deletion_timestamp) {
			n_down++;
			continue;
		}
		int r = ref_rank(p, self);
		if (!best || r < best_rank ||
		    (r == best_rank && __real_strcmp(p->name, best->name) < 0)) {
			best = p;
			best_rank = r;
		}
	}
	const char *role_word = want ? want : "worker";
	if (!best) {
		if (n_role)
			snprintf(out->why, sizeof(out->why),
				 "no Running %s pod in deployment %s (%zu found, none Running or "
				 "all terminating): name the peer with --peer POD",
				 role_word, self->dgd, n_role);
		else
			snprintf(out->why, sizeof(out->why),
				 "no other %s pod in deployment %s: name the peer with --peer POD",
				 role_word, self->dgd);
		return;
	}
	out->state = PEER_FOUND;
	out->peer = best;
	char also[96] = "";
	if (n_role > 1)
		snprintf(also, sizeof(also), "; %zu %s pods in all, %zu not Running", n_role,
			 role_word, n_down);
	snprintf(out->why, sizeof(out->why),
		 "%s pod %s of deployment %s (the probed pod is %s): %s on node %s%s%s", role_word,
		 best->name, self->dgd,
		 self->sub_component_type ? self->sub_component_type
					  : "a worker without a prefill/decode role",
		 kube_pod_ready(best) ? "Running and ready" : "Running but not ready",
		 best->node_name ? best->node_name : "(unknown)",
		 ref_same_node(self, best)
			 ? " (the same node as the probed pod: this pair does not cross the fabric)"
			 : (self->node_name && best->node_name
				    ? ", another node than the probed pod"
				    : ""),
		 also);
}

static uint64_t rng = 88172645463325252u;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

#define EQ_FLEETS 2000

/* Random lists (few DGDs, nodes and names, so that ties, duplicate names,
 * shared nodes, missing labels and every phase meet): the index and the
 * scan agree on every pod's pick, and on names that are not there. */
static void test_pick_same_as_scan(void **state)
{
	(void)state;
	static const char *const dgds[] = {"a", "b", "c", NULL};
	static const char *const types[] = {"worker",   "worker",  "worker",
					    "frontend", "planner", NULL};
	static const char *const subs[] = {"prefill", "decode", "prefill", "decode", "other", NULL};
	static const char *const phases[] = {"Running", "Running", "Running", "Pending", NULL};
	static const char *const nodes[] = {"n1", "n2", "n3", "n4"};
	size_t picks = 0, found = 0;
	for (size_t f = 0; f < EQ_FLEETS; f++) {
		unsigned n = rnd(f % 10 == 0 ? 120 : 24), n_nodes = 1 + rnd(4);
		unsigned n_names = 1 + rnd(n + 2);
		struct kube_pod_list l;
		list_alloc(&l, n);
		for (unsigned i = 0; i < n; i++) {
			char name[16];
			snprintf(name, sizeof(name), "p%u", rnd(n_names));
			pod_set(&l.pods[i], name, dgds[rnd(4)], types[rnd(6)], subs[rnd(6)],
				phases[rnd(5)], rnd(5) ? nodes[rnd(n_nodes)] : NULL, rnd(5) != 0,
				rnd(8) == 0);
			if (rnd(6) == 0)
				l.pods[i].containers[0].running = false;
		}
		struct nixl_peer_index ix;
		nixl_peer_index_init(&ix, &l);
		for (unsigned i = 0; i <= n + 1; i++) {
			const char *q = i < n ? l.pods[i].name : i == n ? "missing" : NULL;
			struct nixl_peer_choice a, b;
			ref_pick(&l, q, &a);
			nixl_peer_pick(&ix, q, &b);
			assert_int_equal(a.state, b.state);
			assert_ptr_equal(a.self, b.self);
			assert_ptr_equal(a.peer, b.peer);
			assert_string_equal(a.why, b.why);
			picks++;
			found += a.state == PEER_FOUND;
		}
		nixl_peer_index_release(&ix);
		nixl_peer_index_release(&ix); /* safe twice */
		kube_pod_list_release(&l);
	}
	print_message("%d random fleets, %zu picks (%zu with a peer): the same as the scan\n",
		      EQ_FLEETS, picks, found);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_linear),
		cmocka_unit_test(test_pick_same_as_scan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
