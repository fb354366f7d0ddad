/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The locked-memory limit (UCX drops InfiniBand below 512 MiB) and open
 * files, from any of:
 *   bash `ulimit -a` / `ulimit -Ha`: "max locked memory       (kbytes, -l) unlimited"
 *   dash/busybox `ulimit -a`:        "-l: locked-in-memory size (kbytes) 64"
 *   bare `ulimit -l`:                "unlimited" or "65536" (kbytes)
 *   /proc/<pid>/limits:              "Max locked memory  65536  65536  bytes"
 * The ulimit forms show one value (soft for -a, hard for -Ha: the caller
 * knows which it ran); /proc shows both.  Values are converted to bytes.
 */
#ifndef CI_PARSE_LIMITS_H
#define CI_PARSE_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LIMIT_UNLIMITED UINT64_MAX

enum limits_format {
	LIMITS_NONE = 0,
	LIMITS_BASH,
	LIMITS_DASH,
	LIMITS_BARE,
	LIMITS_PROC,
};

struct limits {
	enum limits_format format;
	/* ulimit forms (bash, dash, bare): the one value shown */
	bool have_memlock;
	uint64_t memlock; /* bytes or LIMIT_UNLIMITED */
	bool have_nofile;
	uint64_t nofile;
	/* /proc/<pid>/limits: soft and hard */
	bool have_proc;
	uint64_t memlock_soft, memlock_hard; /* bytes or LIMIT_UNLIMITED */
	uint64_t nofile_soft, nofile_hard;
};

/* 0 when a locked-memory value was found; -1 otherwise. */
int limits_parse(const char *buf, size_t len, struct limits *out);
void limits_release(struct limits *l);

#endif
