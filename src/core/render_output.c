/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --output FILE.  A regular file (or a new name) is written atomically: a
 * temporary file in FILE's own folder (rename(2) is atomic only within one
 * file system), fsync'd, then renamed over FILE with FILE's mode and owner.
 * Anything else (a character device, a FIFO, a symlink to one) is never
 * replaced: the report is written through it as a shell's `>` would.  A
 * socket, a block device or a FIFO nobody reads are refused (exit 74).
 *
 * The verb runner opens the output before any probe runs, so that a report
 * is never lost after a long probe; the temporary file is removed on every
 * exit path, signals included (render_output_unlink_pending(), called by
 * the signal handler).  Its name is short and fixed in length, so that any
 * name the folder accepts works (a 255-byte one too), and starts with a
 * dot so that a collector globbing *.prom never reads it half-written.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/render.h"
#include "core/xalloc.h"

/* How long a FIFO's reader is waited for: 40 x 50 ms. */
#define FIFO_WAIT_TRIES 40
#define FIFO_WAIT_NS    50000000L

/* The one temporary file alive (one --output per run), for the signal
 * handler: a fixed buffer, so that reading it there is async-signal-safe. */
static char pending_tmp[PATH_MAX + 32];
static volatile sig_atomic_t pending_set;

void render_output_unlink_pending(void)
{
	if (pending_set)
		unlink(pending_tmp);
}

static void pending_clear(void)
{
	pending_set = 0;
}

/* The one-line error every verb prints (core links without main.c's
 * cli_error). */
static void output_error(const char *path, const char *why)
{
	fprintf(stderr, "check_interconnect: cannot write '%s': %s\n", path, why);
}

/* Not a regular file: write through it (O_NONBLOCK first so that a FIFO
 * without a reader is an error, not a hang), never create or replace. */
static int open_through(struct render_output *ro, const char *path, const struct stat *st)
{
	if (S_ISSOCK(st->st_mode)) {
		output_error(path, "a socket, not a file");
		return -1;
	}
	if (S_ISBLK(st->st_mode)) {
		output_error(path, "a block device, not a file (it is never written)");
		return -1;
	}
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	/* A FIFO's reader may be starting beside us (`cat fifo & tool
	 * --output fifo`): wait for it a little, never for ever. */
	for (int i = 0; fd < 0 && errno == ENXIO && S_ISFIFO(st->st_mode) && i < FIFO_WAIT_TRIES;
	     i++) {
		struct timespec ts = {0, FIFO_WAIT_NS};
		nanosleep(&ts, NULL);
		fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	}
	if (fd < 0) {
		output_error(path, errno == ENXIO && S_ISFIFO(st->st_mode)
					   ? "a FIFO that nobody reads"
					   : strerror(errno));
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	ro->f = fdopen(fd, "w");
	if (!ro->f) {
		output_error(path, strerror(errno));
		close(fd);
		return -1;
	}
	ro->fd = fd;
	ro->through = true;
	return 0;
}

int render_output_open(struct render_output *ro, const char *path)
{
	memset(ro, 0, sizeof(*ro));
	ro->fd = -1;
	if (!path || !strcmp(path, "-")) {
		ro->f = stdout;
		return 0;
	}
	ro->path = path;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	struct stat st;
	bool exists = stat(path, &st) == 0;
	if (!*base || (exists && S_ISDIR(st.st_mode))) {
		output_error(path, "names a folder, not a file");
		return -1;
	}
	if (exists && !S_ISREG(st.st_mode))
		return open_through(ro, path, &st);

	/* A symlink to a regular file: the file it names is replaced, the
	 * link stays. */
	struct stat lst;
	if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		ro->real = realpath(path, NULL);
		if (!ro->real) {
			output_error(path, strerror(errno));
			return -1;
		}
	}
	const char *dest = ro->real ? ro->real : path;
	slash = strrchr(dest, '/');
	ro->tmp = xasprintf("%.*s.check_interconnect.XXXXXX", slash ? (int)(slash - dest + 1) : 0,
			    dest);
	if (strlen(ro->tmp) >= sizeof(pending_tmp)) {
		output_error(path, strerror(ENAMETOOLONG));
		goto fail;
	}
	ro->fd = mkostemp(ro->tmp, O_CLOEXEC);
	if (ro->fd < 0) {
		output_error(path, strerror(errno));
		goto fail;
	}
	pending_set = 0;
	memcpy(pending_tmp, ro->tmp, strlen(ro->tmp) + 1);
	pending_set = 1;
	if (exists) {
		/* The file keeps its mode and, where we may, its owner (the
		 * owner first: chown clears the set-id bits). */
		if (fchown(ro->fd, st.st_uid, st.st_gid) != 0) {
			/* not root: the file becomes ours, as any rewrite would */
		}
		if (fchmod(ro->fd, st.st_mode & 07777) != 0) {
			/* not fatal: the report is still right */
		}
	} else {
		/* mkstemp makes 0600; a report is for other readers too (the
		 * collector, the CI uploader): what a plain creat() under the
		 * umask would give. */
		mode_t um = umask(0);
		umask(um);
		if (fchmod(ro->fd, 0666 & ~um) != 0) {
			/* not fatal: the report is still right, only less readable */
		}
	}
	ro->f = fdopen(ro->fd, "w");
	if (!ro->f) {
		output_error(path, strerror(errno));
		close(ro->fd);
		unlink(ro->tmp);
		pending_clear();
		goto fail;
	}
	return 0;
fail:
	free(ro->tmp);
	ro->tmp = NULL;
	free(ro->real);
	ro->real = NULL;
	ro->fd = -1;
	return -1;
}

static void output_release(struct render_output *ro)
{
	free(ro->tmp);
	ro->tmp = NULL;
	free(ro->real);
	ro->real = NULL;
	ro->f = NULL;
	ro->fd = -1;
	ro->path = NULL;
}

int render_output_commit(struct render_output *ro)
{
	if (!ro->path)
		return 0; /* the verb runner flushes stdout and words its error */
	int err = 0;
	errno = 0;
	if (fflush(ro->f) != 0 || ferror(ro->f))
		err = errno ? errno : EIO;
	if (!err && !ro->through && fsync(fileno(ro->f)) != 0 && errno != EINVAL)
		err = errno;
	if (fclose(ro->f) != 0 && !err)
		err = errno ? errno : EIO;
	if (!ro->through) {
		if (!err && rename(ro->tmp, ro->real ? ro->real : ro->path) != 0)
			err = errno;
		if (err)
			unlink(ro->tmp);
		pending_clear();
	}
	if (err)
		output_error(ro->path, strerror(err));
	output_release(ro);
	return err ? -1 : 0;
}

void render_output_abort(struct render_output *ro)
{
	if (!ro->path)
		return;
	if (ro->f)
		fclose(ro->f);
	if (!ro->through && ro->tmp) {
		unlink(ro->tmp);
		pending_clear();
	}
	output_release(ro);
}
