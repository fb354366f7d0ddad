/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kubectl's plugin completion (kubectl >= 1.26, kubernetes PR 105867): for
 * `kubectl interconnect <TAB>` kubectl runs the executable
 * kubectl_complete-interconnect found on PATH with the words after the
 * plugin's name, the last one being the word under completion (empty for a
 * new word), and reads cobra's __complete answer: one candidate a line,
 * then ":<directive>" (cobra's ShellCompDirective: 0 the shell completes
 * file names, 4 no file names).  The candidates come from the tables --help
 * is printed from (help.h), so they never drift from what the tool takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/help.h"
#include "core/xalloc.h"
#include "probe/kube_context.h"
#include "probe/kube_get_pods.h"
#include "probe/run_command.h"

/* cobra's ShellCompDirective values (spf13/cobra completions.go) */
enum {
	COMP_DEFAULT = 0,  /* ShellCompDirectiveDefault: file names */
	COMP_NO_FILES = 4, /* ShellCompDirectiveNoFileComp */
	COMP_DIRS = 16,    /* ShellCompDirectiveFilterDirs */
};
/* how long a pod listing may take: a TAB waits on it */
#define COMP_SECONDS 5.0

static const struct cli_option *option_named(const char *w)
{
	for (size_t i = 0; i < n_cli_options; i++) {
		const struct cli_option *d = &cli_options[i];
		if (!strcmp(w, d->name) ||
		    (d->short_name && w[0] == '-' && w[1] == d->short_name && !w[2]))
			return d;
	}
	return NULL;
}

static bool takes_value(const struct cli_option *d)
{
	return d && d->has_arg == OA_REQUIRED; /* --logs[=N] takes it attached */
}

static void candidate(FILE *out, const char *word, const char *cur)
{
	if (!strncmp(word, cur, strlen(cur)))
		fprintf(out, "%s\n", word);
}

/* A space-separated word list, filtered by the prefix. */
static void words(FILE *out, const char *list, const char *cur)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, " ");
		char *w = xstrndup(p, n);
		candidate(out, w, cur);
		free(w);
		p += n;
		p += strspn(p, " ");
	}
}

/* The pods of the namespace the line names (else the kubeconfig
 * context's): one bounded `kubectl get pods`, nothing when it fails. */
static void pods(FILE *out, const char *ns, const char *context, const char *kubeconfig,
		 const char *cur)
{
	const char *env_kubectl = getenv("KUBECTL");
	struct probe_target t = {
		.kubectl = env_kubectl && *env_kubectl ? env_kubectl : "kubectl",
		.context = context,
		.kubeconfig = kubeconfig,
	};
	char *own = ns ? NULL : kube_context_namespace(kubeconfig, context);
	struct kube_pod_list l;
	kube_pod_list_init(&l);
	char *msg = NULL;
	if (kube_get_pods(&t,
			  ns    ? ns
			  : own ? own
				: "default",
			  NULL, run_now() + COMP_SECONDS, &l, &msg, NULL) == PROBE_OK)
		for (size_t i = 0; i < l.n; i++)
			candidate(out, l.pods[i].name, cur);
	free(msg);
	free(own);
	kube_pod_list_release(&l);
}

int help_complete(FILE *out, int argc, char **argv)
{
	const char *cur = argc > 0 ? argv[argc - 1] : "";
	const char *ns = NULL, *context = NULL, *kubeconfig = NULL;
	const struct verb *v = NULL;
	bool help = false;
	int positional = 0;
	for (int i = 0; i + 1 < argc; i++) {
		const struct cli_option *d = option_named(argv[i]);
		if (takes_value(d) && i + 2 < argc) {
			if (!strcmp(d->name, "--namespace"))
				ns = argv[i + 1];
			else if (!strcmp(d->name, "--context"))
				context = argv[i + 1];
			else if (!strcmp(d->name, "--kubeconfig"))
				kubeconfig = argv[i + 1];
			i++;
		} else if (argv[i][0] != '-') {
			if (!v && !help) {
				help = !strcmp(argv[i], "help");
				v = verb_find(argv[i]);
			} else {
				positional++;
			}
		}
	}
	const struct cli_option *prev = argc >= 2 ? option_named(argv[argc - 2]) : NULL;
	int directive = COMP_NO_FILES;
	if (takes_value(prev)) {
		const char *c = prev->complete;
		if (c && !strcmp(c, "file"))
			directive = COMP_DEFAULT;
		else if (c && !strcmp(c, "dir"))
			directive = COMP_DIRS;
		else if (c && !strcmp(c, "pod"))
			pods(out, ns, context, kubeconfig, cur);
		else if (c && strcmp(c, "namespace") && strcmp(c, "context"))
			words(out, c, cur);
	} else if (cur[0] == '-') {
		for (size_t i = 0; i < n_cli_options; i++)
			if (!v || cli_option_taken(v, &cli_options[i], v->targets))
				candidate(out, cli_options[i].name, cur);
	} else if (!v && !help) {
		for (size_t i = 0; i < n_verbs; i++)
			candidate(out, verbs[i].name, cur);
		candidate(out, "help", cur);
	} else if (help) {
		for (size_t i = 0; i < n_verbs && !positional; i++)
			candidate(out, verbs[i].name, cur);
	} else if ((v->targets & VT_PROBE) && !(v->targets & VT_PATHS)) {
		if (!positional)
			pods(out, ns, context, kubeconfig, cur);
	} else if (v->targets & VT_PATHS) {
		directive = COMP_DEFAULT; /* recipe folders and manifests */
	}
	fprintf(out, ":%d\n", directive);
	return ferror(out) ? 1 : 0;
}
