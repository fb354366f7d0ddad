/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one source of the help text: the verb table (commands.c: synopsis,
 * summary, description, examples) and the option table (options.h).  --help,
 * `help VERB`, `VERB --help`, the man page check_interconnect(1) and the
 * bash and zsh completions (tools/gen_docs.c, run at build time) are all
 * printed from them, so none can drift from the others.
 */
#ifndef CI_CMD_HELP_H
#define CI_CMD_HELP_H

#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/options.h"

/* The verb table's names plus "help", for "did you mean". */
const char *const *help_verb_names(size_t *n);

/* Global help (v NULL) or one verb's, wrapped at width columns. */
void help_print(FILE *out, const struct verb *v, int width);
/* kubectl_complete-interconnect ARGS... (complete.c): the candidates for
 * the last word, one a line, then cobra's ":<directive>" line. */
int help_complete(FILE *out, int argc, char **argv);
/* `help help`. */
void help_print_help(FILE *out, int width);
/* tools/gen_docs.c: the man page (roff) and the completions. */
void help_roff(FILE *out);
void help_bash_completion(FILE *out);
void help_zsh_completion(FILE *out);

#endif
