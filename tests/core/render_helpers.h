/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the renderer tests: render a report into a string. */
#ifndef TEST_RENDER_HELPERS_H
#define TEST_RENDER_HELPERS_H

#include <stdio.h>
#include <stdlib.h>

#include "core/render.h"

enum {
	R_TEXT,
	R_JSON
};

/* noinline: gcc's -Wdangling-pointer misreads the memstream buffer once this
 * is inlined into a caller. */
__attribute__((noinline, unused)) static char *
render_to_string(const struct ci_report *r, int fmt, bool quiet, bool verbose, bool color)
{
	struct render_opts o = {0};
	o.quiet = quiet;
	o.verbose = verbose;
	o.color = color;
	o.format = fmt == R_JSON ? CI_FORMAT_JSON : CI_FORMAT_TEXT;
	struct ci_verdict v;
	verdict_compute(r, &v);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		abort();
	if (fmt == R_JSON)
		render_json(out, r, &v, &o);
	else
		render_text(out, r, &v, &o);
	fclose(out);
	verdict_release(&v);
	return buf;
}

#endif
