/* SPDX-License-Identifier: Apache-2.0 */
/* manifest_load_path: folders, bad files, and the real recipe fixtures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "manifest/deploy_model.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIX "tests/fixtures/manifest/"

static struct manifest_set ms;
static char tmp[64];

static int rm_cb(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	chmod(p, 0700);
	return remove(p);
}

static int setup(void **state)
{
	(void)state;
	manifest_set_init(&ms);
	strcpy(tmp, "/tmp/ci-manifest-XXXXXX");
	assert_non_null(mkdtemp(tmp));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	manifest_set_release(&ms);
	/* children first; chmod back so unreadable dirs can go */
	char *cmd_dir = tmp;
	nftw(cmd_dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static void write_file(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mk(const char *rel)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static const char *pod(const char *name)
{
	static char buf[256];
	snprintf(buf, sizeof(buf),
		 "kind: Pod\nmetadata: {name: %s}\nspec: {containers: [{name: c}]}\n", name);
	return buf;
}

static const struct diag *find_diag(const char *needle)
{
	for (size_t i = 0; i < ms.n_diags; i++)
		if (strstr(ms.diags[i].message, needle))
			return &ms.diags[i];
	return NULL;
}

static void test_folder_walk_sorted_hidden_skipped(void **state)
{
	mk("b");
	mk("a");
	mk(".git");
	write_file("b/deploy.yaml", pod("b1"));
	write_file("a/z.yml", pod("a2"));
	write_file("a/deploy.yaml", pod("a1"));
	write_file(".git/x.yaml", pod("git"));
	write_file(".kustomize-matrix.yaml", pod("hidden"));
	write_file("README.md", "kind: Pod\n");
	write_file("top.yaml", pod("top"));
	assert_true(manifest_load_path(&ms, tmp));
	assert_int_equal(ms.n_diags, 0);
	assert_int_equal(ms.n_deps, 4);
	assert_string_equal(ms.deps[0].name, "a1");
	assert_string_equal(ms.deps[1].name, "a2");
	assert_string_equal(ms.deps[2].name, "b1");
	assert_string_equal(ms.deps[3].name, "top");
	assert_int_equal(ms.n_files, 4);
	assert_non_null(strstr(ms.deps[0].loc.file, "/a/deploy.yaml"));
}

static void test_missing_empty_and_no_yaml(void **state)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/nope", tmp);
	assert_false(manifest_load_path(&ms, path));
	assert_int_equal(ms.n_diags, 1);
	assert_int_equal(ms.diags[0].severity, DIAG_ERROR);
	assert_string_equal(ms.diags[0].message, "cannot open: No such file or directory");

	mk("empty");
	snprintf(path, sizeof(path), "%s/empty", tmp);
	assert_true(manifest_load_path(&ms, path));
	assert_int_equal(ms.n_diags, 2);
	assert_int_equal(ms.diags[1].severity, DIAG_NOTE);
	assert_string_equal(ms.diags[1].message, "no YAML files found (*.yaml, *.yml)");

	write_file("empty/notes.txt", "hello");
	assert_true(manifest_load_path(&ms, path));
	assert_int_equal(ms.n_diags, 3);
	assert_int_equal(ms.n_deps, 0);
}

static void test_symlink_loop(void **state)
{
	mk("r");
	mk("r/sub");
	write_file("r/sub/deploy.yaml", pod("once"));
	char target[128], link[128];
	snprintf(target, sizeof(target), "%s/r", tmp);
	snprintf(link, sizeof(link), "%s/r/sub/loop", tmp);
	assert_int_equal(symlink(target, link), 0);
	snprintf(link, sizeof(link), "%s/r/self", tmp);
	assert_int_equal(symlink(".", link), 0);
	snprintf(link, sizeof(link), "%s/r/dangling.yaml", tmp);
	assert_int_equal(symlink("/nonexistent/x.yaml", link), 0);
	/* A link to a folder outside the tree is not a way out of it. */
	mk("outside");
	write_file("outside/deploy.yaml", pod("escaped"));
	snprintf(target, sizeof(target), "%s/outside", tmp);
	snprintf(link, sizeof(link), "%s/r/out", tmp);
	assert_int_equal(symlink(target, link), 0);
	/* A linked file is read. */
	write_file("shared.yaml", pod("linked"));
	snprintf(target, sizeof(target), "%s/shared.yaml", tmp);
	snprintf(link, sizeof(link), "%s/r/linked.yaml", tmp);
	assert_int_equal(symlink(target, link), 0);
	snprintf(target, sizeof(target), "%s/r", tmp);
	assert_true(manifest_load_path(&ms, target));
	assert_int_equal(ms.n_deps, 2);
	assert_string_equal(ms.deps[0].name, "linked");
	assert_string_equal(ms.deps[1].name, "once");
	size_t notes = 0;
	for (size_t i = 0; i < ms.n_diags; i++)
		notes += ms.diags[i].severity == DIAG_NOTE &&
			 strstr(ms.diags[i].message, "symbolic link to a folder, not followed");
	assert_int_equal(notes, 3); /* loop, self, out */
	assert_non_null(find_diag("cannot read file: No such file or directory"));
}

static void test_unreadable_file_and_folder(void **state)
{
	if (geteuid() == 0)
		skip();
	write_file("a.yaml", pod("readable"));
	write_file("b.yaml", pod("secret"));
	mk("c");
	write_file("c/d.yaml", pod("hidden"));
	char p[128];
	snprintf(p, sizeof(p), "%s/b.yaml", tmp);
	assert_int_equal(chmod(p, 0), 0);
	snprintf(p, sizeof(p), "%s/c", tmp);
	assert_int_equal(chmod(p, 0), 0);
	assert_true(manifest_load_path(&ms, tmp));
	assert_int_equal(ms.n_deps, 1);
	assert_string_equal(ms.deps[0].name, "readable");
	assert_non_null(find_diag("cannot read file: Permission denied"));
	assert_non_null(find_diag("cannot read folder: Permission denied"));
	/* the path itself unreadable */
	snprintf(p, sizeof(p), "%s/b.yaml", tmp);
	assert_false(manifest_load_path(&ms, p));
}

static void test_huge_binary_invalid_files_do_not_hide_others(void **state)
{
	char p[128];
	snprintf(p, sizeof(p), "%s/0-huge.yaml", tmp);
	int fd = open(p, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 9 << 20), 0); /* sparse: cheap */
	close(fd);
	snprintf(p, sizeof(p), "%s/1-bin.yaml", tmp);
	FILE *f = fopen(p, "wb");
	fwrite("\x00\x01\x02kind", 1, 7, f);
	fclose(f);
	write_file("2-bad.yaml", "kind: Pod\nmetadata: {name: x\n");
	write_file("3-good.yaml", pod("good"));
	assert_true(manifest_load_path(&ms, tmp));
	assert_int_equal(ms.n_deps, 1);
	assert_string_equal(ms.deps[0].name, "good");
	assert_int_equal(ms.n_diags, 3);
	assert_string_equal(ms.diags[0].message,
			    "file too large (9437184 bytes, limit 8 MiB), skipped");
	assert_string_equal(ms.diags[1].message, "not a text/YAML file (binary data), skipped");
	assert_int_equal(ms.diags[2].line, 3);
	assert_non_null(strstr(ms.diags[2].file, "2-bad.yaml"));
	/* an explicit file with any name is parsed */
	write_file("manifest.txt", pod("txt"));
	snprintf(p, sizeof(p), "%s/manifest.txt", tmp);
	assert_true(manifest_load_path(&ms, p));
	assert_int_equal(ms.n_deps, 2);
}

