/* SPDX-License-Identifier: Apache-2.0 */
/* `check_interconnect vars`: the variable catalogue, as text or JSON. */
#include <jansson.h>
#include <stdio.h>

#include "cli.h"
#include "report.h"
#include "varcat.h"

int cmd_vars(const struct cli_opts *o)
{
	if (cli_allow_only("vars", o, 0))
		return CI_EXIT_USAGE;
	if (o->n_args)
		return cli_usage_error("vars", "takes no arguments");
	char fab[64];
	if (o->format == CI_FORMAT_JSON) {
		json_t *arr = json_array();
		for (size_t i = 0; i < varcat_len; i++) {
			const struct var_info *v = &varcat[i];
			json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:s,s:s}", "name", v->name,
				"family", varcat_family_name(v->family), "critical_on",
				fabric_mask_name(v->critical_on, fab, sizeof(fab)),
				"meaning", v->meaning, "rule", v->rule));
		}
		json_t *doc = json_pack("{s:s,s:o}", "schema", "check_interconnect/vars/v1",
					"variables", arr);
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
		return 0;
	}
	printf("%-34s %-9s %-22s %s\n", "VARIABLE", "FAMILY", "CRITICAL ON", "MEANING / RULE");
	for (size_t i = 0; i < varcat_len; i++) {
		const struct var_info *v = &varcat[i];
		printf("%-34s %-9s %-22s %s\n%68s%s\n", v->name, varcat_family_name(v->family),
		       fabric_mask_name(v->critical_on, fab, sizeof(fab)), v->meaning, "", v->rule);
	}
	return 0;
}
