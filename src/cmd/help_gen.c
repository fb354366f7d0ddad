/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The man page and the shell completions, printed from the same tables as
 * --help (help.h); tools/gen_docs.c calls these at build time.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/help.h"
#include "core/render.h"

#ifndef CI_VERSION
#define CI_VERSION "0.0.0"
#endif

/* roff text: '-' is a hyphen unless escaped, '\' starts an escape, and a
 * line starting with '.' or '\'' would be a request. */
static void roff(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", out);
		else if (*s == '\\')
			fputs("\\e", out);
		else
			fputc(*s, out);
	}
}

static void roff_option(FILE *out, const struct cli_option *d)
{
	fputs(".TP\n\\fB", out);
	if (d->short_name)
		fprintf(out, "\\-%c\\fR, \\fB", d->short_name);
	roff(out, d->name);
	fputs("\\fR", out);
	if (d->arg) {
		fputs(" \\fI", out);
		roff(out, d->arg);
		fputs("\\fR", out);
	}
	fputc('\n', out);
	roff(out, d->text);
	fputs(".\n", out);
}

void help_roff(FILE *out)
{
	fprintf(out,
		".\\\" Generated from src/cmd/help.c and src/cmd/commands.c by "
		"tools/gen_docs: do not edit.\n"
		".TH CHECK_INTERCONNECT 1 \"\" \"check_interconnect %s\" \"User Commands\"\n",
		CI_VERSION);
	fputs(".SH NAME\ncheck_interconnect \\- can the KV transport under NVIDIA Dynamo's "
	      "disaggregated serving be trusted?\n.SH SYNOPSIS\n",
	      out);
	for (size_t i = 0; i < n_verbs; i++) {
		fputs(".B check_interconnect\n", out);
		fputs("[\\fIoptions\\fR] ", out);
		roff(out, verbs[i].synopsis);
		fputs("\n.br\n", out);
	}
	fputs(".B kubectl interconnect\n\\fIverb\\fR [\\fIoptions\\fR]\n", out);
	fputs(".SH DESCRIPTION\n", out);
	roff(out,
	     "check_interconnect tells whether the transport under NVIDIA Dynamo's "
	     "disaggregated serving (NIXL over UCX or libfabric, over InfiniBand, RoCE, EFA or "
	     "NVLink) can be trusted. Every check prints ok, warn, fail or skipped with one line "
	     "of detail; each run ends with one verdict and a fix-first list. It is read-only: "
	     "it never changes the cluster and never prints a secret. A missing tool is "
	     "skipped, never a pass.");
	fputs("\n.PP\nInstalled as \\fBkubectl\\-interconnect\\fR it is also a kubectl plugin: "
	      "\\fBkubectl interconnect node \\-n\\fR \\fINS\\fR \\fB\\-\\-pod\\fR \\fIPOD\\fR.\n",
	      out);
	fputs(".SH VERBS\n", out);
	for (size_t i = 0; i < n_verbs; i++) {
		const struct verb *v = &verbs[i];
		fputs(".SS \"", out);
		roff(out, v->synopsis);
		fputs("\"\n", out);
		roff(out, v->description ? v->description : v->summary);
		fputs("\n.PP\nOptions: ", out);
		bool first = true;
		for (size_t k = 0; k < n_cli_options; k++) {
			const struct cli_option *d = &cli_options[k];
			if (!d->bit || !cli_option_taken(v, d, v->targets))
				continue;
			fputs(first ? "\\fB" : ", \\fB", out);
			roff(out, d->name);
			fputs("\\fR", out);
			first = false;
		}
		fputs(first ? "the output options only.\n" : ", and the output options.\n", out);
		for (const char *const *e = v->examples; e && *e; e++) {
			fputs(".PP\n.RS\n.EX\n", out);
			roff(out, *e);
			fputs("\n.EE\n.RE\n", out);
		}
	}
	fputs(".SH OPTIONS\nOptions may come before or after the verb.\n", out);
	for (int g = HG_OUTPUT; g <= HG_GENERAL; g++) {
		fputs(".SS \"", out);
		roff(out, help_group_names[g]);
		fputs("\"\n", out);
		for (size_t k = 0; k < n_cli_options; k++)
			if (cli_options[k].group == (enum help_group)g)
				roff_option(out, &cli_options[k]);
	}
	fputs(".SH FORMATS\n", out);
	for (size_t i = 0; i < render_formats_len; i++) {
		fprintf(out, ".TP\n.B %s\n", render_formats[i].name);
		roff(out, render_formats[i].what);
		fputs(".\n", out);
	}
	fputs(".SH EXIT STATUS\n"
	      ".TP\n.B 0\nready: the transport can be trusted.\n"
	      ".TP\n.B 1\ndegraded: usable, not trusted (a warning).\n"
	      ".TP\n.B 2\nblocked: a check failed.\n"
	      ".TP\n.B 3\nunknown: a critical check could not be made.\n"
	      ".TP\n.B 64\nusage error.\n"
	      ".TP\n.B 74\nthe report could not be written (stdout, or \\fB\\-\\-output\\fR).\n"
	      ".PP\nWith \\fB\\-\\-format npd\\fR: 0 OK, 1 NonOK (degraded or blocked), "
	      "2 Unknown.\n",
	      out);
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B KUBECTL\nkubectl to run when \\fB\\-\\-kubectl\\fR is not given.\n"
	      ".TP\n.B KUBECONFIG\nkubeconfig files (colon-separated); the current context's "
	      "namespace is used when \\fB\\-n\\fR is omitted.\n"
	      ".TP\n.B COLUMNS\nwidth to wrap text at (else the terminal's, else 80).\n"
	      ".TP\n.BR NO_COLOR \", \" TERM=dumb\nno colour with \\fB\\-\\-color auto\\fR.\n"
	      ".TP\n.B SOURCE_DATE_EPOCH\nthe time reports are stamped with, instead of the "
	      "clock.\n",
	      out);
	fputs(".SH FILES\n.TP\n.I ~/.kube/config\nthe kubeconfig when neither "
	      "\\fB\\-\\-kubeconfig\\fR nor \\fBKUBECONFIG\\fR is set.\n",
	      out);
	fputs(".SH SEE ALSO\n.BR kubectl (1)\n", out);
}

