/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The result model shared by every verb: a report is a list of checks, each
 * with a stable dotted id and one of four statuses, plus the facts the run
 * observed (transport variables), the next commands to run, and, for fleet
 * runs, one child report per pod.  Checks are pure producers of these; the
 * renderers (render_text.c, render_json.c) are the only consumers.
 */
#ifndef CI_REPORT_H
#define CI_REPORT_H

#include <stdbool.h>
#include <stddef.h>

enum ci_status {
	CI_OK = 0,
	CI_WARN,
	CI_FAIL,
	CI_SKIPPED
};

/*
 * How fundamental a problem is, for ordering fix_first: nothing above works
 * without the layer below it (fabric before driver before environment before
 * tuning).  Pod-spec plumbing that denies the pod its NIC counts as fabric.
 */
enum ci_layer {
	CI_LAYER_FABRIC = 0,
	CI_LAYER_DRIVER,
	CI_LAYER_ENV,
	CI_LAYER_TUNING
};

struct ci_live;

struct ci_check {
	char *id; /* stable dotted id, e.g. "env.ucx.tls" */
	enum ci_status status;
	bool critical; /* matters for the disaggregated KV transport */
	enum ci_layer layer;
	char *subject;   /* deployment/service, device, file...; may be NULL */
	char *detail;    /* one line */
	char *fix;       /* one line, may be NULL */
	char **evidence; /* e.g. "deploy.yaml:57: UCX_TLS=tcp" */
	size_t n_evidence, cap_evidence;
	/* Where the thing the finding is about is written: the file and line
	 * of its deployment (env), of the recipe a pod's deployment came from
	 * (all RECIPE --deployment); NULL/0 when no file says it (a live
	 * object, a node).  Every format prints it (check_set_location). */
	char *loc_file;
	int loc_line;       /* 1-based; 0: the file only */
	unsigned flags;     /* its descriptor's CI_DESC_* (struct check_desc) */
	const char *noun;   /* its descriptor's noun (static), or NULL */
	const char *source; /* its descriptor's source (static), or NULL */
};

/* A transport setting observed in the input (recipe or pod). */
struct ci_fact {
	char *name;
	char *value;   /* already redacted where the name is secret-like */
	char *subject; /* service(s) or pod */
	char *source;  /* file:line, "pod env", ... */
};

struct ci_step {
	char *description;
	char *command;
};

struct ci_report {
	char *command; /* "env", "node", "nixl", "all" */
	char *target;  /* what was examined, human readable */
	struct ci_check *checks;
	size_t n_checks, cap_checks;
	struct ci_fact *facts;
	size_t n_facts, cap_facts;
	struct ci_step *steps;
	size_t n_steps, cap_steps;
	struct ci_report *children; /* per-pod reports in a fleet run */
	size_t n_children, cap_children;
	char *child_label; /* e.g. the pod's role/node, for children */
	/* A pod's report: where its deployment is written in the recipe the
	 * run read (all RECIPE --deployment), for formats that place every
	 * finding in a file (SARIF); NULL when no manifest was read. */
	char *loc_file;
	int loc_line;
	struct ci_live *live; /* the live section (core/report_live.h); NULL: not collected */
	/* Each check subject is one deployment judged on its own (env over a
	 * file or tree): a deployment that cannot be judged (a critical skip)
	 * does not make the run unknown while another one was judged. */
	bool per_subject;
};

enum ci_verdict_kind {
	CI_READY = 0,
	CI_DEGRADED,
	CI_BLOCKED,
	CI_UNKNOWN
};

struct ci_verdict {
	enum ci_verdict_kind kind;
	bool trusted;
	char *summary;
	char **fix_first; /* unique check ids, most fundamental first */
	size_t n_fix_first;
};

struct ci_counts {
	size_t ok, warn, fail, skipped;
};

void report_init(struct ci_report *r, const char *command, const char *target);
void report_release(struct ci_report *r);

/*
 * What a check is, said once: its id, the layer that orders fix_first, and
 * whether it decides if the KV transport can be trusted (a critical skip
 * makes the verdict unknown).  Each area keeps one table of these
 * (env_desc.c, node_desc.c, nixl_desc.c, fleet_desc.c); docs/checks.md
 * describes every entry, and a test reads the tables to prove it.
 */
