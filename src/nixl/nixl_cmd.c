/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `check_interconnect nixl`: one probe (local, --sysroot, pod or --replay),
 * the pure NIXL/UCX analysis, and the pair-test commands.  For a pod target
 * without --peer the peer is found with ONE read-only `kubectl get pods`
 * (every pod of the namespace that carries the Dynamo deployment label),
 * run in parallel with the one `kubectl exec`, so that the wall time is one
 * round trip, not two.  Total: 1 exec + at most 1 get.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/render.h"
#include "core/report.h"
#include "core/xalloc.h"
#include "nixl/nixl.h"
#include "probe/kube_pods.h"
#include "probe/probe.h"
#include "probe/run_command.h"

#define NIXL_OPTS (OPT_NAMESPACE | OPT_POD | OPT_CONTAINER | OPT_CONTEXT | OPT_KUBECONFIG | \
		   OPT_KUBECTL | OPT_SYSROOT | OPT_SAVE_PROBE | OPT_REPLAY | OPT_TIMEOUT | OPT_PEER)

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

static int validate(const struct cli_opts *o)
{
	int rc = probe_target_validate("nixl", o, NIXL_OPTS);
	if (rc)
		return rc;
	bool pod = o->given & OPT_POD;
	if (o->given & OPT_PEER) {
		if (pod && !kube_name_valid(o->peer))
			return cli_usage_error("nixl", "invalid --peer pod name (a Kubernetes name: "
					       "lowercase letters, digits, '-' and '.')");
		if (!pod && !host_valid(o->peer))
			return cli_usage_error("nixl", "invalid --peer host (a host name or address)");
		if (pod && !strcmp(o->peer, o->pod))
			return cli_usage_error("nixl", "--peer names the probed pod itself");
	}
	return 0;
}

/* The one `get pods`, on its own thread. */
struct lookup {
	const struct cli_opts *o;
	double deadline;
	struct kube_pod_list pods;
	enum probe_error err;
	char *msg;
	int calls;
};

static void *lookup_run(void *arg)
{
	struct lookup *l = arg;
	l->err = kube_get_pods(l->o, l->o->namespace_, KUBE_LABEL_DGD, l->deadline, &l->pods,
			       &l->msg, &l->calls);
	return NULL;
}

static enum nixl_kind kind_of(const struct cli_opts *o)
{
	if (o->replay)
		return NK_REPLAY;
	if (o->pod)
		return NK_POD;
	return o->sysroot ? NK_SYSROOT : NK_LOCAL;
}

int cmd_nixl(const struct cli_opts *o)
{
	int rc = validate(o);
	if (rc)
		return rc;
	enum nixl_kind kind = kind_of(o);
	double timeout = o->timeout_s > 0 ? o->timeout_s : 30;

	/* Discovery runs beside the exec (same deadline) when it is needed. */
	bool discover = kind == NK_POD && !o->peer;
	struct lookup lk = {.o = o, .deadline = run_now() + timeout};
	kube_pod_list_init(&lk.pods);
	pthread_t th;
	bool threaded = discover && pthread_create(&th, NULL, lookup_run, &lk) == 0;

	struct probe_outcome out;
	probe_collect(o, NULL, &out);
	if (threaded)
		pthread_join(th, NULL);
	else if (discover)
		lookup_run(&lk);   /* no thread: run it after, still one call */

	const char *target = out.target ? out.target : "local host";
	struct ci_report r;
	report_init(&r, "nixl", target);
	if (out.err != PROBE_OK) {
		const char *msg = out.message ? out.message : probe_error_name(out.err);
		cli_error("nixl: %s", msg);
		report_add(&r, "nixl.probe", CI_SKIPPED, true, CI_LAYER_FABRIC, target, "%s", msg);
		report_finish(&r, o);
		rc = probe_error_exit(out.err);
	} else {
		struct nixl_facts f;
		nixl_facts_init(&f);
		nixl_facts_read(&f, &out.t);

		struct nixl_target t = {
			.kind = kind, .namespace_ = o->namespace_, .pod = o->pod,
			.container = o->container, .context = o->context,
			.kubeconfig = o->kubeconfig, .peer = o->peer,
			.peer_state = o->peer ? PEER_GIVEN : PEER_NONE,
		};
		struct nixl_peer_choice pc;
		memset(&pc, 0, sizeof(pc));
		if (discover && lk.err != PROBE_OK) {
			t.peer_state = PEER_LOOKUP_FAILED;
			t.peer_why = lk.msg ? lk.msg : probe_error_name(lk.err);
		} else if (discover) {
			nixl_pick_peer(&lk.pods, o->pod, &pc);
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
		nixl_analyze(&r, &f, &t, target);
		nixl_steps(&r, &f, &t);
		rc = report_finish(&r, o);
		nixl_facts_release(&f);
	}
	report_release(&r);
	probe_outcome_release(&out);
	kube_pod_list_release(&lk.pods);
	free(lk.msg);
	return rc;
}
