/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The option table (options.h): one row per option.  The order is the
 * order of --help within each group (help_group_names).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/agent.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "core/duration.h"
#include "probe/probe.h"

#define STR_(x)   #x
#define STR(x)    STR_(x)
/* Where a row's value goes, as git's OPT_STRING(&var) and OPT_INTEGER(&var). */
#define FLAG(f)   .kind = OK_FLAG, .off = offsetof(struct cli_opts, f)
#define STRING(f) .kind = OK_STRING, .off = offsetof(struct cli_opts, f)
#define COUNT(f, lo, hi, unit)                                                           \
	.kind = OK_COUNT, .off = offsetof(struct cli_opts, f), .min = (lo), .max = (hi), \
	.hint = (unit)
#define DURATION(f, form) .kind = OK_DURATION, .off = offsetof(struct cli_opts, f), .hint = (form)
#define KUBECTL_DURATION  "a duration as kubectl takes it: "

const char *const help_group_names[] = {"output", "recipes (env, all)", "targets (node, nixl, all)",
					"general"};

/* Which verbs take the kubectl side of a target: one pod, or a deployment. */
#define PROBE_VERBS  "node nixl"
#define FLEET_VERBS  "env node nixl all"
/* Those that fan out over pods (env --deployment reads one object). */
#define FANOUT_VERBS "node nixl all"