static void test_configmap_across_files_same_folder(void **state)
{
	write_file("cm.yaml",
		   "kind: ConfigMap\nmetadata: {name: ucx}\ndata: {UCX_TLS: 'rc,cuda_copy'}\n");
	write_file("deploy.yaml", "kind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
				  "  - name: c\n    envFrom: [{configMapRef: {name: ucx}}]\n");
	assert_true(manifest_load_path(&ms, tmp));
	const struct env_var *e = service_env_get(&ms.deps[0].svcs[0], "UCX_TLS");
	assert_non_null(e);
	assert_string_equal(e->value, "rc,cuda_copy");
	assert_int_equal(e->origin, ENV_CONFIGMAP);
	assert_int_equal(e->loc.line, 3);
	assert_non_null(strstr(e->loc.file, "cm.yaml"));
	/* the service's environment is its engine container's, not a copy
	 * that the folder's ConfigMap pass could leave behind */
	const struct service *s = &ms.deps[0].svcs[0];
	assert_true(s->ctr_view);
	assert_ptr_equal(s->env.v, s->ctrs[s->engine_ctr].env.v);
	assert_int_equal(s->env.n, s->ctrs[s->engine_ctr].env.n);
}

/* ---- the real recipes copied into tests/fixtures/manifest ---- */

