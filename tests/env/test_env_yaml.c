/* SPDX-License-Identifier: Apache-2.0 */
/* The env analysis end to end from YAML text (manifest_parse_bytes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "core/render.h"
#include "env_test_util.h"

struct run {
	struct manifest_set ms;
	struct ci_report r;
};

static void analyse(struct run *x, const char *name, const char *yaml)
{
	manifest_set_init(&x->ms);
	report_init(&x->r, "env", name);
	manifest_parse_bytes(&x->ms, name, yaml, strlen(yaml));
	env_analyze(&x->r, &x->ms, name);
}

static void done(struct run *x)
{
	report_release(&x->r);
	manifest_set_release(&x->ms);
}

static enum ci_status st(struct run *x, const char *id)
{
	const struct ci_check *c = tu_get(&x->r, id);
	if (!c)
		fail_msg("no check %s", id);
	return c->status;
}

static const char v1beta1_mnnvl[] =
	"apiVersion: resource.nvidia.com/v1beta1\n"
	"kind: ComputeDomain\n"
	"metadata: {name: cd}\n"
	"spec: {numNodes: 4, channel: {resourceClaimTemplate: {name: cd-channel}}}\n"
	"---\n"
	"apiVersion: nvidia.com/v1beta1\n"
	"kind: DynamoGraphDeployment\n"
	"metadata: {name: gb}\n"
	"spec:\n"
	"  backendFramework: sglang\n"
	"  components:\n"
	"  - name: prefill\n"
	"    type: prefill\n"
	"    multinode: {nodeCount: 2}\n"
	"    podTemplate:\n"
	"      spec:\n"
	"        resourceClaims: [{name: cd, resourceClaimTemplateName: cd-channel}]\n"
	"        containers:\n"
	"        - name: main\n"
	"          image: nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.3.0\n"
	"          command: [python3, -m, dynamo.sglang]\n"
	"          args: [--disaggregation-mode, prefill, --disaggregation-transfer-backend, nixl]\n"
	"          env:\n"
	"          - {name: UCX_TLS, value: \"cuda_copy,cuda_ipc,tcp\"}\n"
	"          - {name: UCX_CUDA_IPC_ENABLE_MNNVL, value: \"y\"}\n"
	"          resources: {limits: {nvidia.com/gpu: 4}}\n"
	"  - name: decode\n"
	"    type: decode\n"
	"    multinode: {nodeCount: 2}\n"
	"    podTemplate:\n"
	"      spec:\n"
	"        resourceClaims: [{name: cd, resourceClaimTemplateName: cd-channel}]\n"
	"        containers:\n"
	"        - name: main\n"
	"          image: nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.3.0\n"
	"          command: [python3, -m, dynamo.sglang]\n"
	"          args: [--disaggregation-mode, decode, --disaggregation-transfer-backend, nixl]\n"
	"          env:\n"
	"          - {name: UCX_TLS, value: \"cuda_copy,cuda_ipc,tcp\"}\n"
	"          - {name: UCX_CUDA_IPC_ENABLE_MNNVL, value: \"y\"}\n"
	"          resources: {limits: {nvidia.com/gpu: 4}}\n";

static void test_v1beta1_mnnvl(void **state)
{
	struct run x;
	analyse(&x, "gb.yaml", v1beta1_mnnvl);
	const struct ci_check *m = tu_get(&x.r, "env.mode");
	assert_non_null(m);
	assert_non_null(strstr(m->detail, "disaggregated"));
	assert_non_null(strstr(m->detail, "multi-node (2 nodes/worker)"));
	assert_non_null(strstr(m->detail, "SGLang"));
	assert_non_null(strstr(m->detail, "MNNVL"));
	assert_int_equal(st(&x, "env.ucx.tls"), CI_OK);
	assert_int_equal(st(&x, "env.vars"), CI_OK);
	done(&x);
}

static const char inline_tcp[] =
	"apiVersion: nvidia.com/v1alpha1\n"
	"kind: DynamoGraphDeployment\n"
	"metadata:\n  name: inl\n"
	"spec:\n"
	"  backendFramework: vllm\n"
	"  envs: &common\n"
	"  - name: UCX_IB_ADDR_TYPE\n    value: eth\n"
	"  services:\n"
	"    P:\n"
	"      componentType: worker\n"
	"      subComponentType: prefill\n"
	"      resources: {limits: {gpu: \"8\", custom: {rdma/ib: \"8\"}}}\n"
	"      extraPodSpec:\n"
	"        mainContainer:\n"
	"          image: vllm-runtime\n"
	"          securityContext: {capabilities: {add: [IPC_LOCK]}}\n"
	"          command: [/bin/sh, -c]\n"
	"          args: [\"export UCX_TLS=tcp,cuda_copy && python3 -m dynamo.vllm --disaggregation-mode prefill\"]\n"
	"    D:\n"
	"      componentType: worker\n"
	"      subComponentType: decode\n"
	"      resources: {limits: {gpu: \"8\", custom: {rdma/ib: \"8\"}}}\n"
	"      extraPodSpec:\n"
	"        mainContainer:\n"
	"          image: vllm-runtime\n"
	"          securityContext: {capabilities: {add: [IPC_LOCK]}}\n"
	"          command: [/bin/sh, -c]\n"
	"          args: [\"UCX_TLS=tcp,cuda_copy python3 -m dynamo.vllm --disaggregation-mode decode\"]\r\n";

static void test_inline_shell_variables(void **state)
{
	struct run x;
	analyse(&x, "inl.yaml", inline_tcp);
	const struct ci_check *c = tu_get(&x.r, "env.ucx.tls");
	assert_non_null(c);
	assert_int_equal(c->status, CI_FAIL);
	assert_non_null(strstr(c->detail, "P, D"));
	assert_int_equal(st(&x, "env.ucx.ib_addr_type"), CI_OK);
	/* a prefill without --kv-transfer-config on an image whose tag names no
	 * Dynamo release: judged by the newest, which refuses to start it */
	c = tu_get(&x.r, "env.backend");
	assert_int_equal(c->status, CI_FAIL);
	assert_non_null(strstr(c->detail, "names no Dynamo release: judged by the newest"));
	done(&x);
}

