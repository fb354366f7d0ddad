/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check_interconnect: can the transport under Dynamo's disaggregated serving
 * be trusted?  This file only parses the command line and hands it to the
 * verb runner (src/cmd/run_verb.c), which looks the verb up in the table
 * (src/cmd/commands.c).  The pipeline under it, one directory each:
 * probe/ (the only code that runs a process) -> parse/ (bytes -> structs)
 * -> env/ node/ nixl/ fleet/ (facts -> checks) -> core/ (report, render).
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/help.h"
#include "core/duration.h"
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

enum {
	LONG_FORMAT = 256,
	LONG_JSON,
	LONG_COLOR,
	LONG_POD,
	LONG_CONTEXT,
	LONG_KUBECONFIG,
	LONG_KUBECTL,
	LONG_SYSROOT,
	LONG_SAVE_PROBE,
	LONG_REPLAY,
	LONG_TIMEOUT,
	LONG_PEER,
	LONG_DEPLOYMENT,
	LONG_JOBS,
	LONG_MAX_FILES,
	LONG_DEADLINE,
	LONG_VERSION,
	LONG_OUTPUT,
	LONG_OBSERVE,
	LONG_LOGS,
	LONG_FORCE,
	LONG_BUNDLE,
	LONG_INTERVAL,
	LONG_LISTEN,
	LONG_ONCE,
	LONG_NODE_INTERVAL,
};

static const struct option long_opts[] = {
	{"format", required_argument, NULL, LONG_FORMAT},
	{"json", no_argument, NULL, LONG_JSON},
	{"output", required_argument, NULL, LONG_OUTPUT},
	{"color", required_argument, NULL, LONG_COLOR},
	{"colour", required_argument, NULL, LONG_COLOR},
	{"quiet", no_argument, NULL, 'q'},
	{"verbose", no_argument, NULL, 'v'},
	{"namespace", required_argument, NULL, 'n'},
	{"pod", required_argument, NULL, LONG_POD},
	{"container", required_argument, NULL, 'c'},
	{"context", required_argument, NULL, LONG_CONTEXT},
	{"kubeconfig", required_argument, NULL, LONG_KUBECONFIG},
	{"kubectl", required_argument, NULL, LONG_KUBECTL},
	{"sysroot", required_argument, NULL, LONG_SYSROOT},
	{"save-probe", required_argument, NULL, LONG_SAVE_PROBE},
	{"replay", required_argument, NULL, LONG_REPLAY},
	{"bundle", required_argument, NULL, LONG_BUNDLE},
	{"timeout", required_argument, NULL, LONG_TIMEOUT},
	/* kubectl's name for the same bound on one call */
	{"request-timeout", required_argument, NULL, LONG_TIMEOUT},
	{"peer", required_argument, NULL, LONG_PEER},
	{"deployment", required_argument, NULL, LONG_DEPLOYMENT},
	{"selector", required_argument, NULL, 'l'},
	{"jobs", required_argument, NULL, LONG_JOBS},
	{"deadline", required_argument, NULL, LONG_DEADLINE},
	{"force", no_argument, NULL, LONG_FORCE},
	{"max-files", required_argument, NULL, LONG_MAX_FILES},
	{"observe", required_argument, NULL, LONG_OBSERVE},
	{"logs", optional_argument, NULL, LONG_LOGS},
	{"interval", required_argument, NULL, LONG_INTERVAL},
	{"listen", required_argument, NULL, LONG_LISTEN},
	{"once", no_argument, NULL, LONG_ONCE},
	{"node-interval", required_argument, NULL, LONG_NODE_INTERVAL},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, LONG_VERSION},
	{NULL, 0, NULL, 0},
};

/* Options whose value is kept as given: where it goes and the bit that
 * says it was given (0: validated by no verb rule). */
static const struct string_opt {
	int key;
	size_t off;
	unsigned given;
} string_opts[] = {
	{'n', offsetof(struct cli_opts, namespace_), OPT_NAMESPACE},
	{LONG_POD, offsetof(struct cli_opts, pod), OPT_POD},
	{'c', offsetof(struct cli_opts, container), OPT_CONTAINER},
	{LONG_CONTEXT, offsetof(struct cli_opts, context), OPT_CONTEXT},
	{LONG_KUBECONFIG, offsetof(struct cli_opts, kubeconfig), OPT_KUBECONFIG},
	{LONG_KUBECTL, offsetof(struct cli_opts, kubectl), OPT_KUBECTL},
	{LONG_SYSROOT, offsetof(struct cli_opts, sysroot), OPT_SYSROOT},
	{LONG_SAVE_PROBE, offsetof(struct cli_opts, save_probe), OPT_SAVE_PROBE},
	{LONG_REPLAY, offsetof(struct cli_opts, replay), OPT_REPLAY},
	{LONG_PEER, offsetof(struct cli_opts, peer), OPT_PEER},
	{LONG_DEPLOYMENT, offsetof(struct cli_opts, deployment), OPT_DEPLOYMENT},
	{'l', offsetof(struct cli_opts, selector), OPT_SELECTOR},
	{LONG_OUTPUT, offsetof(struct cli_opts, output), 0},
	{LONG_BUNDLE, offsetof(struct cli_opts, bundle), 0},
	{LONG_LISTEN, offsetof(struct cli_opts, listen), OPT_LISTEN},
};

/* Options that take a count: the range, and the words of its error. */
static const struct count_opt {
	int key;
	unsigned long min, max;
	unsigned given;
	const char *name, *unit;
	bool attached; /* an optional value, so --logs=N */
} count_opts[] = {
	{LONG_JOBS, 1, 256, OPT_JOBS, "--jobs", "", false},
	/* the cap bounds memory: each file read stays in the model */
	{LONG_MAX_FILES, 1, 10000000, OPT_MAX_FILES, "--max-files", "", false},
	{LONG_OBSERVE, 1, PROBE_MAX_OBSERVE_S, OPT_OBSERVE, "--observe", "seconds, ", false},
	{LONG_LOGS, 1, 100000, OPT_LOGS, "--logs", "log lines, ", true},
};

