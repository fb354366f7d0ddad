/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Debug/bench driver: load each path and print the model (or, with -q, only
 * counts).  Used to eyeball the reader on real recipes and to time it.
 */
#include "manifest/deploy_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const role_names[] = {"unknown", "frontend", "worker",
					 "prefill", "decode",   "other"};
static const char *const origin_names[] = {"deployment", "service", "container", "inline",
					   "configmap"};

static void dump_kv(const char *what, const struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		printf("      %s %s=%s (line %d)\n", what, l->v[i].key, l->v[i].value,
		       l->v[i].loc.line);
}

static void dump(const struct manifest_set *ms)
{
	for (size_t i = 0; i < ms->n_deps; i++) {
		const struct deployment *d = &ms->deps[i];
		printf("%s:%d: %s %s (%s) framework=%s cd=%d\n", d->loc.file, d->loc.line, d->kind,
		       d->name, d->api_version ? d->api_version : "-",
		       d->framework ? d->framework : "-", d->has_compute_domain);
		for (size_t j = 0; j < d->n_svcs; j++) {
			const struct service *s = &d->svcs[j];
			printf("  svc %s role=%s (%s) replicas=%ld nodes=%ld gpus=%ld image=%s\n",
			       s->name, role_names[s->role], s->role_source, s->replicas,
			       s->node_count, s->gpus, s->image ? s->image : "-");
			printf("      privileged=%d hostIPC=%d hostNetwork=%d shm=%s anti=%d\n",
			       s->privileged, s->host_ipc, s->host_network,
			       s->shm_size ? s->shm_size : "-", s->anti_affinity);
			if (s->command_line)
				printf("      cmd(line %d): %.120s\n", s->command_loc.line,
				       s->command_line);
			static const char *const kinds[] = {"main", "extra", "sidecar", "init"};
			for (size_t k = 0; k < s->n_ctrs; k++)
				printf("      container %s (%s)%s env=%zu\n",
				       s->ctrs[k].name ? s->ctrs[k].name : "(unnamed)",
				       kinds[s->ctrs[k].kind], k == s->engine_ctr ? " engine" : "",
				       s->ctrs[k].env.n);
			for (size_t k = 0; k < s->env.n; k++) {
				const struct env_var *e = &s->env.v[k];
				printf("      env %s=%s%s [%s line %d]\n", e->name,
				       e->value ? e->value : "(null)",
				       e->value_from ? e->value_from : "", origin_names[e->origin],
				       e->loc.line);
			}
			dump_kv("envFrom", &s->env_from);
			dump_kv("res", &s->resources);
			dump_kv("cap", &s->cap_add);
			dump_kv("hostPath", &s->host_paths);
			dump_kv("claim", &s->resource_claims);
		}
	}
	for (size_t i = 0; i < ms->n_cms; i++)
		printf("configmap %s (%zu bytes)\n", ms->cms[i].name, strlen(ms->cms[i].text));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* -b N PATH...: load the paths N times in-process, print the median. */
static int bench(int n, int argc, char **argv)
{
	double *t = calloc((size_t)n, sizeof(*t));
	for (int k = 0; k < n; k++) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		struct manifest_set ms;
		manifest_set_init(&ms);
		for (int i = 0; i < argc; i++)
			manifest_load_path(&ms, argv[i]);
		manifest_set_release(&ms);
		clock_gettime(CLOCK_MONOTONIC, &b);
		t[k] = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	printf("median %.3f ms, min %.3f ms over %d runs\n", t[n / 2], t[0], n);
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 3 && strcmp(argv[1], "-b") == 0)
		return bench(atoi(argv[2]) > 0 ? atoi(argv[2]) : 1, argc - 3, argv + 3);
	int quiet = argc > 1 && strcmp(argv[1], "-q") == 0;
	struct manifest_set ms;
	manifest_set_init(&ms);
	int rc = 0;
	for (int i = 1 + quiet; i < argc; i++)
		if (!manifest_load_path(&ms, argv[i]))
			rc = 1;
	size_t svcs = 0;
	for (size_t i = 0; i < ms.n_deps; i++)
		svcs += ms.deps[i].n_svcs;
	if (!quiet)
		dump(&ms);
	for (size_t i = 0; i < ms.n_diags; i++)
		printf("diag %d %s:%d:%d: %s\n", ms.diags[i].severity,
		       ms.diags[i].file ? ms.diags[i].file : "-", ms.diags[i].line, ms.diags[i].col,
		       ms.diags[i].message);
	printf("files=%zu deployments=%zu services=%zu configmaps=%zu computedomains=%zu diags=%zu\n",
	       ms.n_files, ms.n_deps, svcs, ms.n_cms, ms.n_compute_domains, ms.n_diags);
	manifest_set_release(&ms);
	return rc;
}