const struct cli_option cli_options[] = {
	{.name = "--format",
	 .has_arg = OA_REQUIRED,
	 .arg = "FMT",
	 .group = HG_OUTPUT,
	 .text = "text (default), json, sarif, prometheus, junit, nagios or npd",
	 .complete = "text json sarif prometheus junit nagios npd"},
	{.name = "--json", .group = HG_OUTPUT, .text = "the same as --format json"},
	{.name = "-o",
	 .has_arg = OA_REQUIRED,
	 .arg = "FMT",
	 .group = HG_OUTPUT,
	 .text = "kubectl's -o: json (--format json), wide (-v) or a --format name; yaml is refused",
	 .complete = "json wide text sarif prometheus junit nagios npd"},
	{.name = "--output",
	 .has_arg = OA_REQUIRED,
	 .arg = "FILE",
	 .group = HG_OUTPUT,
	 .text = "write the report to FILE atomically (a temporary file, then rename)",
	 .complete = "file",
	 STRING(output)},
	{.name = "--color",
	 .has_arg = OA_REQUIRED,
	 .arg = "WHEN",
	 .alias = "--colour",
	 .group = HG_OUTPUT,
	 .text = "auto, always or never; auto: colour only on a terminal, not with TERM=dumb or "
		 "NO_COLOR",
	 .complete = "auto always never"},
	{.name = "--quiet",
	 .short_name = 'q',
	 .group = HG_OUTPUT,
	 .text = "print the verdict line only",
	 FLAG(quiet)},
	{.name = "--verbose",
	 .short_name = 'v',
	 .group = HG_OUTPUT,
	 .text = "every check with its evidence, also the ok ones of a run over many deployments "
		 "or pods",
	 FLAG(verbose)},
	/* the cap bounds memory: each file read stays in the model */
	{.name = "--max-files",
	 .has_arg = OA_REQUIRED,
	 .arg = "N",
	 .bit = OPT_MAX_FILES,
	 .verbs = "env all",
	 .group = HG_RECIPES,
	 .text = "YAML files read per folder (default 20000)",
	 COUNT(max_files, 1, 10000000, "")},
	{.name = "--namespace",
	 .short_name = 'n',
	 .has_arg = OA_REQUIRED,
	 .arg = "NS",
	 .bit = OPT_NAMESPACE,
	 .probe = PROBE_VERBS,
	 .fleet = FLEET_VERBS,
	 .group = HG_TARGETS,
	 .text = "the pods' namespace (default: the current kubeconfig context's)",
	 .complete = "namespace",
	 STRING(namespace_)},
	/* kubectl get's -A: it overrides -n (get.go: Complete drops the
	 * explicit namespace, the builder lists every namespace) */
	{.name = "--all-namespaces",
	 .short_name = 'A',
	 .bit = OPT_ALL_NAMESPACES,
	 .fleet = FANOUT_VERBS,
	 .group = HG_TARGETS,
	 .text = "with --deployment or -l: the pods of every namespace, each probed and named in "
		 "its own (NS/POD); -n is then ignored, as kubectl does",
	 FLAG(all_namespaces)},
	{.name = "--pod",
	 .has_arg = OA_REQUIRED,
	 .arg = "POD",
	 .bit = OPT_POD,
	 .probe = PROBE_VERBS,
	 .group = HG_TARGETS,
	 .text = "probe a pod through one kubectl exec (or name it after the verb)",
	 .complete = "pod",
	 STRING(pod)},
	{.name = "--container",
	 .short_name = 'c',
	 .has_arg = OA_REQUIRED,
	 .arg = "C",
	 .bit = OPT_CONTAINER,
	 .probe = PROBE_VERBS,
	 .fleet = FANOUT_VERBS,
	 .group = HG_TARGETS,
	 .text = "container in the pod (default: the pod's default)",
	 STRING(container)},
	{.name = "--context",
	 .has_arg = OA_REQUIRED,
	 .arg = "CTX",
	 .bit = OPT_CONTEXT,
	 .probe = PROBE_VERBS,
	 .fleet = FLEET_VERBS,
	 .group = HG_TARGETS,
	 .text = "kubeconfig context, passed to kubectl",
	 .complete = "context",
	 STRING(context)},
	{.name = "--kubeconfig",
	 .has_arg = OA_REQUIRED,
	 .arg = "FILE",
	 .bit = OPT_KUBECONFIG,
	 .probe = PROBE_VERBS,
	 .fleet = FLEET_VERBS,
	 .group = HG_TARGETS,
	 .text = "kubeconfig, passed to kubectl",
	 .complete = "file",
	 STRING(kubeconfig)},
	{.name = "--kubectl",
	 .has_arg = OA_REQUIRED,
	 .arg = "PATH",
	 .bit = OPT_KUBECTL,
	 .verbs = "env", /* env renders kustomize overlays with it */
	 .probe = PROBE_VERBS,
	 .fleet = FLEET_VERBS,
	 .group = HG_TARGETS,
	 .text = "kubectl to run (default $KUBECTL, else kubectl on PATH)",
	 .complete = "file",
	 STRING(kubectl)},
	{.name = "--deployment",
	 .has_arg = OA_REQUIRED,
	 .arg = "NAME",
	 .bit = OPT_DEPLOYMENT,
	 .fleet = FLEET_VERBS,
	 .group = HG_TARGETS,
	 .text = "every worker pod of a DynamoGraphDeployment",
	 STRING(deployment)},
	{.name = "--selector",
	 .short_name = 'l',
	 .has_arg = OA_REQUIRED,
	 .arg = "LABELS",
	 .bit = OPT_SELECTOR,
	 .fleet = FANOUT_VERBS,
	 .group = HG_TARGETS,
	 .text = "every worker pod matching the labels",
	 STRING(selector)},
	{.name = "--jobs",
	 .has_arg = OA_REQUIRED,
	 .arg = "N",
	 .bit = OPT_JOBS,
	 .fleet = FANOUT_VERBS,
	 .group = HG_TARGETS,
	 .text = "pods probed in parallel (default: " STR(
		 CLI_JOBS_PER_CPU) " per CPU, as many as "
				   "a quarter of the free memory holds at " STR(
					   CLI_EXEC_MB) " MB per kubectl exec, "
							"at most " STR(
								CLI_DEFAULT_JOBS_MAX) "; --version -v prints it)",
	 COUNT(jobs, 1, 256, "")},
	{.name = "--peer",
	 .has_arg = OA_REQUIRED,
	 .arg = "POD",
	 .bit = OPT_PEER,
	 .verbs = "nixl",
	 .group = HG_TARGETS,
	 .text = "the other side of the pair test (nixl)",
	 .complete = "pod",
	 STRING(peer)},
	{.name = "--sysroot",
	 .has_arg = OA_REQUIRED,
	 .arg = "DIR",
	 .bit = OPT_SYSROOT,
	 .verbs = "agent",
	 .probe = PROBE_VERBS,
	 .group = HG_TARGETS,
	 .text = "read /sys, /proc and /dev under DIR (local probe)",
	 .complete = "dir",
	 STRING(sysroot)},
	{.name = "--save-probe",
	 .has_arg = OA_REQUIRED,
	 .arg = "FILE",
	 .bit = OPT_SAVE_PROBE,
	 .probe = PROBE_VERBS,
	 .group = HG_TARGETS,
	 .text = "write the raw probe transcript (secret-free)",
	 .complete = "file",
	 STRING(save_probe)},
	{.name = "--force",
	 .bit = OPT_FORCE,
	 .probe = PROBE_VERBS,
	 .group = HG_TARGETS,
	 .text = "let --save-probe overwrite a file (never a symlink)",
	 FLAG(force)},
	{.name = "--replay",
	 .has_arg = OA_REQUIRED,
	 .arg = "FILE",
	 .bit = OPT_REPLAY,
	 .probe = PROBE_VERBS,
	 .group = HG_TARGETS,
	 .text = "analyse a saved transcript, or a --bundle (a fleet's too), offline",
	 .complete = "file",
	 STRING(replay)},
	{.name = "--bundle",
	 .has_arg = OA_REQUIRED,
	 .arg = "FILE",
	 .group = HG_OUTPUT,
	 .text = "also write a support bundle FILE.tar.gz: the report as text and JSON, every "
		 "probe transcript (secret-free) and manifest.json; --replay reads it back",
	 .complete = "file",
	 STRING(bundle)},
	/* --request-timeout: kubectl's name for the same bound on one call */
	{.name = "--timeout",
	 .has_arg = OA_REQUIRED,
	 .arg = "DURATION",
	 .alias = "--request-timeout",
	 .bit = OPT_TIMEOUT,
	 .verbs = "agent",
	 .probe = PROBE_VERBS,
	 .fleet = FLEET_VERBS,
	 .group = HG_TARGETS,
	 .text = "deadline for one pod's probe: 30s, 2m, 1m30s or seconds (default " STR(
		 PROBE_DEFAULT_TIMEOUT_S) "s); also --request-timeout",
	 DURATION(timeout_s, KUBECTL_DURATION "30s, 2m, 1m30s, or seconds; at most 24h")},
	{.name = "--observe",
	 .has_arg = OA_REQUIRED,
	 .arg = "SEC",
	 .bit = OPT_OBSERVE,
	 .verbs = "node nixl all",
	 .group = HG_TARGETS,
	 .text = "what moved in a window: RDMA, TCP, NIXL bytes",
	 COUNT(observe_s, 1, PROBE_MAX_OBSERVE_S, "seconds, ")},
	{.name = "--logs",
	 .has_arg = OA_OPTIONAL,
	 .arg = "[=N]",
	 .bit = OPT_LOGS,
	 .verbs = "node nixl all",
	 .group = HG_TARGETS,
	 .text = "scan the worker's log, last N lines (default " STR(PROBE_DEFAULT_LOGS_TAIL) ")",
	 COUNT(logs_tail, 1, 100000, "log lines, "),
	 .dflt = PROBE_DEFAULT_LOGS_TAIL},
	{.name = "--deadline",
	 .has_arg = OA_REQUIRED,
	 .arg = "DURATION",
	 .bit = OPT_DEADLINE,
	 .fleet = FANOUT_VERBS,
	 .group = HG_TARGETS,
	 .text = "deadline for a whole fleet run (default none)",
	 DURATION(deadline_s, "a duration: 10m, 90s, or seconds; at most 24h")},
	{.name = "--interval",
	 .has_arg = OA_REQUIRED,
	 .arg = "DURATION",
	 .bit = OPT_INTERVAL,
	 .verbs = "agent",
	 .group = HG_TARGETS,
	 .text = "agent: time between scans, 60s, 5m or seconds (default " STR(
		 AGENT_DEFAULT_INTERVAL_S) "s); with --once, its window (default " STR(AGENT_ONCE_WINDOW_S) "s)",
	 DURATION(interval_s, KUBECTL_DURATION "60s, 5m, or seconds; at most 24h")},
	{.name = "--node-interval",
	 .has_arg = OA_REQUIRED,
	 .arg = "DURATION",
	 .bit = OPT_NODE_INTERVAL,
	 .verbs = "agent",
	 .group = HG_TARGETS,
	 .text = "agent: time between runs of the node checks (default " STR(
		 AGENT_DEFAULT_NODE_INTERVAL_S) "s; every scan when shorter than --interval)",
	 DURATION(node_interval_s, KUBECTL_DURATION "60s, 5m, or seconds; at most 24h")},
	{.name = "--listen",
	 .has_arg = OA_REQUIRED,
	 .arg = "ADDR:PORT",
	 .bit = OPT_LISTEN,
	 .verbs = "agent",
	 .group = HG_TARGETS,
	 .text = "agent: serve /metrics and /healthz there (default :" STR(AGENT_DEFAULT_PORT) ")",
	 STRING(listen)},
	{.name = "--once",
	 .bit = OPT_ONCE,
	 .verbs = "agent",
	 .group = HG_TARGETS,
	 .text = "agent: one scan, written as Prometheus text (--output FILE), then exit",
	 FLAG(once)},
	{.name = "--help",
	 .short_name = 'h',
	 .group = HG_GENERAL,
	 .text = "print this help; 'help VERB' (or 'VERB --help') prints that verb's usage, options "
		 "and examples"},
	{.name = "--version", .group = HG_GENERAL, .text = "print the version"},
};
const size_t n_cli_options = sizeof(cli_options) / sizeof(cli_options[0]);

