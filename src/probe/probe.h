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

#include "parse/transcript.h"

/* --timeout when not given, in seconds: one deadline for the whole command. */
#define PROBE_DEFAULT_TIMEOUT_S 30

/*
 * What to probe and how: filled by the verb runner from the command line
 * (probe code never sees struct cli_opts).  At most one of replay, pod and
 * sysroot names the target; none: the local host.
 */
struct probe_target {
	const char *namespace_, *pod, *container; /* a pod, through kubectl */
	const char *context, *kubeconfig;         /* passed to kubectl; NULL: its defaults */
	const char *kubectl;                      /* argv[0]; NULL or "": "kubectl" on PATH */
	const char *sysroot;                      /* local probe under this tree */
	const char *replay;                       /* a saved transcript ("-": stdin) */
	/* a transcript out of a support bundle (bundle.h), and the target it
	 * was taken from; replay_data set: replay is the bundle's path */
	const char *replay_data, *replay_target;
	size_t replay_len;
	const char *save_probe; /* write the raw transcript here */
	bool save_force;        /* --force: it may overwrite a regular file */
	double timeout_s;       /* <= 0: PROBE_DEFAULT_TIMEOUT_S */
	unsigned observe_s;     /* --observe: the window (0: none), 1..PROBE_MAX_OBSERVE_S */
	unsigned logs_tail;     /* --logs: kubectl logs --tail=N beside the exec (0: none) */
};

/* The longest --observe window, and the default --logs tail. */
#define PROBE_MAX_OBSERVE_S     600
#define PROBE_DEFAULT_LOGS_TAIL 2000
/* The most of a worker's log read (--logs), and the section it is put in
 * (live/live.h reads it as SEC_LIVE_LOGS). */
#define PROBE_LOGS_MAX          (4u << 20)
#define PROBE_SEC_LOGS          "kube:logs"

/* t->timeout_s, or the default when it is not set. */
double probe_target_timeout(const struct probe_target *t);
/* Check every name a pod target would pass to kubectl (the same checks as
 * the exec itself), before anything runs: false with *why (malloc'ed, one
 * line) when one is invalid.  True for local, sysroot and replay targets. */
bool probe_target_check(const struct probe_target *t, char **why);

enum probe_error {
	PROBE_OK = 0,
	PROBE_KUBECTL_MISSING, /* kubectl not found / not executable */
	PROBE_UNAUTHORIZED,    /* no context, not logged in, bad kubeconfig */
	PROBE_FORBIDDEN,       /* RBAC: pods/exec denied */
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
	char *message; /* one line for the user; NULL when ok */
	char *raw;     /* the transcript bytes as received (secret-free) */
	size_t raw_len;
	struct transcript t; /* parsed raw */
	double elapsed_s;
	int kubectl_calls; /* exec round trips made (must be 1 per pod) */
	char *target;      /* "pod NS/POD", "local host", "sysroot DIR", "replay FILE" */
	char *save_error;  /* --save-probe could not be written (the analysis stands) */
};

/* Collect a transcript for the target t (pod_override, when not NULL,
 * replaces t->pod: the fleet fan-out probes many pods with one target).  Honours --replay, --sysroot, --save-probe, --timeout.  Never
 * exits; every failure is described in out->err/out->message. */
void probe_collect(const struct probe_target *t, const char *pod_override,
		   struct probe_outcome *out);
void probe_outcome_release(struct probe_outcome *out);
/* A transcript as --save-probe and --bundle keep it: the bytes received,
 * except the body lines of NIXL's telemetry sections, which pass the one
 * redaction rule (an exporter's labels are the workload's own text). */
char *probe_transcript_saved(const char *raw, size_t len, size_t *out_len);

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
/* What to do about e, the same words for every pod (so that a fleet's
 * fix-first list groups the pods by cause); NULL when nothing applies. */
const char *probe_error_fix(enum probe_error e);

#endif