static const struct service *svc(const struct deployment *d, const char *name)
{
	for (size_t i = 0; i < d->n_svcs; i++)
		if (strcmp(d->svcs[i].name, name) == 0)
			return &d->svcs[i];
	fail_msg("no service %s", name);
	return NULL;
}

static void test_fixture_sglang_v1beta1_mnnvl(void **state)
{
	assert_true(manifest_load_path(&ms, FIX "sglang-disagg-gb200-v1beta1.yaml"));
	assert_int_equal(ms.n_diags, 0);
	assert_int_equal(ms.n_deps, 1);
	const struct deployment *d = &ms.deps[0];
	assert_string_equal(d->api_version, "nvidia.com/v1beta1");
	assert_string_equal(d->framework, "sglang");
	assert_true(d->has_compute_domain);
	assert_int_equal(d->n_svcs, 3);
	const struct service *p = svc(d, "PrefillWorker");
	assert_int_equal(p->role, ROLE_PREFILL);
	assert_int_equal(p->replicas, 2);
	assert_int_equal(p->node_count, 4);
	assert_int_equal(p->gpus, 4);
	assert_string_equal(p->shm_size, "");
	assert_string_equal(service_env_get(p, "UCX_TLS")->value, "cuda_copy,cuda_ipc,tcp");
	assert_int_equal(service_env_get(p, "UCX_TLS")->loc.line, 136);
	assert_string_equal(service_env_get(p, "UCX_CUDA_IPC_ENABLE_MNNVL")->value, "y");
	assert_true(service_has_cap(p, "IPC_LOCK"));
	assert_string_equal(p->resource_claims.v[0].value, "qwen38max-sgl-disagg-cd-channel");
	assert_non_null(strstr(p->command_line, "--disaggregation-transfer-backend nixl"));
	assert_int_equal(svc(d, "Decode")->role, ROLE_DECODE);
}

static void test_fixture_vllm_v1alpha1_gke_roce(void **state)
{
	assert_true(manifest_load_path(&ms, FIX "vllm-disagg-gke-roce-v1alpha1.yaml"));
	assert_int_equal(ms.n_diags, 0);
	const struct deployment *d = &ms.deps[0];
	assert_false(d->has_compute_domain);
	const struct service *dec = svc(d, "DecodeWorker");
	assert_int_equal(dec->role, ROLE_DECODE);
	assert_string_equal(service_resource_get(dec, "networking.gke.io.networks/rdma-0"), "1");
	assert_string_equal(service_resource_get(dec, "ephemeral-storage"), "2Gi");
	assert_int_equal(dec->gpus, 4);
	assert_true(dec->privileged);
	assert_int_equal(dec->host_paths.n, 2);
	assert_string_equal(dec->env_from.v[0].value, "hf-token-secret");
	assert_string_equal(service_env_get(dec, "KV_TRANSFER_CONFIG")->value,
			    "{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}");
	assert_int_equal(svc(d, "Frontend")->role, ROLE_FRONTEND);
	assert_null(svc(d, "Frontend")->command_line);
}