struct check_desc {
	const char *id;
	enum ci_layer layer;
	bool critical;
	const char *summary; /* one line: what it looks at */
	/* One line: where the rule's truth comes from (project, file or
	 * document, version where it matters), the primary one of those its
	 * docs/checks.md entry cites; that entry holds this string. */
	const char *source;
	unsigned flags; /* CI_DESC_* below; 0 for most */
	/* What its subject is, for counting them ("3 deployments" in the fix
	 * list); NULL: the subjects are listed as they are. */
	const char *noun;
};

/*
 * What a check's result weighs against the others' (docs/checks.md,
 * "Evidence outranks inference"): the verdict and live/ read these flags,
 * never a check's id.
 */
enum ci_desc_flag {
	/* It carries the evidence of the path KV really took (a window). */
	CI_DESC_EVIDENCE = 1u << 0,
	/* A reading that a proven RDMA path of the same engine settles: KV
	 * moved over RDMA by a process holding uverbs descriptors shows that
	 * it registered memory and opened the device. */
	CI_DESC_SETTLED_BY_RDMA = 1u << 1,
};

/* Add a check as its descriptor says; detail is a printf format. */
struct ci_check *report_check(struct ci_report *r, const struct check_desc *d, enum ci_status st,
			      const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Skipped because it does not apply here (no RDMA device, UCX not on the KV
 * path...): never critical, so the verdict ignores it. */
struct ci_check *report_na(struct ci_report *r, const struct check_desc *d, const char *subject,
			   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The few sites where one finding of a check weighs differently from its
 * descriptor (a cause at a lower layer, a result that is only advice):
 * explicit, so that the exception is visible where it is made. */
struct ci_check *report_check_as(struct ci_report *r, const struct check_desc *d, enum ci_status st,
				 bool critical, enum ci_layer layer, const char *subject,
				 const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* The entry of table[0..n) with this id; NULL when there is none. */
const struct check_desc *check_desc_find(const struct check_desc *table, size_t n, const char *id);

/* Add a check; detail is a printf format.  Returns the check so that a fix
 * and evidence can be attached. */
struct ci_check *report_add(struct ci_report *r, const char *id, enum ci_status st, bool critical,
			    enum ci_layer layer, const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void check_set_fix(struct ci_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void check_add_evidence(struct ci_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Set where the finding's subject is written (file may be NULL: no-op). */
void check_set_location(struct ci_check *c, const char *file, int line);

void report_add_fact(struct ci_report *r, const char *name, const char *value, const char *subject,
		     const char *source);
void report_add_step(struct ci_report *r, const char *description, const char *command);
/* Append a child report (takes ownership of *child's contents; *child is
 * left empty). */
void report_adopt_child(struct ci_report *r, struct ci_report *child);

/* Counts over this report's checks and, recursively, its children's. */
struct ci_counts report_counts(const struct ci_report *r);

/* The verdict over this report's checks and, recursively, its children. */
void verdict_compute(const struct ci_report *r, struct ci_verdict *v);
void verdict_release(struct ci_verdict *v);
/* Nagios-style: 0 ready, 1 degraded, 2 blocked, 3 unknown. */
int verdict_exit_code(const struct ci_verdict *v);

const char *status_name(enum ci_status st);
const char *verdict_name(enum ci_verdict_kind k);
/* Problems first: blocked 0, unknown 1, degraded 2, ready 3 (the order of
 * the rows when a run covers many deployments or pods). */
int verdict_severity(enum ci_verdict_kind k);
const char *layer_name(enum ci_layer l);

/* Process exit codes. */
enum {
	CI_EXIT_READY = 0,
	CI_EXIT_DEGRADED = 1,
	CI_EXIT_BLOCKED = 2,
	CI_EXIT_UNKNOWN = 3,
	CI_EXIT_USAGE = 64,
	CI_EXIT_IO = 74, /* the report could not be written (sysexits' EX_IOERR) */
};

#endif
