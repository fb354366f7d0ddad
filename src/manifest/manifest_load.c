/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The manifest reader's only I/O: find the YAML files under a path and hand
 * their bytes to manifest_parse_bytes().  Every problem is a diag on that
 * file and the walk goes on, so one bad file never hides another's findings.
 */
#include "manifest/manifest_internal.h"

#include "core/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DIR_DEPTH 32
/* Directory entries looked at, in all: ten per file allowed, at least 200000. */
#define MIN_ENTRIES   200000u

struct visited {
	dev_t dev;
	ino_t ino;
	bool used;
};

struct walk {
	struct manifest_set *ms;
	struct visited *seen; /* directories entered, for symlink loops: a hash set */
	size_t n_seen, cap_seen;
	size_t n_files, max_files;
	size_t n_entries, max_entries;
	bool too_many, too_big;
	size_t yaml_found;
};

static void diag_errno(struct manifest_set *ms, enum diag_severity sev, const char *path,
		       const char *what, int err)
{
	ms_diag(ms, sev, path, 0, 0, xasprintf("%s: %s", what, strerror(err)));
}

/* What a path that is not a regular file is, for the one line that says it
 * was skipped. */
static const char *file_kind(mode_t m)
{
	return S_ISFIFO(m)   ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISDIR(m)  ? "a folder"
			     : "not a regular file";
}

/* Read one regular file (O_NONBLOCK so a FIFO named *.yaml cannot hang us;
 * the type is checked with fstat on that same fd) and parse it.  Files
 * over the cap are not read at all. */
static bool load_file(struct manifest_set *ms, const char *path, bool explicit_path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		diag_errno(ms, DIAG_ERROR, path, "cannot read file", errno);
		return false;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (explicit_path)
			ms_diag(ms, DIAG_ERROR, path, 0, 0,
				xasprintf("%s, not a regular file: skipped",
					  file_kind(st.st_mode)));
		close(fd);
		return false;
	}
	if (st.st_size > (off_t)MANIFEST_MAX_FILE_BYTES) {
		ms_add_file(ms, path);
		ms_diag(ms, DIAG_ERROR, path, 0, 0,
			xasprintf("file too large (%lld bytes, limit %u MiB), skipped",
				  (long long)st.st_size, MANIFEST_MAX_FILE_BYTES >> 20));
		close(fd);
		return true;
	}
	/* Read up to cap + 1 whatever fstat said: the file may be growing. */
	size_t cap = (size_t)st.st_size + 1, len = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		if (len == cap) {
			if (cap > MANIFEST_MAX_FILE_BYTES)
				break;
			cap = cap * 2 > MANIFEST_MAX_FILE_BYTES + 1 ? MANIFEST_MAX_FILE_BYTES + 1
								    : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			diag_errno(ms, DIAG_ERROR, path, "cannot read file", errno);
			free(buf);
			close(fd);
			return false;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	manifest_parse_bytes(ms, path, buf, len);
	free(buf);
	return true;
}

static bool has_yaml_ext(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(name + n - 4, ".yml") == 0);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t visited_slot(const struct visited *v, size_t cap, dev_t dev, ino_t ino)
{
	uint64_t h = ((uint64_t)ino * 0x9e3779b97f4a7c15u) ^ ((uint64_t)dev * 0xc2b2ae3d27d4eb4fu);
	size_t i = (size_t)(h >> 17) & (cap - 1);
	while (v[i].used && !(v[i].dev == dev && v[i].ino == ino))
		i = (i + 1) & (cap - 1);
	return i;
}

/* The folders entered, as a hash set of (dev, inode): a list scanned per
 * folder made a big tree's walk quadratic. */
