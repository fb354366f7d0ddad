/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The part of a fleet run that runs processes: the target resolved from
 * the command line, the worker pool (fleet_probe.c) and the orchestration
 * (fleet_run.c).  Only cmd/ and those two files include it; the pure fleet
 * code (plan, pod summaries, checks, drift, layout) is fleet.h, which
 * never reaches probe/ (tools/check-includes.py holds that).
 */
#ifndef CI_FLEET_RUN_H
#define CI_FLEET_RUN_H

#include "fleet/fleet.h"
#include "probe/bundle.h"
#include "probe/probe.h"

/* A whole deployment, as the verb runner resolved it from the command line. */
struct fleet_target {
	struct probe_target probe;    /* namespace, container, kubectl, --context,
				      * --kubeconfig and the one --timeout */
	const char *deployment;       /* --deployment, or NULL */
	const char *selector;         /* --selector, or NULL */
	bool all_namespaces;          /* -A: probe.namespace_ is NULL, the pods of every
				      * namespace are listed and each is named NS/POD */
	int jobs;                     /* pods probed at once (--jobs) */
	double deadline_s;            /* --deadline: the whole run; 0: none (probe.timeout_s
				      * bounds each pod's round trip) */
	bool progress;                /* "probed i/n pods" on stderr */
	bool text_summary;            /* rendered by fleet_render_text without -v: each
				      * pod keeps what that layout prints of it
				      * (fleet_text_trim_child) */
	struct bundle_writer *bundle; /* --bundle: the pod list and every pod's
				       * transcript (or why it has none) go in */
	const struct bundle *replay;  /* --replay BUNDLE: the same, read back
				       * instead of kubectl (no process runs) */
};

/* ---- the worker pool (fleet_probe.c) ---- */

struct fleet_job {
	const char *pod;          /* input */
	const char *namespace_;   /* input: the pod's own (-A), or NULL: the target's */
	const char *key;          /* its name in the report and the bundle: POD, or
				   * NS/POD under -A */
	struct probe_outcome out; /* output; the judge releases it */
	bool started;             /* false: the --deadline passed before its turn */
	bool deadline_bound;      /* its time was cut to what was left of --deadline */
	double t_start, t_end;    /* run_now() around its probe_collect (0: not run) */
};

/* Called on the thread that called fleet_probe_all, once per job, as each
 * finishes (in completion order): judge it and release job->out. */
typedef void (*fleet_judge_fn)(void *ctx, size_t i, struct fleet_job *job);

/* Probe every job with probe_collect, at most ft->jobs at once, each call
 * bounded by ft->probe's timeout and by the absolute `deadline` (run_now()
 * clock; <= 0: none), and hand each finished job to judge.  With
 * ft->progress, "\rprobed i/n pods" on stderr as they are judged. */
void fleet_probe_all(const struct fleet_target *ft, struct fleet_job *jobs, size_t n,
		     double deadline, fleet_judge_fn judge, void *ctx);

/* ---- the orchestration (fleet_run.c) ---- */

/* What a fleet run leaves for `all` (drift) beside the report. */
struct fleet_result {
	struct fleet_pod *pods; /* the probed-or-tried worker pods */
	size_t n;
	char *selector; /* the label selector used */
	char *error;    /* the pods could not be listed: why, one line */
};
void fleet_result_release(struct fleet_result *res);

/* The selector for ft (--deployment and/or --selector); caller frees. */
char *fleet_selector(const struct fleet_target *ft);
/* "deployment NAME in namespace NS" or "pods -l SEL in namespace NS";
 * caller frees. */
char *fleet_target_name(const struct fleet_target *ft);

/* List, probe and judge the pods, appending to out (initialised by the
 * caller): the fleet checks at the top, one child per pod.  res (may be
 * NULL) receives the per-pod summaries.  Returns 0 when the pods could be listed (whatever the
 * verdict), CI_EXIT_UNKNOWN when the listing failed (out then holds a
 * critical skipped fleet.pods saying why, and res->error the one line for
 * stderr), CI_EXIT_USAGE for an invalid name (res->error says which). */
int fleet_run(const struct fleet_target *ft, enum fleet_kind kind, struct ci_report *out,
	      struct fleet_result *res);

#endif
