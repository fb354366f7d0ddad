/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The support bundle's archive (bundle.h): ustar entries through zlib's
 * gzip stream.  zlib (Debian zlib1g-dev) is the one library this adds: the
 * gzip format needs deflate, and zlib is what every gzip reader uses; the
 * tar layer is small, and written here so that it can refuse everything the
 * tool does not write (links, devices, long names, "..").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/xalloc.h"
#include "probe/bundle.h"

#define BLOCK 512

struct bundle_writer {
	gzFile gz;
	char *path, *tmp;
	long long mtime;
	bool failed;
	struct {
		char *name;
		size_t len;
	} * v;
	size_t n, cap;
};

bool bundle_name_valid(const char *name)
{
	size_t n = strlen(name);
	if (!n || n > BUNDLE_NAME_MAX || name[0] == '/' || name[n - 1] == '/')
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' || *p == '-' || *p == '/'))
			return false;
	/* no "." or ".." component, no empty one */
	for (const char *p = name; *p;) {
		size_t c = strcspn(p, "/");
		if (!c || (c == 1 && p[0] == '.') || (c == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += c;
		if (*p == '/')
			p++;
	}
	return true;
}

static void octal(char *field, size_t width, unsigned long long v)
{
	/* width-1 digits and a NUL, as ustar writes them */
	snprintf(field, width, "%0*llo", (int)(width - 1), v);
}

static unsigned checksum(const unsigned char *h)
{
	unsigned sum = 0;
	for (size_t i = 0; i < BLOCK; i++)
		sum += (i >= 148 && i < 156) ? ' ' : h[i];
	return sum;
}

struct bundle_writer *bundle_create(const char *path, long long mtime, char **why)
{
	struct stat st;
	if (lstat(path, &st) == 0) {
		*why = xasprintf("--bundle %s already exists: name a new file", path);
		return NULL;
	}
	char *tmp = xasprintf("%s.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		*why = xasprintf("cannot write --bundle %s: %s", path, strerror(errno));
		free(tmp);
		return NULL;
	}
	gzFile gz = gzdopen(fd, "wb6");
	if (!gz) {
		*why = xasprintf("cannot write --bundle %s: zlib could not start", path);
		close(fd);
		unlink(tmp);
		free(tmp);
		return NULL;
	}
	struct bundle_writer *w = xcalloc(1, sizeof(*w));
	w->gz = gz;
	w->path = xstrdup(path);
	w->tmp = tmp;
	w->mtime = mtime < 0 ? 0 : mtime;
	return w;
}

bool bundle_add(struct bundle_writer *w, const char *name, const char *data, size_t len)
{
	if (!bundle_name_valid(name)) {
		w->failed = true;
		return false;
	}
	unsigned char h[BLOCK];
	memset(h, 0, sizeof(h));
	memcpy(h, name, strlen(name));
	octal((char *)h + 100, 8, 0644);
	octal((char *)h + 108, 8, 0);
	octal((char *)h + 116, 8, 0);
	octal((char *)h + 124, 12, len);
	octal((char *)h + 136, 12, (unsigned long long)w->mtime);
	h[156] = '0';
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	snprintf((char *)h + 148, 8, "%06o", checksum(h));
	h[155] = ' ';
	static const char zero[BLOCK];
	size_t pad = (BLOCK - len % BLOCK) % BLOCK;
	if (gzwrite(w->gz, h, BLOCK) != BLOCK || (len && gzwrite(w->gz, data, len) != (int)len) ||
	    (pad && gzwrite(w->gz, zero, (unsigned)pad) != (int)pad)) {
		w->failed = true;
		return false;
	}
	xgrow((void **)&w->v, &w->cap, w->n + 1, sizeof(*w->v));
	w->v[w->n].name = xstrdup(name);
	w->v[w->n++].len = len;
	return true;
}

size_t bundle_count(const struct bundle_writer *w)
{
	return w->n;
}

void bundle_entry_at(const struct bundle_writer *w, size_t i, const char **name, size_t *len)
{
	*name = w->v[i].name;
	*len = w->v[i].len;
}

static void writer_free(struct bundle_writer *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i].name);
	free(w->v);
	free(w->path);
	free(w->tmp);
	free(w);
}

bool bundle_commit(struct bundle_writer *w, char **why)
{
	static const char end[2 * BLOCK];
	if (gzwrite(w->gz, end, sizeof(end)) != (int)sizeof(end))
		w->failed = true;
	if (gzclose(w->gz) != Z_OK)
		w->failed = true;
	bool ok = !w->failed && rename(w->tmp, w->path) == 0;
	if (!ok) {
		*why = xasprintf("cannot write --bundle %s: %s", w->path,
				 w->failed ? "a write failed" : strerror(errno));
		unlink(w->tmp);
	}
	writer_free(w);
	return ok;
}

