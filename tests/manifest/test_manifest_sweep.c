/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sweep: every YAML file of the official recipe tree through the reader,
 * one file at a time (so a failure names its file).  No crash, no diag on
 * a real recipe, and every deploy*.yaml yields a deployment with services.
 * Exit 77 (meson: skipped) when ../shared is not there.
 */
#include "manifest/deploy_model.h"

#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define RECIPES "../shared/fixtures/recipes"

static size_t files, deploys, deps, svcs, failures;

static int visit(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	const char *base = path + f->base;
	if (flag != FTW_F || base[0] == '.')
		return 0;
	size_t n = strlen(base);
	if (!((n > 5 && strcmp(base + n - 5, ".yaml") == 0) ||
	      (n > 4 && strcmp(base + n - 4, ".yml") == 0)))
		return 0;
	struct manifest_set ms;
	manifest_set_init(&ms);
	files++;
	if (!manifest_load_path(&ms, path)) {
		printf("FAIL %s: not loaded\n", path);
		failures++;
	}
	for (size_t i = 0; i < ms.n_diags; i++) {
		printf("FAIL %s:%d:%d: %s\n", path, ms.diags[i].line, ms.diags[i].col,
		       ms.diags[i].message);
		failures++;
	}
	size_t with_svcs = 0;
	for (size_t i = 0; i < ms.n_deps; i++) {
		with_svcs += ms.deps[i].n_svcs > 0;
		svcs += ms.deps[i].n_svcs;
	}
	deps += ms.n_deps;
	if (strncmp(base, "deploy", 6) == 0) {
		deploys++;
		if (with_svcs == 0) {
			printf("FAIL %s: no deployment with services\n", path);
			failures++;
		}
	}
	manifest_set_release(&ms);
	return 0;
}

int main(void)
{
	struct stat st;
	if (stat(RECIPES, &st) != 0) {
		printf("skip: %s not present\n", RECIPES);
		return 77;
	}
	if (nftw(RECIPES, visit, 32, FTW_PHYS) != 0) {
		printf("FAIL: walk of %s\n", RECIPES);
		return 1;
	}
	printf("sweep: %zu YAML files, %zu deploy*.yaml, %zu deployments, %zu services, %zu failures\n",
	       files, deploys, deps, svcs, failures);
	return failures || deploys == 0 ? 1 : 0;
}
