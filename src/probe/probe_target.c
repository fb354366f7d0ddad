/* SPDX-License-Identifier: Apache-2.0 */
/* Which probe target the options name, and the usage rules around it: pure,
 * so that a bad command line is refused before any process runs. */
#include "core/cli.h"
#include "probe/probe.h"

int probe_target_validate(const char *verb, const struct cli_opts *o, unsigned allowed)
{
	int rc = cli_allow_only(verb, o, allowed);
	if (rc)
		return rc;
	if (o->n_args)
		return cli_usage_error(verb, "unexpected argument '%s'", o->args[0]);
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
	return 0;
}