/* A decimal count in [min, max]: no sign, no suffix, no overflow. */
static bool parse_count(const char *arg, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 10);
	if (errno || *end || end == arg || *arg == '-' || *arg == '+' || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static int set_count(struct cli_opts *o, const struct count_opt *c, const char *arg)
{
	unsigned long v = PROBE_DEFAULT_LOGS_TAIL; /* --logs without =N */
	if (arg && !parse_count(arg, c->min, c->max, &v))
		return cli_usage_error(NULL,
				       c->attached ? "invalid %s=%s (%s%lu to %lu)"
						   : "invalid %s '%s' (%s%lu to %lu)",
				       c->name, arg, c->unit, c->min, c->max);
	switch (c->key) {
	case LONG_JOBS: o->jobs = (int)v; break;
	case LONG_MAX_FILES: o->max_files = v; break;
	case LONG_OBSERVE: o->observe_s = (unsigned)v; break;
	default: o->logs_tail = (unsigned)v; break;
	}
	o->given |= c->given;
	return 0;
}

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

static int set_duration(const char *arg, double *out, unsigned given, unsigned *given_bits)
{
	if (duration_parse(arg, out)) {
		*given_bits |= given;
		return 0;
	}
	if (given == OPT_INTERVAL || given == OPT_NODE_INTERVAL)
		return cli_usage_error(NULL,
				       "invalid %s '%s' (a duration as kubectl takes it: "
				       "60s, 5m, or seconds; at most 24h)",
				       given == OPT_INTERVAL ? "--interval" : "--node-interval",
				       arg);
	if (given == OPT_TIMEOUT)
		return cli_usage_error(NULL,
				       "invalid --timeout '%s' (a duration as kubectl takes it: "
				       "30s, 2m, 1m30s, or seconds; at most 24h)",
				       arg);
	return cli_usage_error(NULL,
			       "invalid --deadline '%s' (a duration: 10m, 90s, or seconds; at "
			       "most 24h)",
			       arg);
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
	for (size_t i = 0; i < n_option_docs && n < 64; i++)
		words[n++] = option_docs[i].name;
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
 * caller prints it and exits 0). */
static int parse_option(int c, struct cli_opts *o, bool *want_help, char **argv)
{
	/* kubectl's --output takes a format; ours a file: `--output json`
	 * would write a file named json, so the kubectl habit is refused. */
	if (c == LONG_OUTPUT && !strpbrk(optarg, "/.") &&
	    (render_format_find(optarg) || !strcmp(optarg, "wide") || !strcmp(optarg, "yaml")))
		return cli_usage_error(NULL,
				       "--output names the file to write the report to; for "
				       "kubectl's --output %s, use -o %s (or write ./%s)",
				       optarg, optarg, optarg);
	for (size_t i = 0; i < sizeof(string_opts) / sizeof(string_opts[0]); i++)
		if (string_opts[i].key == c) {
			*(const char **)(void *)((char *)o + string_opts[i].off) = optarg;
			o->given |= string_opts[i].given;
			return 0;
		}
	for (size_t i = 0; i < sizeof(count_opts) / sizeof(count_opts[0]); i++)
		if (count_opts[i].key == c)
			return set_count(o, &count_opts[i], optarg);
	switch (c) {
	case LONG_FORMAT: {
		const struct render_format *f = render_format_find(optarg);
		if (!f)
			return cli_usage_error(NULL, "unknown format '%s' (%s)", optarg,
					       render_format_names());
		o->format = f->format;
		return 0;
	}
	case LONG_JSON: o->format = CI_FORMAT_JSON; return 0;
	case 'o': return set_kubectl_output(o, optarg);
	case LONG_COLOR: return set_color(o, optarg);
	case 'q': o->quiet = true; return 0;
	case 'v': o->verbose = true; return 0;
	case LONG_FORCE: o->force = true; return 0;
	case LONG_ONCE:
		o->once = true;
		o->given |= OPT_ONCE;
		return 0;
	case LONG_INTERVAL: return set_duration(optarg, &o->interval_s, OPT_INTERVAL, &o->given);
	case LONG_NODE_INTERVAL:
		return set_duration(optarg, &o->node_interval_s, OPT_NODE_INTERVAL, &o->given);
	case LONG_TIMEOUT: return set_duration(optarg, &o->timeout_s, OPT_TIMEOUT, &o->given);
	case LONG_DEADLINE: return set_duration(optarg, &o->deadline_s, OPT_DEADLINE, &o->given);
	case 'h': *want_help = true; return 0;
	case LONG_VERSION: return -1;
	case ':': return cli_usage_error(NULL, "option '%s' needs a value", argv[optind - 1]);
	default:
		if (optopt && optopt < 256)
			return cli_usage_error(NULL, "unknown option '-%c'", optopt);
		return unknown_option(argv[optind - 1]);
	}
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
	if (wants_ns && !(o->given & (OPT_NAMESPACE | OPT_REPLAY))) {
		*ns = kube_context_namespace(o->kubeconfig, o->context);
		o->namespace_ = *ns;
		o->given |= OPT_NAMESPACE;
	}
	return 0;
}

static int cli_main(int argc, char **argv)
{
	/* First: from here on, a signal stops and reaps every child before the
	 * tool exits with 128+signal (issue 11). */
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
	while ((c = getopt_long(argc, argv, ":qvn:c:l:o:h", long_opts, NULL)) != -1) {
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