static bool seen_dir(struct walk *w, const struct stat *st)
{
	if (w->cap_seen && w->seen[visited_slot(w->seen, w->cap_seen, st->st_dev, st->st_ino)].used)
		return true;
	if ((w->n_seen + 1) * 2 > w->cap_seen) {
		size_t cap = w->cap_seen ? w->cap_seen * 2 : 64;
		struct visited *v = xcalloc(cap, sizeof(*v));
		for (size_t i = 0; i < w->cap_seen; i++)
			if (w->seen[i].used)
				v[visited_slot(v, cap, w->seen[i].dev, w->seen[i].ino)] =
					w->seen[i];
		free(w->seen);
		w->seen = v;
		w->cap_seen = cap;
	}
	struct visited *v = &w->seen[visited_slot(w->seen, w->cap_seen, st->st_dev, st->st_ino)];
	v->dev = st->st_dev;
	v->ino = st->st_ino;
	v->used = true;
	w->n_seen++;
	return false;
}

static void walk_dir(struct walk *w, const char *dir, const struct stat *dst, int depth)
{
	struct manifest_set *ms = w->ms;
	if (seen_dir(w, dst)) {
		ms_diag(ms, DIAG_WARN, dir, 0, 0,
			xstrdup("folder already visited (a bind mount or second link to it), skipped"));
		return;
	}
	if (depth > MAX_DIR_DEPTH) {
		ms_diag(ms, DIAG_WARN, dir, 0, 0,
			xstrdup("folders nested deeper than 32 levels, skipped"));
		return;
	}
	DIR *d = opendir(dir);
	if (!d) {
		diag_errno(ms, DIAG_ERROR, dir, "cannot read folder", errno);
		return;
	}
	/* Sorted, so output and diags are the same on every filesystem. */
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		/* Dot-entries are tooling state (.git) or generator input
		 * (.kustomize-matrix.yaml), never an applied manifest. */
		if (de->d_name[0] == '.')
			continue;
		*XPUSH(names, n, cap) = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);

	size_t dlen = strlen(dir);
	bool slash = dlen && dir[dlen - 1] == '/';
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s%s%s", dir, slash ? "" : "/", names[i]);
		struct stat st, lst;
		bool link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
		if (++w->n_entries > w->max_entries) {
			if (!w->too_big)
				ms_diag(ms, DIAG_WARN, path, 0, 0,
					xasprintf("more than %zu folder entries; the rest skipped "
						  "(raise --max-files)",
						  w->max_entries));
			w->too_big = true;
		} else if (stat(path, &st) != 0) {
			/* A dangling link to a .yaml is worth saying; to anything else not. */
			if (has_yaml_ext(names[i]))
				diag_errno(ms, DIAG_WARN, path, "cannot read file", errno);
		} else if (S_ISDIR(st.st_mode) && link) {
			/* Like find(1): a link to a folder may lead anywhere (out of
			 * the recipe, /proc/N/root), so it is named, not entered.
			 * Linked files are read. */
			ms_diag(ms, DIAG_NOTE, path, 0, 0,
				xstrdup("symbolic link to a folder, not followed (name it on the command line to read it)"));
		} else if (S_ISDIR(st.st_mode)) {
			walk_dir(w, path, &st, depth + 1);
		} else if (!S_ISREG(st.st_mode) && has_yaml_ext(names[i])) {
			/* Said, and never opened: a FIFO would block, a device
			 * open may do something. */
			ms_diag(ms, DIAG_WARN, path, 0, 0,
				xasprintf("%s, not a regular file: skipped",
					  file_kind(st.st_mode)));
		} else if (S_ISREG(st.st_mode) && has_yaml_ext(names[i])) {
			w->yaml_found++;
			if (w->n_files >= w->max_files) {
				if (!w->too_many)
					ms_diag(ms, DIAG_WARN, path, 0, 0,
						xasprintf(
							"more than %zu YAML files; the rest skipped "
							"(raise --max-files)",
							w->max_files));
				w->too_many = true;
			} else {
				w->n_files++;
				load_file(ms, path, false);
			}
		}
		free(path);
		free(names[i]);
	}
	free(names);
}