/* getopt_long's value of row i: its short character, else 256 + i. */
#define LONG_KEY(i) (256 + (int)(i))

char cli_option_short(const struct cli_option *d)
{
	if (d->short_name)
		return d->short_name;
	return d->name[0] == '-' && d->name[1] != '-' ? d->name[1] : 0;
}

const struct cli_option *cli_option_of(int c)
{
	if (c >= LONG_KEY(0) && c < LONG_KEY(n_cli_options))
		return &cli_options[c - LONG_KEY(0)];
	for (size_t i = 0; i < n_cli_options && c > 0 && c < 256; i++)
		if (cli_option_short(&cli_options[i]) == (char)c)
			return &cli_options[i];
	return NULL;
}

const struct option *cli_options_getopt(const char **shortopts)
{
	/* every row's long name and alias, and the terminator */
	static struct option longs[2 * sizeof(cli_options) / sizeof(cli_options[0]) + 1];
	static char shorts[2 + 3 * sizeof(cli_options) / sizeof(cli_options[0]) + 1];
	if (!longs[0].name) {
		size_t n = 0, s = 0;
		shorts[s++] = ':'; /* a missing value is ':', worded by main.c */
		for (size_t i = 0; i < n_cli_options; i++) {
			const struct cli_option *d = &cli_options[i];
			char sc = cli_option_short(d);
			int key = sc ? sc : LONG_KEY(i);
			if (!strncmp(d->name, "--", 2))
				longs[n++] = (struct option){d->name + 2, d->has_arg, NULL, key};
			if (d->alias)
				longs[n++] = (struct option){d->alias + 2, d->has_arg, NULL, key};
			if (sc) {
				shorts[s++] = sc;
				for (int k = 0; k < (int)d->has_arg; k++)
					shorts[s++] = ':';
			}
		}
		shorts[s] = '\0';
		longs[n] = (struct option){0};
	}
	*shortopts = shorts;
	return longs;
}

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

