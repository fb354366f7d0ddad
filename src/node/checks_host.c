/* SPDX-License-Identifier: Apache-2.0 */
/* Process limits of the worker: locked memory (with CAP_IPC_LOCK), /dev/shm. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/bytes.h"
#include "node/node_checks.h"
#include "node/node_desc.h"
#include "node/sections.h"
#include "parse/limits.h"
#include "parse/proc_status.h"

#define SHM_MIN (1ull << 30)

/* Below this a registration of a few buffers already fails (the container
 * defaults are 64 KiB and 8 MiB); see docs/checks.md for the sources. */
#define MEMLOCK_FAIL_BELOW (64ull << 20)

/* The verdicts where the limit does not bind: no RDMA device, CAP_IPC_LOCK
 * effective, or no limit readable.  True when one was given. */
static bool memlock_not_binding(struct ci_report *r, const struct node_facts *f, const char *soft,
				const struct check_desc *ck)
{
	const char *subj = "max locked memory";
	if (!f->n_devs) {
		report_na(r, ck, subj,
			  "no RDMA device: the locked-memory limit only matters for RDMA%s%s%s",
			  f->have_memlock ? " (it is " : "", f->have_memlock ? soft : "",
			  f->have_memlock ? ")" : "");
		return true;
	}
	if (node_ipc_lock(f)) {
		struct ci_check *c = report_check(
			r, ck, CI_OK, subj,
			"CAP_IPC_LOCK is effective in %s: the kernel does not apply the "
			"locked-memory limit to RDMA registrations%s%s%s",
			f->caps_source[0] && !strcmp(f->caps_source, "/proc/1/status")
				? "the worker (pid 1)"
				: "the exec shell",
			f->have_memlock ? " (it is " : "", f->have_memlock ? soft : "",
			f->have_memlock ? ")" : "");
		check_add_evidence(c, "CapEff %016" PRIx64 " (%s)", f->cap_eff, f->caps_source);
		if (f->have_memlock)
			check_add_evidence(c, "%s", f->memlock_source);
		return true;
	}
	if (!f->have_memlock) {
		report_check(
			r, ck, CI_SKIPPED, subj,
			"neither /proc/1/limits, /proc/self/limits nor `ulimit -l` could be read%s",
			f->have_caps ? " (and CAP_IPC_LOCK is not effective)" : "");
		return true;
	}
	return false;
}

/* A finite (or unlimited) limit that applies: without CAP_IPC_LOCK every
 * registration is charged to it. */
static void memlock_limited(struct ci_report *r, const struct node_facts *f, const char *soft,
			    const struct check_desc *ck)
{
	const char *subj = "max locked memory";
	const char *who = f->memlock_pid1 ? "the worker (pid 1)" : "the exec shell";
	char hard[32];
	struct ci_check *c;
	char caps[96];
	if (f->have_caps)
		snprintf(caps, sizeof(caps), "CapEff %016" PRIx64 " (%s): no CAP_IPC_LOCK",
			 f->cap_eff, f->caps_source);
	else
		snprintf(caps, sizeof(caps), "CapEff not read: CAP_IPC_LOCK unknown");
	if (f->memlock_soft == LIMIT_UNLIMITED) {
		c = report_check(r, ck, CI_OK, subj, "max locked memory of %s is unlimited", who);
		check_add_evidence(c, "%s", f->memlock_source);
		check_add_evidence(c, "%s", caps);
		return;
	}
	bool can_raise = f->have_memlock_hard && f->memlock_hard == LIMIT_UNLIMITED;
	if (f->have_memlock_hard)
		bytes_str(f->memlock_hard, hard, sizeof(hard));
	bool low = f->memlock_soft < MEMLOCK_FAIL_BELOW;
	if (low)
		c = report_check(
			r, ck, CI_FAIL, subj,
			"max locked memory of %s is %s%s%s%s without CAP_IPC_LOCK: RDMA memory "
			"registration fails with ENOMEM (\"ibv_create_cq() failed: Cannot "
			"allocate memory\")",
			who, soft, f->have_memlock_hard ? " (hard limit " : "",
			f->have_memlock_hard ? hard : "", f->have_memlock_hard ? ")" : "");
	else
		c = report_check(
			r, ck, CI_WARN, subj,
			"max locked memory of %s is %s%s%s%s without CAP_IPC_LOCK: every "
			"registered buffer, host-memory pools such as KVBM's included, must fit "
			"under it",
			who, soft, f->have_memlock_hard ? " (hard limit " : "",
			f->have_memlock_hard ? hard : "", f->have_memlock_hard ? ")" : "");
	check_add_evidence(c, "%s", f->memlock_source);
	check_add_evidence(c, "%s", caps);
	if (can_raise)
		check_set_fix(
			c,
			"add IPC_LOCK to securityContext.capabilities.add of the worker "
			"container, or start it with `ulimit -l unlimited` (the hard limit allows it)");
	else
		check_set_fix(
			c,
			"add IPC_LOCK to securityContext.capabilities.add of the worker "
			"container (the limit then does not apply), or set the runtime's memlock "
			"ulimit to unlimited");
}

/*
 * One judgement of the worker's locked memory (node.caps was folded in
 * here).  The kernel charges RDMA registrations to RLIMIT_MEMLOCK only
 * without CAP_IPC_LOCK (ib_umem_get), and UCX counts a privileged process as
 * unlimited (ucs_sys_get_effective_memlock_rlimit); pid 1's limit and
 * capabilities are the worker's, the exec shell's only the fallback.
 */
void node_check_memlock_as(struct ci_report *r, const struct node_facts *f,
			   const struct check_desc *ck)
{
	char soft[32] = "";
	if (f->have_memlock)
		bytes_str(f->memlock_soft, soft, sizeof(soft));
	if (!memlock_not_binding(r, f, soft, ck))
		memlock_limited(r, f, soft, ck);
}

void node_check_memlock(struct ci_report *r, const struct node_facts *f)
{
	node_check_memlock_as(r, f, NODE_CHECK(MEMLOCK));
}

void node_check_shm(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(SHM);
	const char *subj = "/dev/shm";
	struct ci_check *c;
	char sz[32];
	if (!f->have_shm) {
		report_check(r, ck, CI_SKIPPED, subj, "no /dev/shm mount could be read");
		return;
	}
	if (!f->shm_size_known) {
		c = report_check(
			r, ck, CI_OK, subj,
			"/dev/shm is mounted without a size limit (tmpfs defaults to half of memory)");
		check_add_evidence(c, "%s", f->shm_how);
		return;
	}
	bytes_str(f->shm_bytes, sz, sizeof(sz));
	if (f->shm_bytes < SHM_MIN) {
		c = report_check(
			r, ck, CI_WARN, subj,
			"/dev/shm is only %s%s: NCCL and UCX shared-memory transports run out", sz,
			f->shm_bytes == (64ull << 20) ? " (Docker's default)" : "");
		check_set_fix(c, "mount an emptyDir with medium: Memory at /dev/shm (a few GiB)");
	} else {
		c = report_check(r, ck, CI_OK, subj, "/dev/shm is %s", sz);
	}
	check_add_evidence(c, "%s", f->shm_how);
}
