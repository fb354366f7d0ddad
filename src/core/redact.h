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

/* TOKEN, SECRET, PASSWORD, PASSWD, KEY, CREDENTIAL, AUTH, PRIVATE, CERT... */
bool redact_is_secret_name(const char *name);
/* value, or REDACTED when the name is secret-like. Never NULL for non-NULL value. */
const char *redact_value(const char *name, const char *value);
/* Transport prefixes: UCX_, NIXL_, NCCL_, FI_, MC_, plus the backend
 * selectors (SGLANG_DISAGGREGATION_*, TRTLLM_NIXL_*, DYN_KVBM_NIXL_*, ...). */
bool redact_is_transport_name(const char *name);

#endif
