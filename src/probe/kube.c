/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Names, the exec argv, and kubectl's error texts.  The patterns below are
 * the texts kubectl and the container runtimes really print (see
 * tests/fixtures/probe/kubectl*); they are matched per stderr line, in a
 * fixed priority, so that a line such as "unable to upgrade connection:
 * Unauthorized" is an authorization problem, not a connection one.
 */
#include "probe/kube.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report.h"
#include "core/xalloc.h"

static bool is_alnum_lower(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* One RFC 1123 label of [s, s+n). */
static bool label_ok(const char *s, size_t n)
{
	if (!n || n > 63 || !is_alnum_lower(s[0]) || !is_alnum_lower(s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_alnum_lower(s[i]) && s[i] != '-')
			return false;
	return true;
}

bool kube_label_valid(const char *s)
{
	return s && label_ok(s, strlen(s));
}

bool kube_name_valid(const char *name)
{
	if (!name)
		return false;
	size_t n = strlen(name);
	if (!n || n > 253)
		return false;
	const char *p = name, *end = name + n;
	while (p <= end) {
		const char *dot = memchr(p, '.', (size_t)(end - p));
		const char *le = dot ? dot : end;
		if (!label_ok(p, (size_t)(le - p)))
			return false;
		if (!dot)
			break;
		p = dot + 1;
	}
	return true;
}

bool kube_loose_valid(const char *s)
{
	if (!s || !*s || s[0] == '-')
		return false;
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++)
		if (*p < 0x20 || *p == 0x7f || n >= 1024)
			return false;
	return true;
}

int kube_base_argv(const char *kubectl, const char *context, const char *kubeconfig,
		   const char *namespace_, const char **argv, char **why)
{
	*why = NULL;
	if (!kubectl || !*kubectl) {
		*why = xstrdup("no kubectl given");
		return -1;
	}
	if (!kube_label_valid(namespace_)) {
		*why = xstrdup(
			"invalid namespace name (a Kubernetes name: lowercase letters, digits and '-', at most 63)");
		return -1;
	}
	if (context && !kube_loose_valid(context)) {
		*why = xstrdup(
			"invalid --context (empty, starts with '-', or has control characters)");
		return -1;
	}
	if (kubeconfig && !kube_loose_valid(kubeconfig)) {
		*why = xstrdup(
			"invalid --kubeconfig (empty, starts with '-', or has control characters)");
		return -1;
	}
	int n = 0;
	argv[n++] = kubectl;
	if (context) {
		argv[n++] = "--context";
		argv[n++] = context;
	}
	if (kubeconfig) {
		argv[n++] = "--kubeconfig";
		argv[n++] = kubeconfig;
	}
	return n;
}

int kube_exec_argv(const struct kube_target *k, const char *script, const char *root,
		   const char *argv[KUBE_ARGV_MAX], char **why)
{
	int n = kube_base_argv(k->kubectl, k->context, k->kubeconfig, k->namespace_, argv, why);
	if (n < 0)
		return -1;
	if (!kube_name_valid(k->pod)) {
		*why = xasprintf(
			"invalid pod name (a Kubernetes name: lowercase letters, digits, '-' and '.', at most 253)");
		return -1;
	}
	if (k->container && !kube_label_valid(k->container)) {
		*why = xasprintf(
			"invalid container name (a Kubernetes name: lowercase letters, digits and '-', at most 63)");
		return -1;
	}
	argv[n++] = "exec";
	argv[n++] = "-n";
	argv[n++] = k->namespace_;
	argv[n++] = k->pod;
	if (k->container) {
		argv[n++] = "-c";
		argv[n++] = k->container;
	}
	argv[n++] = "--";
	argv[n++] = "sh";
	argv[n++] = "-c";
	argv[n++] = script;
	argv[n++] = "ci-probe"; /* $0 of the script */
	argv[n++] = root ? root : "";
	if (k->window)
		argv[n++] = k->window; /* $2: digits, formatted by the caller */
	argv[n] = NULL;
	return n;
}

int kube_logs_argv(const struct kube_target *k, const char *tail, const char *argv[KUBE_ARGV_MAX],
		   char **why)
{
	int n = kube_base_argv(k->kubectl, k->context, k->kubeconfig, k->namespace_, argv, why);
	if (n < 0)
		return -1;
	if (!kube_name_valid(k->pod)) {
		*why = xasprintf(
			"invalid pod name (a Kubernetes name: lowercase letters, digits, '-' and '.', at most 253)");
		return -1;
	}
	if (k->container && !kube_label_valid(k->container)) {
		*why = xasprintf(
			"invalid container name (a Kubernetes name: lowercase letters, digits and '-', at most 63)");
		return -1;
	}
	argv[n++] = "logs";
	argv[n++] = "-n";
	argv[n++] = k->namespace_;
	argv[n++] = k->pod;
	if (k->container) {
		argv[n++] = "-c";
		argv[n++] = k->container;
	}
	argv[n++] = tail;
	argv[n++] = "--timestamps";
	argv[n] = NULL;
	return n;
}

/* ---- classification ---- */

/* stderr split into sanitized, NUL-terminated lines (bounded). */
#define MAX_LINES 64
#define MAX_LINE  240

struct lines {
	char *l[MAX_LINES];
	size_t n;
};

static void lines_split(struct lines *ls, const char *err, size_t len)
{
	ls->n = 0;
	const char *p = err, *end = err ? err + len : err;
	while (p && p < end && ls->n < MAX_LINES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t n = (size_t)(le - p);
		char *s = xmalloc(n + 1);
		size_t o = 0;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)p[i];
			if (c == '\r' && i == n - 1)
				break;
			/* one clean line for the user: no ANSI, no control bytes */
			s[o++] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
		}
		while (o && s[o - 1] == ' ')
			o--;
		s[o] = '\0';
		if (o)
			ls->l[ls->n++] = s;
		else
			free(s);
		p = nl ? nl + 1 : end;
	}
}