static void test_invalid_yaml_reported(void **state)
{
	struct run x;
	manifest_set_init(&x.ms);
	report_init(&x.r, "env", "t");
	manifest_parse_bytes(&x.ms, "bad.yaml", "a: [1, 2\nb: }\n", 14);
	manifest_parse_bytes(&x.ms, "gb.yaml", v1beta1_mnnvl, strlen(v1beta1_mnnvl));
	env_analyze(&x.r, &x.ms, "t");
	const struct ci_check *c = tu_get(&x.r, "env.input");
	assert_non_null(c);
	assert_int_equal(c->status, CI_WARN);
	assert_false(c->critical);
	assert_non_null(strstr(c->detail, "bad.yaml:"));
	/* the good file is still analysed */
	assert_non_null(tu_find(&x.r, "env.mode"));
	done(&x);
}

static const char secrets[] =
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bench}\n"
	"spec:\n  template:\n    spec:\n      containers:\n      - name: main\n"
	"        image: nixlbench\n"
	"        command: [nixlbench, --backend, UCX]\n"
	"        env:\n"
	"        - {name: HF_TOKEN, value: hf_SuperSecretValue}\n"
	"        - {name: NIXL_ETCD_PASSWORD, value: s3cr3tpw}\n"
	"        - name: AWS_SECRET_ACCESS_KEY\n"
	"          valueFrom: {secretKeyRef: {name: aws, key: secret}}\n"
	"        - {name: UCX_TLS, value: rc,cuda_copy}\n"
	"        resources: {limits: {nvidia.com/gpu: 1}}\n";

static void test_secrets_redacted_everywhere(void **state)
{
	struct run x;
	analyse(&x, "bench.yaml", secrets);
	struct render_opts o = {.verbose = true};
	struct ci_verdict v;
	verdict_compute(&x.r, &v);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	render_text(m, &x.r, &v, &o);
	render_json(m, &x.r, &v, &o);
	fclose(m);
	verdict_release(&v);
	assert_null(strstr(buf, "SuperSecret"));
	assert_null(strstr(buf, "s3cr3tpw"));
	assert_non_null(strstr(buf, "UCX_TLS"));
	assert_non_null(strstr(tu_get(&x.r, "env.mode")->detail, "transfer workload"));
	free(buf);
	done(&x);
}

/* Two deployments of one name in one stream: every finding names the line
 * its own deployment starts at (a recipe's variants are told apart). */
