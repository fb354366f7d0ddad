/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `/proc/self/status`: the process name and the capability sets, printed as
 * 16 hex digits ("CapEff:\t00000000a80425fb").  IPC_LOCK lets UCX pin memory
 * past RLIMIT_MEMLOCK; SYS_RESOURCE lets it raise the limit.
 */
#ifndef CI_PARSE_PROC_STATUS_H
#define CI_PARSE_PROC_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CI_CAP_SYS_ADMIN    21
#define CI_CAP_IPC_LOCK     14
#define CI_CAP_SYS_RESOURCE 24
#define CI_CAP_SYS_PTRACE   19

struct proc_status {
	char *name;     /* "Name:" */
	bool have_caps; /* CapEff was found */
	uint64_t cap_inh, cap_prm, cap_eff, cap_bnd, cap_amb;
};

/* 0 when CapEff was found; -1 otherwise. */
int proc_status_parse(const char *buf, size_t len, struct proc_status *out);
void proc_status_release(struct proc_status *p);
bool proc_status_has_cap(uint64_t set, unsigned bit);

#endif
