/* SPDX-License-Identifier: Apache-2.0 */
/* Process limits of the worker: locked memory, capabilities, /dev/shm. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "node/node_checks.h"
#include "node/node_desc.h"
#include "node/sections.h"
#include "parse/limits.h"
#include "parse/proc_status.h"

#define MEMLOCK_MIN (512ull << 20)   /* UCX drops its IB transports below this */
#define SHM_MIN (1ull << 30)

const char *node_bytes_str(uint64_t b, char *buf, size_t len)
{
	/* Exact units when the value is one (limits usually are), else one
	 * decimal in the largest unit, so that a reader never counts digits. */
	if (b == LIMIT_UNLIMITED)
		snprintf(buf, len, "unlimited");
	else if (b >= (1ull << 30) && !(b % (1ull << 30)))
		snprintf(buf, len, "%" PRIu64 " GiB", b >> 30);
	else if (b >= (1ull << 20) && !(b % (1ull << 20)))
		snprintf(buf, len, "%" PRIu64 " MiB", b >> 20);
	else if (b >= (1ull << 30))
		snprintf(buf, len, "%.1f GiB", (double)b / (1ull << 30));
	else if (b >= (1ull << 20))
		snprintf(buf, len, "%.1f MiB", (double)b / (1 << 20));
	else if (b >= (1ull << 10) && !(b % (1ull << 10)))
		snprintf(buf, len, "%" PRIu64 " KiB", b >> 10);
	else
		snprintf(buf, len, "%" PRIu64 " bytes", b);
	return buf;
}

static bool memlock_ok(const struct node_facts *f)
{
	return f->have_memlock &&
	       (f->memlock_soft == LIMIT_UNLIMITED || f->memlock_soft >= MEMLOCK_MIN);
}

void node_check_memlock(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(MEMLOCK);
	const char *subj = "max locked memory";
	char soft[32], hard[32];
	struct ci_check *c;
	if (f->have_memlock)
		node_bytes_str(f->memlock_soft, soft, sizeof(soft));
	if (!f->n_devs) {
		report_na(r, ck, subj,
			  "no RDMA device: the locked-memory limit only matters for RDMA%s%s%s",
			  f->have_memlock ? " (it is " : "", f->have_memlock ? soft : "",
			  f->have_memlock ? ")" : "");
		return;
	}
	if (!f->have_memlock) {
		report_check(r, ck, CI_SKIPPED, subj,
			     "neither `ulimit -l` nor /proc/self/limits could be read");
		return;
	}
	if (memlock_ok(f)) {
		c = report_check(r, ck, CI_OK, subj, "max locked memory is %s", soft);
		check_add_evidence(c, "%s", f->memlock_source);
		return;
	}
	bool can_raise = f->have_memlock_hard &&
			 (f->memlock_hard == LIMIT_UNLIMITED || f->memlock_hard >= MEMLOCK_MIN);
	if (f->have_memlock_hard)
		node_bytes_str(f->memlock_hard, hard, sizeof(hard));
	c = report_check(r, ck, CI_FAIL, subj,
			 "max locked memory is %s%s%s%s: UCX drops its InfiniBand transports below "
			 "512 MiB, or ibv_reg_mr fails with ENOMEM", soft,
			 f->have_memlock_hard ? " (hard limit " : "", f->have_memlock_hard ? hard : "",
			 f->have_memlock_hard ? ")" : "");
	check_add_evidence(c, "%s", f->memlock_source);
	if (can_raise)
		check_set_fix(c, "the hard limit allows it: start the worker with `ulimit -l unlimited` "
				 "(or set the runtime's default memlock ulimit to unlimited)");
	else
		check_set_fix(c, "set the container runtime's memlock ulimit to unlimited "
				 "(containerd/docker LimitMEMLOCK=infinity, default-ulimits memlock=-1)");
}

void node_check_caps(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(CAPS);
	const char *subj = "CapEff";
	struct ci_check *c;
	if (!f->n_devs) {
		report_na(r, ck, subj,
			  "no RDMA device: pinning capabilities only matter for RDMA");
		return;
	}
	if (!f->have_caps) {
		report_na(r, ck, subj,
			  "CapEff could not be read from /proc/self/status");
		return;
	}
	bool ipc = proc_status_has_cap(f->cap_eff, CI_CAP_IPC_LOCK);
	bool res = proc_status_has_cap(f->cap_eff, CI_CAP_SYS_RESOURCE);
	if (ipc) {
		c = report_check(r, ck, CI_OK, subj,
				 "CAP_IPC_LOCK is effective%s", res ? ", and CAP_SYS_RESOURCE" : "");
	} else if (memlock_ok(f)) {
		c = report_check(r, ck, CI_WARN, subj,
				 "CAP_IPC_LOCK is not effective; the memlock limit covers pinning, but "
				 "NIXL backends have failed without it (NIXL_ERR_BACKEND)");
		check_set_fix(c, "add IPC_LOCK to securityContext.capabilities.add of the worker container");
	} else {
		c = report_check(r, ck, CI_FAIL, subj,
				 "CAP_IPC_LOCK is not effective and the memlock limit is low: RDMA "
				 "memory registration fails%s",
				 res ? "" : " (no CAP_SYS_RESOURCE to raise the limit either)");
		check_set_fix(c, "add IPC_LOCK to securityContext.capabilities.add of the worker "
				 "container and raise memlock to unlimited");
	}
	check_add_evidence(c, "CapEff %016" PRIx64, f->cap_eff);
}

void node_check_shm(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(SHM);
	const char *subj = "/dev/shm";
	struct ci_check *c;
	char sz[32];
	if (!f->have_shm) {
		report_check(r, ck, CI_SKIPPED, subj,
			     "no /dev/shm mount could be read");
		return;
	}
	if (!f->shm_size_known) {
		c = report_check(r, ck, CI_OK, subj,
				 "/dev/shm is mounted without a size limit (tmpfs defaults to half of memory)");
		check_add_evidence(c, "%s", f->shm_how);
		return;
	}
	node_bytes_str(f->shm_bytes, sz, sizeof(sz));
	if (f->shm_bytes < SHM_MIN) {
		c = report_check(r, ck, CI_WARN, subj,
				 "/dev/shm is only %s%s: NCCL and UCX shared-memory transports run out",
				 sz, f->shm_bytes == (64ull << 20) ? " (Docker's default)" : "");
		check_set_fix(c, "mount an emptyDir with medium: Memory at /dev/shm (a few GiB)");
	} else {
		c = report_check(r, ck, CI_OK, subj, "/dev/shm is %s", sz);
	}
	check_add_evidence(c, "%s", f->shm_how);
}
