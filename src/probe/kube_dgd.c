/* SPDX-License-Identifier: Apache-2.0 */
/* The one read-only `kubectl get` of a DynamoGraphDeployment (kube_dgd.h). */
#include "probe/kube_dgd.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "probe/kube.h"
#include "probe/run_command.h"

/* A DGD is a few hundred KiB at most; the manifest reader's own cap. */
#define KUBE_DGD_MAX_BYTES (8u << 20)

int kube_get_dgd_argv(const char *kubectl, const char *context, const char *kubeconfig,
		      const char *namespace_, const char *name, const char *argv[KUBE_DGD_ARGV_MAX],
		      char **why)
{
	*why = NULL;
	if (!kube_name_valid(name)) {
		*why = xstrdup(
			"invalid deployment name (a Kubernetes name: lowercase letters, digits, "
			"'-' and '.', at most 253)");
		return -1;
	}
	int n = kube_base_argv(kubectl, context, kubeconfig, namespace_, argv, why);
	if (n < 0)
		return -1;
	argv[n++] = "get";
	argv[n++] = KUBE_DGD_RESOURCE;
	argv[n++] = name;
	argv[n++] = "-n";
	argv[n++] = namespace_;
	argv[n++] = "-o";
	argv[n++] = "json";
	argv[n] = NULL;
	return n;
}

enum probe_error kube_get_dgd(const struct probe_target *t, const char *name, double deadline,
			      char **out, size_t *out_len, char **errmsg)
{
	const char *kubectl = t->kubectl && *t->kubectl ? t->kubectl : "kubectl";
	const char *namespace_ = t->namespace_;
	const char *argv[KUBE_DGD_ARGV_MAX];
	char *why = NULL;
	*out = NULL;
	*out_len = 0;
	*errmsg = NULL;
	if (kube_get_dgd_argv(kubectl, t->context, t->kubeconfig, namespace_, name, argv, &why) <
	    0) {
		*errmsg = why;
		return PROBE_BAD_TARGET;
	}
	struct run_request req = {
		.argv = argv, .deadline = deadline, .stdout_cap = KUBE_DGD_MAX_BYTES};
	struct run_result res;
	run_command(&req, &res);
	enum probe_error e = PROBE_OK;
	if (res.timed_out) {
		*errmsg = xstrdup("kubectl get " KUBE_DGD_RESOURCE
				  " did not finish before the deadline "
				  "(kubectl was stopped)");
		e = PROBE_TIMEOUT;
	} else if (res.status == RUN_EXITED && res.exit_code == 0) {
		if (res.out_capped) {
			*errmsg = xasprintf("kubectl get " KUBE_DGD_RESOURCE
					    " %s answered with more than "
					    "%u MiB",
					    name, KUBE_DGD_MAX_BYTES >> 20);
			e = PROBE_EXEC_FAILED;
		} else {
			*out = res.out;
			*out_len = res.out_len;
			res.out = NULL;
		}
	} else if (res.status == RUN_EXITED && res.err &&
		   (strstr(res.err, "NotFound") || strstr(res.err, "not found"))) {
		/* Both "the server doesn't have a resource type" (no CRD) and
		 * "dynamographdeployments ... not found" land here; say which. */
		if (strstr(res.err, "resource type"))
			*errmsg = xasprintf(
				"the cluster has no DynamoGraphDeployment resource (is the "
				"Dynamo operator installed?)");
		else
			*errmsg = xasprintf("DynamoGraphDeployment %s not found in namespace %s",
					    name, namespace_);
		e = PROBE_POD_NOT_FOUND;
	} else {
		struct kube_target k = {.kubectl = kubectl, .namespace_ = namespace_};
		char *m = NULL;
		e = kube_classify(&k, res.status, res.spawn_errno, res.exit_code, res.term_signal,
				  res.err, res.err_len, &m);
		/* Worded for exec by kube_classify: say what this call was,
		 * keeping what kubectl said ("; kubectl said '...'"). */
		const char *said = m ? strstr(m, "; kubectl said ") : NULL;
		if (e == PROBE_FORBIDDEN) {
			char *n = xasprintf("RBAC forbids reading DynamoGraphDeployments in "
					    "namespace %s (needs 'get' on " KUBE_DGD_RESOURCE ")%s",
					    namespace_, said ? said : "");
			free(m);
			m = n;
		} else if (e != PROBE_KUBECTL_MISSING && e != PROBE_UNAUTHORIZED) {
			char *n = xasprintf("kubectl get " KUBE_DGD_RESOURCE
					    " %s -n %s failed (exit %d)%s",
					    name, namespace_, res.exit_code, said ? said : "");
			free(m);
			m = n;
			e = PROBE_EXEC_FAILED;
		}
		*errmsg = m;
	}
	run_result_release(&res);
	return e;
}
