/* SPDX-License-Identifier: Apache-2.0 */
/* One renderer per output format; both end with the run's single verdict. */
#ifndef CI_RENDER_H
#define CI_RENDER_H

#include <stdio.h>

#include <stdbool.h>

#include "core/report.h"

enum ci_format { CI_FORMAT_TEXT = 0, CI_FORMAT_JSON };

/* What the renderers are told: never the command line itself (core/cli.h),
 * so that a renderer can be driven by a test or another front end. */
struct render_opts {
	enum ci_format format;
	bool color;            /* resolved: --color, whether stdout is a tty, NO_COLOR */
	bool quiet;            /* the verdict only */
	bool verbose;          /* evidence under each check */
};

void render_text(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		 const struct render_opts *o);
void render_json(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		 const struct render_opts *o);

/* Pieces of the text renderer for verbs with their own layout (the fleet
 * matrix): one check line (id column id_col wide, indented by base), the
 * numbered next commands, and the verdict with its fix-first list. */
void render_text_check(FILE *out, const struct ci_check *c, const struct render_opts *o, int base,
		       int id_col);
void render_text_steps(FILE *out, const struct ci_report *r);
void render_text_verdict(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
			 const struct render_opts *o);
/* "\nTARGET  LABEL\n", sanitised: the heading of a child report. */
void render_text_child_head(FILE *out, const struct ci_report *c);
/* text word-wrapped at 80 columns from column col (words split on spaces,
 * continuation lines indented by indent), then a newline; the text is
 * sanitised (core/sanitize.h) on the way. */
void render_text_wrap(FILE *out, const char *text, int col, int indent);

/* Compute the verdict, render r to stdout in the chosen format, and return
 * the exit code for it.  The verb runner (src/cmd/run_verb.c) calls it once
 * per run and then checks that stdout was really written. */
int report_finish(const struct ci_report *r, const struct render_opts *o);

/* The same with another text layout (the fleet matrix); JSON is always the
 * one schema'd renderer. */
typedef void render_text_fn(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
			    const struct render_opts *o);
int report_finish_as(const struct ci_report *r, const struct render_opts *o, render_text_fn *text);

#endif