/* Space-separated long option names (and short ones) for the scripts. */
static void all_options(FILE *out)
{
	for (size_t i = 0; i < n_cli_options; i++) {
		fprintf(out, "%s%s", i ? " " : "", cli_options[i].name);
		if (cli_options[i].short_name)
			fprintf(out, " -%c", cli_options[i].short_name);
	}
}

void help_bash_completion(FILE *out)
{
	fputs("# bash completion for check_interconnect and kubectl-interconnect\n"
	      "# Generated from src/cmd/options.c by tools/gen_docs: do not edit.\n"
	      "_check_interconnect()\n{\n"
	      "\tlocal cur prev verb i\n"
	      "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	      "\tprev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tverb=\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tcase ${COMP_WORDS[i]} in\n",
	      out);
	fputs("\t\t", out);
	for (size_t i = 0; i < n_verbs; i++)
		fprintf(out, "%s%s", i ? " | " : "", verbs[i].name);
	fputs(" | help) verb=${COMP_WORDS[i]}; break ;;\n\t\tesac\n\tdone\n"
	      "\tcase $prev in\n",
	      out);
	for (size_t i = 0; i < n_cli_options; i++) {
		const struct cli_option *d = &cli_options[i];
		if (!d->arg)
			continue;
		fprintf(out, "\t%s%s%c)\n", d->name, d->short_name ? " | -" : "",
			d->short_name ? d->short_name : ' ');
		const char *c = d->complete;
		if (!c)
			fputs("\t\tCOMPREPLY=()\n", out);
		else if (!strcmp(c, "file"))
			fputs("\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n", out);
		else if (!strcmp(c, "dir"))
			fputs("\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n", out);
		else if (!strcmp(c, "pod"))
			fputs("\t\t_check_interconnect_data < <(_check_interconnect_pods)\n", out);
		else if (!strcmp(c, "namespace"))
			fputs("\t\t_check_interconnect_data < <(_check_interconnect_kubectl get "
			      "namespaces -o name | sed 's|^namespace/||')\n",
			      out);
		else if (!strcmp(c, "context"))
			fputs("\t\t_check_interconnect_data < <(_check_interconnect_kubectl config "
			      "get-contexts -o name)\n",
			      out);
		else
			fprintf(out, "\t\tCOMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n", c);
		fputs("\t\treturn\n\t\t;;\n", out);
	}
	fputs("\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"",
	      out);
	all_options(out);
	fputs("\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	      "\tcase $verb in\n"
	      "\t'') COMPREPLY=($(compgen -W \"",
	      out);
	for (size_t i = 0; i < n_verbs; i++)
		fprintf(out, "%s ", verbs[i].name);
	fputs("help\" -- \"$cur\")) ;;\n"
	      "\thelp) COMPREPLY=($(compgen -W \"",
	      out);
	for (size_t i = 0; i < n_verbs; i++)
		fprintf(out, "%s%s", i ? " " : "", verbs[i].name);
	fputs("\" -- \"$cur\")) ;;\n"
	      "\tnode | nixl) _check_interconnect_data < <(_check_interconnect_pods) ;;\n"
	      "\t*) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
	      "\tesac\n}\n\n"
	      "# Names from kubectl or a kubeconfig are data: compgen -W would expand\n"
	      "# $(...) and backticks in them (a context named x$(cmd) would run cmd on\n"
	      "# TAB), and bash inserts a reply as typed. Each line of stdin that starts\n"
	      "# with $cur is compared as a string and offered quoted (printf %q).\n"
	      "_check_interconnect_data()\n{\n"
	      "\tlocal line\n"
	      "\tCOMPREPLY=()\n"
	      "\twhile IFS= read -r line; do\n"
	      "\t\t[[ -n $line && $line == \"$cur\"* ]] || continue\n"
	      "\t\tprintf -v line '%q' \"$line\"\n"
	      "\t\tCOMPREPLY+=(\"$line\")\n"
	      "\tdone\n}\n\n"
	      "# kubectl, only when it is there; nothing otherwise.\n"
	      "_check_interconnect_kubectl()\n{\n"
	      "\tcommand -v kubectl >/dev/null 2>&1 || return 0\n"
	      "\tkubectl \"$@\" 2>/dev/null\n}\n\n"
	      "# Pod names of the namespace given with -n/--namespace (else kubectl's own\n"
	      "# default).\n"
	      "_check_interconnect_pods()\n{\n"
	      "\tlocal i ns=()\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tcase ${COMP_WORDS[i]} in\n"
	      "\t\t-n | --namespace) ns=(-n \"${COMP_WORDS[i+1]}\") ;;\n"
	      "\t\tesac\n\tdone\n"
	      "\t_check_interconnect_kubectl get pods \"${ns[@]}\" -o name | sed 's|^pod/||'\n}\n\n"
	      "complete -F _check_interconnect check_interconnect kubectl-interconnect\n",
	      out);
}

