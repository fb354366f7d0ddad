/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sweep: every official recipe folder (a folder holding a deploy*.yaml, or
 * any YAML with a DynamoGraphDeployment: 145 in the 2026-08-21 snapshot)
 * under the given root is analysed in-process; each must be classified (an
 * env.mode check, i.e. a mode decided) or, for kustomize components, named
 * as patches; nothing may crash or leak (run it under ASan/valgrind).
 * Exit 77 (skipped) when the root is absent.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/report.h"
#include "core/xalloc.h"
#include "env/env_analyze.h"

static int n_folders, n_bad, n_patches;

static bool is_yaml(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && !strcmp(name + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(name + n - 4, ".yml"));
}

static bool mentions_dgd(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[512];
	bool yes = false;
	while (!yes && fgets(line, sizeof(line), f))
		yes = strstr(line, "kind: DynamoGraphDeployment") != NULL;
	fclose(f);
	return yes;
}

static bool has_deploy(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	struct dirent *e;
	bool yes = false;
	while (!yes && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !is_yaml(e->d_name))
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		yes = !strncmp(e->d_name, "deploy", 6) || mentions_dgd(p);
		free(p);
	}
	closedir(d);
	return yes;
}

/* The env.deployment check that names kustomize patches, if any. */
static bool patches_named(const struct ci_report *r)
{
	for (size_t i = 0; i < r->n_checks; i++)
		if (!strcmp(r->checks[i].id, "env.deployment") &&
		    strstr(r->checks[i].detail, "kustomize patches"))
			return true;
	return false;
}

static void check_folder(const char *dir)
{
	struct manifest_set ms;
	manifest_set_init(&ms);
	struct ci_report r;
	report_init(&r, "env", dir);
	if (!manifest_load_path(&ms, dir)) {
		printf("FAIL %s: cannot load\n", dir);
		n_bad++;
	}
	env_analyze(&r, &ms, dir);
	size_t modes = 0;
	for (size_t i = 0; i < r.n_checks; i++)
		modes += !strcmp(r.checks[i].id, "env.mode");
	struct ci_verdict v;
	verdict_compute(&r, &v);
	if (!modes && patches_named(&r)) {
		printf("ok   %-70s kustomize patches, %s\n", dir, verdict_name(v.kind));
		n_patches++;
	} else if (!modes) {
		printf("FAIL %s: no deployment classified\n", dir);
		n_bad++;
	} else {
		printf("ok   %-70s %zu deployment(s), %s\n", dir, modes, verdict_name(v.kind));
	}
	verdict_release(&v);
	report_release(&r);
	manifest_set_release(&ms);
	n_folders++;
}

static void walk(const char *dir, int depth)
{
	if (depth > 12)
		return;
	if (has_deploy(dir))
		check_folder(dir);
	DIR *d = opendir(dir);
	if (!d)
		return;
	char **subs = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		if (!lstat(p, &st) && S_ISDIR(st.st_mode))
			*XPUSH(subs, n, cap) = p;
		else
			free(p);
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		walk(subs[i], depth + 1);
		free(subs[i]);
	}
	free(subs);
}

int main(int argc, char **argv)
{
	const char *root = argc > 1 ? argv[1] : "../shared/fixtures/recipes";
	struct stat st;
	if (stat(root, &st) || !S_ISDIR(st.st_mode)) {
		printf("skip: %s not found\n", root);
		return 77;
	}
	walk(root, 0);
	printf("%d folders (%d of them kustomize patches), %d failed\n", n_folders, n_patches,
	       n_bad);
	/* Fewer than 100 folders means the walk itself broke. */
	return n_bad || n_folders < 100 ? 1 : 0;
}
