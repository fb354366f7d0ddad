/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a running process has mapped, from /proc/PID/maps:
 *   "7f3a1c000000-7f3a1c021000 r-xp 00000000 103:02 1835101   /opt/ucx/lib/ucx/libuct_ib.so.0.0.0"
 * Only the shared objects matter here (the path column), each once, in
 * order of first appearance.  The probe keeps only transport libraries
 * (NIXL plugins, UCX, libfabric, verbs, NCCL, GDRCopy, CUDA) so that the
 * transcript stays small; this parser accepts any maps text.
 */
#ifndef CI_PARSE_PROC_MAPS_H
#define CI_PARSE_PROC_MAPS_H

#include <stdbool.h>
#include <stddef.h>

struct proc_maps {
	char **paths; /* unique mapped file paths that look like shared objects */
	size_t n, cap;
	bool capped; /* more than PARSE_MAX_ITEMS distinct paths */
};

/* 0 when at least one maps line was recognised (or the input is blank:
 * nothing mapped that the probe kept); -1 when nothing looked like maps. */
int proc_maps_parse(const char *buf, size_t len, struct proc_maps *out);
void proc_maps_release(struct proc_maps *m);
/* The file name part of a path ("/a/b/libuct_ib.so.0" -> "libuct_ib.so.0"). */
const char *path_basename(const char *path);
/* The first mapped path whose basename starts with `prefix`, or NULL. */
const char *proc_maps_find(const struct proc_maps *m, const char *prefix);

#endif
