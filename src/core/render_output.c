/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --output FILE, written atomically: a temporary file in FILE's own folder
 * (rename(2) is atomic only within one file system), fsync'd, then renamed
 * over FILE.  The temporary name starts with a dot so that a collector
 * globbing *.prom never reads it half-written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/render.h"
#include "core/xalloc.h"

/* The one-line error every verb prints (core links without main.c's
 * cli_error). */
static void output_error(const char *path, const char *why)
{
	fprintf(stderr, "check_interconnect: cannot write '%s': %s\n", path, why);
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
	if (!*base) {
		output_error(path, "names a folder, not a file");
		return -1;
	}
	ro->tmp = xasprintf("%.*s.%s.XXXXXX", slash ? (int)(slash - path + 1) : 0, path, base);
	ro->fd = mkostemp(ro->tmp, O_CLOEXEC);
	if (ro->fd < 0) {
		output_error(path, strerror(errno));
		free(ro->tmp);
		ro->tmp = NULL;
		return -1;
	}
	/* mkstemp makes 0600; a report is for other readers too (the
	 * collector, the CI uploader): what a plain creat() under the umask
	 * would give. */
	mode_t um = umask(0);
	umask(um);
	if (fchmod(ro->fd, 0666 & ~um) != 0) {
		/* not fatal: the report is still right, only less readable */
	}
	ro->f = fdopen(ro->fd, "w");
	if (!ro->f) {
		output_error(path, strerror(errno));
		close(ro->fd);
		unlink(ro->tmp);
		free(ro->tmp);
		ro->tmp = NULL;
		return -1;
	}
	return 0;
}

int render_output_commit(struct render_output *ro)
{
	if (!ro->path)
		return 0; /* the verb runner flushes stdout and words its error */
	int err = 0;
	if (fflush(ro->f) != 0 || ferror(ro->f))
		err = errno ? errno : EIO;
	if (!err && fsync(fileno(ro->f)) != 0 && errno != EINVAL)
		err = errno;
	if (fclose(ro->f) != 0 && !err)
		err = errno ? errno : EIO;
	if (!err && rename(ro->tmp, ro->path) != 0)
		err = errno;
	if (err) {
		output_error(ro->path, strerror(err));
		unlink(ro->tmp);
	}
	free(ro->tmp);
	ro->tmp = NULL;
	ro->f = NULL;
	return err ? -1 : 0;
}
