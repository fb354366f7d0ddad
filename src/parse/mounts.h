/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `/proc/mounts` (fstab format, octal escapes like "\040") and `df` output,
 * to size /dev/shm (Docker's default 64 MiB breaks NCCL).
 */
#ifndef CI_PARSE_MOUNTS_H
#define CI_PARSE_MOUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mount_entry {
	char *source;
	char *target; /* unescaped */
	char *fstype;
	char *options;
};

struct mounts {
	struct mount_entry *v;
	size_t n, cap;
};

/* 0 when at least one mount line was read; -1 otherwise. */
int mounts_parse(const char *buf, size_t len, struct mounts *out);
void mounts_release(struct mounts *m);
/* The entry mounted last on `target` (later mounts hide earlier ones), or NULL. */
const struct mount_entry *mounts_find(const struct mounts *m, const char *target);
/* "size=65536k" / "size=64m" / "size=1g" / "size=67108864" in the options,
 * in bytes; false when absent or relative ("size=50%"). */
bool mount_size_option(const struct mount_entry *e, uint64_t *bytes);

/*
 * `df [-k|-h|-B1] PATH`: header then rows; a long filesystem name may wrap
 * the rest of the row onto the next line (POSIX -P never does).
 */
struct df_entry {
	char *filesystem;
	uint64_t size_bytes;
	uint64_t used_bytes;
	uint64_t avail_bytes;
	int use_pct; /* -1 when "-" */
	char *mounted_on;
};

struct df {
	struct df_entry *v;
	size_t n, cap;
	uint64_t block_size; /* from the header: 1024 for "1K-blocks", 1 for -h */
};

/* 0 when a df header and at least one row were read; -1 otherwise. */
int df_parse(const char *buf, size_t len, struct df *out);
void df_release(struct df *d);
const struct df_entry *df_find(const struct df *d, const char *mounted_on);
/* "64M", "1.5G", "512K", "0" (df -h sizes, powers of 1024) -> bytes. */
bool df_human_size(const char *s, uint64_t *bytes);

#endif
