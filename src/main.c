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
#include "core/cli.h"
#include "core/render.h"
#include "core/report.h"
#include "probe/run_command.h"

#ifndef CI_VERSION
#define CI_VERSION "0.0.0"
#endif

#define STR_(x) #x
#define STR(x) STR_(x)

static const char usage_head[] =
	"usage: check_interconnect [options] <verb> [args]\n"
	"\n"
	"Tells whether the transport under NVIDIA Dynamo's disaggregated serving\n"
	"(NIXL -> UCX/libfabric -> InfiniBand, RoCE, EFA, NVLink) can be trusted.\n"
	"Read-only: it never changes the cluster and never prints a secret.\n"
	"\n"
	"verbs:\n";

static const char usage_options[] =
	"\n"
	"recipes (env, all):\n"
	"  --max-files N                  YAML files read per folder (default 20000)\n"
	"\n"
	"output:\n"
	"  --format FMT, --json           text (default), json, sarif, prometheus,\n"
	"                                 junit, nagios or npd\n"
	"  --output FILE                  write the report to FILE atomically\n"
	"  --color auto|always|never      colour (auto: only on a terminal; NO_COLOR honoured)\n"
	"  -q, --quiet                    print the verdict only\n"
	"  -v, --verbose                  print the evidence under each check\n"
	"\n"
	"targets (node, nixl, all):\n"
	"  -n, --namespace NS --pod POD   probe a pod through one `kubectl exec`\n"
	"  -c, --container C              container in the pod (default: the pod's default)\n"
	"  --context CTX, --kubeconfig F  passed to kubectl\n"
	"  --kubectl PATH                 kubectl to run (default $KUBECTL, else PATH)\n"
	"  --deployment NAME, -l LABELS   every worker pod of a deployment or selector\n"
	"  --jobs N                       pods probed in parallel (default " STR(CLI_DEFAULT_JOBS) ")\n"
	"  --deadline SEC                 deadline for a whole fleet run (default none)\n"
	"  --peer POD                     the other side of the pair test (nixl)\n"
	"  --sysroot DIR                  read /sys, /proc and /dev under DIR (local probe)\n"
	"  --save-probe FILE              write the raw probe transcript (secret-free)\n"
	"  --force                        let --save-probe overwrite a file (never a symlink)\n"
	"  --replay FILE                  analyse a saved transcript offline\n"
	"  --timeout SEC                  deadline for one pod's probe (default "
	STR(PROBE_DEFAULT_TIMEOUT_S) ")\n"
	"\n"
	"evidence of the path KV takes (node, all):\n"
	"  --observe SEC                  what moved in a window: RDMA, TCP, NIXL bytes\n"
	"  --logs[=N]                     scan the worker's log, last N lines (" STR(PROBE_DEFAULT_LOGS_TAIL) ")\n"
	"\n"
	"exit codes: 0 ready, 1 degraded, 2 blocked, 3 unknown, 64 usage error\n"
	"  -h, --help, --version\n";