static void test_findings_name_their_deployment_line(void **state)
{
	(void)state;
	static const char two[] =
		"apiVersion: nvidia.com/v1alpha1\n"
		"kind: DynamoGraphDeployment\n"
		"metadata: {name: twin}\n"
		"spec:\n"
		"  services:\n"
		"    VllmDecodeWorker:\n"
		"      componentType: worker\n"
		"      subComponentType: decode\n"
		"      extraPodSpec: {mainContainer: {image: vllm-runtime:1.0.0}}\n"
		"---\n"
		"apiVersion: nvidia.com/v1alpha1\n"
		"kind: DynamoGraphDeployment\n"
		"metadata: {name: twin}\n"
		"spec:\n"
		"  services:\n"
		"    VllmPrefillWorker:\n"
		"      componentType: worker\n"
		"      subComponentType: prefill\n"
		"      extraPodSpec: {mainContainer: {image: vllm-runtime:1.0.0}}\n";
	struct run x;
	analyse(&x, "variants.yaml", two);
	size_t first = 0, second = 0;
	for (size_t i = 0; i < x.r.n_checks; i++) {
		const struct ci_check *c = &x.r.checks[i];
		if (!c->subject || strncmp(c->subject, "twin", 4))
			continue;
		assert_non_null(c->loc_file);
		assert_string_equal(c->loc_file, "variants.yaml");
		assert_true(c->loc_line == 1 || c->loc_line == 11);
		first += c->loc_line == 1;
		second += c->loc_line == 11;
	}
	assert_true(first > 0);
	assert_true(second > 0);
	done(&x);
}

static const char *str_or(const char *s)
{
	return s ? s : "(null)";
}

/* cmd/env.c releases each deployment once judged (env_analyze_release);
 * the report must be the one env_analyze gives with the model kept: every
 * check's id, status, subject, detail, fix, evidence and location, and
 * every fact.  Over committed recipe folders of every shape. */
static void test_release_keeps_the_report(void **state)
{
	(void)state;
	static const char *const dirs[] = {"tests/fixtures/env/recipes",
					   "tests/fixtures/env/shapes", "tests/fixtures/manifest",
					   "tests/fixtures/fleet/recipes"};
	size_t compared = 0;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		struct run kept, freed;
		manifest_set_init(&kept.ms);
		manifest_set_init(&freed.ms);
		report_init(&kept.r, "env", dirs[i]);
		report_init(&freed.r, "env", dirs[i]);
		assert_true(manifest_load_path(&kept.ms, dirs[i]));
		assert_true(manifest_load_path(&freed.ms, dirs[i]));
		env_analyze(&kept.r, &kept.ms, dirs[i]);
		env_analyze_release(&freed.r, &freed.ms, dirs[i]);
		assert_int_equal(kept.r.n_checks, freed.r.n_checks);
		assert_int_equal(kept.r.n_facts, freed.r.n_facts);
		for (size_t k = 0; k < kept.r.n_checks; k++) {
			const struct ci_check *a = &kept.r.checks[k], *b = &freed.r.checks[k];
			assert_string_equal(a->id, b->id);
			assert_int_equal(a->status, b->status);
			assert_string_equal(str_or(a->subject), str_or(b->subject));
			assert_string_equal(str_or(a->detail), str_or(b->detail));
			assert_string_equal(str_or(a->fix), str_or(b->fix));
			assert_string_equal(str_or(a->loc_file), str_or(b->loc_file));
			assert_int_equal(a->loc_line, b->loc_line);
			assert_int_equal(a->n_evidence, b->n_evidence);
			for (size_t e = 0; e < a->n_evidence; e++)
				assert_string_equal(a->evidence[e], b->evidence[e]);
		}
		for (size_t k = 0; k < kept.r.n_facts; k++) {
			assert_string_equal(kept.r.facts[k].name, freed.r.facts[k].name);
			assert_string_equal(kept.r.facts[k].value, freed.r.facts[k].value);
			assert_string_equal(kept.r.facts[k].subject, freed.r.facts[k].subject);
		}
		compared += kept.r.n_checks;
		/* what was judged is released: its services are gone */
		for (size_t d = 0; d < freed.ms.n_deps; d++)
			if (env_relevant(&kept.ms.deps[d]) && !kept.ms.deps[d].kustomize_overlay)
				assert_int_equal(freed.ms.deps[d].n_svcs, 0);
		done(&kept);
		done(&freed);
	}
	assert_true(compared > 80);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1beta1_mnnvl),
		cmocka_unit_test(test_findings_name_their_deployment_line),
		cmocka_unit_test(test_inline_shell_variables),
		cmocka_unit_test(test_invalid_yaml_reported),
		cmocka_unit_test(test_secrets_redacted_everywhere),
		cmocka_unit_test(test_release_keeps_the_report),
	};
	return cmocka_run_group_tests_name("env_yaml", tests, NULL, NULL);
}
