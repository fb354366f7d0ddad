/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The command line as main.c parsed it, and the usage errors every verb
 * words the same way.  main.c parses the whole command line once (options
 * may come before or after the verb); the verb runner (src/cmd/run_verb.c)
 * then refuses the options that do not apply to the verb and turns the rest
 * into a struct probe_target (probe/), a struct fleet_target (fleet/) and a
 * struct render_opts (core/render.h).  Nothing below the runner sees this
 * struct: parsers, checks, probes and renderers never include this file.
 */
#ifndef CI_CLI_H
#define CI_CLI_H

#include <stdbool.h>

#include "core/render.h"

enum ci_color {
	CI_COLOR_AUTO = 0,
	CI_COLOR_ALWAYS,
	CI_COLOR_NEVER
};

/* --jobs when not given: pods probed at once by the fleet fan-out, chosen
 * from the operator's machine by cli_default_jobs().  One `kubectl exec`
 * costs that machine about CLI_EXEC_CPU_MS of CPU and CLI_EXEC_MB of memory
 * for its life (kubectl 1.31 against a real API server, README "Why --jobs
 * is chosen from the machine"); a real probe's round trip is 1-2 s, so a
 * core keeps CLI_JOBS_PER_CPU execs going at under half its time, and the
 * execs may hold a CLI_JOBS_MEM_SHARE-th of the memory available. */
#define CLI_EXEC_CPU_MS      115
#define CLI_EXEC_MB          50
#define CLI_JOBS_PER_CPU     4
#define CLI_JOBS_MEM_SHARE   4
#define CLI_DEFAULT_JOBS_MAX 32 /* the most by default; --jobs goes to 256 */

/* Pure: the default --jobs for ncpu online CPUs and mem_avail bytes of
 * available memory (0 when unknown: the CPU bound alone): min(ncpu x
 * CLI_JOBS_PER_CPU, mem_avail / CLI_JOBS_MEM_SHARE / CLI_EXEC_MB), at least
 * 1 and at most CLI_DEFAULT_JOBS_MAX. */
int cli_default_jobs(long ncpu, unsigned long long mem_avail);

struct cli_opts {
	enum ci_format format;
	enum ci_color color;
	bool quiet, verbose;
	bool force; /* --force: --save-probe may overwrite a file */

	/* targets of node / nixl / all */
	const char *namespace_, *pod, *container, *context, *kubeconfig;
	const char *kubectl; /* --kubectl, else $KUBECTL, else "kubectl" on PATH */
	const char *sysroot, *save_probe, *replay;
	const char *output; /* --output FILE: written atomically, else stdout */
	const char *bundle; /* --bundle FILE.tar.gz: the support bundle (any verb) */
	const char *peer, *deployment, *selector;
	bool all_namespaces;     /* -A: every namespace's pods (kubectl's -A; -n is ignored) */
	double timeout_s;        /* --timeout; 0 when not given (PROBE_DEFAULT_TIMEOUT_S) */
	double deadline_s;       /* --deadline: a whole fleet run; 0 none */
	unsigned long jobs;      /* --jobs, default cli_default_jobs() of this machine */
	unsigned long max_files; /* --max-files: YAML files a folder walk reads (0: 20000) */
	unsigned long observe_s; /* --observe SECONDS (node, all): the evidence window */
	unsigned long logs_tail; /* --logs[=N] (node, all): kubectl logs --tail=N */
	double interval_s;       /* --interval (agent): between scans; 0 when not given */
	double node_interval_s;  /* --node-interval (agent); 0 when not given */
	const char *listen;      /* --listen [ADDR]:PORT (agent) */
	bool once;               /* --once (agent): one scan, written, then exit */

	/* which options were given, for per-verb validation */
	unsigned given;
	char **args; /* positional arguments after the verb */
	int n_args;
};

/* Bits of cli_opts.given: each is one row's of the option table
 * (src/cmd/options.c), which also says which verbs take it. */
enum {
	OPT_NAMESPACE = 1u << 0,
	OPT_POD = 1u << 1,
	OPT_CONTAINER = 1u << 2,
	OPT_CONTEXT = 1u << 3,
	OPT_KUBECONFIG = 1u << 4,
	OPT_KUBECTL = 1u << 5,
	OPT_SYSROOT = 1u << 6,
	OPT_SAVE_PROBE = 1u << 7,
	OPT_REPLAY = 1u << 8,
	OPT_PEER = 1u << 9,
	OPT_DEPLOYMENT = 1u << 10,
	OPT_SELECTOR = 1u << 11,
	OPT_TIMEOUT = 1u << 12,
	OPT_JOBS = 1u << 13,
	OPT_MAX_FILES = 1u << 14,
	OPT_DEADLINE = 1u << 15,
	OPT_OBSERVE = 1u << 16,
	OPT_LOGS = 1u << 17,
	OPT_INTERVAL = 1u << 18,
	OPT_LISTEN = 1u << 19,
	OPT_ONCE = 1u << 20,
	OPT_NODE_INTERVAL = 1u << 21,
	OPT_FORCE = 1u << 22,
	OPT_ALL_NAMESPACES = 1u << 23,
	OPT_COUNT_ = 24, /* the bits above: the option table has one row for each */
};

/* The name messages and help call the tool by, from argv[0]: "kubectl
 * interconnect" when kubectl ran it as its plugin (kubectl-interconnect),
 * else "check_interconnect". */
void cli_set_program(const char *argv0);
const char *cli_program(void);

/* Print "<program>: <verb>: <message>" and a hint to stderr ('<program> help
 * VERB' with a verb, else '<program> --help');
 * returns CI_EXIT_USAGE so that callers can `return cli_usage_error(...)`. */
int cli_usage_error(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "check_interconnect: <message>" to stderr (no hint). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* --format FORMAT: usage errors also reach stdout the way that format's
 * consumer reads them: json an error object, nagios one UNKNOWN line, npd
 * one line (main.c decides before it parses anything, so that even a bad
 * option gets one).  Other formats: stderr only. */
void cli_errors_for_format(const char *format);
/* The process exit code for rc: a usage error (64) is Nagios's UNKNOWN (3)
 * under --format nagios and NPD's Unknown (2) under --format npd. */
int cli_exit_code(int rc);
/* The runner's last word: when rc is the usage code and no error was
 * printed on stdout yet (a verb said why with cli_error and returned 64), print it
 * with the last message.  Returns rc. */
int cli_usage_finish(const char *verb, int rc);

#endif
