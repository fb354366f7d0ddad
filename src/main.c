/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_interconnect: can the transport under Dynamo's disaggregated serving
 * be trusted?  This file only parses the command line and hands it to the
 * verb runner (src/cmd/run_verb.c), which looks the verb up in the table
 * (src/cmd/commands.c).  The pipeline under it, one directory each:
 * probe/ (the only code that runs a process) -> parse/ (bytes -> structs)
 * -> env/ node/ nixl/ fleet/ (facts -> checks) -> core/ (report, render).
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/help.h"
#include "cmd/options.h"
#include "core/suggest.h"
#include "core/term.h"
#include "probe/kube_context.h"
#include "core/cli.h"
#include "core/render.h"
#include "core/report.h"
#include "probe/run_command.h"

#ifndef CI_VERSION
#define CI_VERSION "0.0.0"
#endif

static int set_color(struct cli_opts *o, const char *arg)
{
	static const char *const modes[] = {
		[CI_COLOR_AUTO] = "auto", [CI_COLOR_ALWAYS] = "always", [CI_COLOR_NEVER] = "never"};
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (modes[i] && !strcmp(arg, modes[i])) {
			o->color = (enum ci_color)i;
			return 0;
		}
	return cli_usage_error(NULL, "unknown color mode '%s' (auto, always or never)", arg);
}

/* --help, help VERB, VERB --help: from the tables (cmd/help.c), at the
 * terminal's width. */
static int print_help(const struct verb *v)
{
	help_print(stdout, v, term_width(fileno(stdout)));
	return 0;
}

/* "unknown verb 'evn' (did you mean 'env'?)" */
static int unknown_verb(const char *verb)
{
	size_t n;
	const char *const *names = help_verb_names(&n);
	const char *near = suggest_closest(verb, names, n);
	if (near)
		return cli_usage_error(NULL, "unknown verb '%s' (did you mean '%s'?)", verb, near);
	return cli_usage_error(NULL, "unknown verb '%s'", verb);
}

/* "unknown option '--namspace' (did you mean '--namespace'?)" */
static int unknown_option(const char *arg)
{
	char name[64];
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	const char *words[64];
	size_t n = 0;
	for (size_t i = 0; i < n_cli_options && n < 64; i++)
		words[n++] = cli_options[i].name;
	const char *near = !strncmp(name, "--", 2) ? suggest_closest(name, words, n) : NULL;
	if (near)
		return cli_usage_error(NULL, "unknown option '%s' (did you mean '%s'?)", name,
				       near);
	return cli_usage_error(NULL, "unknown option '%s'", arg);
}

/* "env, node, nixl, all or vars" */
static int no_verb(void)
{
	char list[256] = "";
	size_t len = 0;
	for (size_t i = 0; i < n_verbs; i++) {
		const char *sep = !i ? "" : i + 1 == n_verbs ? " or " : ", ";
		int w = snprintf(list + len, sizeof(list) - len, "%s%s", sep, verbs[i].name);
		if (w < 0 || (size_t)w >= sizeof(list) - len)
			break;
		len += (size_t)w;
	}
	return cli_usage_error(NULL, "no verb given (%s)", list);
}

/* kubectl's -o/--output FORMAT (kubectl get's printers): json is the JSON
 * report, wide the text report with every check (-v), any other name one
 * of --format's.  yaml is refused: the report's contract is the JSON schema
 * (schema/check_interconnect.schema.json), and a YAML printer of it would
 * be a second contract to keep; `-o json | yq -P` gives the same tree. */
static int set_kubectl_output(struct cli_opts *o, const char *arg)
{
	if (!strcmp(arg, "wide")) {
		o->verbose = true;
		return 0;
	}
	if (!strcmp(arg, "yaml"))
		return cli_usage_error(NULL, "-o yaml is not rendered: the report's machine form "
					     "is JSON (its schema is the contract); use -o json, "
					     "and 'yq -P' to read it as YAML");
	const struct render_format *f = render_format_find(arg);
	if (!f)
		return cli_usage_error(NULL, "unknown -o '%s' (json, wide, or a --format: %s)", arg,
				       render_format_names());
	o->format = f->format;
	return 0;
}