static void lines_free(struct lines *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		free(ls->l[i]);
	ls->n = 0;
}

/* The first line containing any of pats (NULL-terminated), or NULL. */
static const char *find_any(const struct lines *ls, const char *const *pats)
{
	for (size_t i = 0; i < ls->n; i++)
		for (const char *const *p = pats; *p; p++)
			if (strstr(ls->l[i], *p))
				return ls->l[i];
	return NULL;
}

static const char *find_both(const struct lines *ls, const char *a, const char *b)
{
	for (size_t i = 0; i < ls->n; i++)
		if (strstr(ls->l[i], a) && strstr(ls->l[i], b))
			return ls->l[i];
	return NULL;
}

/* kubectl's line, shortened for the message: without its "error: " prefix,
 * and when long, its head and its tail: the runtime's reason ("exec:
 * \"sh\": executable file not found") is at the end of a long wrapper. */
static char *quote_line(const char *l)
{
	while (!strncmp(l, "error: ", 7) || !strncmp(l, "Error: ", 7))
		l += 7;
	/* "Error from server (Forbidden): ": the tool's words already say it. */
	if (!strncmp(l, "Error from server", 17)) {
		const char *c = strstr(l, "): ");
		if (c && c - l < 48)
			l = c + 3;
		else if (!strncmp(l, "Error from server: ", 19))
			l += 19;
	}
	size_t n = strlen(l);
	if (n > MAX_LINE)
		return xasprintf("%.*s ... %s", MAX_LINE / 3, l, l + n - (MAX_LINE - MAX_LINE / 3));
	return xstrdup(l);
}

static bool is_noise(const char *l)
{
	return !strncmp(l, "Defaulted container", 19) || strstr(l, "is DEPRECATED") ||
	       !strncmp(l, "Warning:", 8) || !strncmp(l, "W0", 2) || !strncmp(l, "I0", 2) ||
	       !strncmp(l, "command terminated with exit code", 33);
}

static char *with_line(const char *summary, const char *line)
{
	if (!line)
		return xstrdup(summary);
	/* In the tool's words, kubectl's reason quoted after them: one line
	 * that says what failed and what the cluster answered. */
	char *q = quote_line(line);
	char *m = xasprintf("%s; kubectl said '%s'", summary, q);
	free(q);
	return m;
}

