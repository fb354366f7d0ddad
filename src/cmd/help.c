/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Help, printed from the verb table and the option table (help.h): the same
 * words in --help, `help VERB`, the man page and the completions.  Text is
 * wrapped at the terminal's width, between words only.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/agent.h"
#include "cmd/help.h"
#include "core/cli.h"
#include "core/render.h"
#include "probe/probe.h"

#define STR_(x) #x
#define STR(x)  STR_(x)

const char *const help_group_names[] = {"output", "recipes (env, all)", "targets (node, nixl, all)",
					"general"};

const struct option_doc option_docs[] = {
	{"--format", 0, "FMT", 0, HG_OUTPUT,
	 "text (default), json, sarif, prometheus, junit, nagios or npd",
	 "text json sarif "
	 "prometheus junit nagios npd"},
	{"--json", 0, NULL, 0, HG_OUTPUT, "the same as --format json", NULL},
	{"-o", 0, "FMT", 0, HG_OUTPUT,
	 "kubectl's -o: json (--format json), wide (-v) or a --format name; yaml is refused",
	 "json wide text sarif prometheus junit nagios npd"},
	{"--output", 0, "FILE", 0, HG_OUTPUT,
	 "write the report to FILE atomically (a temporary file, then rename)", "file"},
	{"--color", 0, "WHEN", 0, HG_OUTPUT,
	 "auto, always or never; auto: colour only on a terminal, not with TERM=dumb or "
	 "NO_COLOR",
	 "auto always never"},
	{"--quiet", 'q', NULL, 0, HG_OUTPUT, "print the verdict line only", NULL},
	{"--verbose", 'v', NULL, 0, HG_OUTPUT,
	 "every check with its evidence, also the ok ones of a run over many deployments or "
	 "pods",
	 NULL},
	{"--max-files", 0, "N", OPT_MAX_FILES, HG_RECIPES,
	 "YAML files read per folder (default 20000)", NULL},
	{"--namespace", 'n', "NS", OPT_NAMESPACE, HG_TARGETS,
	 "the pods' namespace (default: the current kubeconfig context's)", "namespace"},
	{"--pod", 0, "POD", OPT_POD, HG_TARGETS,
	 "probe a pod through one kubectl exec (or name it after the verb)", "pod"},
	{"--container", 'c', "C", OPT_CONTAINER, HG_TARGETS,
	 "container in the pod (default: the pod's default)", NULL},
	{"--context", 0, "CTX", OPT_CONTEXT, HG_TARGETS, "kubeconfig context, passed to kubectl",
	 "context"},
	{"--kubeconfig", 0, "FILE", OPT_KUBECONFIG, HG_TARGETS, "kubeconfig, passed to kubectl",
	 "file"},
	{"--kubectl", 0, "PATH", OPT_KUBECTL, HG_TARGETS,
	 "kubectl to run (default $KUBECTL, else kubectl on PATH)", "file"},
	{"--deployment", 0, "NAME", OPT_DEPLOYMENT, HG_TARGETS,
	 "every worker pod of a DynamoGraphDeployment", NULL},
	{"--selector", 'l', "LABELS", OPT_SELECTOR, HG_TARGETS,
	 "every worker pod matching the labels", NULL},
	{"--jobs", 0, "N", OPT_JOBS, HG_TARGETS,
	 "pods probed in parallel (default: " STR(
		 CLI_JOBS_PER_CPU) " per CPU, as many as a "
				   "quarter of the free memory holds at " STR(CLI_EXEC_MB) " MB per kubectl exec, at most " STR(
					   CLI_DEFAULT_JOBS_MAX) "; --version -v prints it)",
	 NULL},
	{"--peer", 0, "POD", OPT_PEER, HG_TARGETS, "the other side of the pair test (nixl)", "pod"},
	{"--sysroot", 0, "DIR", OPT_SYSROOT, HG_TARGETS,
	 "read /sys, /proc and /dev under DIR (local probe)", "dir"},
	{"--save-probe", 0, "FILE", OPT_SAVE_PROBE, HG_TARGETS,
	 "write the raw probe transcript (secret-free)", "file"},
	{"--force", 0, NULL, OPT_SAVE_PROBE, HG_TARGETS,
	 "let --save-probe overwrite a file (never a symlink)", NULL},
	{"--replay", 0, "FILE", OPT_REPLAY, HG_TARGETS,
	 "analyse a saved transcript, or a --bundle (a fleet's too), offline", "file"},
	{"--bundle", 0, "FILE", 0, HG_OUTPUT,
	 "also write a support bundle FILE.tar.gz: the report as text and JSON, every probe "
	 "transcript (secret-free) and manifest.json; --replay reads it back",
	 "file"},
	{"--timeout", 0, "DURATION", OPT_TIMEOUT, HG_TARGETS,
	 "deadline for one pod's probe: 30s, 2m, 1m30s or seconds (default " STR(
		 PROBE_DEFAULT_TIMEOUT_S) "s); also --request-timeout",
	 NULL},
	{"--observe", 0, "SEC", OPT_OBSERVE, HG_TARGETS,
	 "what moved in a window: RDMA, TCP, NIXL bytes", NULL},
	{"--logs", 0, "[=N]", OPT_LOGS, HG_TARGETS,
	 "scan the worker's log, last N lines (default " STR(PROBE_DEFAULT_LOGS_TAIL) ")", NULL},
	{"--deadline", 0, "DURATION", OPT_DEADLINE, HG_TARGETS,
	 "deadline for a whole fleet run (default none)", NULL},
	{"--interval", 0, "DURATION", OPT_INTERVAL, HG_TARGETS,
	 "agent: time between scans, 60s, 5m or seconds (default " STR(
		 AGENT_DEFAULT_INTERVAL_S) "s); with --once, its window (default " STR(AGENT_ONCE_WINDOW_S) "s)",
	 NULL},
	{"--node-interval", 0, "DURATION", OPT_NODE_INTERVAL, HG_TARGETS,
	 "agent: time between runs of the node checks (default " STR(
		 AGENT_DEFAULT_NODE_INTERVAL_S) "s; every scan when shorter than --interval)",
	 NULL},
	{"--listen", 0, "ADDR:PORT", OPT_LISTEN, HG_TARGETS,
	 "agent: serve /metrics and /healthz there (default :" STR(AGENT_DEFAULT_PORT) ")", NULL},
	{"--once", 0, NULL, OPT_ONCE, HG_TARGETS,
	 "agent: one scan, written as Prometheus text (--output FILE), then exit", NULL},
	{"--help", 'h', NULL, 0, HG_GENERAL,
	 "print this help; 'help VERB' (or 'VERB --help') prints that verb's usage, options and "
	 "examples",
	 NULL},
	{"--version", 0, NULL, 0, HG_GENERAL, "print the version", NULL},
};
const size_t n_option_docs = sizeof(option_docs) / sizeof(option_docs[0]);

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

bool help_verb_takes(const struct verb *v, const struct option_doc *d)
{
	if (!d->bit)
		return true;
	unsigned mask = v->options;
	if (v->targets & VT_PROBE)
		mask |= verb_allowed_options(v, VT_PROBE);
	if (v->targets & VT_FLEET)
		mask |= verb_allowed_options(v, VT_FLEET);
	return mask & d->bit;
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
static void print_option(FILE *out, const struct option_doc *d, int width)
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
			for (size_t i = 0; i < n_option_docs; i++)
				if (option_docs[i].group == (enum help_group)g)
					print_option(out, &option_docs[i], width);
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
		for (size_t i = 0; i < n_option_docs; i++) {
			const struct option_doc *d = &option_docs[i];
			if (d->group != (enum help_group)g || !help_verb_takes(v, d))
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
