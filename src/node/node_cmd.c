/* SPDX-License-Identifier: Apache-2.0 */
/* `check_interconnect node`: one probe (local, --sysroot, pod or --replay),
 * then the pure analysis in node_checks.c. */
#include <stdio.h>

#include "core/cli.h"
#include "core/render.h"
#include "core/report.h"
#include "node/node.h"
#include "probe/probe.h"

#define NODE_OPTS (OPT_NAMESPACE | OPT_POD | OPT_CONTAINER | OPT_CONTEXT | OPT_KUBECONFIG | \
		   OPT_KUBECTL | OPT_SYSROOT | OPT_SAVE_PROBE | OPT_REPLAY | OPT_TIMEOUT)

int cmd_node(const struct cli_opts *o)
{
	int rc = probe_target_validate("node", o, NODE_OPTS);
	if (rc)
		return rc;
	struct probe_outcome out;
	probe_collect(o, NULL, &out);
	if (out.err == PROBE_BAD_TARGET) {
		/* A name that fails validation is a usage error: nothing ran,
		 * so there is no report to print. */
		rc = cli_usage_error("node", "%s", out.message ? out.message : "invalid target");
		probe_outcome_release(&out);
		return rc;
	}
	const char *target = out.target ? out.target : "local host";
	struct ci_report r;
	report_init(&r, "node", target);
	if (out.err != PROBE_OK) {
		/* One line for people, and a check for JSON readers. */
		const char *msg = out.message ? out.message : probe_error_name(out.err);
		cli_error("node: %s", msg);
		report_add(&r, "node.probe", CI_SKIPPED, true, CI_LAYER_FABRIC, target, "%s", msg);
		report_finish(&r, o);
		rc = probe_error_exit(out.err);
	} else {
		node_analyze(&r, &out.t, target);
		rc = report_finish(&r, o);
	}
	report_release(&r);
	probe_outcome_release(&out);
	return rc;
}
