/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's reading of a node's processes, in C, with no process started
 * (src/cmd/agent.c): every /proc/PID under the jailed root, each read
 * capped.  Bytes only: which process is an engine, which pod it is in and
 * what its evidence means are decided above (cmd/, parse/, rules/, live/).
 *
 * The jail: every path is opened with openat2(RESOLVE_IN_ROOT |
 * RESOLVE_NO_MAGICLINKS) under the root's descriptor (Linux 5.6), so a
 * symlink in a --sysroot tree (or a process's /proc entry) never leads out
 * of it; where openat2 is missing, openat with O_NOFOLLOW on the last part.
 */
#ifndef CI_PROBE_PROC_SCAN_H
#define CI_PROBE_PROC_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/strbuf.h"

#define PROC_CMDLINE_MAX 4096        /* of a command line read */
#define PROC_MAPS_MAX    (16u << 20) /* of one maps file read */
#define PROC_SMALL_MAX   (64u << 10) /* cgroup, environ, limits, net/dev, fib_trie */
#define PROC_FD_MAX      4096        /* descriptors of one process looked at */
#define PROC_SCAN_MAX    65536       /* processes looked at in one scan */
#define PROC_HTTP_MAX    (1u << 20)  /* a NIXL exporter's answer */

struct proc_root {
	int fd;    /* the root's directory descriptor */
	bool host; /* the real "/" (no --sysroot): our own pid is skipped */
};

/* 0, or -1 with errno (the root cannot be opened as a folder). */
int proc_root_open(struct proc_root *r, const char *sysroot);
void proc_root_close(struct proc_root *r);
/* Read root/path (relative, no leading '/') into sb, at most cap bytes;
 * false when it cannot be opened or read.  *capped when there was more. */
bool proc_read(const struct proc_root *r, const char *path, size_t cap, struct strbuf *sb,
	       bool *capped);

/* The entry names of folder root/dir (not "." or ".."), at most max, into
 * *names (each malloc'ed; the caller frees them and the array); the count. */
size_t proc_list_dir(const struct proc_root *r, const char *dir, size_t max, char ***names);

struct proc_entry {
	int pid;
	bool nixl;          /* mapped a NIXL backend plugin (libplugin_*.so) */
	bool maps_read;     /* its maps could be read */
	char *cmdline;      /* argv joined by spaces, at most PROC_CMDLINE_MAX */
	struct strbuf maps; /* the transport libraries it mapped, one maps line each */
};

struct proc_list {
	struct proc_entry *v;
	size_t n, cap;
	size_t seen;       /* /proc/PID folders looked at */
	size_t unreadable; /* of them, whose cmdline or maps could not be read */
};

/* Every process under root/proc, in pid order. */
int proc_list_read(const struct proc_root *r, struct proc_list *out);
void proc_list_release(struct proc_list *l);

/* The "N -> /dev/..." lines of pid's descriptors that point into /dev
 * (readlink, never followed); false when root/proc/PID/fd cannot be read. */
bool proc_read_fds(const struct proc_root *r, int pid, struct strbuf *out);
/* pid's environment, transport names only (core/redact.h's rule), values
 * redacted, as "NAME=value" lines; false when it cannot be read. */
bool proc_read_environ(const struct proc_root *r, int pid, struct strbuf *out);

/* sysfs: the RDMA device behind /dev/infiniband/uverbsN
 * (sys/class/infiniband_verbs/uverbsN/ibdev), into name; false if none. */
bool proc_uverbs_ibdev(const struct proc_root *r, unsigned n, char *name, size_t size);
/* Every port's data counters of device dev, as probe.sh's live:sample
 * lines ("sys/class/infiniband/DEV/ports/P/counters/port_xmit_data=V"). */
void proc_read_port_counters(const struct proc_root *r, const char *dev, struct strbuf *out);

/* One HTTP/1.0 GET of http://addr:port/path, the body into out (at most
 * cap), within timeout_ms.  0 on a 200; else -1 with *why (static). */
int proc_http_get(const char *addr, unsigned port, const char *path, int timeout_ms, size_t cap,
		  struct strbuf *out, const char **why);

#endif
