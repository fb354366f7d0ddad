/* SPDX-License-Identifier: Apache-2.0 */
/*
 * node-problem-detector's custom-plugin protocol, so that `node` on a host
 * can set a node condition: exit 0 OK, 1 NonOK, 2 Unknown (the exit code
 * is render_format.c's npd_exit_code) and one short line on stdout.  NPD
 * trims the output and cuts it at max_output_length bytes (80 by default,
 * pkg/custompluginmonitor/types/config.go), so the line is built to fit in
 * 80 bytes by itself: the verdict, the counts, and the first id to fix.
 */
#include <stdlib.h>
#include <string.h>

#include "core/render.h"

#define NPD_MAX 80

void render_npd(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		const struct render_opts *o)
{
	(void)o;
	struct ci_counts n = report_counts(r);
	char line[256];
	int len = snprintf(line, sizeof(line), "%s: %zu fail, %zu warn, %zu skipped",
			   verdict_name(v->kind), n.fail, n.warn, n.skipped);
	if (v->n_fix_first) {
		char *id = render_clean(v->fix_first[0]);
		const char *more = v->n_fix_first > 1 ? " (+more)" : "";
		/* unknown: the first id is where to look, not yet a fix */
		bool unknown = v->kind == CI_UNKNOWN;
		if (len + 13 + strlen(id) + strlen(more) <= NPD_MAX)
			snprintf(line + len, sizeof(line) - (size_t)len, "; %s %s%s%s",
				 unknown ? "start with" : "fix", id, unknown ? "" : " first", more);
		free(id);
	}
	fprintf(out, "%.*s\n", NPD_MAX, line);
}