int cli_option_set(const struct cli_option *d, struct cli_opts *o, const char *arg)
{
	void *field = (char *)o + d->off;
	switch (d->kind) {
	case OK_FLAG: *(bool *)field = true; break;
	case OK_STRING: *(const char **)field = arg; break;
	case OK_COUNT: {
		unsigned long v = d->dflt;
		if (arg && !parse_count(arg, d->min, d->max, &v))
			return cli_usage_error(NULL,
					       d->has_arg == OA_OPTIONAL
						       ? "invalid %s=%s (%s%lu to %lu)"
						       : "invalid %s '%s' (%s%lu to %lu)",
					       d->name, arg, d->hint, d->min, d->max);
		*(unsigned long *)field = v;
		break;
	}
	case OK_DURATION:
		if (!duration_parse(arg, (double *)field))
			return cli_usage_error(NULL, "invalid %s '%s' (%s)", d->name, arg, d->hint);
		break;
	case OK_SPECIAL: return 0; /* main.c's */
	}
	o->given |= d->bit;
	return 0;
}

/* Whether `name` is a word of the space-separated list. */
static bool word_in(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		size_t wl = strcspn(p, " ");
		if (wl == n && !strncmp(p, name, n))
			return true;
		p += wl;
		p += strspn(p, " ");
	}
	return false;
}

bool cli_option_taken(const struct verb *v, const struct cli_option *d, unsigned kind)
{
	if (!d->bit || word_in(d->verbs, v->name))
		return true;
	bool probe = kind & v->targets & VT_PROBE, fleet = kind & v->targets & VT_FLEET;
	return (probe && word_in(d->probe, v->name)) || (fleet && word_in(d->fleet, v->name));
}

unsigned verb_allowed_options(const struct verb *v, enum verb_target kind)
{
	unsigned mask = 0;
	for (size_t i = 0; i < n_cli_options; i++)
		if (cli_options[i].bit && cli_option_taken(v, &cli_options[i], kind))
			mask |= cli_options[i].bit;
	return mask;
}

int cli_options_refuse(const char *verb, const struct cli_opts *o, unsigned allowed)
{
	unsigned bad = o->given & ~allowed;
	for (int g = HG_OUTPUT; g <= HG_GENERAL; g++)
		for (size_t i = 0; i < n_cli_options; i++)
			if (cli_options[i].group == (enum help_group)g &&
			    (bad & cli_options[i].bit))
				return cli_usage_error(verb, "option '%s' does not apply to '%s'",
						       cli_options[i].name, verb);
	return 0;
}
