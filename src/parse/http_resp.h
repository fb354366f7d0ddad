/* SPDX-License-Identifier: Apache-2.0 */
/* An HTTP/1.x answer split into its status and body (the agent GET of a
 * NIXL exporter, in probe, proc_scan.c): pure, bounded by len. */
#ifndef CI_PARSE_HTTP_RESP_H
#define CI_PARSE_HTTP_RESP_H

#include <stddef.h>

/* The status code (100-599), with *body and *blen after the blank line that
 * ends the headers; -1 when buf is not an HTTP/1.x answer. */
int http_resp_split(const char *buf, size_t len, const char **body, size_t *blen);

#endif
