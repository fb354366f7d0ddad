/* SPDX-License-Identifier: Apache-2.0 */
/* One renderer per output format; both end with the run's single verdict. */
#ifndef CI_RENDER_H
#define CI_RENDER_H

#include <stdio.h>

#include <stdbool.h>

#include "core/report.h"

/* --format: one renderer each (src/core/render_<format>.c). */
enum ci_format {
	CI_FORMAT_TEXT = 0,
	CI_FORMAT_JSON,
	CI_FORMAT_SARIF,
	CI_FORMAT_PROMETHEUS,
	CI_FORMAT_JUNIT,
	CI_FORMAT_NAGIOS,
	CI_FORMAT_NPD,
};

/* What the renderers are told: never the command line itself (core/cli.h),
 * so that a renderer can be driven by a test or another front end. */
struct render_output;

struct render_opts {
	enum ci_format format;
	bool color;                /* resolved: --color, whether stdout is a tty, NO_COLOR */
	bool quiet;                /* the verdict only */
	bool verbose;              /* evidence under each check */
	const char *output;        /* --output FILE, written atomically; NULL: stdout */
	struct render_output *out; /* --output opened by the runner, or NULL */
	int width;                 /* columns text wraps at (core/term.h); 0: 80 */
	const char *cwd; /* the folder the tool ran in (SARIF's %SRCROOT%); NULL: unknown */
};

void render_text(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		 const struct render_opts *o);
void render_json(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		 const struct render_opts *o);
/* The formats other systems read, each in render_<format>.c. */
void render_sarif(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		  const struct render_opts *o);
void render_prometheus(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		       const struct render_opts *o);
void render_junit(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		  const struct render_opts *o);
void render_nagios(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		   const struct render_opts *o);
void render_npd(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		const struct render_opts *o);

/* Pieces of the text renderer for verbs with their own layout (the fleet
 * matrix): one check line (id column id_col wide, indented by base), the
 * numbered next commands, and the verdict with its fix-first list. */
void render_text_check(FILE *out, const struct ci_check *c, const struct render_opts *o, int base,
		       int id_col);
void render_text_steps(FILE *out, const struct ci_report *r);
void render_text_verdict(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
			 const struct render_opts *o);
/* The live section of r (render_text_live.c), indented by base; nothing
 * when r has none. */
void render_text_live(FILE *out, const struct ci_report *r, const struct render_opts *o, int base);
/* "\nTARGET  LABEL\n", sanitised: the heading of a child report. */
void render_text_child_head(FILE *out, const struct ci_report *c);
/* text word-wrapped at 80 columns from column col (words split on spaces,
 * continuation lines indented by indent), then a newline; the text is
 * sanitised (core/sanitize.h) on the way. */
void render_text_wrap(FILE *out, const char *text, int col, int indent);

/* One row per --format (render_format.c): its name, what it is for, its
 * renderer (NULL for text: the verb's own layout) and the exit code it
 * gives a verdict (NULL: verdict_exit_code). */
typedef void render_fn(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		       const struct render_opts *o);
struct render_format {
	const char *name;
	enum ci_format format;
	const char *what;
	render_fn *render;
	int (*exit_code)(const struct ci_verdict *v);
};
extern const struct render_format render_formats[];
extern const size_t render_formats_len;
/* The format called name, or NULL. */
const struct render_format *render_format_find(const char *name);
const struct render_format *render_format_of(enum ci_format f);
/* "text, json, sarif, ..." for messages and help. */
const char *render_format_names(void);

/* The time a report is stamped with: SOURCE_DATE_EPOCH when set (so that
 * goldens and reproducible pipelines get a stable stamp), else now. */
long long render_timestamp(void);
/* ts as RFC 3339 UTC ("2026-12-01T08:25:14Z") into buf (>= 21 bytes). */
void render_rfc3339(long long ts, char *buf, size_t len);
/* Outside text made safe to print (controls and bidi overrides escaped,
 * long values cut): a new string, never NULL; s NULL gives "". */
char *render_clean(const char *s);
/* "FILE:LINE" (or "FILE") where c's subject is written, for a format that
 * prints it beside the subject; NULL when c has no location or its subject
 * or detail already names that file (env.input). */
char *render_check_location(const struct ci_check *c);

/* --output FILE: a regular file (or a new name) is written to a temporary
 * file in FILE's folder, then renamed over FILE with FILE's mode and owner,
 * so that a reader (node_exporter's textfile collector, a CI upload) never
 * sees half a report; a character device or a FIFO is written through as a
 * shell's `>` would, never replaced; a socket or a block device is refused.
 * Zero-initialised means closed. */
struct render_output {
	FILE *f;          /* where to render: stdout or the temporary file */
	const char *path; /* NULL: stdout (or closed) */
	char *tmp;        /* the temporary file, NULL when written through */
	char *real;       /* FILE resolved when it is a symlink to a file */
	int fd;
	bool through; /* not a regular file: written in place */
};
/* 0, or -1 with a one-line error printed.  The verb runner opens it before
 * any probe runs (render_opts.out), so that an unwritable target is said
 * before the work, not after it. */
int render_output_open(struct render_output *ro, const char *path);
/* Flush, sync and rename into place; 0 or -1 with the error printed.  The
 * temporary file never outlives a failure.  stdout is left to the caller
 * (the verb runner flushes it once and words its error). */
int render_output_commit(struct render_output *ro);
/* Close without writing (a usage error after the open): the temporary file
 * is removed, FILE is untouched.  Safe on a committed or closed one. */
void render_output_abort(struct render_output *ro);
/* Async-signal-safe: remove the temporary file of the open output, if any
 * (the signal handler calls it before the tool exits with 128+signal). */
void render_output_unlink_pending(void);

/* Compute the verdict, render r in the chosen format to stdout or
 * --output, and return the exit code for it (CI_EXIT_IO when --output
 * cannot be written).  The verb runner (src/cmd/run_verb.c) calls it once
 * per run and then checks that stdout was really written. */
int report_finish(const struct ci_report *r, const struct render_opts *o);

/* The same with another text layout (the fleet matrix); every other format
 * renders the same report whatever the verb. */
typedef render_fn render_text_fn;
int report_finish_as(const struct ci_report *r, const struct render_opts *o, render_text_fn *text);

#endif
