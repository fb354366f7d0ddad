/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Python distribution metadata (`METADATA` in *.dist-info, `PKG-INFO` in
 * *.egg-info): RFC 822 style headers up to the first blank line, then the
 * long description, which is ignored.  Used to learn the installed `nixl`
 * version without importing the module.
 */
#ifndef CI_PARSE_PIP_META_H
#define CI_PARSE_PIP_META_H

#include <stddef.h>

struct pip_meta {
	char *name;    /* "nixl", "nixl-cu12" */
	char *version; /* "0.7.1" */
	char *summary;
	char *requires_python;
	char **requires_dist; /* "Requires-Dist:" values */
	size_t nrequires, cap;
};

/* 0 when Name and Version were found; -1 otherwise. */
int pip_meta_parse(const char *buf, size_t len, struct pip_meta *out);
void pip_meta_release(struct pip_meta *m);

#endif
