/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `check_interconnect all RECIPE_DIR --deployment NAME -n NS`: the three
 * steps in one report.  env on the recipe (pure, env_analyze), node and nixl
 * on every worker pod of the deployment from ONE exec each (fleet_run with
 * FLEET_ALL), and the drift between the two (all_check_drift).  One verdict,
 * one exit code.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/xalloc.h"
#include "env/env_analyze.h"
#include "fleet/fleet.h"

int cmd_all(const struct cli_opts *o)
{
	/* --max-files is the recipe's; the fleet options are checked apart. */
	struct cli_opts fo = *o;
	fo.given &= ~(unsigned)OPT_MAX_FILES;
	int rc = fleet_validate("all", &fo);
	if (rc)
		return rc;
	if (o->n_args != 1)
		return cli_usage_error("all", "needs one recipe folder or manifest: all RECIPE_DIR "
				       "--deployment NAME -n NAMESPACE");
	const char *path = o->args[0];

	struct manifest_set ms;
	manifest_set_init(&ms);
	ms.max_files = o->max_files;
	if (!manifest_load_path(&ms, path)) {
		const char *why = ms.n_diags && ms.diags[ms.n_diags - 1].message
					  ? ms.diags[ms.n_diags - 1].message : "unreadable";
		cli_error("all: cannot read '%s': %s", path, why);
		manifest_set_release(&ms);
		return CI_EXIT_USAGE;
	}

	char *target = o->deployment
		? xasprintf("recipe %s against deployment %s in namespace %s", path, o->deployment,
			    o->namespace_)
		: xasprintf("recipe %s against pods -l %s in namespace %s", path, o->selector,
			    o->namespace_);
	struct ci_report r;
	report_init(&r, "all", target);
	env_analyze(&r, &ms, path);

	struct fleet_result res;
	memset(&res, 0, sizeof(res));
	rc = fleet_run(o, FLEET_ALL, &r, &res);
	if (rc == 0)
		all_check_drift(&r, all_pick_deployment(&ms, o->deployment), res.pods, res.n);
	if (rc != CI_EXIT_USAGE)
		rc = fleet_finish(&r, o);
	fleet_result_release(&res);
	report_release(&r);
	manifest_set_release(&ms);
	free(target);
	return rc;
}