enum {
	LONG_FORMAT = 256, LONG_JSON, LONG_COLOR, LONG_POD, LONG_CONTEXT, LONG_KUBECONFIG,
	LONG_KUBECTL, LONG_SYSROOT, LONG_SAVE_PROBE, LONG_REPLAY, LONG_TIMEOUT,
	LONG_PEER, LONG_DEPLOYMENT, LONG_JOBS, LONG_MAX_FILES, LONG_DEADLINE, LONG_VERSION, LONG_OUTPUT,
	LONG_OBSERVE, LONG_LOGS, LONG_FORCE,
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

static bool parse_double(const char *s, double *out)
{
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	if (errno || end == s || *end || !(d > 0) || d > 86400)
		return false;
	*out = d;
	return true;
}

static void print_usage(void)
{
	fputs(usage_head, stdout);
	for (size_t i = 0; i < n_verbs; i++)
		printf("  %-30s %s\n", verbs[i].synopsis, verbs[i].summary);
	fputs(usage_options, stdout);
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
				return cli_usage_error(NULL, "unknown color mode '%s' (auto, always or never)", optarg);
			break;
		case 'q': o.quiet = true; break;
		case 'v': o.verbose = true; break;
		case 'n': o.namespace_ = optarg; o.given |= OPT_NAMESPACE; break;
		case LONG_POD: o.pod = optarg; o.given |= OPT_POD; break;
		case 'c': o.container = optarg; o.given |= OPT_CONTAINER; break;
		case LONG_CONTEXT: o.context = optarg; o.given |= OPT_CONTEXT; break;
		case LONG_KUBECONFIG: o.kubeconfig = optarg; o.given |= OPT_KUBECONFIG; break;
		case LONG_KUBECTL: o.kubectl = optarg; o.given |= OPT_KUBECTL; break;
		case LONG_SYSROOT: o.sysroot = optarg; o.given |= OPT_SYSROOT; break;
		case LONG_SAVE_PROBE: o.save_probe = optarg; o.given |= OPT_SAVE_PROBE; break;
		case LONG_FORCE: o.force = true; break;
		case LONG_REPLAY: o.replay = optarg; o.given |= OPT_REPLAY; break;
		case LONG_PEER: o.peer = optarg; o.given |= OPT_PEER; break;
		case LONG_DEPLOYMENT: o.deployment = optarg; o.given |= OPT_DEPLOYMENT; break;
		case 'l': o.selector = optarg; o.given |= OPT_SELECTOR; break;
		case LONG_TIMEOUT:
			if (!parse_double(optarg, &o.timeout_s))
				return cli_usage_error(NULL, "invalid --timeout '%s' (seconds, > 0)", optarg);
			o.given |= OPT_TIMEOUT;
			break;
		case LONG_DEADLINE:
			if (!parse_double(optarg, &o.deadline_s))
				return cli_usage_error(NULL, "invalid --deadline '%s' (seconds, > 0)", optarg);
			o.given |= OPT_DEADLINE;
			break;
		case LONG_JOBS: {
			char *end;
			long j = strtol(optarg, &end, 10);
			if (*end || end == optarg || j < 1 || j > 256)
				return cli_usage_error(NULL, "invalid --jobs '%s' (1 to 256)", optarg);
			o.jobs = (int)j;
			o.given |= OPT_JOBS;
			break;
		}
		case LONG_MAX_FILES: {
			char *end;
			errno = 0;
			unsigned long long m = strtoull(optarg, &end, 10);
			/* The cap bounds memory: each file read stays in the model. */
			if (errno || *end || end == optarg || *optarg == '-' || m < 1 || m > 10000000)
				return cli_usage_error(NULL, "invalid --max-files '%s' (1 to 10000000)", optarg);
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
				return cli_usage_error(NULL, "invalid --observe '%s' (seconds, 1 to %d)",
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
				if (errno || *end || end == optarg || *optarg == '-' || n < 1 || n > 100000)
					return cli_usage_error(NULL, "invalid --logs=%s (log lines, 1 to 100000)",
							       optarg);
			}
			o.logs_tail = (unsigned)n;
			o.given |= OPT_LOGS;
			break;
		}
		case 'h': print_usage(); return 0;
		case LONG_VERSION: printf("check_interconnect %s\n", CI_VERSION); return 0;
		case ':':
			return cli_usage_error(NULL, "option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt && optopt < 256)
				return cli_usage_error(NULL, "unknown option '-%c'", optopt);
			return cli_usage_error(NULL, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return no_verb();

	const char *verb = argv[optind];
	o.args = argv + optind + 1;
	o.n_args = argc - optind - 1;
	const struct verb *v = verb_find(verb);
	if (!v)
		return cli_usage_error(NULL, "unknown verb '%s'", verb);
	return verb_run(v, &o);
}
