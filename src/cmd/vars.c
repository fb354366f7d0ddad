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
static void print_wrapped(FILE *out, const char *prefix, const char *text, int indent)
{
	render_text_wrap(out, text, fprintf(out, "%s", prefix), indent);
}

int cmd_vars(struct verb_ctx *c, struct ci_report *r)
{
	const struct render_opts *o = &c->render;
	if (o->format != CI_FORMAT_TEXT && o->format != CI_FORMAT_JSON)
		return cli_usage_error("vars",
				       "prints text or json, not %s (it is a catalogue, "
				       "not a report)",
				       render_format_of(o->format)->name);
	struct render_output own;
	struct render_output *ro = o->out;
	if (!ro && render_output_open(&own, o->output) == 0)
		ro = &own;
	if (!ro || !ro->f)
		return CI_EXIT_IO;
	FILE *out = ro->f;
	char fab[64];
	if (c->render.format == CI_FORMAT_JSON) {
		json_t *arr = json_array();
		for (size_t i = 0; i < varcat_len; i++) {
			const struct var_info *v = &varcat[i];
			json_array_append_new(
				arr, json_pack("{s:s,s:s,s:s,s:s,s:s}", "name", v->name, "family",
					       varcat_family_name(v->family), "critical_on",
					       fabric_mask_name(v->critical_on, fab, sizeof(fab)),
					       "meaning", v->meaning, "rule", v->rule));
		}
		json_t *doc = json_pack("{s:s,s:o}", "schema", "check_interconnect/vars/v1",
					"variables", arr);
		json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', out);
		json_decref(doc);
		return render_output_commit(ro) ? CI_EXIT_IO : 0;
	}
	fprintf(out, "%-32s %-9s %s\n", "VARIABLE", "FAMILY", "CRITICAL WHEN MISSING ON");
	for (size_t i = 0; i < varcat_len; i++) {
		const struct var_info *v = &varcat[i];
		fprintf(out, "%-32s %-9s %s\n", v->name, varcat_family_name(v->family),
			fabric_mask_name(v->critical_on, fab, sizeof(fab)));
		print_wrapped(out, "    ", v->meaning, 4);
		print_wrapped(out, "    rule: ", v->rule, 10);
	}
	return render_output_commit(ro) ? CI_EXIT_IO : 0;
}