void help_zsh_completion(FILE *out)
{
	fputs("#compdef check_interconnect kubectl-interconnect\n"
	      "# zsh completion; generated from src/cmd/options.c by tools/gen_docs: do not edit.\n"
	      "_check_interconnect_pods() {\n"
	      "  local -a pods ns\n"
	      "  (( $+commands[kubectl] )) || return 1\n"
	      "  [[ -n ${opt_args[-n]:-${opt_args[--namespace]}} ]] && "
	      "ns=(-n ${opt_args[-n]:-${opt_args[--namespace]}})\n"
	      "  pods=(${(f)\"$(kubectl get pods $ns -o name 2>/dev/null)\"})\n"
	      "  compadd -- ${pods#pod/}\n}\n\n"
	      "# Names from kubectl or a kubeconfig reach compadd as data (never eval'd,\n"
	      "# and zsh quotes what it inserts), so x$(cmd) in a name runs nothing.\n"
	      "_check_interconnect_namespaces() {\n"
	      "  local -a names\n"
	      "  (( $+commands[kubectl] )) || return 1\n"
	      "  names=(${(f)\"$(kubectl get namespaces -o name 2>/dev/null)\"})\n"
	      "  compadd -- ${names#namespace/}\n}\n\n"
	      "_check_interconnect_contexts() {\n"
	      "  local -a names\n"
	      "  (( $+commands[kubectl] )) || return 1\n"
	      "  names=(${(f)\"$(kubectl config get-contexts -o name 2>/dev/null)\"})\n"
	      "  compadd -- $names\n}\n\n"
	      "_check_interconnect() {\n  local -a verbs\n  verbs=(\n",
	      out);
	for (size_t i = 0; i < n_verbs; i++)
		fprintf(out, "    '%s:%s'\n", verbs[i].name, verbs[i].summary);
	fputs("    'help:a verb'\"'\"'s usage, options and examples'\n  )\n"
	      "  _arguments -s \\\n",
	      out);
	for (size_t i = 0; i < n_cli_options; i++) {
		const struct cli_option *d = &cli_options[i];
		const char *act = "";
		char words[160];
		if (d->arg) {
			const char *c = d->complete;
			if (!c)
				act = ":value: ";
			else if (!strcmp(c, "file"))
				act = ":file:_files";
			else if (!strcmp(c, "dir"))
				act = ":folder:_files -/";
			else if (!strcmp(c, "pod"))
				act = ":pod:_check_interconnect_pods";
			else if (!strcmp(c, "namespace"))
				act = ":namespace:_check_interconnect_namespaces";
			else if (!strcmp(c, "context"))
				act = ":context:_check_interconnect_contexts";
			else {
				snprintf(words, sizeof(words), ":value:(%s)", c);
				act = words;
			}
		}
		/* '[' and ']' would end zsh's description */
		char text[200];
		snprintf(text, sizeof(text), "%s", d->text);
		for (char *p = text; *p; p++)
			if (*p == '[' || *p == ']' || *p == '\'')
				*p = ' ';
		if (d->short_name)
			fprintf(out, "    '(-%c %s)'{-%c,%s}'[%s]%s' \\\n", d->short_name, d->name,
				d->short_name, d->name, text, act);
		else
			fprintf(out, "    '%s[%s]%s' \\\n", d->name, text, act);
	}
	fputs("    '1:verb:->verb' \\\n    '*::arg:->args'\n"
	      "  case $state in\n"
	      "    verb) _describe verb verbs ;;\n"
	      "    args)\n"
	      "      case $words[1] in\n"
	      "        node|nixl) _check_interconnect_pods ;;\n"
	      "        help) _describe verb verbs ;;\n"
	      "        *) _files ;;\n"
	      "      esac ;;\n"
	      "  esac\n}\n\n"
	      "_check_interconnect \"$@\"\n",
	      out);
}