static void test_fixture_kustomize_anchors(void **state)
{
	assert_true(manifest_load_path(&ms, FIX "rdma-defaults-anchors.yaml"));
	assert_int_equal(ms.n_diags, 0);
	const struct deployment *d = &ms.deps[0];
	const struct service *dec = svc(d, "DecodeWorker");
	const struct service *pre = svc(d, "PrefillWorker");
	assert_int_equal(dec->env.n, 4);
	assert_string_equal(service_env_get(dec, "NIXL_TELEMETRY_PROMETHEUS_PORT")->value, "19090");
	assert_true(dec->privileged);
	assert_true(service_has_cap(dec, "SYS_PTRACE"));
	/* both sides named, so the names decide */
	assert_int_equal(pre->role, ROLE_PREFILL);
	assert_int_equal(dec->role, ROLE_DECODE);
}

static void test_fixture_trtllm_configmap(void **state)
{
	assert_true(manifest_load_path(&ms, FIX "trtllm-agg-configmap.yaml"));
	assert_int_equal(ms.n_diags, 0);
	assert_int_equal(ms.n_cms, 1);
	assert_string_equal(ms.cms[0].name, "agg-config");
	assert_non_null(strstr(ms.cms[0].text, "cache_transceiver_config:\n  backend: DEFAULT"));
	const struct service *w = svc(&ms.deps[0], "TrtllmWorker");
	assert_int_equal(w->role, ROLE_WORKER);
	assert_int_equal(w->replicas, 4);
	assert_string_equal(w->shm_size, "256Gi");
	assert_true(svc(&ms.deps[0], "Frontend")->anti_affinity);
}

static void test_fixture_vllm_inline_prefix(void **state)
{
	assert_true(manifest_load_path(&ms, FIX "vllm-agg-inline-prefix.yaml"));
	assert_int_equal(ms.n_diags, 0);
	const struct service *f = svc(&ms.deps[0], "Frontend");
	const struct env_var *e = service_env_get(f, "DYN_ROUTER_MODE");
	assert_non_null(e);
	assert_string_equal(e->value, "kv");
	assert_int_equal(e->origin, ENV_INLINE);
	assert_int_equal(e->loc.line, 24);
	/* aggregated: the lone VllmDecodeWorker is a worker */
	assert_int_equal(svc(&ms.deps[0], "VllmDecodeWorker")->role, ROLE_WORKER);
}

static void test_fixture_perf_job(void **state)
{
	assert_true(manifest_load_path(&ms, FIX "perf-job-anchors.yaml"));
	assert_int_equal(ms.n_diags, 0);
	assert_int_equal(ms.n_deps, 1);
	assert_string_equal(ms.deps[0].kind, "Job");
	assert_int_equal(ms.deps[0].n_svcs, 1);
	assert_int_equal(ms.deps[0].svcs[0].role, ROLE_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_folder_walk_sorted_hidden_skipped, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_empty_and_no_yaml, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_file_and_folder, setup, teardown),
		cmocka_unit_test_setup_teardown(test_huge_binary_invalid_files_do_not_hide_others,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_configmap_across_files_same_folder, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fixture_sglang_v1beta1_mnnvl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixture_vllm_v1alpha1_gke_roce, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fixture_kustomize_anchors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixture_trtllm_configmap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixture_vllm_inline_prefix, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixture_perf_job, setup, teardown),
	};
	return cmocka_run_group_tests_name("manifest_load", tests, NULL, NULL);
}
