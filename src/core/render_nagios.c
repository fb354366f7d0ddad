/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Monitoring Plugins (Nagios, Icinga, Naemon) output: one line
 * "STATUS - summary | perfdata", and the exit code the verdict already
 * has (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN).  The summary is the
 * verdict's own; '|' would start perfdata early, so it never appears in it.
 */
#include <stdlib.h>
#include <string.h>

#include "core/render.h"

static const char *nagios_status(enum ci_verdict_kind k)
{
	switch (k) {
	case CI_READY: return "OK";
	case CI_DEGRADED: return "WARNING";
	case CI_BLOCKED: return "CRITICAL";
	default: return "UNKNOWN";
	}
}

void render_nagios(FILE *out, const struct ci_report *r, const struct ci_verdict *v,
		   const struct render_opts *o)
{
	(void)o;
	char *sum = render_clean(v->summary);
	for (char *p = sum; *p; p++)
		if (*p == '|')
			*p = '/';
	struct ci_counts n = report_counts(r);
	/* perfdata: 'label'=value[UOM];warn;crit;min;max; counts have a
	 * minimum of 0 and, per the guidelines, no unit. */
	fprintf(out,
		"INTERCONNECT %s - %s: %s | ok=%zu;;;0 warn=%zu;;;0 fail=%zu;;;0 "
		"skipped=%zu;;;0\n",
		nagios_status(v->kind), verdict_name(v->kind), sum, n.ok, n.warn, n.fail,
		n.skipped);
	free(sum);
}
