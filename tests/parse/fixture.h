/* SPDX-License-Identifier: Apache-2.0 */
/* Fixture loading for the parser tests: the "# source:" header of a copied
 * real output is provenance, not tool output, so it is cut off here. */
#ifndef CI_TESTS_PARSE_FIXTURE_H
#define CI_TESTS_PARSE_FIXTURE_H

#include <stddef.h>

#define FIXTURE_DIR "tests/fixtures/parse/"

/* Whole file, NUL-terminated; NULL when unreadable. */
char *fixture_read(const char *path, size_t *len);
/* Everything after the "# ---" line (the whole text when there is none). */
char *fixture_strip(const char *text, size_t len, size_t *out_len);
/* FIXTURE_DIR name, stripped; fails the test when missing. */
char *fixture_body(const char *name, size_t *len);
/* Part idx of a body whose outputs are separated by "### ..." lines
 * (a fixture convention, not tool output); NULL when there is no such part. */
char *fixture_part(const char *body, int idx, size_t *len);

#endif
