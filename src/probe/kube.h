/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kubectl, from the outside: name validation, the one exec argv, and the
 * classification of its failures into enum probe_error with one line each.
 * Pure functions (no I/O): probe_collect.c runs the argv.
 */
#ifndef CI_KUBE_H
#define CI_KUBE_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/probe.h"
#include "probe/run_command.h"

/* RFC 1123 label (namespaces, containers): [a-z0-9-], <= 63, alnum at both
 * ends.  kube_name_valid (probe.h) also accepts a subdomain (pods). */
bool kube_label_valid(const char *s);
/* Context names and kubeconfig paths are not Kubernetes names (an EKS
 * context is an ARN): accept anything printable up to 1024 bytes that does
 * not start with '-' (it would read as an option). */
bool kube_loose_valid(const char *s);

struct kube_target {
	const char *kubectl;    /* argv[0]: a path or a name found on PATH */
	const char *context;    /* NULL: kubectl's current context */
	const char *kubeconfig; /* NULL: kubectl's default */
	const char *namespace_;
	const char *pod;
	const char *container; /* NULL: the pod's default container */
	const char *window;    /* the script's $2 (--observe seconds, digits), or NULL */
};

/* Room for the longest argv below, NULL included. */
#define KUBE_ARGV_MAX 20

/* The part every kubectl call starts with: validate kubectl, --context,
 * --kubeconfig and the namespace, then fill
 *   KUBECTL [--context C] [--kubeconfig F]
 * into argv.  Returns the count so far, or -1 with *why set (malloc'ed). */
int kube_base_argv(const char *kubectl, const char *context, const char *kubeconfig,
		   const char *namespace_, const char **argv, char **why);

/* Validate every name in k, then fill argv (NULL-terminated, pointing into
 * k, script and root: nothing is copied or pasted together) with
 *   KUBECTL [--context C] [--kubeconfig F] exec -n NS POD [-c C]
 *           -- sh -c SCRIPT ci-probe ROOT
 * Returns the argc, or -1 with *why set (malloc'ed, one line) when a name
 * is invalid: no process must run then.
 * No -i/-t: the script needs no stdin and a TTY would mangle the output.
 * No --request-timeout: it would also cut the exec stream; the caller's
 * deadline bounds the whole call instead. */
int kube_exec_argv(const struct kube_target *k, const char *script, const char *root,
		   const char *argv[KUBE_ARGV_MAX], char **why);

/* KUBECTL [--context C] [--kubeconfig F] logs -n NS POD [-c C] TAIL --timestamps
 * where tail is "--tail=N" (the caller's buffer).  -1 with *why on an
 * invalid name, as kube_exec_argv. */
int kube_logs_argv(const struct kube_target *k, const char *tail, const char *argv[KUBE_ARGV_MAX],
		   char **why);

/* Classify a kubectl run that produced no usable transcript.  status and
 * spawn_errno come from run_command; err is kubectl's stderr.  Returns the
 * error and sets *message (malloc'ed, one line).  Timeouts are decided by
 * the caller (the deadline is ours, not kubectl's). */
enum probe_error kube_classify(const struct kube_target *k, enum run_status status, int spawn_errno,
			       int exit_code, int term_signal, const char *err, size_t err_len,
			       char **message);

#endif
