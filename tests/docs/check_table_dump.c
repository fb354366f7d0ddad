/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints every check descriptor of every area, one per line:
 * "id<TAB>layer<TAB>critical|not critical<TAB>summary<TAB>source".
 * check_ids.py reads it, so the docs test sees the ids the code can emit
 * from the tables themselves, not from a grep of the sources.  Exits 1 when
 * a table is malformed (an empty id, summary or source, an id in two
 * entries, a tab or newline in a summary or source).
 */
#include <stdio.h>
#include <string.h>

#include "env/env_desc.h"
#include "fleet/fleet_desc.h"
#include "live/live_desc.h"
#include "nixl/nixl_desc.h"
#include "node/node_desc.h"

static const struct {
	const struct check_desc *t;
	size_t n;
} tables[] = {
	{env_check_table, ENV_CK_COUNT},   {node_check_table, NODE_CK_COUNT},
	{nixl_check_table, NIXL_CK_COUNT}, {fleet_check_table, FLEET_CK_COUNT},
	{live_check_table, LIVE_CK_COUNT},
};

int main(void)
{
	int rc = 0;
	for (size_t k = 0; k < sizeof(tables) / sizeof(tables[0]); k++) {
		for (size_t i = 0; i < tables[k].n; i++) {
			const struct check_desc *d = &tables[k].t[i];
			if (!d->id || !*d->id || !d->summary || !*d->summary) {
				fprintf(stderr, "table %zu entry %zu: no id or no summary\n", k, i);
				rc = 1;
				continue;
			}
			if (!d->source || !*d->source) {
				fprintf(stderr, "%s: no source\n", d->id);
				rc = 1;
				continue;
			}
			if (strpbrk(d->summary, "\t\n") || strpbrk(d->source, "\t\n")) {
				fprintf(stderr, "%s: a tab or newline in its summary or source\n",
					d->id);
				rc = 1;
				continue;
			}
			for (size_t k2 = 0; k2 <= k; k2++)
				for (size_t j = 0; j < (k2 == k ? i : tables[k2].n); j++)
					if (!strcmp(tables[k2].t[j].id, d->id)) {
						fprintf(stderr, "%s: in two entries\n", d->id);
						rc = 1;
					}
			printf("%s\t%s\t%s\t%s\t%s\n", d->id, layer_name(d->layer),
			       d->critical ? "critical" : "not critical", d->summary, d->source);
		}
	}
	return rc;
}