bool manifest_load_fd(struct manifest_set *ms, const char *name, int fd)
{
	size_t first_dep = ms->n_deps;
	size_t cap = 64u << 10, len = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		if (len == cap) {
			if (cap > MANIFEST_MAX_FILE_BYTES)
				break;
			cap = cap * 2 > MANIFEST_MAX_FILE_BYTES + 1 ? MANIFEST_MAX_FILE_BYTES + 1
								    : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			diag_errno(ms, DIAG_ERROR, name, "cannot read", errno);
			free(buf);
			return false;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	/* Over the cap: parse_bytes refuses it with the same message as a file. */
	manifest_parse_bytes(ms, name, buf, len);
	free(buf);
	manifest_finish(ms, first_dep);
	return true;
}

/* Every src_loc of the deployments from first_dep on. */
static void locs_of_env(struct env_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		l->v[i].loc.line = 0;
}

static void locs_of_kv(struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		l->v[i].loc.line = 0;
}

void manifest_drop_lines(struct manifest_set *ms, size_t first_dep)
{
	for (size_t i = first_dep; i < ms->n_deps; i++) {
		struct deployment *d = &ms->deps[i];
		d->loc.line = 0;
		locs_of_env(&d->env);
		for (size_t j = 0; j < d->n_svcs; j++) {
			struct service *s = &d->svcs[j];
			struct src_loc *locs[] = {&s->loc,
						  &s->command_loc,
						  &s->privileged_loc,
						  &s->role_loc,
						  &s->replicas_loc,
						  &s->node_count_loc,
						  &s->gpus_loc,
						  &s->image_loc,
						  &s->host_ipc_loc,
						  &s->host_network_loc,
						  &s->shm_loc,
						  &s->anti_affinity_loc};
			for (size_t k = 0; k < sizeof(locs) / sizeof(locs[0]); k++)
				locs[k]->line = 0;
			locs_of_env(&s->env);
			locs_of_kv(&s->env_from);
			locs_of_kv(&s->resources);
			locs_of_kv(&s->cap_add);
			locs_of_kv(&s->host_paths);
			locs_of_kv(&s->resource_claims);
			locs_of_kv(&s->labels);
			for (size_t k = 0; k < s->n_ctrs; k++) {
				struct container *c = &s->ctrs[k];
				c->loc.line = c->command_loc.line = c->privileged_loc.line = 0;
				locs_of_env(&c->env);
				locs_of_kv(&c->env_from);
				locs_of_kv(&c->resources);
				locs_of_kv(&c->cap_add);
			}
		}
	}
	for (size_t i = 0; i < ms->n_cms; i++) {
		ms->cms[i].loc.line = 0;
		locs_of_kv(&ms->cms[i].data);
	}
	for (size_t i = 0; i < ms->n_claims; i++)
		ms->claims[i].loc.line = 0;
}

bool manifest_load_path(struct manifest_set *ms, const char *path)
{
	struct stat st;
	if (!path || stat(path, &st) != 0) {
		diag_errno(ms, DIAG_ERROR, path ? path : "", "cannot open", path ? errno : EINVAL);
		return false;
	}
	size_t first_dep = ms->n_deps;
	if (!S_ISDIR(st.st_mode)) {
		if (!load_file(ms, path, true))
			return false;
		manifest_finish(ms, first_dep);
		return true;
	}
	if (access(path, R_OK | X_OK) != 0) {
		diag_errno(ms, DIAG_ERROR, path, "cannot read folder", errno);
		return false;
	}
	struct walk w = {.ms = ms, .max_files = ms->max_files ? ms->max_files : MANIFEST_MAX_FILES};
	w.max_entries = w.max_files > MIN_ENTRIES / 10 ? w.max_files * 10 : MIN_ENTRIES;
	walk_dir(&w, path, &st, 0);
	free(w.seen);
	if (w.yaml_found == 0)
		ms_diag(ms, DIAG_NOTE, path, 0, 0, xstrdup("no YAML files found (*.yaml, *.yml)"));
	manifest_finish(ms, first_dep);
	return true;
}
