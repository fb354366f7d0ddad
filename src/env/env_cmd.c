/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `check_interconnect env PATH...`: the only part of the env verb that
 * touches the file system is manifest_load_path(); the rest is pure.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/render.h"
#include "core/xalloc.h"
#include "env_analyze.h"

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

int cmd_env(const struct cli_opts *o)
{
	if (cli_allow_only("env", o, OPT_MAX_FILES))
		return CI_EXIT_USAGE;
	if (o->n_args < 1)
		return cli_usage_error("env", "needs at least one recipe folder or manifest");

	size_t tl = 1;
	for (int i = 0; i < o->n_args; i++)
		tl += strlen(o->args[i]) + 1;
	char *target = xcalloc(tl, 1);
	for (int i = 0; i < o->n_args; i++) {
		if (i)
			strcat(target, " ");
		strcat(target, o->args[i]);
	}

	struct manifest_set ms;
	manifest_set_init(&ms);
	ms.max_files = o->max_files;
	struct ci_report r;
	report_init(&r, "env", target);
	int readable = 0;
	for (int i = 0; i < o->n_args; i++) {
		const char *path = o->args[i];
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
		struct ci_check *c = report_add(&r, "env.input", CI_FAIL, true, CI_LAYER_ENV, path,
						"cannot read '%s': %s", path, msg);
		check_set_fix(c, "check the path: env takes recipe folders and manifest files");
		free(msg);
	}
	int rc;
	if (!readable) {
		rc = CI_EXIT_USAGE;
	} else {
		env_analyze(&r, &ms, target);
		rc = report_finish(&r, o);
	}
	report_release(&r);
	manifest_set_release(&ms);
	free(target);
	return rc;
}
