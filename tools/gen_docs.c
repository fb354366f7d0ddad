/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Build-time generator (meson runs it): the man page check_interconnect(1)
 * and the bash and zsh completions, from the tables --help is printed from.
 *   usage: gen_docs man|bash|zsh OUTPUT
 */
#include <stdio.h>
#include <string.h>

#include "cmd/help.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: gen_docs man|bash|zsh OUTPUT\n", stderr);
		return 64;
	}
	FILE *out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	if (!strcmp(argv[1], "man"))
		help_roff(out);
	else if (!strcmp(argv[1], "bash"))
		help_bash_completion(out);
	else if (!strcmp(argv[1], "zsh"))
		help_zsh_completion(out);
	else
		return fclose(out), 64;
	return fclose(out) ? 1 : 0;
}
