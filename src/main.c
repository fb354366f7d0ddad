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
	{"timeout", required_argument, NULL, LONG_TIMEOUT},
	{"peer", required_argument, NULL, LONG_PEER},
	{"deployment", required_argument, NULL, LONG_DEPLOYMENT},
	{"selector", required_argument, NULL, 'l'},
	{"jobs", required_argument, NULL, LONG_JOBS},
	{"deadline", required_argument, NULL, LONG_DEADLINE},
	{"force", no_argument, NULL, LONG_FORCE},
	{"max-files", required_argument, NULL, LONG_MAX_FILES},
	{"observe", required_argument, NULL, LONG_OBSERVE},
	{"logs", optional_argument, NULL, LONG_LOGS},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, LONG_VERSION},
	{NULL, 0, NULL, 0},
};

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

int main(int argc, char **argv)
{
	/* First: from here on, a signal stops and reaps every child before the
	 * tool exits with 128+signal (issue 11). */
	run_signals_install();
	struct cli_opts o = {.jobs = CLI_DEFAULT_JOBS};
	const char *env_kubectl = getenv("KUBECTL");
	o.kubectl = env_kubectl && *env_kubectl ? env_kubectl : "kubectl";
	int c;
	bool want_help = false;

	opterr = 0; /* we word our own errors */
	while ((c = getopt_long(argc, argv, ":qvn:c:l:h", long_opts, NULL)) != -1) {
		switch (c) {
		case LONG_FORMAT: {
			const struct render_format *f = render_format_find(optarg);
			if (!f)
				return cli_usage_error(NULL, "unknown format '%s' (%s)", optarg,
						       render_format_names());
			o.format = f->format;
			break;
		}
		case LONG_OUTPUT: o.output = optarg; break;
		case LONG_JSON: o.format = CI_FORMAT_JSON; break;
		case LONG_COLOR:
			if (!strcmp(optarg, "auto"))
				o.color = CI_COLOR_AUTO;
			else if (!strcmp(optarg, "always"))
				o.color = CI_COLOR_ALWAYS;
			else if (!strcmp(optarg, "never"))
				o.color = CI_COLOR_NEVER;
			else
				return cli_usage_error(
					NULL, "unknown color mode '%s' (auto, always or never)",
					optarg);
			break;
		case 'q': o.quiet = true; break;
		case 'v': o.verbose = true; break;
		case 'n':
			o.namespace_ = optarg;
			o.given |= OPT_NAMESPACE;
			break;
		case LONG_POD:
			o.pod = optarg;
			o.given |= OPT_POD;
			break;
		case 'c':
			o.container = optarg;
			o.given |= OPT_CONTAINER;
			break;
		case LONG_CONTEXT:
			o.context = optarg;
			o.given |= OPT_CONTEXT;
			break;
		case LONG_KUBECONFIG:
			o.kubeconfig = optarg;
			o.given |= OPT_KUBECONFIG;
			break;
		case LONG_KUBECTL:
			o.kubectl = optarg;
			o.given |= OPT_KUBECTL;
			break;
		case LONG_SYSROOT:
			o.sysroot = optarg;
			o.given |= OPT_SYSROOT;
			break;
		case LONG_SAVE_PROBE:
			o.save_probe = optarg;
			o.given |= OPT_SAVE_PROBE;
			break;
		case LONG_FORCE: o.force = true; break;
		case LONG_REPLAY:
			o.replay = optarg;
			o.given |= OPT_REPLAY;
			break;
		case LONG_PEER:
			o.peer = optarg;
			o.given |= OPT_PEER;
			break;
		case LONG_DEPLOYMENT:
			o.deployment = optarg;
			o.given |= OPT_DEPLOYMENT;
			break;
		case 'l':
			o.selector = optarg;
			o.given |= OPT_SELECTOR;
			break;
		case LONG_TIMEOUT:
			if (!duration_parse(optarg, &o.timeout_s))
				return cli_usage_error(
					NULL,
					"invalid --timeout '%s' (a duration as "
					"kubectl takes it: 30s, 2m, 1m30s, or seconds; "
					"at most 24h)",
					optarg);
			o.given |= OPT_TIMEOUT;
			break;
		case LONG_DEADLINE:
			if (!duration_parse(optarg, &o.deadline_s))
				return cli_usage_error(NULL,
						       "invalid --deadline '%s' (a duration: 10m, "
						       "90s, or seconds; at most 24h)",
						       optarg);
			o.given |= OPT_DEADLINE;
			break;
		case LONG_JOBS: {
			char *end;
			long j = strtol(optarg, &end, 10);
			if (*end || end == optarg || j < 1 || j > 256)
				return cli_usage_error(NULL, "invalid --jobs '%s' (1 to 256)",
						       optarg);
			o.jobs = (int)j;
			o.given |= OPT_JOBS;
			break;
		}
		case LONG_MAX_FILES: {
			char *end;
			errno = 0;
			unsigned long long m = strtoull(optarg, &end, 10);
			/* The cap bounds memory: each file read stays in the model. */
			if (errno || *end || end == optarg || *optarg == '-' || m < 1 ||
			    m > 10000000)
				return cli_usage_error(
					NULL, "invalid --max-files '%s' (1 to 10000000)", optarg);
			o.max_files = (unsigned long)m;
			o.given |= OPT_MAX_FILES;
			break;
		}
		case LONG_OBSERVE: {
			char *end;
			errno = 0;
			unsigned long s = strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg || *optarg == '-' || s < 1 ||
			    s > PROBE_MAX_OBSERVE_S)
				return cli_usage_error(NULL,
						       "invalid --observe '%s' (seconds, 1 to %d)",
						       optarg, PROBE_MAX_OBSERVE_S);
			o.observe_s = (unsigned)s;
			o.given |= OPT_OBSERVE;
			break;
		}
		case LONG_LOGS: {
			unsigned long n = PROBE_DEFAULT_LOGS_TAIL;
			if (optarg) {
				char *end;
				errno = 0;
				n = strtoul(optarg, &end, 10);
				if (errno || *end || end == optarg || *optarg == '-' || n < 1 ||
				    n > 100000)
					return cli_usage_error(
						NULL, "invalid --logs=%s (log lines, 1 to 100000)",
						optarg);
			}
			o.logs_tail = (unsigned)n;
			o.given |= OPT_LOGS;
			break;
		}
		case 'h': want_help = true; break;
		case LONG_VERSION: printf("check_interconnect %s\n", CI_VERSION); return 0;
		case ':':
			return cli_usage_error(NULL, "option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt && optopt < 256)
				return cli_usage_error(NULL, "unknown option '-%c'", optopt);
			return unknown_option(argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return want_help ? print_help(NULL) : no_verb();

	const char *verb = argv[optind];
	o.args = argv + optind + 1;
	o.n_args = argc - optind - 1;
	if (!strcmp(verb, "help")) {
		/* help [VERB]: as git help */
		if (o.n_args == 0)
			return print_help(NULL);
		const struct verb *hv = verb_find(o.args[0]);
		return hv ? print_help(hv) : unknown_verb(o.args[0]);
	}
	const struct verb *v = verb_find(verb);
	if (!v)
		return unknown_verb(verb);
	if (want_help)
		return print_help(v);
	/* kubectl's habit: the pod after the verb (`node POD`), as well as
	 * --pod POD; never both. */
	if ((v->targets & VT_PROBE) && !(v->targets & VT_PATHS) && o.n_args == 1 &&
	    !(o.given & (OPT_DEPLOYMENT | OPT_SELECTOR | OPT_REPLAY | OPT_SYSROOT))) {
		if (o.given & OPT_POD)
			return cli_usage_error(verb, "the pod is named twice ('%s' and --pod %s)",
					       o.args[0], o.pod);
		o.pod = o.args[0];
		o.given |= OPT_POD;
		o.n_args = 0;
	}
	/* kubectl's habit: no -n means the current context's namespace, read
	 * from the kubeconfig (no network call). */
	char *ns = NULL;
	bool wants_ns = ((v->targets & VT_PROBE) && (o.given & OPT_POD)) ||
			((v->targets & VT_FLEET) && (o.given & (OPT_DEPLOYMENT | OPT_SELECTOR)));
	if (wants_ns && !(o.given & (OPT_NAMESPACE | OPT_REPLAY))) {
		ns = kube_context_namespace(o.kubeconfig, o.context);
		o.namespace_ = ns;
		o.given |= OPT_NAMESPACE;
	}
	int rc = verb_run(v, &o);
	free(ns);
	return rc;
}