enum probe_error kube_classify(const struct kube_target *k, enum run_status status, int spawn_errno,
			       int exit_code, int term_signal, const char *err, size_t err_len,
			       char **message)
{
	static const char *const nocluster[] = {"localhost:8080 was refused", NULL};
	static const char *const unauth[] = {
		"You must be logged in",
		"Unauthorized",
		"provide credentials",
		"getting credentials",
		"no configuration has been provided",
		"invalid configuration",
		"error loading config file",
		"context was not found",
		"current-context",
		"does not exist in kubeconfig",
		"error: stat ",
		"couldn't get current server API group list: the server has asked",
		NULL};
	static const char *const forbidden[] = {"(Forbidden)", "is forbidden", NULL};
	static const char *const podnf[] = {"pod does not exist", "(NotFound)",
					    "not found in namespace", NULL};
	static const char *const ctrnf[] = {"container not found",
					    "is not valid for pod",
					    "container not running",
					    "cannot exec into a container in a completed pod",
					    "is not running",
					    "is waiting to start",
					    "does not have a host assigned",
					    NULL};
	static const char *const noshell[] = {"executable file not found",
					      "exec: \"sh\"",
					      "sh: not found",
					      "exit code 126",
					      "exit code 127",
					      NULL};
	static const char *const unreach[] = {"Unable to connect to the server",
					      "i/o timeout",
					      "connection refused",
					      "no such host",
					      "context deadline exceeded",
					      "TLS handshake timeout",
					      NULL};

	const char *kc = k && k->kubectl ? k->kubectl : "kubectl";
	struct lines ls;
	const char *l;
	enum probe_error e;
	char where[340];
	if (k && k->namespace_ && k->pod)
		snprintf(where, sizeof(where), "pod %s/%s", k->namespace_, k->pod);
	else
		snprintf(where, sizeof(where), "the pod");

	if (status == RUN_NOT_FOUND) {
		/* Said the same way whatever PATH held: the fix is the same. */
		if (strchr(kc, '/'))
			*message = xasprintf(
				"kubectl not found at '%s' (install it or pass --kubectl PATH)",
				kc);
		else
			*message = xstrdup("kubectl not found (install it or pass --kubectl PATH)");
		return PROBE_KUBECTL_MISSING;
	}
	if (status == RUN_NOT_EXECUTABLE) {
		char buf[128];
		const char *es = strerror_r(spawn_errno, buf, sizeof(buf));
		*message =
			xasprintf("kubectl '%s' cannot be run: %s (pass --kubectl PATH)", kc, es);
		return PROBE_KUBECTL_MISSING;
	}
	if (status == RUN_SPAWN_FAILED) {
		char buf[128];
		const char *es = strerror_r(spawn_errno, buf, sizeof(buf));
		*message = xasprintf("could not start kubectl: %s", es);
		return PROBE_EXEC_FAILED;
	}

	lines_split(&ls, err, err_len);
	if ((l = find_any(&ls, nocluster))) {
		*message = xstrdup(
			"kubectl has no cluster configured (no kubeconfig or context; pass --context or --kubeconfig)");
		e = PROBE_UNAUTHORIZED;
	} else if ((l = find_any(&ls, unauth)) ||
		   (l = find_both(&ls, "context \"", "does not exist"))) {
		*message = with_line("kubectl is not logged in or has no usable context/kubeconfig",
				     l);
		e = PROBE_UNAUTHORIZED;
	} else if ((l = find_any(&ls, forbidden))) {
		char *s = xasprintf(
			"RBAC forbids exec into %s (needs 'get' on pods and 'create' on pods/exec)",
			where);
		*message = with_line(s, l);
		free(s);
		e = PROBE_FORBIDDEN;
	} else if ((l = find_any(&ls, ctrnf))) {
		char *s = xasprintf("container not found or not running in %s", where);
		*message = with_line(s, l);
		free(s);
		e = PROBE_CONTAINER_NOT_FOUND;
	} else if ((l = find_any(&ls, podnf)) || (l = find_both(&ls, "pods \"", "not found"))) {
		char *s = xasprintf("%s not found", where);
		*message = with_line(s, l);
		free(s);
		e = PROBE_POD_NOT_FOUND;
	} else if ((l = find_any(&ls, noshell)) ||
		   (status == RUN_EXITED && (exit_code == 126 || exit_code == 127))) {
		/* Prefer the runtime's own words over kubectl's trailer. */
		const char *first = NULL;
		for (size_t i = 0; i < ls.n && !first; i++)
			if (!is_noise(ls.l[i]))
				first = ls.l[i];
		char *s = xasprintf(
			"no 'sh' in the container of %s: the probe needs a POSIX shell (pick another container with --container)",
			where);
		*message = with_line(s, first ? first : l);
		free(s);
		e = PROBE_NO_SHELL;
	} else if ((l = find_any(&ls, unreach))) {
		*message = with_line("kubectl cannot reach the cluster", l);
		e = PROBE_EXEC_FAILED;
	} else {
		const char *first = NULL;
		for (size_t i = 0; i < ls.n && !first; i++)
			if (!is_noise(ls.l[i]))
				first = ls.l[i];
		char *s;
		if (status == RUN_SIGNALED)
			s = xasprintf("kubectl exec into %s was killed by signal %d", where,
				      term_signal);
		else
			s = xasprintf(
				"kubectl exec into %s failed (exit %d) without a probe transcript",
				where, exit_code);
		*message = with_line(s, first);
		free(s);
		e = PROBE_EXEC_FAILED;
	}
	lines_free(&ls);
	return e;
}
