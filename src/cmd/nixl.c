/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `check_interconnect nixl`: the pure NIXL/UCX analysis of one transcript
 * and the pair-test commands (the runner probes the target).  For a pod
 * target without --peer the peer is found with ONE read-only `kubectl get
 * pods` (every pod of the namespace that carries the Dynamo deployment
 * label), started by cmd_nixl_start() beside the one `kubectl exec`, so that
 * the wall time is one round trip, not two.  Total: 1 exec + at most 1 get.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/xalloc.h"
#include "live/live.h"
#include "nixl/nixl.h"
#include "node/node_checks.h"
#include "probe/kube_get_pods.h"
#include "probe/run_command.h"

/* A peer host for local targets: a host name or an address. */
static bool host_valid(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (!n || n > 253 || s[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '-' || c == ':' || c == '_'))
			return false;
	}
	return true;
}

int cmd_nixl_check(const struct verb_ctx *c)
{
	bool pod = c->probe.pod != NULL;
	if (c->peer) {
		if (pod && !kube_name_valid(c->peer))
			return cli_usage_error("nixl",
					       "invalid --peer pod name (a Kubernetes name: "
					       "lowercase letters, digits, '-' and '.')");
		if (!pod && !host_valid(c->peer))
			return cli_usage_error("nixl",
					       "invalid --peer host (a host name or address)");
		if (pod && !strcmp(c->peer, c->probe.pod))
			return cli_usage_error("nixl", "--peer names the probed pod itself");
	}
	return 0;
}

/* The one `get pods`, on its own thread. */
struct lookup {
	const struct probe_target *target;
	double deadline;
	struct kube_pod_list pods;
	enum probe_error err;
	char *msg;
	int calls;
	bool wanted, threaded, joined;
	pthread_t th;
};

static void *lookup_run(void *arg)
{
	struct lookup *l = arg;
	l->err = kube_get_pods(l->target, l->target->namespace_, KUBE_LABEL_DGD, l->deadline,
			       &l->pods, &l->msg, &l->calls);
	return NULL;
}

/* Wait for the lookup (or, without a thread, run it now: still one call). */
static void lookup_join(struct lookup *l)
{
	if (l->joined || !l->wanted)
		return;
	if (l->threaded)
		pthread_join(l->th, NULL);
	else
		lookup_run(l);
	l->joined = true;
}

void cmd_nixl_start(struct verb_ctx *c)
{
	struct lookup *l = xcalloc(1, sizeof(*l));
	l->target = &c->probe;
	/* The same deadline as the exec beside it. */
	l->deadline = run_now() + probe_target_timeout(&c->probe);
	kube_pod_list_init(&l->pods);
	l->wanted = c->probe.pod && !c->probe.replay && !c->peer;
	l->threaded = l->wanted && pthread_create(&l->th, NULL, lookup_run, l) == 0;
	c->state = l;
}

void cmd_nixl_stop(struct verb_ctx *c)
{
	struct lookup *l = c->state;
	if (!l)
		return;
	/* A probe that failed still waits for the lookup beside it. */
	if (l->threaded && !l->joined)
		pthread_join(l->th, NULL);
	kube_pod_list_release(&l->pods);
	free(l->msg);
	free(l);
	c->state = NULL;
}

static enum nixl_kind kind_of(const struct probe_target *p)
{
	if (p->replay)
		return NK_REPLAY;
	if (p->pod)
		return NK_POD;
	return p->sysroot ? NK_SYSROOT : NK_LOCAL;
}

void cmd_nixl(struct verb_ctx *c, struct ci_report *r, const struct transcript *tr)
{
	const struct probe_target *p = &c->probe;
	struct lookup *lk = c->state;
	lookup_join(lk);

	struct nixl_facts f;
	nixl_facts_init(&f);
	nixl_facts_read(&f, tr);

	struct nixl_target t = {
		.kind = kind_of(p),
		.namespace_ = p->namespace_,
		.pod = p->pod,
		.container = p->container,
		.context = p->context,
		.kubeconfig = p->kubeconfig,
		.peer = c->peer,
		.peer_state = c->peer ? PEER_GIVEN : PEER_NONE,
	};
	struct nixl_peer_choice pc;
	memset(&pc, 0, sizeof(pc));
	if (lk->wanted && lk->err != PROBE_OK) {
		t.peer_state = PEER_LOOKUP_FAILED;
		t.peer_why = lk->msg ? lk->msg : probe_error_name(lk->err);
	} else if (lk->wanted) {
		nixl_pick_peer(&lk->pods, p->pod, &pc);
		t.peer_state = pc.state;
		t.peer_why = pc.why;
		if (pc.peer) {
			t.peer = pc.peer->name;
			t.peer_ip = pc.peer->pod_ip;
			t.peer_role = pc.peer->sub_component_type;
			t.peer_node = pc.peer->node_name;
		}
		if (pc.self) {
			t.pod_ip = pc.self->pod_ip;
			t.pod_role = pc.self->sub_component_type;
			t.pod_node = pc.self->node_name;
			t.dgd = pc.self->dgd;
		}
	}
	nixl_analyze(r, &f, &t, r->target);
	/* Asked for: what NIXL's agent loaded and moved (node runs these on
	 * its own; nixl only when the transcript holds a window or a log,
	 * --observe's or --logs', so that a plain nixl run keeps its report). */
	if (live_facts_asked(&f.node.live)) {
		node_fabric_in(&f.node, &f.node.live.fabric);
		f.node.live.have_fabric = true;
		live_checks_run(r, &f.node.live, "engine");
	}
	nixl_steps(r, &f, &t);
	nixl_facts_release(&f);
}