/* One option: 0, a usage error's exit code, or -1 for --version (the
 * caller prints it and exits 0).  The table's rows store their own values
 * (cli_option_set); the others are here. */
static int parse_option(int c, struct cli_opts *o, bool *want_help, char **argv)
{
	if (c == ':')
		return cli_usage_error(NULL, "option '%s' needs a value", argv[optind - 1]);
	const struct cli_option *d = c == '?' ? NULL : cli_option_of(c);
	if (!d) {
		if (optopt && optopt < 256)
			return cli_usage_error(NULL, "unknown option '-%c'", optopt);
		return unknown_option(argv[optind - 1]);
	}
	/* kubectl's --output takes a format; ours a file: `--output json`
	 * would write a file named json, so the kubectl habit is refused. */
	if (!strcmp(d->name, "--output") && !strpbrk(optarg, "/.") &&
	    (render_format_find(optarg) || !strcmp(optarg, "wide") || !strcmp(optarg, "yaml")))
		return cli_usage_error(NULL,
				       "--output names the file to write the report to; for "
				       "kubectl's --output %s, use -o %s (or write ./%s)",
				       optarg, optarg, optarg);
	if (d->kind != OK_SPECIAL)
		return cli_option_set(d, o, optarg);
	if (!strcmp(d->name, "--format")) {
		const struct render_format *f = render_format_find(optarg);
		if (!f)
			return cli_usage_error(NULL, "unknown format '%s' (%s)", optarg,
					       render_format_names());
		o->format = f->format;
		return 0;
	}
	if (!strcmp(d->name, "--json")) {
		o->format = CI_FORMAT_JSON;
		return 0;
	}
	if (!strcmp(d->name, "-o"))
		return set_kubectl_output(o, optarg);
	if (!strcmp(d->name, "--color"))
		return set_color(o, optarg);
	if (!strcmp(d->name, "--help")) {
		*want_help = true;
		return 0;
	}
	return -1; /* --version */
}

/* --version; with -v, also what the defaults chosen from this machine are. */
static int print_version(bool verbose)
{
	printf("check_interconnect %s\n", CI_VERSION);
	if (verbose) {
		long ncpu;
		unsigned long long mem;
		int jobs = verb_machine_jobs(&ncpu, &mem);
		printf("--jobs default here: %d (%ld CPUs, %llu MB available; one kubectl exec "
		       "costs about %d ms of CPU and %d MB)\n",
		       jobs, ncpu, mem / 1000000, CLI_EXEC_CPU_MS, CLI_EXEC_MB);
	}
	return 0;
}

/* kubectl's TYPE/NAME for a pod: pod/NAME, pods/NAME and po/NAME (kubectl's
 * short name) are NAME; another TYPE/ is not a pod.  0 or a usage error. */
static int pod_name(const struct verb *v, const char **name, const char *what)
{
	static const char *const prefixes[] = {"pod/", "pods/", "po/"};
	if (!*name || !strchr(*name, '/'))
		return 0;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(*name, prefixes[i], strlen(prefixes[i]))) {
			*name += strlen(prefixes[i]);
			return 0;
		}
	return cli_usage_error(v->name,
			       "%s'%s' is not a pod (kubectl's TYPE/NAME: pod/NAME; "
			       "a DynamoGraphDeployment is --deployment NAME)",
			       what, *name);
}

/* kubectl's habits: the pod after the verb (`node POD`) as well as --pod
 * POD, never both, each also as pod/NAME; no -n means the current context's
 * namespace, read from the kubeconfig (no network call).  *ns owns what it
 * read. */
