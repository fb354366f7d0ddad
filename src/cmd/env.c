/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `check_interconnect env PATH...`: the only parts of the env verb that
 * touch the system are manifest_load_path() (and path_error() below, which
 * says why a path could not be read) and kube_kustomize(), which renders a
 * kustomize overlay of the input; the rest is pure.
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
#include "probe/kube_dgd.h"
#include "probe/kube_kustomize.h"
#include "probe/run_command.h"

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
	/* Never a second open of anything but a regular file: a FIFO would
	 * block here (the loader's own diag says what the path is). */
	if (!S_ISREG(st.st_mode))
		return NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
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

/* `env --deployment NAME -n NS`: the live object, read with one `kubectl
 * get`, analysed as a manifest whose location is the object's name. */
static int env_live(struct verb_ctx *c, struct ci_report *r)
{
	if (c->n_args)
		return cli_usage_error("env",
				       "--deployment reads the live object: give no recipe path");
	const struct probe_target *t = &c->fleet.probe;
	char *out = NULL, *err = NULL;
	size_t len = 0;
	double deadline = run_now() + probe_target_timeout(t);
	enum probe_error e = kube_get_dgd(t, c->fleet.deployment, deadline, &out, &len, &err);
	if (e == PROBE_BAD_TARGET) {
		int rc = cli_usage_error("env", "%s", err ? err : "invalid name");
		free(err);
		return rc;
	}
	char *where =
		xasprintf("dynamographdeployment/%s -n %s", c->fleet.deployment, t->namespace_);
	free(r->target);
	r->target = xstrdup(where);
	struct manifest_set ms;
	manifest_set_init(&ms);
	if (e != PROBE_OK) {
		cli_error("env: %s", err ? err : "kubectl get failed");
		struct ci_check *k =
			report_check_as(r, ENV_CHECK(INPUT), CI_SKIPPED, true, CI_LAYER_ENV, where,
					"cannot read the live DynamoGraphDeployment: %s",
					err ? err : "kubectl get failed");
		check_set_fix(k,
			      "check the name, the namespace and kubectl's access (the call is "
			      "`kubectl get " KUBE_DGD_RESOURCE " %s -n %s -o json`), or lint the "
			      "recipe file instead",
			      c->fleet.deployment, t->namespace_);
	} else {
		manifest_parse_bytes(&ms, where, out, len);
		manifest_finish(&ms, 0);
		manifest_drop_lines(&ms, 0);
		env_analyze_release(r, &ms, where);
	}
	manifest_set_release(&ms);
	free(where);
	free(out);
	free(err);
	return VERB_RENDER;
}

/* At most this many overlays are rendered per run, each within --timeout. */
#define ENV_MAX_OVERLAYS 16

void env_render_overlays(const struct probe_target *t, struct manifest_set *ms)
{
	const char *dirs[ENV_MAX_OVERLAYS];
	size_t n = manifest_kustomize_overlays(ms, dirs, ENV_MAX_OVERLAYS);
	char *missing = NULL;
	for (size_t i = 0; i < n; i++) {
		char *dir = xstrdup(dirs[i]); /* ms grows below */
		if (missing) {
			manifest_kustomize_note(ms, dir, missing);
			free(dir);
			continue;
		}
		char *out = NULL, *err = NULL;
		size_t len = 0;
		double deadline = run_now() + probe_target_timeout(t);
		enum probe_error e = kube_kustomize(t->kubectl, dir, deadline, &out, &len, &err);
		if (e == PROBE_OK) {
			char *where = xasprintf("%s (kubectl kustomize)", dir);
			size_t first = ms->n_deps;
			manifest_parse_bytes(ms, where, out, len);
			manifest_finish(ms, first);
			manifest_kustomize_note(ms, dir, "");
			free(where);
		} else {
			manifest_kustomize_note(ms, dir, err ? err : "kubectl kustomize failed");
			if (e == PROBE_KUBECTL_MISSING) { /* said once for every overlay */
				missing = err;
				err = NULL;
			}
		}
		free(out);
		free(err);
		free(dir);
	}
	free(missing);
}

int cmd_env(struct verb_ctx *c, struct ci_report *r)
{
	if (c->target == VT_FLEET)
		return env_live(c, r);
	if (c->n_args < 1)
		return cli_usage_error("env",
				       "needs at least one recipe folder or manifest "
				       "(or - for standard input, or --deployment NAME -n NS)");
	struct manifest_set ms;
	manifest_set_init(&ms);
	ms.max_files = c->max_files;
	int readable = 0;
	for (int i = 0; i < c->n_args; i++) {
		const char *path = c->args[i];
		size_t before = ms.n_diags;
		/* `-`: one YAML stream on standard input (kubectl get -o yaml | env -) */
		if (!strcmp(path, "-") ? manifest_load_fd(&ms, "<stdin>", STDIN_FILENO)
				       : manifest_load_path(&ms, path)) {
			readable++;
			continue;
		}
		const char *why = strcmp(path, "-") ? path_error(path) : NULL;
		char *msg = why ? xstrdup(why)
				: xstrdup(ms.n_diags > before && ms.diags[before].message
						  ? ms.diags[before].message
						  : "unreadable");
		drop_diags(&ms, before);
		cli_error("env: cannot read '%s': %s", path, msg);
		struct ci_check *k =
			report_check_as(r, ENV_CHECK(INPUT), CI_FAIL, true, CI_LAYER_ENV, path,
					"cannot read '%s': %s", path, msg);
		check_set_fix(k, "check the path: env takes recipe folders and manifest files");
		if (strcmp(path, "-"))
			check_set_location(k, path, 0);
		free(msg);
	}
	/* Nothing readable: a usage error, no report. */
	int rc = CI_EXIT_USAGE;
	if (readable) {
		env_render_overlays(&c->probe, &ms);
		r->per_subject = true;
		env_analyze_release(r, &ms, r->target);
		rc = VERB_RENDER;
	}
	manifest_set_release(&ms);
	return rc;
}
