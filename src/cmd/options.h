/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The option table: one row per option, as git's parse-options has them
 * (name, short name, argument, help, where the value goes), plus which
 * verbs take it.  Everything that knows an option reads this table:
 * getopt_long's array and the value setters (main.c, cli_options_parse
 * below), the per-verb refusal "option X does not apply to Y"
 * (verb_allowed_options, cli_options_refuse), --help and `help VERB`
 * (help.c), the man page and the bash/zsh completions (help_gen.c, run by
 * tools/gen_docs.c at build time) and kubectl's plugin completion
 * (complete.c).  Adding an option is a row in options.c, the field its
 * value lands in (struct cli_opts, with its OPT_* bit when a rule reads
 * it), and the code that uses it (docs/HACKING.md, "Adding an option").
 */
#ifndef CI_CMD_OPTIONS_H
#define CI_CMD_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/cli.h"

struct verb;

enum help_group {
	HG_OUTPUT,
	HG_RECIPES,
	HG_TARGETS,
	HG_GENERAL
};

/* The argument, as getopt_long's has_arg. */
enum opt_arg {
	OA_NONE = no_argument,
	OA_REQUIRED = required_argument,
	OA_OPTIONAL = optional_argument, /* attached only: --logs=N */
};

/* Where the value goes (struct cli_opts at `off`). */
enum opt_kind {
	OK_SPECIAL = 0, /* main.c's own: --format, --json, -o, --color, --help, --version */
	OK_FLAG,        /* a bool set to true */
	OK_STRING,      /* a const char * kept as given */
	OK_COUNT,       /* an unsigned long in [min, max] (the default when OA_OPTIONAL
		      * and not attached) */
	OK_DURATION,    /* a double of seconds, duration_parse() */
};

struct cli_option {
	const char *name; /* "--namespace"; "-o" for an option with a short name only */
	char short_name;  /* 'n', or 0 */
	enum opt_arg has_arg;
	const char *arg;   /* the placeholder in help: "NS", "[=N]"; NULL for a flag */
	const char *alias; /* another long name getopt takes, or NULL ("--colour") */
	unsigned bit;      /* OPT_* set when given; 0: every verb takes it */
	/* Which verbs take it (space-separated verb names): with any target,
	 * with a probe target (one pod, the host, --sysroot, --replay), with a
	 * deployment (--deployment / --selector). */
	const char *verbs, *probe, *fleet;
	enum help_group group;
	const char *text;     /* one sentence, wrapped to the terminal */
	const char *complete; /* for completion: "file", "dir", "pod", "namespace",
			       * "context", a space-separated word list, or NULL */
	enum opt_kind kind;
	size_t off;             /* offsetof(struct cli_opts, ...), not OK_SPECIAL */
	unsigned long min, max; /* OK_COUNT */
	unsigned long dflt;     /* OK_COUNT with OA_OPTIONAL: the value of a bare --logs */
	const char *hint;       /* OK_COUNT: the unit ("seconds, "); OK_DURATION: the form */
};
extern const struct cli_option cli_options[];
extern const size_t n_cli_options;
extern const char *const help_group_names[];

/* The row of getopt_long's return value c (cli_options_getopt), or NULL. */
const struct cli_option *cli_option_of(int c);
/* The short option character of d (its short_name, or "-o"'s 'o'), or 0. */
char cli_option_short(const struct cli_option *d);
/* getopt_long's long options and short-option string, built from the table
 * once (static storage). */
const struct option *cli_options_getopt(const char **shortopts);
/* Store the value of an OK_FLAG, OK_STRING, OK_COUNT or OK_DURATION row in
 * o and set its bit: 0 or a usage error's code. */
int cli_option_set(const struct cli_option *d, struct cli_opts *o, const char *arg);

/* Whether verb v takes d with a target of the kinds in `kinds` (a VT_* mask:
 * the one resolved for a run; v->targets for help and completion). */
bool cli_option_taken(const struct verb *v, const struct cli_option *d, unsigned kinds);
/* Refuse the given options outside `allowed` (a mask of OPT_*), naming the
 * first in the order of the help text: 0 or 64. */
int cli_options_refuse(const char *verb, const struct cli_opts *o, unsigned allowed);

#endif
