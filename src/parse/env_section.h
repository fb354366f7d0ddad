/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The env:pid1 and env:exec sections of a probe transcript: one variable
 * per line, "NAME=VALUE", exactly as the probe script wrote it (transport
 * names only, secrets already redacted in the pod).
 *
 * One variable is one line, and lines end at LF only: a CR or any other
 * control byte inside a value belongs to that value and never starts a
 * variable of its own.  (lines_init() would turn a lone CR into a line
 * break, which let "X=a<CR>UCX_TLS=rc" forge a UCX_TLS: not used here.)
 * Values are kept as they are (the script writes control bytes \xHH; a
 * transcript of an earlier script, or one edited by hand, may hold raw
 * ones): the renderer escapes what it prints and JSON stays exact.  A NUL
 * inside a value ends it.
 */
#ifndef CI_PARSE_ENV_SECTION_H
#define CI_PARSE_ENV_SECTION_H

#include <stdbool.h>
#include <stddef.h>

struct env_entry {
	char *name;  /* [A-Za-z_][A-Za-z0-9_]*, at most 128 */
	char *value; /* as written, up to a NUL */
};

struct env_section {
	struct env_entry *v;
	size_t n, cap;
	bool truncated; /* more than PARSE_MAX_ITEMS variables */
};

/* 0 when at least one variable was read; -1 otherwise.  Lines that are not
 * NAME=VALUE with a valid name are skipped; a repeated name keeps the first. */
int env_section_parse(const char *buf, size_t len, struct env_section *out);
void env_section_release(struct env_section *e);

#endif
