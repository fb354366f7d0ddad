/* SPDX-License-Identifier: Apache-2.0 */
/* Usage errors, worded once for every verb (see cli.h). */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/render.h"
#include "core/render_json.h"
#include "core/report.h"
#include "core/sanitize.h"
#include "core/xalloc.h"

/* --format json was asked for: a usage error is also a JSON object on
 * stdout, so that a pipeline reading stdout learns why there is no report.
 * last_error is the most recent message (a usage error, or the line a verb
 * printed before it returned 64), json_done whether it was printed. */
/* How a usage error reaches the program that reads stdout (--format). */
static enum {
	ERR_PLAIN,
	ERR_JSON,
	ERR_NAGIOS,
	ERR_NPD
} err_mode;
static bool err_done;
static char *last_error;
/* The name the user called the tool by (cli_set_program). */
static const char *program = "check_interconnect";

void cli_set_program(const char *argv0)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;
	base = base ? base + 1 : argv0;
	/* kubectl runs a plugin as kubectl-NAME: the user typed `kubectl NAME`
	 * (kubectl's plugin mechanism, pkg/cmd/plugin.go, kubectl-<name>). */
	if (base && !strcmp(base, "kubectl-interconnect"))
		program = "kubectl interconnect";
}

const char *cli_program(void)
{
	return program;
}

void cli_errors_for_format(const char *format)
{
	err_mode = !strcmp(format, "json")     ? ERR_JSON
		   : !strcmp(format, "nagios") ? ERR_NAGIOS
		   : !strcmp(format, "npd")    ? ERR_NPD
					       : ERR_PLAIN;
}

static void remember(const char *verb, const char *msg)
{
	free(last_error);
	last_error = verb ? xasprintf("%s: %s", verb, msg) : xstrdup(msg);
}

/* json: {"schema", "tool", "generated_at", "command", "error": {kind,
 * message, exit_code}} (schema/check_interconnect.schema.json,
 * $defs/usage_error).  nagios: one UNKNOWN line, as the Monitoring Plugins
 * guidelines want for invalid arguments (exit 3, cli_exit_code); a '|'
 * would start performance data, so none is printed.  npd: one line within
 * NPD's default max_output_length (80 bytes), exit NPD's Unknown (2). */
static void print_usage_error(const char *verb)
{
	if (err_mode == ERR_PLAIN || err_done)
		return;
	err_done = true;
	char *clean = render_clean(last_error ? last_error : "usage error");
	if (err_mode == ERR_NAGIOS || err_mode == ERR_NPD) {
		for (char *p = clean; *p; p++)
			if (*p == '|')
				*p = '/';
		if (err_mode == ERR_NAGIOS)
			printf("INTERCONNECT UNKNOWN - usage error: %s\n", clean);
		else
			printf("%.80s\n", clean);
		free(clean);
		fflush(stdout);
		return;
	}
	char stamp[32];
	render_rfc3339(render_timestamp(), stamp, sizeof(stamp));
	json_t *j =
		json_pack("{s:s,s:o,s:s,s:o,s:{s:s,s:o,s:i}}", "schema", "check_interconnect/v1",
			  "tool", render_json_tool(), "generated_at", stamp, "command",
			  verb ? render_json_string(verb) : json_null(), "error", "kind", "usage",
			  "message", render_json_string(clean), "exit_code", CI_EXIT_USAGE);
	free(clean);
	if (j) {
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
	}
	fflush(stdout);
}

int cli_exit_code(int rc)
{
	if (rc != CI_EXIT_USAGE)
		return rc;
	return err_mode == ERR_NAGIOS ? CI_EXIT_UNKNOWN : err_mode == ERR_NPD ? 2 : rc;
}

int cli_usage_error(const char *verb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	fprintf(stderr, "%s: ", program);
	if (verb) {
		sanitize_fputs(stderr, verb);
		fputs(": ", stderr);
	}
	sanitize_fputs(stderr, msg ? msg : "usage error");
	/* the help that answers it: the verb's own when there is one */
	if (verb) {
		fprintf(stderr, " (see '%s help ", program);
		sanitize_fputs(stderr, verb);
		fputs("')\n", stderr);
	} else {
		fprintf(stderr, " (see '%s --help')\n", program);
	}
	remember(verb, msg ? msg : "usage error");
	free(msg);
	print_usage_error(verb);
	return CI_EXIT_USAGE;
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	fprintf(stderr, "%s: ", program);
	sanitize_fputs(stderr, msg ? msg : "error");
	fputc('\n', stderr);
	remember(NULL, msg ? msg : "error");
	free(msg);
}

int cli_usage_finish(const char *verb, int rc)
{
	if (rc == CI_EXIT_USAGE)
		print_usage_error(verb);
	free(last_error);
	last_error = NULL;
	return rc;
}

int cli_default_jobs(long ncpu, unsigned long long mem_avail)
{
	unsigned long long by_cpu = (unsigned long long)(ncpu > 0 ? ncpu : 1) * CLI_JOBS_PER_CPU;
	unsigned long long by_mem =
		mem_avail ? mem_avail / CLI_JOBS_MEM_SHARE / (CLI_EXEC_MB * 1000000ull) : by_cpu;
	unsigned long long n = by_cpu < by_mem ? by_cpu : by_mem;
	if (n < 1)
		n = 1;
	return n > CLI_DEFAULT_JOBS_MAX ? CLI_DEFAULT_JOBS_MAX : (int)n;
}
