/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Help, printed from the verb table and the option table (options.h): the same
 * words in --help, `help VERB`, the man page and the completions.  Text is
 * wrapped at the terminal's width, between words only.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/help.h"
#include "core/cli.h"
#include "core/render.h"

const char *const *help_verb_names(size_t *n)
{
	static const char *names[16];
	size_t k = 0;
	for (size_t i = 0; i < n_verbs && k < 15; i++)
		names[k++] = verbs[i].name;
	names[k++] = "help";
	*n = k;
	return names;
}

/* text from column col, wrapped at width between words, continuation lines
 * indented by indent; a word longer than the line overflows it whole. */
static void wrap(FILE *out, const char *text, int col, int indent, int width)
{
	bool first = true;
	for (const char *p = text; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t wl = strcspn(p, " ");
		if (!first && col + 1 + (int)wl > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, wl, out);
		col += (int)wl;
		p += wl;
		first = false;
	}
	fputc('\n', out);
}

#define OPT_COL 24

/* "  -n, --namespace NS" then the text at OPT_COL (or on the next line). */
static void print_option(FILE *out, const struct cli_option *d, int width)
{
	char head[64];
	snprintf(head, sizeof(head), "  %s%c%s%s%s%s", d->short_name ? "-" : "",
		 d->short_name ? d->short_name : ' ', d->short_name ? ", " : "", d->name,
		 d->arg ? " " : "", d->arg ? d->arg : "");
	/* a flag without a short name: no stray blank where "-x, " would go */
	if (!d->short_name)
		snprintf(head, sizeof(head), "  %s%s%s", d->name, d->arg ? " " : "",
			 d->arg ? d->arg : "");
	int col = fprintf(out, "%s", head);
	if (col + 2 > OPT_COL) {
		fprintf(out, "\n%*s", OPT_COL, "");
	} else {
		fprintf(out, "%*s", OPT_COL - col, "");
	}
	wrap(out, d->text, OPT_COL, OPT_COL, width);
}

static void print_verbs(FILE *out, int width)
{
	fputs("verbs:\n", out);
	for (size_t i = 0; i < n_verbs; i++) {
		int col = fprintf(out, "  %s", verbs[i].synopsis);
		if (col + 2 > 32) {
			fputc('\n', out);
			col = 0;
		}
		fprintf(out, "%*s", 32 - col, "");
		wrap(out, verbs[i].summary, 32, 32, width);
	}
	int col = fprintf(out, "  help [VERB]");
	fprintf(out, "%*s", 32 - col, "");
	wrap(out, "the usage, options and examples of VERB", 32, 32, width);
}

/* An example as the user would type it: under the name they called the
 * tool by (`kubectl interconnect ...` as the plugin). */
static void print_example(FILE *out, const char *e)
{
	static const char self[] = "check_interconnect ";
	if (!strncmp(e, self, sizeof(self) - 1))
		fprintf(out, "  %s %s\n", cli_program(), e + sizeof(self) - 1);
	else
		fprintf(out, "  %s\n", e);
}

void help_print_help(FILE *out, int width)
{
	fprintf(out, "usage: %s help [VERB]\n\n", cli_program());
	wrap(out,
	     "help: print the usage of VERB, the options it takes and examples; without VERB, "
	     "every verb and option. 'VERB --help' prints the same.",
	     0, 0, width);
	fputs("\nverbs: ", out);
	for (size_t i = 0; i < n_verbs; i++)
		fprintf(out, "%s%s", i ? ", " : "", verbs[i].name);
	fputs(", help\n", out);
}

static void print_exit_codes(FILE *out, int width)
{
	fputs("\nexit codes:\n  ", out);
	wrap(out,
	     "0 ready, 1 degraded, 2 blocked, 3 unknown, 64 usage error, 74 the report "
	     "could not be written (npd: 0 OK, 1 NonOK, 2 Unknown)",
	     2, 2, width);
}

void help_print(FILE *out, const struct verb *v, int width)
{
	if (!v) {
		fprintf(out, "usage: %s [options] <verb> [args]\n\n", cli_program());
		wrap(out,
		     "Tells whether the transport under NVIDIA Dynamo's disaggregated serving "
		     "(NIXL -> UCX/libfabric -> InfiniBand, RoCE, EFA, NVLink) can be trusted. "
		     "Read-only: it never changes the cluster and never prints a secret.",
		     0, 0, width);
		fputc('\n', out);
		print_verbs(out, width);
		for (int g = HG_OUTPUT; g <= HG_GENERAL; g++) {
			fprintf(out, "\n%s:\n", help_group_names[g]);
			for (size_t i = 0; i < n_cli_options; i++)
				if (cli_options[i].group == (enum help_group)g)
					print_option(out, &cli_options[i], width);
		}
		print_exit_codes(out, width);
		return;
	}
	fprintf(out, "usage: %s %s [options]\n\n", cli_program(), v->synopsis);
	char line[512];
	snprintf(line, sizeof(line), "%s: %s.", v->name, v->summary);
	wrap(out, line, 0, 0, width);
	if (v->description) {
		fputc('\n', out);
		wrap(out, v->description, 0, 0, width);
	}
	for (int g = HG_OUTPUT; g <= HG_GENERAL; g++) {
		bool any = false;
		for (size_t i = 0; i < n_cli_options; i++) {
			const struct cli_option *d = &cli_options[i];
			if (d->group != (enum help_group)g || !cli_option_taken(v, d, v->targets))
				continue;
			if (!any)
				fprintf(out, "\n%s:\n",
					g == HG_RECIPES   ? "recipes"
					: g == HG_TARGETS ? "targets"
							  : help_group_names[g]);
			any = true;
			print_option(out, d, width);
		}
	}
	if (v->examples && v->examples[0]) {
		fputs("\nexamples:\n", out);
		/* Commands are never wrapped: they must stay copy-pasteable. */
		for (const char *const *e = v->examples; *e; e++)
			print_example(out, *e);
	}
	print_exit_codes(out, width);
}
