/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --timeout as kubectl takes it (Go's time.ParseDuration, the units a
 * timeout needs): "30s", "2m", "1m30s", "1h", "500ms", "1.5m", or a plain
 * number of seconds ("30", "2.5").
 */
#ifndef CI_DURATION_H
#define CI_DURATION_H

#include <stdbool.h>

/* Seconds in *out; false for anything else (empty, a unit we do not know,
 * a sign, zero or a negative total). */
bool duration_parse(const char *s, double *out);

#endif
