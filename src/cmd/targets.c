/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which target the command line names, and the usage rules around each
 * kind: pure, so that a bad command line is refused before any process
 * runs.  The runner (run_verb.c) calls them in the order the rules are read
 * in the help text; each prints its one line and returns CI_EXIT_USAGE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "core/term.h"
#include "parse/kube_pods.h"

/* --pod and --namespace together; kubectl options only with --pod;
 * --sysroot only for the local host; --replay alone. */
int verb_check_probe_target(const struct verb *v, const struct cli_opts *o)
{
	const char *verb = v->name;
	bool pod = o->given & OPT_POD, ns = o->given & OPT_NAMESPACE;
	if (pod && !ns)
		return cli_usage_error(verb, "--pod needs --namespace");
	if (ns && !pod)
		return cli_usage_error(verb, "--namespace needs --pod");
	if (!pod && (o->given & (OPT_CONTAINER | OPT_CONTEXT | OPT_KUBECONFIG | OPT_KUBECTL)))
		return cli_usage_error(verb, "--container, --context, --kubeconfig and --kubectl "
					     "need --pod");
	if (pod && (o->given & OPT_SYSROOT))
		return cli_usage_error(verb, "--sysroot probes the local host; it cannot be used "
					     "with --pod");
	if ((o->given & OPT_REPLAY) && (o->given & (OPT_POD | OPT_SYSROOT | OPT_SAVE_PROBE)))
		return cli_usage_error(verb, "--replay analyses a saved transcript; it cannot be "
					     "used with --pod, --sysroot or --save-probe");
	if ((o->given & OPT_REPLAY) && (o->given & (OPT_OBSERVE | OPT_LOGS)))
		return cli_usage_error(verb,
				       "--observe and --logs read a running worker; a saved "
				       "transcript (--replay) keeps the window it was taken with");
	if ((o->given & OPT_LOGS) && !pod)
		return cli_usage_error(verb, "--logs reads a pod's log through kubectl: it needs "
					     "--pod or --deployment");
	return 0;
}

/* -n NAMESPACE and --deployment and/or --selector; nothing that names one
 * target; valid names. */
int verb_check_fleet_target(const struct verb *v, const struct cli_opts *o)
{
	const char *verb = v->name;
	if (o->given & (OPT_POD | OPT_PEER))
		return cli_usage_error(verb, "--deployment and --selector probe every worker pod; "
					     "they cannot be used with --pod or --peer");
	if (o->given & (OPT_SYSROOT | OPT_REPLAY | OPT_SAVE_PROBE))
		return cli_usage_error(verb,
				       "--sysroot, --replay and --save-probe take one target; "
				       "they cannot be used with --deployment or --selector");
	int rc = cli_options_refuse(verb, o, verb_allowed_options(v, VT_FLEET));
	if (rc)
		return rc;
	/* What is missing first: `all RECIPE` alone lacks the deployment, not
	 * a namespace (which the kubeconfig context gives anyway). */
	if (!(o->given & (OPT_DEPLOYMENT | OPT_SELECTOR)))
		return cli_usage_error(verb,
				       "needs the pods to look at: --deployment NAME or "
				       "--selector LABELS (and -n NAMESPACE, else the kubeconfig "
				       "context's)");
	if (!(o->given & OPT_ALL_NAMESPACES) && (!(o->given & OPT_NAMESPACE) || !o->namespace_))
		return cli_usage_error(verb, "--deployment and --selector need -n NAMESPACE");
	if (o->deployment && !kube_name_valid(o->deployment))
		return cli_usage_error(verb,
				       "invalid --deployment name (a Kubernetes name: lowercase "
				       "letters, digits, '-' and '.')");
	if (o->selector && !kube_selector_valid(o->selector))
		return cli_usage_error(verb, "invalid --selector (labels as kubectl -l takes them: "
					     "key=value[,key!=value], key in (a,b))");
	return 0;
}

int verb_machine_jobs(long *ncpu_out, unsigned long long *mem_out)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	if (ncpu_out)
		*ncpu_out = ncpu;
	if (mem_out)
		*mem_out = kb * 1024;
	return cli_default_jobs(ncpu, kb * 1024);
}

void verb_ctx_init(struct verb_ctx *c, const struct verb *v, const struct cli_opts *o)
{
	memset(c, 0, sizeof(*c));
	c->verb = v;
	c->probe = (struct probe_target){
		.namespace_ = o->namespace_,
		.pod = o->pod,
		.container = o->container,
		.context = o->context,
		.kubeconfig = o->kubeconfig,
		.kubectl = o->kubectl,
		.sysroot = o->sysroot,
		.replay = o->replay,
		.save_probe = o->save_probe,
		.save_force = o->force,
		.timeout_s = o->given & OPT_TIMEOUT ? o->timeout_s : PROBE_DEFAULT_TIMEOUT_S,
		.observe_s = (unsigned)o->observe_s,
		.logs_tail = (unsigned)o->logs_tail,
	};
	c->fleet = (struct fleet_target){
		.probe = c->probe,
		.all_namespaces = o->all_namespaces,
		.deployment = o->deployment,
		.selector = o->selector,
		.jobs = o->jobs > 0 ? (int)o->jobs : 1,
		.deadline_s = o->deadline_s,
		.progress = !o->quiet && isatty(STDERR_FILENO),
		/* run_verb renders a fleet verb's text with fleet_render_text */
		.text_summary = o->format == CI_FORMAT_TEXT && !o->verbose && !v->fleet_optional,
	};
	/* -A overrides -n, as kubectl get's -A does: each pod's own namespace */
	if (o->all_namespaces)
		c->fleet.probe.namespace_ = NULL;
	/* --color auto: colour only on a terminal that is not TERM=dumb, and
	 * never with NO_COLOR set (https://no-color.org); --color always wins. */
	/* SARIF names files relative to the folder the tool ran in, the
	 * checkout code scanning maps them into. */
	static char cwd[4096];
	c->render = (struct render_opts){
		.format = o->format,
		.color = o->color == CI_COLOR_ALWAYS ||
			 (o->color == CI_COLOR_AUTO && term_auto_color(STDOUT_FILENO)),
		.quiet = o->quiet,
		.verbose = o->verbose,
		.output = o->output,
		/* a file is no terminal: COLUMNS, else 80 */
		.width = term_width(o->output ? -1 : STDOUT_FILENO),
		.cwd = getcwd(cwd, sizeof(cwd)),
	};
	c->peer = o->peer;
	c->max_files = o->max_files;
	c->agent = (struct agent_opts){o->interval_s, o->node_interval_s, o->listen, o->once};
	c->args = o->args;
	c->n_args = o->n_args;
}
