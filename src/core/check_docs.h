/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What docs/checks.md says about each check id, compiled in
 * (tools/check_docs.py generates the table at build time), for the
 * renderers that carry documentation with their results (SARIF rules).
 */
#ifndef CI_CHECK_DOCS_H
#define CI_CHECK_DOCS_H

#include <stddef.h>

struct check_doc {
	const char *id;
	const char *anchor; /* GitHub anchor of its section in docs/checks.md */
	const char *text;   /* the documentation, markdown stripped, one line */
};
extern const struct check_doc check_docs[];
extern const size_t check_docs_len;

/* The documentation of id, or NULL. */
const struct check_doc *check_doc_find(const char *id);

#endif
