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

#include "cmd/cmd.h"
#include "core/xalloc.h"
#include "env/env_analyze.h"
#include "fleet/fleet_run.h"

int cmd_all(struct verb_ctx *c, struct ci_report *r)
{
	const char *path = c->args[0];
	struct manifest_set ms;
	manifest_set_init(&ms);
	ms.max_files = c->max_files;
	if (!manifest_load_path(&ms, path)) {
		const char *why = ms.n_diags && ms.diags[ms.n_diags - 1].message
					  ? ms.diags[ms.n_diags - 1].message
					  : "unreadable";
		cli_error("all: cannot read '%s': %s", path, why);
		manifest_set_release(&ms);
		return CI_EXIT_USAGE;
	}
	env_render_overlays(&c->fleet.probe, &ms);
	env_analyze(r, &ms, path);

	struct fleet_result res;
	memset(&res, 0, sizeof(res));
	int rc = fleet_run(&c->fleet, FLEET_ALL, r, &res);
	if (res.error)
		cli_error("all: %s", res.error);
	if (rc == 0) {
		const struct deployment *d = all_pick_deployment(&ms, c->fleet.deployment);
		size_t first = r->n_checks;
		all_check_drift(r, &ms, d, res.pods, res.n);
		/* The pods and the drift come from the deployment the recipe
		 * writes here: their findings are placed there (SARIF). */
		for (size_t i = 0; d && d->loc.file && i < r->n_children; i++) {
			free(r->children[i].loc_file);
			r->children[i].loc_file = xstrdup(d->loc.file);
			r->children[i].loc_line = d->loc.line;
		}
		for (size_t i = first; d && d->loc.file && i < r->n_checks; i++)
			if (!r->checks[i].loc_file)
				check_set_location(&r->checks[i], d->loc.file, d->loc.line);
	}
	fleet_result_release(&res);
	manifest_set_release(&ms);
	return rc == CI_EXIT_USAGE ? rc : VERB_RENDER;
}
