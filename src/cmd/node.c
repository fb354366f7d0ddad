/* SPDX-License-Identifier: Apache-2.0 */
/* `check_interconnect node`: the runner probes the target (local,
 * --sysroot, pod or --replay; or every pod of a deployment through the
 * fleet fan-out); this is the pure analysis of one transcript
 * (node_checks.c). */
#include "cmd/cmd.h"
#include "node/node.h"

void cmd_node(struct verb_ctx *c, struct ci_report *r, const struct transcript *t)
{
	node_analyze(r, t, r->target);
}
