/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The support bundle (--bundle FILE.tar.gz): a POSIX ustar archive (POSIX.1
 * pax/ustar header, IEEE Std 1003.1 "pax", the ustar interchange format)
 * compressed with zlib's gzip stream.  It holds what a run read and said:
 * report.txt, report.json, the probe transcripts (already secret-free, as
 * --save-probe writes them) and manifest.json, the list of what it holds and
 * the target to replay it against.  Only regular files with names the tool
 * chose ([A-Za-z0-9._/-], no "..", no leading '/') are written or read; a
 * bundle is read into memory and never extracted, so no path from it ever
 * reaches the file system.
 */
#ifndef CI_PROBE_BUNDLE_H
#define CI_PROBE_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strmap.h"

/* Caps on what is read back: the whole archive decompressed, and entries. */
#define BUNDLE_MAX_BYTES   (512u << 20)
#define BUNDLE_MAX_ENTRIES 200000
#define BUNDLE_NAME_MAX    99 /* ustar's name field, without a prefix */

struct bundle_writer;

/* Open FILE for writing (a temporary file beside it, renamed by
 * bundle_commit; an existing FILE that is not a regular file is refused).
 * mtime: the time every entry is stamped with.  NULL with *why (malloc'ed). */
struct bundle_writer *bundle_create(const char *path, long long mtime, char **why);
/* Add one entry; false when the name is not one the tool writes or the
 * write failed (then bundle_commit fails too). */
bool bundle_add(struct bundle_writer *w, const char *name, const char *data, size_t len);
/* The entries added so far, for the manifest: name and size of entry i. */
size_t bundle_count(const struct bundle_writer *w);
void bundle_entry_at(const struct bundle_writer *w, size_t i, const char **name, size_t *len);
/* Finish the archive and rename it into place; frees w.  false with *why. */
bool bundle_commit(struct bundle_writer *w, char **why);
/* Drop it (the temporary file is removed); frees w. */
void bundle_abort(struct bundle_writer *w);

struct bundle_entry {
	char *name;
	const char *data; /* into bundle.buf */
	size_t len;
};
struct bundle {
	char *buf;
	size_t len;
	struct bundle_entry *v;
	size_t n;
	struct strmap by_name; /* name -> index in v: a lookup per pod stays linear */
};
/* Whether path starts like a gzip stream (1f 8b): a bundle, not a
 * transcript. */
bool bundle_looks_like(const char *path);
/* Read and check a whole bundle (bounded by BUNDLE_MAX_BYTES and
 * BUNDLE_MAX_ENTRIES; every header checksum verified; only regular files
 * with valid names).  false with *why (malloc'ed); b is then empty. */
bool bundle_read(const char *path, struct bundle *b, char **why);
const struct bundle_entry *bundle_find(const struct bundle *b, const char *name);
void bundle_release(struct bundle *b);

/* Pure: a name the tool writes and reads. */
bool bundle_name_valid(const char *name);

#endif