static int kubectl_habits(const struct verb *v, struct cli_opts *o, char **ns)
{
	if ((v->targets & VT_PROBE) && !(v->targets & VT_PATHS) && o->n_args == 1 &&
	    !(o->given & (OPT_DEPLOYMENT | OPT_SELECTOR | OPT_REPLAY | OPT_SYSROOT))) {
		if (o->given & OPT_POD)
			return cli_usage_error(v->name,
					       "the pod is named twice ('%s' and --pod %s)",
					       o->args[0], o->pod);
		o->pod = o->args[0];
		o->given |= OPT_POD;
		o->n_args = 0;
	}
	int rc = pod_name(v, &o->pod, "");
	if (!rc)
		rc = pod_name(v, &o->peer, "--peer ");
	if (rc)
		return rc;
	bool wants_ns = ((v->targets & VT_PROBE) && (o->given & OPT_POD)) ||
			((v->targets & VT_FLEET) && (o->given & (OPT_DEPLOYMENT | OPT_SELECTOR)));
	if (wants_ns && !(o->given & (OPT_NAMESPACE | OPT_REPLAY | OPT_ALL_NAMESPACES))) {
		*ns = kube_context_namespace(o->kubeconfig, o->context);
		o->namespace_ = *ns;
		o->given |= OPT_NAMESPACE;
	}
	return 0;
}

static int cli_main(int argc, char **argv)
{
	/* First: from here on, a signal stops and reaps every child before the
	 * tool exits with 128+signal. */
	run_signals_install();
	cli_set_program(argc > 0 ? argv[0] : NULL);
	/* kubectl's plugin completion runs kubectl_complete-interconnect (a
	 * link to this binary, installed beside kubectl-interconnect) */
	const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;
	base = base ? base + 1 : argc > 0 ? argv[0] : "";
	if (!strcmp(base, "kubectl_complete-interconnect"))
		return help_complete(stdout, argc - 1, argv + 1);
	struct cli_opts o = {.jobs = verb_machine_jobs(NULL, NULL)};
	const char *env_kubectl = getenv("KUBECTL");
	o.kubectl = env_kubectl && *env_kubectl ? env_kubectl : "kubectl";
	bool want_help = false, version = false;
	int c, rc;

	/* --format (or kubectl's -o) before anything is parsed: a usage error
	 * anywhere on the line then also reaches stdout as that format's
	 * consumer reads it (a JSON object, Nagios's UNKNOWN line;
	 * core/cli.h).  The last one wins, as when it is parsed. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--json"))
			cli_errors_for_format("json");
		else if (!strncmp(argv[i], "--format=", 9))
			cli_errors_for_format(argv[i] + 9);
		else if (!strncmp(argv[i], "-o", 2) && argv[i][2])
			cli_errors_for_format(argv[i] + 2);
		else if ((!strcmp(argv[i], "--format") || !strcmp(argv[i], "-o")) && i + 1 < argc)
			cli_errors_for_format(argv[i + 1]);
	}
	opterr = 0; /* we word our own errors */
	const char *shortopts;
	const struct option *long_opts = cli_options_getopt(&shortopts);
	while ((c = getopt_long(argc, argv, shortopts, long_opts, NULL)) != -1) {
		rc = parse_option(c, &o, &want_help, argv);
		if (rc < 0)
			version = true;
		else if (rc)
			return rc;
	}
	if (version)
		return print_version(o.verbose);
	/* A bare call prints the usage, as kubectl and git do; on stdout, but
	 * with the usage code, since 0 would read as "ready" to a script. */
	if (argc <= 1) {
		print_help(NULL);
		return CI_EXIT_USAGE;
	}
	if (optind >= argc)
		return want_help ? print_help(NULL) : no_verb();

	const char *verb = argv[optind];
	o.args = argv + optind + 1;
	o.n_args = argc - optind - 1;
	if (!strcmp(verb, "help")) { /* help [VERB]: as git help */
		if (o.n_args == 0)
			return print_help(NULL);
		if (!strcmp(o.args[0], "help")) {
			help_print_help(stdout, term_width(fileno(stdout)));
			return 0;
		}
		const struct verb *hv = verb_find(o.args[0]);
		return hv ? print_help(hv) : unknown_verb(o.args[0]);
	}
	const struct verb *v = verb_find(verb);
	if (!v)
		return unknown_verb(verb);
	if (want_help)
		return print_help(v);
	char *ns = NULL;
	rc = kubectl_habits(v, &o, &ns);
	if (!rc)
		rc = verb_run(v, &o);
	free(ns);
	return cli_usage_finish(verb, rc);
}

int main(int argc, char **argv)
{
	return cli_exit_code(cli_main(argc, argv));
}
