/* SPDX-License-Identifier: Apache-2.0 */
/* `check_interconnect vars`: the variable catalogue, as text or JSON. */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/render.h"
#include "core/varcat.h"

/* Word-wrap text at 80 columns after a prefix; continuation lines indented
 * by `indent`, so that the catalogue reads in an 80-column terminal. */
static void print_wrapped(const char *prefix, const char *text, int indent)
{
	render_text_wrap(stdout, text, printf("%s", prefix), indent);
}

int cmd_vars(struct verb_ctx *c, struct ci_report *r)
{
	char fab[64];
	if (c->render.format == CI_FORMAT_JSON) {
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
	printf("%-32s %-9s %s\n", "VARIABLE", "FAMILY", "CRITICAL WHEN MISSING ON");
	for (size_t i = 0; i < varcat_len; i++) {
		const struct var_info *v = &varcat[i];
		printf("%-32s %-9s %s\n", v->name, varcat_family_name(v->family),
		       fabric_mask_name(v->critical_on, fab, sizeof(fab)));
		print_wrapped("    ", v->meaning, 4);
		print_wrapped("    rule: ", v->rule, 10);
	}
	return 0;
}
