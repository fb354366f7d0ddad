/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a running process holds open, from `ls -l /proc/PID/fd` (one process
 * for every descriptor, where readlink would need one per descriptor):
 *   "lrwx------ 1 root root 64 Dec  1 08:12 17 -> /dev/infiniband/uverbs0"
 * or from lines the probe wrote itself as "17 -> /dev/infiniband/uverbs0".
 * Only the link targets matter; sockets, pipes and anon inodes are counted
 * but not kept.
 */
#ifndef CI_PARSE_PROC_FD_H
#define CI_PARSE_PROC_FD_H

#include <stdbool.h>
#include <stddef.h>

struct proc_fds {
	char **targets; /* unique absolute targets ("/dev/infiniband/uverbs0") */
	size_t n, cap;
	size_t n_fds;     /* descriptors seen, absolute or not */
	size_t n_sockets; /* "socket:[...]" targets */
	bool capped;
};

/* 0 when at least one "N -> target" line was seen, or the input is blank;
 * -1 when nothing looked like a descriptor listing. */
int proc_fds_parse(const char *buf, size_t len, struct proc_fds *out);
void proc_fds_release(struct proc_fds *f);
/* How many kept targets start with `prefix`. */
size_t proc_fds_count(const struct proc_fds *f, const char *prefix);

#endif
