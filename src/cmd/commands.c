/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The verb table.  Adding a verb is one entry here and one file in this
 * directory (docs/HACKING.md, "Adding a verb"): the runner (run_verb.c) does
 * the option checks, the target, the probe and its failure, the rendering
 * and the final write check for it.  The order is the order of --help.
 */
#include <string.h>

#include "cmd/cmd.h"
#include "nixl/nixl_desc.h"
#include "node/node_desc.h"

const struct verb verbs[] = {
	{
		.name = "env",
		.synopsis = "env <recipe dir|manifest|->...",
		.summary = "lint recipes, or a live DGD (--deployment)",
		.options = OPT_MAX_FILES,
		/* paths, or with --deployment the live object (one kubectl get) */
		.targets = VT_PATHS | VT_FLEET,
		.fleet_optional = true,
		.min_args = 0, .max_args = -1,
		.run = cmd_env,
	},
	{
		.name = "node",
		.synopsis = "node",
		.summary = "RDMA, GPUDirect, GDRCopy, NVLink, memlock, env",
		.options = OPT_OBSERVE | OPT_LOGS,
		.targets = VT_PROBE | VT_FLEET,
		.judge = cmd_node,
		.probe_check = NODE_CHECK(PROBE),
		.fleet = FLEET_NODE,
	},
	{
		.name = "nixl",
		.synopsis = "nixl",
		.summary = "NIXL/UCX readiness and the pair-test commands",
		.options = OPT_PEER,
		.targets = VT_PROBE | VT_FLEET,
		.check = cmd_nixl_check,
		.start = cmd_nixl_start,
		.judge = cmd_nixl,
		.stop = cmd_nixl_stop,
		.probe_check = NIXL_CHECK(PROBE),
		.fleet = FLEET_NIXL,
	},
	{
		.name = "all",
		.synopsis = "all <recipe dir>",
		.summary = "env + node + nixl over a deployment, with drift",
		.options = OPT_MAX_FILES | OPT_OBSERVE | OPT_LOGS,
		.targets = VT_PATHS | VT_FLEET,
		.min_args = 1, .max_args = 1,
		.args_error = "needs one recipe folder or manifest: all RECIPE_DIR "
			      "--deployment NAME -n NAMESPACE",
		.run = cmd_all,
		.fleet = FLEET_ALL,
	},
	{
		.name = "vars",
		.synopsis = "vars",
		.summary = "print the transport variable catalogue",
		.targets = VT_NONE,
		.args_error = "takes no arguments",
		.run = cmd_vars,
	},
};

const size_t n_verbs = sizeof(verbs) / sizeof(verbs[0]);

const struct verb *verb_find(const char *name)
{
	for (size_t i = 0; i < n_verbs; i++)
		if (!strcmp(name, verbs[i].name))
			return &verbs[i];
	return NULL;
}
