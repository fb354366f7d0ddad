/* SPDX-License-Identifier: Apache-2.0 */
/*
 * No secrets leave the tool.  Only transport-prefixed variables are ever
 * read from a pod, and any variable whose name looks like a secret has its
 * value replaced, in every output format, by REDACTED.
 */
#ifndef CI_REDACT_H
#define CI_REDACT_H

#include <stdbool.h>

#define REDACTED "<redacted>"

/* TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL, AUTH, PRIVATE... anywhere in
 * the name; KEY, PASS, PWD, CERT, CREDS, BEARER, JWT, PRIVKEY, PEM, SAS... as
 * a whole word of it. */
bool redact_is_secret_name(const char *name);
/* A value that holds "password=", "token=", "Bearer "... */
bool redact_is_secret_value(const char *value);
/* A value with a URL that carries credentials (scheme://user:pw@host). */
bool redact_has_url_credentials(const char *value);
/* A new copy of value with every URL's password (or lone user) replaced:
 * http://user:pw@etcd:2379 -> http://user:<redacted>@etcd:2379. */
char *redact_url_credentials(const char *value);
/* THE rule, used by every output and the transcript: REDACTED when the name
 * or the value is secret-like, the value with its URL credentials redacted
 * when it has some (a string that lives as long as the process), else the
 * value itself.  Never NULL for a non-NULL value. */
const char *redact_value(const char *name, const char *value);
/* redact_value() as a new string (NULL for NULL). */
char *redact_value_dup(const char *name, const char *value);
/* Free text (a log line, a telemetry label, a transcript line): a new
 * string with each secret replaced by REDACTED in place and the rest kept,
 * so that it is redacted before any cut.  A secret is the value after a
 * secret-like name (the name rule above) joined by '=' or ':' (key=value,
 * "key": "value", key: value), after a secret flag or word and a space
 * (--password X, password X, token X), after an auth scheme (Bearer X,
 * Basic X, Authorization: Basic X), and a URL's password. */
char *redact_text(const char *s);

/* Transport prefixes: UCX_, NIXL_, NCCL_, FI_, MC_, plus the backend
 * selectors (SGLANG_DISAGGREGATION_*, TRTLLM_NIXL_*, DYN_KVBM_NIXL_*, ...). */
bool redact_is_transport_name(const char *name);

#endif
