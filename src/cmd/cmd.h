/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The verbs, as git's commands[] and run_builtin() have them: each verb is
 * one entry of verbs[] (commands.c) and one file here (env.c, node.c,
 * nixl.c, all.c, vars.c); ONE runner (run_verb.c) does for every verb what
 * they would otherwise each copy:
 *
 *   1. refuse the options that do not apply and the wrong number of
 *      arguments (the entry's options / targets / min_args, max_args);
 *   2. resolve the target (targets.c): a probe target (local host,
 *      --sysroot, a pod, --replay), a whole deployment, or paths;
 *   3. for a probe target: check the names, run the probe, and on failure
 *      print one line and the entry's probe_check (a bad name: a usage
 *      error, nothing printed on stdout);
 *   4. call the verb, which only fills the report;
 *   5. render it once (report_finish), and check that stdout was written.
 *
 * The verb code receives struct verb_ctx: the targets and the render options
 * already resolved, never the raw command line.
 */
#ifndef CI_CMD_H
#define CI_CMD_H

#include <stdbool.h>

#include "core/cli.h"
#include "core/render.h"
#include "core/report.h"
#include "fleet/fleet_run.h"
#include "probe/bundle.h"
#include "probe/probe.h"

/* Which targets a verb takes (struct verb.targets, a mask). */
enum verb_target {
	VT_NONE = 0,
	VT_PATHS = 1u << 0, /* positional paths (recipes, manifests) */
	VT_PROBE = 1u << 1, /* one probe target: local, --sysroot, --pod, --replay */
	VT_FLEET = 1u << 2, /* every worker pod: --deployment / --selector */
};

/* A verb's run() returns this to have the runner render the report; any
 * other value is the exit code, with nothing rendered. */
#define VERB_RENDER (-1)

struct verb;

/* What a verb is given: everything resolved, nothing left to parse. */
/* The agent verb's own options (cmd/agent.c). */
struct agent_opts {
	double interval_s;      /* 0: the default */
	double node_interval_s; /* 0: the default */
	const char *listen;     /* NULL: the default */
	bool once;
};

struct verb_ctx {
	const struct verb *verb;
	enum verb_target target;   /* the one resolved (a single bit) */
	struct probe_target probe; /* VT_PROBE: the target; VT_FLEET: its kubectl side */
	struct fleet_target fleet; /* VT_FLEET */
	struct render_opts render;
	const char *peer;        /* nixl --peer, or NULL */
	unsigned long max_files; /* env, all --max-files (0: the loader's default) */
	char **args;             /* positional arguments (VT_PATHS) */
	int n_args;
	void *state;                  /* the verb's own, between start() and stop() */
	bool save_failed;             /* --save-probe failed: exit CI_EXIT_IO after the report */
	struct bundle_writer *bundle; /* --bundle, or NULL */
	struct agent_opts agent;      /* agent: --interval, --listen, --once */
};

struct verb {
	const char *name;
	const char *synopsis;        /* "env <recipe dir|manifest>...", for help */
	const char *summary;         /* one line, for help */
	const char *description;     /* a paragraph, for `help VERB` and the man page */
	const char *const *examples; /* NULL-terminated command lines, same */
	unsigned targets;            /* VT_* */
	bool fleet_optional;         /* VT_PATHS | VT_FLEET: a deployment only when
				     * --deployment names one (env), else paths */
	int min_args, max_args;      /* positional arguments; max_args -1: any number */
	const char *args_error;      /* the usage line when their count is wrong;
				     * NULL: "unexpected argument 'X'" */

	/* Its own usage rules beyond the table (nixl --peer): 0 or 64. */
	int (*check)(const struct verb_ctx *c);
	/* VT_PATHS / VT_NONE, and VT_FLEET verbs with their own steps (all):
	 * fill r (initialised with the target's name); VERB_RENDER or an exit
	 * code (nothing rendered). */
	int (*run)(struct verb_ctx *c, struct ci_report *r);
	/* VT_PROBE: the checks over one transcript. */
	void (*judge)(struct verb_ctx *c, struct ci_report *r, const struct transcript *t);
	/* VT_PROBE, optional: work that runs beside the probe (nixl's peer
	 * lookup), started before it; stop() always runs last. */
	void (*start)(struct verb_ctx *c);
	void (*stop)(struct verb_ctx *c);
	const struct check_desc *probe_check; /* VT_PROBE: the check that says the probe failed */
	enum fleet_kind fleet;                /* VT_FLEET without run(): the fan-out's kind */
};

extern const struct verb verbs[];
extern const size_t n_verbs;

/* The entry named `name`, or NULL. */
const struct verb *verb_find(const char *name);
/* Run verb v over the parsed command line; returns the exit code. */
int verb_run(const struct verb *v, const struct cli_opts *o);

/* targets.c: the usage rules of each kind of target; 0 or CI_EXIT_USAGE
 * (the one line printed).  Then fill c from o. */
int verb_check_probe_target(const struct verb *v, const struct cli_opts *o);
int verb_check_fleet_target(const struct verb *v, const struct cli_opts *o);
/* The OPT_* mask verb v takes with a target of `kind` (options.c: the
 * table's rows name the verbs). */
unsigned verb_allowed_options(const struct verb *v, enum verb_target kind);
/* The default --jobs of this machine (cli_default_jobs): its online CPUs
 * and MemAvailable (/proc/meminfo, Linux 3.14 and later; else the CPU bound
 * alone); each out pointer may be NULL. */
int verb_machine_jobs(long *ncpu, unsigned long long *mem_avail);
void verb_ctx_init(struct verb_ctx *c, const struct verb *v, const struct cli_opts *o);

/* The verbs (one file each). */
int cmd_env(struct verb_ctx *c, struct ci_report *r);
/* Render each kustomize overlay of ms (`kubectl kustomize`, read-only; t's
 * kubectl and --timeout) and read its output as one more stream: a base is
 * then judged as the overlay completes it.  What each try gave is noted in
 * ms (manifest_kustomize_outcome).  env and all call it after loading. */
struct manifest_set;
void env_render_overlays(const struct probe_target *t, struct manifest_set *ms);
int cmd_vars(struct verb_ctx *c, struct ci_report *r);
int cmd_all(struct verb_ctx *c, struct ci_report *r);
void cmd_node(struct verb_ctx *c, struct ci_report *r, const struct transcript *t);
int cmd_nixl_check(const struct verb_ctx *c);
void cmd_nixl_start(struct verb_ctx *c);
void cmd_nixl(struct verb_ctx *c, struct ci_report *r, const struct transcript *t);
void cmd_nixl_stop(struct verb_ctx *c);
int cmd_agent_check(const struct verb_ctx *c);
int cmd_agent(struct verb_ctx *c, struct ci_report *r);

#endif