void bundle_abort(struct bundle_writer *w)
{
	gzclose(w->gz);
	unlink(w->tmp);
	writer_free(w);
}

bool bundle_looks_like(const char *path)
{
	unsigned char m[2];
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read(fd, m, 2) == 2 &&
		  m[0] == 0x1f && m[1] == 0x8b;
	close(fd);
	return ok;
}

static bool fail_read(struct bundle *b, char **why, char *msg)
{
	bundle_release(b);
	*why = msg;
	return false;
}

static unsigned long long field_octal(const unsigned char *f, size_t width, bool *ok)
{
	unsigned long long v = 0;
	size_t i = 0;
	while (i < width && f[i] == ' ')
		i++;
	size_t digits = 0;
	for (; i < width && f[i] >= '0' && f[i] <= '7'; i++, digits++)
		v = v * 8 + (unsigned)(f[i] - '0');
	if (!digits || (i < width && f[i] != 0 && f[i] != ' '))
		*ok = false;
	return v;
}

bool bundle_read(const char *path, struct bundle *b, char **why)
{
	memset(b, 0, sizeof(*b));
	strmap_init(&b->by_name);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return fail_read(b, why, xasprintf("cannot read %s: %s", path, strerror(errno)));
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail_read(b, why, xasprintf("cannot read %s: not a regular file", path));
	}
	gzFile gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		return fail_read(b, why, xasprintf("cannot read %s: zlib could not start", path));
	}
	size_t cap = 1u << 16;
	b->buf = xmalloc(cap);
	for (;;) {
		if (b->len == cap) {
			if (cap >= BUNDLE_MAX_BYTES) {
				gzclose(gz);
				return fail_read(
					b, why,
					xasprintf("cannot read %s: over %u MiB uncompressed, "
						  "not a bundle this tool wrote",
						  path, BUNDLE_MAX_BYTES >> 20));
			}
			cap *= 2;
			b->buf = xrealloc(b->buf, cap);
		}
		int r = gzread(gz, b->buf + b->len, (unsigned)(cap - b->len));
		if (r < 0) {
			gzclose(gz);
			return fail_read(b, why,
					 xasprintf("cannot read %s: not a gzip stream", path));
		}
		if (!r)
			break;
		b->len += (size_t)r;
	}
	gzclose(gz);
	size_t cap_v = 0;
	for (size_t off = 0;;) {
		if (off + BLOCK > b->len)
			return fail_read(b, why,
					 xasprintf("cannot read %s: the archive is cut", path));
		const unsigned char *h = (const unsigned char *)b->buf + off;
		bool zero = true;
		for (size_t i = 0; i < BLOCK && zero; i++)
			zero = !h[i];
		if (zero)
			break; /* the end-of-archive blocks */
		bool ok = true;
		unsigned long long sum = field_octal(h + 148, 8, &ok);
		unsigned long long size = field_octal(h + 124, 12, &ok);
		if (!ok || sum != checksum(h) || memcmp(h + 257, "ustar", 5))
			return fail_read(b, why,
					 xasprintf("cannot read %s: not a ustar archive (a header "
						   "does not check)",
						   path));
		char name[BUNDLE_NAME_MAX + 2];
		memcpy(name, h, BUNDLE_NAME_MAX + 1);
		name[BUNDLE_NAME_MAX + 1] = 0;
		if ((h[156] != '0' && h[156] != 0) || h[345] || h[BUNDLE_NAME_MAX] ||
		    !bundle_name_valid(name))
			return fail_read(
				b, why,
				xasprintf("cannot read %s: an entry that this tool does not "
					  "write (a link, a device, or a path outside the "
					  "bundle)",
					  path));
		off += BLOCK;
		if (size > b->len - off)
			return fail_read(b, why,
					 xasprintf("cannot read %s: the archive is cut", path));
		if (b->n >= BUNDLE_MAX_ENTRIES)
			return fail_read(b, why,
					 xasprintf("cannot read %s: over %u entries", path,
						   BUNDLE_MAX_ENTRIES));
		xgrow((void **)&b->v, &cap_v, b->n + 1, sizeof(*b->v));
		b->v[b->n] = (struct bundle_entry){
			.name = xstrdup(name), .data = b->buf + off, .len = (size_t)size};
		strmap_put(&b->by_name, b->v[b->n].name, b->n);
		b->n++;
		off += (size_t)((size + BLOCK - 1) / BLOCK * BLOCK);
	}
	return true;
}

const struct bundle_entry *bundle_find(const struct bundle *b, const char *name)
{
	size_t i = strmap_get(&b->by_name, name);
	return i == STRMAP_NONE ? NULL : &b->v[i];
}

void bundle_release(struct bundle *b)
{
	strmap_release(&b->by_name);
	for (size_t i = 0; i < b->n; i++)
		free(b->v[i].name);
	free(b->v);
	free(b->buf);
	memset(b, 0, sizeof(*b));
}
