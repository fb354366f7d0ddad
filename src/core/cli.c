/* SPDX-License-Identifier: Apache-2.0 */
/* Usage errors, worded once for every verb (see cli.h). */
#include <stdarg.h>
#include <stdio.h>

#include "core/cli.h"
#include "core/report.h"
#include "core/sanitize.h"

int cli_usage_error(const char *verb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("check_interconnect: ", stderr);
	if (verb) {
		sanitize_fputs(stderr, verb);
		fputs(": ", stderr);
	}
	sanitize_vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see 'check_interconnect --help')\n", stderr);
	return CI_EXIT_USAGE;
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("check_interconnect: ", stderr);
	sanitize_vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* In the order of the help text: the first refused option is the one
 * named, whatever order the user typed them in. */
static const struct {
	unsigned bit;
	const char *name;
} opt_names[] = {
	{OPT_NAMESPACE, "--namespace"},   {OPT_POD, "--pod"},
	{OPT_CONTAINER, "--container"},   {OPT_CONTEXT, "--context"},
	{OPT_KUBECONFIG, "--kubeconfig"}, {OPT_KUBECTL, "--kubectl"},
	{OPT_SYSROOT, "--sysroot"},       {OPT_SAVE_PROBE, "--save-probe"},
	{OPT_REPLAY, "--replay"},         {OPT_PEER, "--peer"},
	{OPT_DEPLOYMENT, "--deployment"}, {OPT_SELECTOR, "--selector"},
	{OPT_TIMEOUT, "--timeout"},       {OPT_JOBS, "--jobs"},
	{OPT_MAX_FILES, "--max-files"},   {OPT_DEADLINE, "--deadline"},
	{OPT_OBSERVE, "--observe"},       {OPT_LOGS, "--logs"},
};

int cli_allow_only(const char *verb, const struct cli_opts *o, unsigned allowed)
{
	unsigned bad = o->given & ~allowed;
	for (size_t i = 0; i < sizeof(opt_names) / sizeof(opt_names[0]); i++)
		if (bad & opt_names[i].bit)
			return cli_usage_error(verb, "option '%s' does not apply to '%s'",
					       opt_names[i].name, verb);
	return 0;
}
