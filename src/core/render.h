/* SPDX-License-Identifier: Apache-2.0 */
/* One renderer per output format; both end with the run's single verdict. */
#ifndef CI_RENDER_H
#define CI_RENDER_H

#include <stdio.h>

#include "cli.h"
#include "report.h"

void render_text(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		 const struct cli_opts *o);
void render_json(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		 const struct cli_opts *o);

/* Compute the verdict, render r to stdout in the chosen format, and return
 * the exit code for it.  Every verb ends with `return report_finish(...)`. */
int report_finish(const struct ci_report *r, const struct cli_opts *o);

#endif
