/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Getting a probe transcript, whatever the target: a saved file (--replay),
 * the local host (optionally with --sysroot), or a pod through exactly one
 * `kubectl exec`.  This is the only code, with run_command.c, that touches the
 * system or runs a process.  The script is the constant probe.sh, embedded at
 * build time; user input reaches it only as positional arguments.
 */
#ifndef CI_PROBE_H
#define CI_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cli.h"
#include "probe/transcript.h"

enum probe_error {
	PROBE_OK = 0,
	PROBE_KUBECTL_MISSING,     /* kubectl not found / not executable */
	PROBE_UNAUTHORIZED,        /* no context, not logged in, bad kubeconfig */
	PROBE_FORBIDDEN,           /* RBAC: pods/exec denied */
	PROBE_POD_NOT_FOUND,
	PROBE_CONTAINER_NOT_FOUND, /* or not running */
	PROBE_NO_SHELL,            /* no sh in the image (126/127) */
	PROBE_TIMEOUT,             /* the deadline passed; kubectl was killed */
	PROBE_EXEC_FAILED,         /* any other kubectl/script failure */
	PROBE_BAD_TRANSCRIPT,      /* --replay file unreadable or not a transcript */
	PROBE_IO,                  /* --save-probe could not be written, ... */
	PROBE_BAD_TARGET,          /* invalid name or incomplete target: nothing ran (exit 64) */
};

/* Biggest --replay file read (a real transcript is well under 1 MiB). */
#define PROBE_REPLAY_MAX (16u << 20)

struct probe_outcome {
	enum probe_error err;
	char *message;             /* one line for the user; NULL when ok */
	char *raw;                 /* the transcript bytes as received (secret-free) */
	size_t raw_len;
	struct transcript t;       /* parsed raw */
	double elapsed_s;
	int kubectl_calls;         /* exec round trips made (must be 1 per pod) */
	char *target;              /* "pod NS/POD", "local host", "sysroot DIR", "replay FILE" */
};

/* Collect a transcript for the target named by o (pod_override, when not
 * NULL, replaces o->pod: the fleet fan-out probes many pods with one set of
 * options).  Honours --replay, --sysroot, --save-probe, --timeout.  Never
 * exits; every failure is described in out->err/out->message. */
void probe_collect(const struct cli_opts *o, const char *pod_override, struct probe_outcome *out);
void probe_outcome_release(struct probe_outcome *out);

/* The usage rules every single-target verb shares (node, nixl): --pod and
 * --namespace together; kubectl options only with --pod; --sysroot only for
 * the local host; --replay alone.  Allows only `allowed` (OPT_* mask) and no
 * positional argument.  Returns 0, or CI_EXIT_USAGE after printing why. */
int probe_target_validate(const char *verb, const struct cli_opts *o, unsigned allowed);

/* The embedded constant script (probe.sh). */
extern const char probe_script[];
extern const size_t probe_script_len;

/* Kubernetes name validation (RFC 1123 label / subdomain), used on every
 * name before it reaches kubectl's argv. */
bool kube_name_valid(const char *name);
/* Exit code for a probe error: CI_EXIT_UNKNOWN for anything that stopped
 * the look (a probe that could not run proves nothing); CI_EXIT_USAGE for
 * PROBE_BAD_TARGET (the command line was wrong; nothing ran); 0 for OK. */
int probe_error_exit(enum probe_error e);
const char *probe_error_name(enum probe_error e);

#endif
