/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `check_interconnect env PATH...`: the only part of the env verb that
 * touches the file system is manifest_load_path() (and path_error() below,
 * which says why a path could not be read); the rest is pure.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/xalloc.h"
#include "env/env_analyze.h"
#include "env/env_desc.h"

/* Why a path could not be read, in strerror words. */
static const char *path_error(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return strerror(errno);
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		if (!d)
			return strerror(errno);
		closedir(d);
		return NULL;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return strerror(errno);
	close(fd);
	return NULL;
}

/* Drop the diags one failed load added: the caller reports that path
 * itself, once, as a failing env.input. */
static void drop_diags(struct manifest_set *ms, size_t from)
{
	while (ms->n_diags > from) {
		struct diag *g = &ms->diags[--ms->n_diags];
		free(g->file);
		free(g->message);
	}
}

int cmd_env(struct verb_ctx *c, struct ci_report *r)
{
	struct manifest_set ms;
	manifest_set_init(&ms);
	ms.max_files = c->max_files;
	int readable = 0;
	for (int i = 0; i < c->n_args; i++) {
		const char *path = c->args[i];
		size_t before = ms.n_diags;
		if (manifest_load_path(&ms, path)) {
			readable++;
			continue;
		}
		const char *why = path_error(path);
		char *msg = why ? xstrdup(why)
				: xstrdup(ms.n_diags > before && ms.diags[before].message
						  ? ms.diags[before].message : "unreadable");
		drop_diags(&ms, before);
		cli_error("env: cannot read '%s': %s", path, msg);
		struct ci_check *k = report_check_as(r, ENV_CHECK(INPUT), CI_FAIL, true, CI_LAYER_ENV,
						     path, "cannot read '%s': %s", path, msg);
		check_set_fix(k, "check the path: env takes recipe folders and manifest files");
		free(msg);
	}
	/* Nothing readable: a usage error, no report. */
	int rc = CI_EXIT_USAGE;
	if (readable) {
		env_analyze(r, &ms, r->target);
		rc = VERB_RENDER;
	}
	manifest_set_release(&ms);
	return rc;
}
