/* SPDX-License-Identifier: Apache-2.0 */
/* `kubectl kustomize -- DIR`, read-only (kube_kustomize.h). */
#include "probe/kube_kustomize.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "core/yaml_limits.h"
#include "probe/kube.h"
#include "probe/run_command.h"

#define KUSTOMIZE_ERROR_MAX 200

int kube_kustomize_argv(const char *kubectl, const char *dir,
			const char *argv[KUBE_KUSTOMIZE_ARGV_MAX])
{
	if (!kubectl || !*kubectl || *kubectl == '-' || !dir || !*dir)
		return -1;
	int n = 0;
	argv[n++] = kubectl;
	argv[n++] = "kustomize";
	argv[n++] = "--"; /* a folder named -x is a folder */
	argv[n++] = dir;
	argv[n] = NULL;
	return n;
}

static char *clip(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		n--;
	return xstrndup(s, n > KUSTOMIZE_ERROR_MAX ? KUSTOMIZE_ERROR_MAX : n);
}

char *kube_kustomize_error(const char *err, size_t len)
{
	const char *end = err ? err + len : NULL, *last = NULL;
	size_t last_len = 0;
	for (const char *p = err; p && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		/* klog: E1202 13:08:05 ... run.go:72] "command failed" err="..." */
		for (size_t i = 0; i + 5 <= ll; i++)
			if (!memcmp(p + i, "err=\"", 5)) {
				const char *e = p + i + 5;
				const char *q = memchr(e, '"', ll - i - 5);
				return clip(e, q ? (size_t)(q - e) : ll - i - 5);
			}
		if (ll > 7 && (!memcmp(p, "Error: ", 7) || !memcmp(p, "error: ", 7)))
			return clip(p + 7, ll - 7);
		if (ll) {
			last = p;
			last_len = ll;
		}
		p = nl ? nl + 1 : end;
	}
	return last ? clip(last, last_len) : xstrdup("no message");
}

enum probe_error kube_kustomize(const char *kubectl, const char *dir, double deadline, char **out,
				size_t *out_len, char **errmsg)
{
	const char *argv[KUBE_KUSTOMIZE_ARGV_MAX];
	*out = NULL;
	*out_len = 0;
	*errmsg = NULL;
	if (!kubectl || !*kubectl)
		kubectl = "kubectl";
	if (kube_kustomize_argv(kubectl, dir, argv) < 0) {
		*errmsg = xstrdup("kubectl cannot be a name that starts with '-'");
		return PROBE_BAD_TARGET;
	}
	struct run_request req = {
		.argv = argv, .deadline = deadline, .stdout_cap = YAML_MAX_FILE_BYTES};
	struct run_result res;
	run_command(&req, &res);
	enum probe_error e = PROBE_OK;
	if (res.timed_out) {
		*errmsg = xstrdup("kubectl kustomize did not finish before the deadline "
				  "(kubectl was stopped)");
		e = PROBE_TIMEOUT;
	} else if (res.status == RUN_EXITED && res.exit_code == 0) {
		if (res.out_capped) {
			*errmsg = xasprintf("the rendering is larger than the %u MiB a manifest "
					    "may be",
					    (unsigned)(YAML_MAX_FILE_BYTES >> 20));
			e = PROBE_EXEC_FAILED;
		} else {
			*out = res.out;
			*out_len = res.out_len;
			res.out = NULL;
		}
	} else if (res.status == RUN_EXITED) {
		char *said = kube_kustomize_error(res.err, res.err_len);
		*errmsg = xasprintf("kubectl kustomize failed (exit %d): %s", res.exit_code, said);
		free(said);
		e = PROBE_EXEC_FAILED;
	} else {
		struct kube_target k = {.kubectl = kubectl};
		e = kube_classify(&k, res.status, res.spawn_errno, res.exit_code, res.term_signal,
				  res.err, res.err_len, errmsg);
		if (e != PROBE_KUBECTL_MISSING)
			e = PROBE_EXEC_FAILED;
	}
	run_result_release(&res);
	return e;
}
