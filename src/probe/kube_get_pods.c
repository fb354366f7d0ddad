/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one read-only `kubectl get pods -n NS [-l SEL] -o json`: its argv and
 * its run; the answer is parsed by the pure parse/kube_pods.c.
 */
#include "probe/kube_get_pods.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "probe/kube.h"
#include "probe/run_command.h"

int kube_get_pods_argv(const char *kubectl, const char *context, const char *kubeconfig,
		       const char *namespace_, const char *selector,
		       const char *argv[KUBE_GET_ARGV_MAX], char **why)
{
	*why = NULL;
	if (selector && !kube_selector_valid(selector)) {
		*why = xstrdup(
			"invalid label selector (letters, digits and . _ / = , ! - only, or 'key in (a,b)')");
		return -1;
	}
	/* NULL: every namespace (kubectl's -A); the base only checks the name */
	int n = kube_base_argv(kubectl, context, kubeconfig, namespace_ ? namespace_ : "default",
			       argv, why);
	if (n < 0)
		return -1;
	argv[n++] = "get";
	argv[n++] = "pods";
	if (namespace_) {
		argv[n++] = "-n";
		argv[n++] = namespace_;
	} else {
		argv[n++] = "--all-namespaces";
	}
	if (selector) {
		argv[n++] = "-l";
		argv[n++] = selector;
	}
	argv[n++] = "-o";
	argv[n++] = "json";
	argv[n] = NULL;
	return n;
}

enum probe_error kube_get_pods(const struct probe_target *o, const char *namespace_,
			       const char *selector, double deadline, struct kube_pod_list *out,
			       char **errmsg, int *calls)
{
	const char *kubectl = o->kubectl && *o->kubectl ? o->kubectl : "kubectl";
	/* how the messages name the call and where it looked */
	char *flag = namespace_ ? xasprintf("-n %s", namespace_) : xstrdup("--all-namespaces");
	char *where = namespace_ ? xasprintf("namespace %s", namespace_) : xstrdup("any namespace");
	const char *argv[KUBE_GET_ARGV_MAX];
	char *why = NULL;
	enum probe_error e = PROBE_OK;

	*errmsg = NULL;
	if (kube_get_pods_argv(kubectl, o->context, o->kubeconfig, namespace_, selector, argv,
			       &why) < 0) {
		*errmsg = why;
		free(flag);
		free(where);
		return PROBE_BAD_TARGET;
	}
	/* A fleet's list is big (10,000 pods: tens of MiB): the parser's cap.
	 * (The default 4 MiB output cap failed at about 230 real pods.) */
	struct run_request req = {
		.argv = argv, .deadline = deadline, .stdout_cap = KUBE_PODS_MAX_BYTES};
	struct run_result res;
	run_command(&req, &res);
	if (calls && res.status != RUN_NOT_FOUND && res.status != RUN_NOT_EXECUTABLE &&
	    res.status != RUN_SPAWN_FAILED)
		(*calls)++;

	if (res.timed_out) {
		*errmsg = xstrdup(
			"kubectl get pods did not finish before the deadline (kubectl was stopped)");
		e = PROBE_TIMEOUT;
	} else if (res.status == RUN_EXITED && res.exit_code == 0) {
		if (res.out_capped || kube_pods_parse(res.out, res.out_len, out)) {
			*errmsg =
				res.out_capped
					? xasprintf(
						  "kubectl get pods %s answered with more than %u MiB of JSON "
						  "(the cap): narrow it with -l",
						  flag, KUBE_PODS_MAX_BYTES >> 20)
					: xasprintf(
						  "kubectl get pods %s answered with something that is not a pod list",
						  flag);
			e = PROBE_EXEC_FAILED;
		}
	} else {
		struct kube_target k = {.kubectl = kubectl,
					.namespace_ = namespace_ ? namespace_ : "(all)"};
		char *m = NULL;
		e = kube_classify(&k, res.status, res.spawn_errno, res.exit_code, res.term_signal,
				  res.err, res.err_len, &m);
		/* kube_classify words it for exec; this call only lists.  What
		 * kubectl said ("; kubectl said '...'") is kept either way. */
		const char *said = m ? strstr(m, "; kubectl said ") : NULL;
		if (e == PROBE_FORBIDDEN) {
			char *n = xasprintf(
				"RBAC forbids listing pods in %s (needs 'list' on pods%s)%s", where,
				namespace_ ? "" : " across the cluster: a ClusterRole",
				said ? said : "");
			free(m);
			m = n;
		} else if (m && (!strncmp(m, "kubectl exec", 12) || e == PROBE_POD_NOT_FOUND ||
				 e == PROBE_CONTAINER_NOT_FOUND || e == PROBE_NO_SHELL)) {
			char *n = xasprintf("kubectl get pods %s failed (exit %d)%s", flag,
					    res.exit_code, said ? said : "");
			free(m);
			m = n;
			e = PROBE_EXEC_FAILED;
		}
		*errmsg = m;
	}
	run_result_release(&res);
	free(flag);
	free(where);
	return e;
}
