/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Loaded kernel modules, from `/proc/modules`
 *   "nvidia_peermem 16384 0 - Live 0xffffffffc0a00000 (OE)"
 *   "ib_core 434176 9 rdma_cm,ib_ipoib,nvidia_peermem, Live 0x..."
 * or from `lsmod` (also `lsmod | grep x`, possibly indented by a paste)
 *   "Module                  Size  Used by"        (header, skipped)
 *   "nvidia              56717312  550 nvidia_uvm,nvidia_peermem,nvidia_modeset"
 * Empty input is valid (grep found nothing): zero modules.
 */
#ifndef CI_PARSE_MODULES_H
#define CI_PARSE_MODULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kmod {
	char *name;
	uint64_t size;
	int refcount; /* -1 when printed as "-" */
	char **users; /* modules using this one */
	size_t nusers, cap;
	char *state; /* /proc/modules: "Live", "Loading"; NULL for lsmod */
};

struct modules {
	struct kmod *v;
	size_t n, cap;
};

/* 0 when every non-blank line is a module line (empty input included); -1
 * when nothing looked like one.  Unrecognised lines are skipped. */
int modules_parse(const char *buf, size_t len, struct modules *out);
void modules_release(struct modules *m);
const struct kmod *modules_find(const struct modules *m, const char *name);
bool modules_has(const struct modules *m, const char *name);
/* True when `user` appears in the users list of `name`: e.g. nvidia_peermem
 * among ib_core's users, or gdrdrv among nvidia's. */
bool modules_used_by(const struct modules *m, const char *name, const char *user);

#endif
