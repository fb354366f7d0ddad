/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for the manifest reader: inline YAML -> model (pure parse). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "manifest/deploy_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct manifest_set ms;

static int setup(void **state)
{
	(void)state;
	manifest_set_init(&ms);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	manifest_set_release(&ms);
	return 0;
}

static void parse(const char *yaml)
{
	manifest_parse_bytes(&ms, "t.yaml", yaml, strlen(yaml));
}

static const struct service *svc(size_t dep, const char *name)
{
	assert_true(dep < ms.n_deps);
	for (size_t i = 0; i < ms.deps[dep].n_svcs; i++)
		if (strcmp(ms.deps[dep].svcs[i].name, name) == 0)
			return &ms.deps[dep].svcs[i];
	fail_msg("no service %s", name);
	return NULL;
}

static const struct env_var *env(const struct service *s, const char *name)
{
	const struct env_var *e = service_env_get(s, name);
	if (!e)
		fail_msg("no env %s in %s", name, s->name);
	return e;
}

static const char *kvget(const struct kv_list *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return l->v[i].value;
	return NULL;
}

static size_t count_env(const struct service *s, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < s->env.n; i++)
		n += strcmp(s->env.v[i].name, name) == 0;
	return n;
}

/* ---- DynamoGraphDeployment v1alpha1 ---- */

static const char v1alpha1[] =
	"apiVersion: nvidia.com/v1alpha1\n" /* 1 */
	"kind: DynamoGraphDeployment\n"
	"metadata:\n"
	"  name: dsr1\n"
	"spec:\n" /* 5 */
	"  backendFramework: vllm\n"
	"  envs:\n"
	"  - name: UCX_TLS\n"
	"    value: rc,cuda_copy\n"
	"  - name: NCCL_DEBUG\n" /* 10 */
	"    value: INFO\n"
	"  services:\n"
	"    Frontend:\n"
	"      componentType: frontend\n"
	"      replicas: 2\n" /* 15 */
	"    PrefillWorker:\n"
	"      componentType: worker\n"
	"      subComponentType: prefill\n"
	"      envFromSecret: hf-token-secret\n"
	"      replicas: 3\n" /* 20 */
	"      multinode:\n"
	"        nodeCount: 2\n"
	"      sharedMemory:\n"
	"        size: 80Gi\n"
	"      envs:\n" /* 25 */
	"      - name: NCCL_DEBUG\n"
	"        value: WARN\n"
	"      resources:\n"
	"        requests:\n"
	"          gpu: \"4\"\n" /* 30 */
	"          custom:\n"
	"            rdma/ib: \"1\"\n"
	"        limits:\n"
	"          gpu: \"8\"\n"
	"          custom:\n" /* 35 */
	"            vpc.amazonaws.com/efa: \"16\"\n"
	"      extraPodSpec:\n"
	"        hostIPC: true\n"
	"        hostNetwork: false\n"
	"        affinity:\n" /* 40 */
	"          podAntiAffinity: {}\n"
	"        resourceClaims:\n"
	"        - name: cd-channel\n"
	"          resourceClaimTemplateName: cd-template\n"
	"        volumes:\n" /* 45 */
	"        - name: ib\n"
	"          hostPath: {path: /dev/infiniband}\n"
	"        mainContainer:\n"
	"          image: nvcr.io/vllm:1\n"
	"          command: [/bin/sh, -c]\n" /* 50 */
	"          args:\n"
	"          - export UCX_NET_DEVICES=mlx5_0:1 && python3 -m dynamo.vllm\n"
	"          env:\n"
	"          - name: UCX_TLS\n"
	"            value: rc_x,cuda_copy,cuda_ipc\n" /* 55 */
	"          - name: HF_TOKEN\n"
	"            valueFrom:\n"
	"              secretKeyRef: {name: hf-token-secret, key: HF_TOKEN}\n"
	"          securityContext:\n"
	"            privileged: true\n" /* 60 */
	"            capabilities:\n"
	"              add: [IPC_LOCK, SYS_RESOURCE]\n";

static void test_v1alpha1_services(void **state)
{
	parse(v1alpha1);
	assert_int_equal(ms.n_diags, 0);
	assert_int_equal(ms.n_deps, 1);
	const struct deployment *d = &ms.deps[0];
	assert_string_equal(d->name, "dsr1");
	assert_string_equal(d->kind, "DynamoGraphDeployment");
	assert_string_equal(d->api_version, "nvidia.com/v1alpha1");
	assert_string_equal(d->framework, "vllm");
	assert_int_equal(d->n_svcs, 2);
	assert_int_equal(d->env.n, 2);

	const struct service *f = svc(0, "Frontend");
	assert_int_equal(f->role, ROLE_FRONTEND);
	assert_string_equal(f->role_source, "componentType: frontend");
	assert_int_equal(f->replicas, 2);
	assert_int_equal(f->replicas_loc.line, 15);
	assert_int_equal(f->node_count, 1);
	/* deployment-wide env reaches every service */
	assert_string_equal(env(f, "UCX_TLS")->value, "rc,cuda_copy");
	assert_int_equal(env(f, "UCX_TLS")->origin, ENV_DEPLOYMENT);

	const struct service *p = svc(0, "PrefillWorker");
	assert_int_equal(p->loc.line, 16);
	assert_string_equal(p->loc.file, "t.yaml");
	assert_int_equal(p->role, ROLE_PREFILL);
	assert_string_equal(p->role_source, "subComponentType: prefill");
	assert_int_equal(p->replicas, 3);
	assert_int_equal(p->node_count, 2);
	assert_int_equal(p->node_count_loc.line, 22);
	assert_string_equal(p->shm_size, "80Gi");
	assert_int_equal(p->shm_loc.line, 24);
	assert_string_equal(p->image, "nvcr.io/vllm:1");
	assert_int_equal(p->image_loc.line, 49);
	/* limits win over requests; custom flattened */
	assert_int_equal(p->gpus, 8);
	assert_int_equal(p->gpus_loc.line, 34);
	assert_string_equal(service_resource_get(p, "gpu"), "8");
	assert_string_equal(service_resource_get(p, "rdma/ib"), "1");
	assert_string_equal(service_resource_get(p, "vpc.amazonaws.com/efa"), "16");
	assert_null(service_resource_get(p, "custom"));
	assert_true(p->host_ipc);
	assert_int_equal(p->host_ipc_loc.line, 38);
	assert_false(p->host_network);
	assert_true(p->anti_affinity);
	assert_true(p->privileged);
	assert_int_equal(p->privileged_loc.line, 60);
	assert_true(service_has_cap(p, "IPC_LOCK"));
	assert_true(service_has_cap(p, "CAP_SYS_RESOURCE"));
	assert_false(service_has_cap(p, "NET_ADMIN"));
	assert_string_equal(kvget(&p->resource_claims, "cd-channel"), "cd-template");
	assert_string_equal(kvget(&p->host_paths, "ib"), "/dev/infiniband");
	assert_string_equal(kvget(&p->env_from, "secret"), "hf-token-secret");
	assert_string_equal(p->command_line,
			    "/bin/sh -c export UCX_NET_DEVICES=mlx5_0:1 && python3 -m dynamo.vllm");
	assert_int_equal(p->command_loc.line, 50);

	/* later wins: container beats deployment, service beats deployment */
	const struct env_var *tls = env(p, "UCX_TLS");
	assert_string_equal(tls->value, "rc_x,cuda_copy,cuda_ipc");
	assert_int_equal(tls->origin, ENV_CONTAINER);
	assert_int_equal(tls->loc.line, 54);
	assert_int_equal(count_env(p, "UCX_TLS"), 1);
	assert_string_equal(env(p, "NCCL_DEBUG")->value, "WARN");
	assert_int_equal(env(p, "NCCL_DEBUG")->origin, ENV_SERVICE);
	assert_int_equal(count_env(p, "NCCL_DEBUG"), 1);
	/* inline export */
	const struct env_var *dev = env(p, "UCX_NET_DEVICES");
	assert_string_equal(dev->value, "mlx5_0:1");
	assert_int_equal(dev->origin, ENV_INLINE);
	assert_int_equal(dev->loc.line, 52);
	/* secret never resolved */
	const struct env_var *tok = env(p, "HF_TOKEN");
	assert_null(tok->value);
	assert_string_equal(tok->value_from, "<secret hf-token-secret/HF_TOKEN>");
}

/* ---- DynamoGraphDeployment v1beta1 ---- */

static const char v1beta1[] =
	"apiVersion: nvidia.com/v1beta1\n" /* 1 */
	"kind: DynamoGraphDeployment\n"
	"metadata: {name: b1}\n"
	"spec:\n"
	"  env:\n" /* 5 */
	"  - {name: NIXL_LOG_LEVEL, value: INFO}\n"
	"  components:\n"
	"  - name: Frontend\n"
	"    type: frontend\n"
	"  - name: Dec\n" /* 10 */
	"    type: decode\n"
	"    replicas: 4\n"
	"    multinode: {nodeCount: 2}\n"
	"    sharedMemorySize: 64Gi\n"
	"    podTemplate:\n" /* 15 */
	"      spec:\n"
	"        topologySpreadConstraints:\n"
	"        - {maxSkew: 1, topologyKey: kubernetes.io/hostname}\n"
	"        containers:\n"
	"        - name: log-sidecar\n" /* 20 */
	"          image: busybox\n"
	"        - name: main\n"
	"          image: sglang:1\n"
	"          env:\n"
	"          - {name: NIXL_LOG_LEVEL, value: WARN}\n" /* 25 */
	"          - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}\n"
	"          - {name: MEM, valueFrom: {resourceFieldRef: {resource: limits.memory}}}\n"
	"          envFrom:\n"
	"          - secretRef: {name: s1}\n"
	"          - configMapRef: {name: cm1}\n" /* 30 */
	"          resources:\n"
	"            limits: {nvidia.com/gpu: 4, rdma/ib: 1}\n"
	"  - name: Worker\n"
	"    type: worker\n"
	"    podTemplate:\n" /* 35 */
	"      spec:\n"
	"        volumes:\n"
	"        - name: shm\n"
	"          emptyDir: {medium: Memory, sizeLimit: 16Gi}\n"
	"        containers:\n" /* 40 */
	"        - name: first\n"
	"          args: [python3, -m, dynamo.sglang, --disaggregation-mode=prefill]\n"
	"          volumeMounts:\n"
	"          - {name: shm, mountPath: /dev/shm}\n";

static void test_v1beta1_components(void **state)
{
	parse(v1beta1);
	assert_int_equal(ms.n_diags, 0);
	assert_int_equal(ms.n_deps, 1);
	assert_int_equal(ms.deps[0].n_svcs, 3);
	const struct service *f = svc(0, "Frontend");
	assert_int_equal(f->role, ROLE_FRONTEND);
	assert_string_equal(f->role_source, "type: frontend");
	assert_string_equal(env(f, "NIXL_LOG_LEVEL")->value, "INFO");

	const struct service *d = svc(0, "Dec");
	assert_int_equal(d->role, ROLE_DECODE);
	assert_int_equal(d->replicas, 4);
	assert_int_equal(d->node_count, 2);
	assert_string_equal(d->shm_size, "64Gi");
	assert_true(d->anti_affinity);
	assert_int_equal(d->anti_affinity_loc.line, 18);
	assert_string_equal(d->container, "main"); /* main wins over the first */
	assert_string_equal(d->image, "sglang:1");
	assert_string_equal(env(d, "NIXL_LOG_LEVEL")->value, "WARN");
	assert_int_equal(env(d, "NIXL_LOG_LEVEL")->loc.line, 25);
	assert_string_equal(env(d, "POD_IP")->value_from, "<field status.podIP>");
	assert_string_equal(env(d, "MEM")->value_from, "<resource limits.memory>");
	assert_int_equal(d->env_from.n, 2);
	assert_string_equal(d->env_from.v[0].key, "secret");
	assert_string_equal(d->env_from.v[0].value, "s1");
	assert_string_equal(d->env_from.v[1].key, "configmap");
	assert_string_equal(d->env_from.v[1].value, "cm1");
	assert_int_equal(d->gpus, 4);
	assert_string_equal(service_resource_get(d, "nvidia.com/gpu"), "4");
	assert_string_equal(service_resource_get(d, "rdma/ib"), "1");

	const struct service *w = svc(0, "Worker");
	/* type: worker refined by the command line */
	assert_int_equal(w->role, ROLE_PREFILL);
	assert_string_equal(w->role_source, "--disaggregation-mode prefill");
	assert_string_equal(w->container, "first");
	assert_string_equal(w->shm_size, "16Gi");
	assert_int_equal(w->shm_loc.line, 44);
	assert_string_equal(w->command_line,
			    "python3 -m dynamo.sglang --disaggregation-mode=prefill");
	assert_int_equal(w->command_loc.line, 42);
}

/* ---- roles ---- */

static void test_roles(void **state)
{
	parse("kind: DynamoGraphDeployment\n"
	      "metadata: {name: r}\n"
	      "spec:\n"
	      "  services:\n"
	      "    A: {componentType: worker, extraPodSpec: {mainContainer: {args: ['python3 -m x --disaggregation-mode decode']}}}\n"
	      "    VllmPrefillWorker: {componentType: worker}\n"
	      "    Epp: {componentType: epp}\n"
	      "    Planner: {}\n");
	assert_int_equal(svc(0, "A")->role, ROLE_DECODE);
	assert_string_equal(svc(0, "A")->role_source, "--disaggregation-mode decode");
	assert_int_equal(svc(0, "VllmPrefillWorker")->role, ROLE_PREFILL);
	assert_string_equal(svc(0, "VllmPrefillWorker")->role_source,
			    "service name VllmPrefillWorker");
	assert_int_equal(svc(0, "Epp")->role, ROLE_OTHER);
	assert_int_equal(svc(0, "Planner")->role, ROLE_UNKNOWN);

	/* An aggregated deployment's lone "VllmDecodeWorker" is a worker. */
	parse("kind: DynamoGraphDeployment\n"
	      "metadata: {name: agg}\n"
	      "spec:\n"
	      "  services:\n"
	      "    Frontend: {componentType: frontend}\n"
	      "    VllmDecodeWorker: {componentType: worker}\n");
	assert_int_equal(svc(1, "VllmDecodeWorker")->role, ROLE_WORKER);
	assert_string_equal(svc(1, "VllmDecodeWorker")->role_source, "componentType: worker");
}

/* ---- YAML features ---- */

static void test_flow_style_and_anchors(void **state)
{
	parse("kind: DynamoGraphDeployment\n"
	      "metadata: {name: a}\n"
	      "spec:\n"
	      "  services:\n"
	      "    PrefillWorker:\n"
	      "      componentType: worker\n"
	      "      subComponentType: prefill\n"
	      "      resources: &res {limits: {gpu: &g \"2\"}}\n"
	      "      extraPodSpec:\n"
	      "        mainContainer:\n"
	      "          env: &rdmaEnv\n"
	      "          - {name: UCX_TLS, value: &tls \"rc,cuda_copy\"}\n"
	      "          - name: UCX_IB_GID_INDEX\n"
	      "            value: 3\n"
	      "          securityContext: &sc {capabilities: {add: [IPC_LOCK]}}\n"
	      "    DecodeWorker:\n"
	      "      <<: {componentType: worker, replicas: 5}\n"
	      "      subComponentType: decode\n"
	      "      resources: *res\n"
	      "      extraPodSpec:\n"
	      "        mainContainer:\n"
	      "          env: *rdmaEnv\n"
	      "          securityContext: *sc\n"
	      "          image: *tls\n");
	assert_int_equal(ms.n_diags, 0);
	const struct service *p = svc(0, "PrefillWorker");
	const struct service *d = svc(0, "DecodeWorker");
	assert_string_equal(env(p, "UCX_TLS")->value, "rc,cuda_copy");
	assert_string_equal(env(d, "UCX_TLS")->value, "rc,cuda_copy");
	/* numbers keep their text */
	assert_string_equal(env(d, "UCX_IB_GID_INDEX")->value, "3");
	assert_int_equal(env(d, "UCX_TLS")->loc.line, 12); /* where the anchor's text is */
	assert_true(service_has_cap(d, "IPC_LOCK"));
	assert_int_equal(d->gpus, 2);
	assert_string_equal(d->image, "rc,cuda_copy");
	/* merge key */
	assert_int_equal(d->role, ROLE_DECODE);
	assert_int_equal(d->replicas, 5);
}

static void test_multi_document_configmap_compute_domain(void **state)
{
	parse("# leading comment\n"
	      "---\n"
	      "apiVersion: resource.nvidia.com/v1beta1\n"
	      "kind: ComputeDomain\n"
	      "metadata: {name: cd}\n"
	      "---\n"
	      "apiVersion: v1\n"
	      "kind: ConfigMap\n"
	      "metadata: {name: prefill-config}\n"
	      "data:\n"
	      "  prefill.yaml: |\n"
	      "    cache_transceiver_config:\n"
	      "      backend: UCX\n"
	      "  UCX_TLS: rc\n"
	      "---\n"
	      "kind: DynamoGraphDeployment\n"
	      "metadata: {name: t}\n"
	      "spec:\n"
	      "  services:\n"
	      "    W:\n"
	      "      extraPodSpec:\n"
	      "        mainContainer:\n"
	      "          envFrom: [{configMapRef: {name: prefill-config}}]\n"
	      "          env:\n"
	      "          - name: X\n"
	      "            valueFrom: {configMapKeyRef: {name: prefill-config, key: UCX_TLS}}\n"
	      "...\n");
	assert_int_equal(ms.n_diags, 0);
	assert_int_equal(ms.n_compute_domains, 1);
	assert_int_equal(ms.n_cms, 1);
	assert_string_equal(ms.cms[0].name, "prefill-config");
	assert_non_null(strstr(ms.cms[0].text, "cache_transceiver_config:\n  backend: UCX\n"));
	assert_int_equal(ms.cms[0].data.n, 2);
	assert_int_equal(ms.cms[0].data.v[0].loc.line, 12);
	assert_int_equal(ms.n_deps, 1);
	assert_true(ms.deps[0].has_compute_domain);
	assert_int_equal(ms.deps[0].doc_index, 2);
	assert_int_equal(ms.deps[0].loc.line, 16);
	const struct service *w = svc(0, "W");
	const struct env_var *e = env(w, "UCX_TLS");
	assert_int_equal(e->origin, ENV_CONFIGMAP);
	assert_string_equal(e->value, "rc");
	/* configMapKeyRef: the reference stays, the literal is noted */
	const struct env_var *x = env(w, "X");
	assert_string_equal(x->value_from, "<configmap prefill-config/UCX_TLS>");
	assert_string_equal(x->value, "rc");

	/* another file: no ComputeDomain there */
	parse("kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n");
	assert_int_equal(ms.n_deps, 2);
	assert_false(ms.deps[1].has_compute_domain);
}

static void test_scalars_null_bool_tags(void **state)
{
	parse("kind: Pod\n"
	      "metadata: {name: p}\n"
	      "spec:\n"
	      "  hostNetwork: yes\n"
	      "  containers:\n"
	      "  - name: c\n"
	      "    env:\n"
	      "    - {name: A, value: null}\n"
	      "    - {name: B, value: ~}\n"
	      "    - {name: C, value: \"null\"}\n"
	      "    - {name: D, value: true}\n"
	      "    - {name: E, value: 0x10}\n"
	      "    - {name: F, value: !!str 007}\n"
	      "    - {name: G}\n"
	      "    - {name: H, value: !!null ''}\n"
	      "    - {value: nameless}\n");
	assert_int_equal(ms.n_diags, 0);
	const struct service *s = svc(0, "p/c");
	assert_null(env(s, "A")->value);
	assert_null(env(s, "A")->value_from);
	assert_null(env(s, "B")->value);
	assert_string_equal(env(s, "C")->value, "null");
	assert_string_equal(env(s, "D")->value, "true");
	assert_string_equal(env(s, "E")->value, "0x10");
	assert_string_equal(env(s, "F")->value, "007");
	assert_string_equal(env(s, "G")->value, "");
	assert_null(env(s, "H")->value);
	assert_int_equal(s->env.n, 8);
	assert_true(s->host_network);
}

/* ---- inline shell assignments ---- */

static void test_inline_env(void **state)
{
	parse("kind: Pod\n" /* 1 */
	      "metadata: {name: p}\n"
	      "spec:\n"
	      "  containers:\n"
	      "  - name: c\n" /* 5 */
	      "    env: [{name: UCX_TLS, value: tcp}, {name: KEEP, value: k}]\n"
	      "    command: [/bin/bash, -c]\n"
	      "    args:\n"
	      "    - |\n"
	      "      set -e\n" /* 10 */
	      "      export UCX_TLS=rc,cuda_copy NCCL_IB_HCA=\"=mlx5_0,mlx5_1\" lower=x\n"
	      "      # export COMMENTED=1\n"
	      "      ulimit -l unlimited; FI_PROVIDER='efa' \\\n"
	      "        UCX_RNDV_THRESH=inf python3 -m dynamo.vllm --flag NOT_ME=1 && \\\n"
	      "      env -u X NIXL_X=1 NIXL_Y=\"a b\" python3 run.py\n" /* 15 */
	      "      echo A=1 | SGLANG_DISAGGREGATION_NIXL_BACKEND=UCX cat\n"
	      "      if true; then export MC_TE_METRIC=1; fi\n"
	      "      declare -x UCX_LOG_LEVEL=debug\n");
	assert_int_equal(ms.n_diags, 0);
	const struct service *s = svc(0, "p/c");
	const struct env_var *tls = env(s, "UCX_TLS");
	assert_string_equal(tls->value, "rc,cuda_copy");
	assert_int_equal(tls->origin, ENV_INLINE);
	assert_int_equal(tls->loc.line, 11);
	assert_int_equal(count_env(s, "UCX_TLS"), 1);
	assert_string_equal(env(s, "KEEP")->value, "k");
	assert_string_equal(env(s, "NCCL_IB_HCA")->value, "=mlx5_0,mlx5_1");
	assert_null(service_env_get(s, "lower"));
	assert_null(service_env_get(s, "COMMENTED"));
	assert_string_equal(env(s, "FI_PROVIDER")->value, "efa");
	assert_int_equal(env(s, "FI_PROVIDER")->loc.line, 13);
	assert_string_equal(env(s, "UCX_RNDV_THRESH")->value, "inf");
	assert_int_equal(env(s, "UCX_RNDV_THRESH")->loc.line, 14);
	assert_null(service_env_get(s, "NOT_ME"));
	assert_string_equal(env(s, "NIXL_X")->value, "1");
	assert_string_equal(env(s, "NIXL_Y")->value, "a b");
	assert_int_equal(env(s, "NIXL_Y")->loc.line, 15);
	assert_null(service_env_get(s, "A"));
	assert_string_equal(env(s, "SGLANG_DISAGGREGATION_NIXL_BACKEND")->value, "UCX");
	assert_string_equal(env(s, "MC_TE_METRIC")->value, "1");
	assert_string_equal(env(s, "UCX_LOG_LEVEL")->value, "debug");
	/* the newline-preserving join */
	assert_non_null(strstr(s->command_line, "/bin/bash -c set -e\nexport UCX_TLS="));
}

static void test_inline_env_argv_and_scalar_forms(void **state)
{
	parse("kind: Deployment\n"
	      "metadata: {name: nixlbench}\n"
	      "spec:\n"
	      "  replicas: 2\n"
	      "  template:\n"
	      "    spec:\n"
	      "      containers:\n"
	      "      - name: bench\n"
	      "        command: [/usr/bin/env, UCX_TLS=rc, -i, FI_EFA_USE_DEVICE_RDMA=1, nixlbench, X=2]\n"
	      "      - name: istio-proxy\n"
	      "        image: envoy\n"
	      "      - name: two\n"
	      "        command: \"UCX_MAX_RNDV_RAILS=2 exec nixlbench --backend UCX\"\n");
	assert_int_equal(ms.n_diags, 0);
	assert_int_equal(ms.n_deps, 1);
	assert_string_equal(ms.deps[0].kind, "Deployment");
	/* One service per pod: every container is read, the first that runs
	 * an engine or a transfer test is the service's. */
	assert_int_equal(ms.deps[0].n_svcs, 1);
	const struct service *b = svc(0, "nixlbench/bench");
	assert_int_equal(b->replicas, 2);
	assert_int_equal(b->role, ROLE_UNKNOWN);
	assert_int_equal(b->n_ctrs, 3);
	assert_int_equal(b->engine_ctr, 0);
	assert_string_equal(env(b, "UCX_TLS")->value, "rc");
	assert_string_equal(env(b, "FI_EFA_USE_DEVICE_RDMA")->value, "1");
	assert_null(service_env_get(b, "X"));
	const struct container *t = &b->ctrs[2];
	assert_string_equal(t->name, "two");
	assert_true(t->engine);
	const char *rails = "(not set)";
	for (size_t i = 0; i < t->env.n; i++)
		if (!strcmp(t->env.v[i].name, "UCX_MAX_RNDV_RAILS") && t->env.v[i].value)
			rails = t->env.v[i].value;
	assert_string_equal(rails, "2");
	assert_string_equal(t->command_line, "UCX_MAX_RNDV_RAILS=2 exec nixlbench --backend UCX");
}

/* ---- plain workloads ---- */

static void test_workload_kinds(void **state)
{
	parse("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"
	      "spec: {parallelism: 3, template: {spec: {containers: [{name: c}]}}}\n"
	      "---\nkind: CronJob\nmetadata: {name: cj}\n"
	      "spec: {jobTemplate: {spec: {template: {spec: {containers: [{name: c}]}}}}}\n"
	      "---\nkind: StatefulSet\nmetadata: {name: ss}\n"
	      "spec: {replicas: 2, template: {spec: {hostIPC: true, containers: [{name: c}]}}}\n"
	      "---\nkind: DaemonSet\nmetadata: {name: ds}\n"
	      "spec: {template: {spec: {containers: [{name: c}]}}}\n"
	      "---\nkind: List\nitems:\n"
	      "- {kind: Pod, metadata: {name: lp}, spec: {containers: [{name: c}]}}\n"
	      "---\nkind: Service\nmetadata: {name: svc}\nspec: {ports: []}\n"
	      "---\nkind: Secret\nmetadata: {name: s}\ndata: {token: c2VjcmV0}\n");
	assert_int_equal(ms.n_diags, 0);
	assert_int_equal(ms.n_deps, 5);
	assert_string_equal(ms.deps[0].kind, "Job");
	assert_int_equal(svc(0, "j/c")->replicas, 3);
	assert_string_equal(ms.deps[1].kind, "CronJob");
	assert_non_null(svc(1, "cj/c"));
	assert_int_equal(svc(2, "ss/c")->replicas, 2);
	assert_true(svc(2, "ss/c")->host_ipc);
	assert_string_equal(ms.deps[3].kind, "DaemonSet");
	assert_string_equal(ms.deps[4].kind, "Pod");
	assert_string_equal(ms.deps[4].name, "lp");
}

static void test_leader_worker_set(void **state)
{
	parse("apiVersion: leaderworkerset.x-k8s.io/v1\n"
	      "kind: LeaderWorkerSet\n"
	      "metadata: {name: lws}\n"
	      "spec:\n"
	      "  replicas: 2\n"
	      "  leaderWorkerTemplate:\n"
	      "    size: 4\n"
	      "    leaderTemplate:\n"
	      "      spec:\n"
	      "        containers:\n"
	      "        - name: leader\n"
	      "          args: ['python3 -m sglang --disaggregation-mode prefill']\n"
	      "          resources: {limits: {nvidia.com/gpu: 8, vpc.amazonaws.com/efa: 32}}\n"
	      "    workerTemplate:\n"
	      "      spec:\n"
	      "        containers:\n"
	      "        - name: worker\n"
	      "          env: [{name: FI_PROVIDER, value: efa}]\n");
	assert_int_equal(ms.n_diags, 0);
	assert_int_equal(ms.n_deps, 1);
	assert_string_equal(ms.deps[0].kind, "LeaderWorkerSet");
	assert_int_equal(ms.deps[0].n_svcs, 2);
	const struct service *l = svc(0, "lws/leader");
	const struct service *w = svc(0, "lws/worker");
	assert_int_equal(l->node_count, 4);
	assert_int_equal(l->node_count_loc.line, 7);
	assert_int_equal(w->node_count, 4);
	assert_int_equal(l->replicas, 2);
	assert_int_equal(l->gpus, 8);
	assert_string_equal(service_resource_get(l, "vpc.amazonaws.com/efa"), "32");
	assert_int_equal(l->role, ROLE_PREFILL);
	assert_string_equal(env(w, "FI_PROVIDER")->value, "efa");
}

/* ---- bad input ---- */

static void test_invalid_yaml_keeps_earlier_documents(void **state)
{
	parse("kind: Pod\nmetadata: {name: ok}\nspec: {containers: [{name: c}]}\n"
	      "---\n"
	      "kind: Pod\n"
	      "metadata:\n"
	      "  name: bad\n"
	      " oops: [1, 2\n");
	assert_int_equal(ms.n_deps, 1);
	assert_string_equal(ms.deps[0].name, "ok");
	assert_int_equal(ms.n_diags, 1);
	const struct diag *d = &ms.diags[0];
	assert_int_equal(d->severity, DIAG_ERROR);
	assert_string_equal(d->file, "t.yaml");
	assert_int_equal(d->line, 8);
	assert_int_equal(d->col, 2);
	assert_non_null(strstr(d->message, "invalid YAML: did not find expected key"));
	assert_non_null(strstr(d->message, "while parsing a block mapping at line 5, column 1"));
}

static void test_alias_bomb(void **state)
{
	const char *bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
			   "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
			   "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
			   "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
			   "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
			   "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
			   "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
			   "h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
			   "i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]\n"
			   "kind: Pod\n";
	/* bounded by counting, not by timing: the diagnostic and its line
	 * prove the expansion stopped at the sixth level */
	parse(bomb);
	assert_int_equal(ms.n_deps, 0);
	assert_int_equal(ms.n_diags, 1);
	assert_int_equal(ms.diags[0].severity, DIAG_ERROR);
	assert_non_null(strstr(ms.diags[0].message, "alias bomb"));
	assert_int_equal(ms.diags[0].line, 6);

	/* a big scalar repeated: the byte budget stops it */
	size_t n = 1u << 20;
	char *big = malloc(n + 4096);
	char *p = big;
	p += sprintf(p, "s: &s \"");
	memset(p, 'x', n);
	p += n;
	p += sprintf(
		p,
		"\"\nt: [*s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s, *s]\n");
	manifest_parse_bytes(&ms, "big.yaml", big, (size_t)(p - big));
	free(big);
	assert_int_equal(ms.n_diags, 2);
	assert_non_null(strstr(ms.diags[1].message, "16 MiB"));
}

static void test_deep_nesting(void **state)
{
	size_t depth = 100000;
	char *s = malloc(depth * 2 + 1);
	memset(s, '[', depth);
	memset(s + depth, ']', depth);
	s[depth * 2] = '\0';
	parse(s);
	free(s);
	assert_int_equal(ms.n_diags, 1);
	assert_non_null(strstr(ms.diags[0].message, "nesting deeper than 64"));
	assert_int_equal(ms.diags[0].line, 1);
	assert_int_equal(ms.diags[0].col, 65);

	/* 64 levels are fine */
	char ok[200];
	memset(ok, '[', 64);
	memset(ok + 64, ']', 64);
	ok[128] = '\0';
	parse(ok);
	assert_int_equal(ms.n_diags, 1);
}

static void test_node_cap(void **state)
{
	size_t n = MANIFEST_MAX_NODES + 10;
	char *s = malloc(n * 2 + 4);
	char *p = s;
	*p++ = '[';
	for (size_t i = 0; i < n; i++) {
		*p++ = 'a';
		*p++ = ',';
	}
	p[-1] = ']';
	*p = '\0';
	parse(s);
	free(s);
	assert_int_equal(ms.n_diags, 1);
	assert_non_null(strstr(ms.diags[0].message, "more than 200000 YAML nodes"));
}

static void test_binary_huge_empty(void **state)
{
	static const char bin[] = "\x7f"
				  "ELF\x02\x01\x01\x00\x00\x00kind: Pod";
	manifest_parse_bytes(&ms, "a.yaml", bin, sizeof(bin) - 1);
	assert_int_equal(ms.n_diags, 1);
	assert_string_equal(ms.diags[0].message, "not a text/YAML file (binary data), skipped");

	size_t n = MANIFEST_MAX_FILE_BYTES + 1;
	char *huge = malloc(n);
	memset(huge, ' ', n);
	manifest_parse_bytes(&ms, "huge.yaml", huge, n);
	free(huge);
	assert_int_equal(ms.n_diags, 2);
	assert_non_null(strstr(ms.diags[1].message,
			       "file too large (8388609 bytes, limit 8 MiB), skipped"));

	manifest_parse_bytes(&ms, "empty.yaml", "", 0);
	manifest_parse_bytes(&ms, "comments.yaml", "# nothing\n\n---\n", 15);
	assert_int_equal(ms.n_diags, 4);
	assert_int_equal(ms.diags[2].severity, DIAG_NOTE);
	assert_string_equal(ms.diags[2].message, "empty file: no YAML documents");
	assert_string_equal(ms.diags[3].file, "comments.yaml");
	assert_int_equal(ms.n_deps, 0);
	assert_int_equal(ms.n_files, 4);
}

static void test_crlf_bom_non_utf8(void **state)
{
	parse("\xef\xbb\xbf"
	      "kind: Pod\r\n"
	      "metadata: {name: p}\r\n"
	      "spec:\r\n"
	      "  containers:\r\n"
	      "  - name: c\r\n"
	      "    args:\r\n"
	      "    - |\r\n"
	      "      export UCX_TLS=rc\r\n"
	      "      python3 x.py\r\n"
	      "    env:\r\n"
	      "    - name: NCCL_IB_HCA\r\n"
	      "      value: mlx5_0\r\n");
	assert_int_equal(ms.n_diags, 0);
	const struct service *s = svc(0, "p/c");
	assert_string_equal(env(s, "UCX_TLS")->value, "rc");
	assert_int_equal(env(s, "UCX_TLS")->loc.line, 8);
	assert_string_equal(env(s, "NCCL_IB_HCA")->value, "mlx5_0");
	assert_int_equal(env(s, "NCCL_IB_HCA")->loc.line, 11);
	assert_string_equal(s->command_line, "export UCX_TLS=rc\npython3 x.py\n");

	parse("kind: Pod\nmetadata:\n  name: caf\xe9\n");
	assert_int_equal(ms.n_diags, 1);
	assert_int_equal(ms.diags[0].severity, DIAG_ERROR);
	assert_int_equal(ms.diags[0].line, 3);
	assert_int_equal(ms.diags[0].col, 12);
	assert_string_equal(
		ms.diags[0].message,
		"invalid YAML: incomplete UTF-8 octet sequence (byte at offset 31): not UTF-8 text");
	assert_int_equal(ms.n_deps, 1); /* the first file is untouched */

	parse("kind: Pod\n# \xff\xfe latin-1 comment\n");
	assert_int_equal(ms.n_diags, 2);
	assert_int_equal(ms.diags[1].line, 2);
	assert_int_equal(ms.diags[1].col, 3);
	assert_string_equal(
		ms.diags[1].message,
		"invalid YAML: invalid leading UTF-8 octet (byte 0xff at offset 12): not UTF-8 text");
}

static void test_undefined_alias_and_odd_shapes(void **state)
{
	parse("kind: Pod\nmetadata: {name: p}\nspec: {containers: [*nope]}\n");
	assert_int_equal(ms.n_diags, 1);
	assert_non_null(strstr(ms.diags[0].message, "alias *nope refers to no complete anchor"));
	assert_int_equal(ms.diags[0].line, 3);

	/* wrong types everywhere: ignored, never an error */
	parse("kind: DynamoGraphDeployment\nmetadata: 3\nspec:\n  envs: {a: b}\n"
	      "  services:\n    X: [1]\n    Y: {envs: 7, resources: [1], extraPodSpec: {mainContainer: 5,"
	      " volumes: {a: 1}, resourceClaims: [1, {name: n}]}}\n"
	      "    ? [complex, key]\n    : 1\n");
	assert_int_equal(ms.n_diags, 1);
	assert_int_equal(ms.n_deps, 1);
	assert_string_equal(ms.deps[0].name, "<unnamed>");
	assert_int_equal(ms.deps[0].n_svcs, 1);
	assert_string_equal(svc(0, "Y")->resource_claims.v[0].value, "");

	/* self-reference is not a cycle: the anchor is not complete yet */
	parse("a: &a [*a]\n");
	assert_int_equal(ms.n_diags, 2);
}

/* Deployment env copied into every service is bounded even when the
 * document itself is small enough. */
static void test_amplification_bounded(void **state)
{
	size_t cap = 1u << 20;
	char *y = malloc(cap);
	size_t n = (size_t)snprintf(
		y, cap, "kind: DynamoGraphDeployment\nmetadata: {name: amp}\nspec:\n  envs:\n");
	for (int i = 0; i < 1000; i++)
		n += (size_t)snprintf(y + n, cap - n, "  - {name: V%d, value: x}\n", i);
	n += (size_t)snprintf(y + n, cap - n, "  services:\n");
	for (int i = 0; i < 1100; i++)
		n += (size_t)snprintf(y + n, cap - n, "    S%d: {}\n", i);
	/* the caps below are the bound; speed belongs to bench/ */
	manifest_parse_bytes(&ms, "amp.yaml", y, n);
	free(y);
	assert_int_equal(ms.n_deps, 1);
	assert_int_equal(ms.deps[0].n_svcs, 1024);
	assert_int_equal(ms.deps[0].svcs[0].env.n, 1000);
	assert_int_equal(ms.deps[0].svcs[199].env.n, 1000);
	assert_int_equal(ms.deps[0].svcs[200].env.n, 0);
	assert_int_equal(ms.n_diags, 2);
	assert_string_equal(ms.diags[0].message,
			    "deployment-wide env copied into too many services; the rest skipped");
	assert_string_equal(ms.diags[1].message, "amp: more than 1024 services; the rest ignored");

	/* one 2 MiB value copied into many services: the byte budget stops it */
	cap = 4u << 20;
	y = malloc(cap);
	n = (size_t)snprintf(y, cap,
			     "kind: DynamoGraphDeployment\nmetadata: {name: big}\nspec:\n"
			     "  envs: [{name: V, value: \"");
	memset(y + n, 'v', 2u << 20);
	n += 2u << 20;
	n += (size_t)snprintf(y + n, cap - n, "\"}]\n  services:\n");
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(y + n, cap - n, "    S%d: {}\n", i);
	manifest_parse_bytes(&ms, "big.yaml", y, n);
	free(y);
	assert_int_equal(ms.n_deps, 2);
	assert_int_equal(ms.deps[1].n_svcs, 100);
	assert_int_equal(ms.deps[1].svcs[30].env.n, 1);
	assert_int_equal(ms.deps[1].svcs[31].env.n, 0);
	assert_int_equal(ms.n_diags, 3);
}

/* The name index is rebuilt when deployments are added after a lookup. */
static void test_name_count(void **state)
{
	(void)state;
	parse("apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata:\n  name: a\n"
	      "---\napiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata:\n  name: b\n");
	assert_int_equal(manifest_name_count(&ms, "a"), 1);
	assert_int_equal(manifest_name_count(&ms, "c"), 0);
	parse("apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata:\n  name: a\n");
	assert_int_equal(manifest_name_count(&ms, "a"), 2);
	assert_int_equal(manifest_name_count(&ms, "b"), 1);
	assert_int_equal(manifest_name_count(&ms, ""), 0);
	assert_int_equal(manifest_name_count(&ms, NULL), 0);
}

/* ---- every container of a worker (issue 9) ---- */

static const struct container *ctr(const struct service *s, const char *name)
{
	for (size_t i = 0; i < s->n_ctrs; i++)
		if (s->ctrs[i].name && !strcmp(s->ctrs[i].name, name))
			return &s->ctrs[i];
	fail_msg("no container %s in %s", name, s->name);
	return NULL;
}

static void test_v1alpha1_extra_and_sidecar_containers(void **state)
{
	parse("apiVersion: nvidia.com/v1alpha1\n"
	      "kind: DynamoGraphDeployment\n"
	      "metadata: {name: side}\n"
	      "spec:\n"
	      "  envs: [{name: DYN_X, value: '1'}]\n"
	      "  services:\n"
	      "    Worker:\n"
	      "      componentType: worker\n"
	      "      resources: {limits: {gpu: '4'}}\n"
	      "      extraPodSpec:\n"
	      "        mainContainer:\n"
	      "          image: proxy:1\n"
	      "          command: [/bin/proxy]\n"
	      "        containers:\n"
	      "        - name: nic\n"
	      "          resources: {limits: {rdma/ib: '1'}}\n"
	      "          securityContext: {capabilities: {add: [IPC_LOCK]}}\n"
	      "        initContainers:\n"
	      "        - name: prep\n"
	      "          command: [sh, -c, 'export UCX_TLS=rc; true']\n"
	      "        - name: engine\n"
	      "          restartPolicy: Always\n"
	      "          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.0\n"
	      "          env: [{name: UCX_TLS, value: tcp}]\n"
	      "          command: [python3, -m, dynamo.vllm, --disaggregation-mode, prefill]\n");
	const struct service *w = svc(0, "Worker");
	assert_int_equal(w->n_ctrs, 4);
	assert_int_equal(w->ctrs[0].kind, CTR_MAIN);
	assert_int_equal(ctr(w, "nic")->kind, CTR_EXTRA);
	assert_int_equal(ctr(w, "prep")->kind, CTR_INIT);
	assert_int_equal(ctr(w, "engine")->kind, CTR_SIDECAR);
	/* the engine runs in the native sidecar: its env and command are the worker's */
	assert_string_equal(w->container, "engine");
	assert_string_equal(w->label, "Worker (sidecar engine)");
	assert_string_equal(env(w, "UCX_TLS")->value, "tcp");
	assert_string_equal(env(w, "DYN_X")->value, "1");
	assert_int_equal(w->role, ROLE_PREFILL);
	assert_string_equal(w->image, "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.0");
	/* the pod's union: the NIC and the capability of the extra container */
	assert_string_equal(kvget(&w->resources, "rdma/ib"), "1");
	assert_int_equal(w->gpus, 4);
	assert_true(service_has_cap(w, "IPC_LOCK"));
	assert_string_equal(service_container_with_cap(w, "IPC_LOCK")->name, "nic");
	assert_string_equal(service_container_with_resource(w, "rdma/ib")->name, "nic");
	/* a plain init container's assignments never reach the engine */
	assert_null(service_container_with_resource(w, "nothing"));
}

static void test_v1beta1_init_sidecar_and_extra(void **state)
{
	parse("apiVersion: nvidia.com/v1beta1\n"
	      "kind: DynamoGraphDeployment\n"
	      "metadata: {name: b}\n"
	      "spec:\n"
	      "  components:\n"
	      "  - name: dec\n"
	      "    type: worker\n"
	      "    podTemplate:\n"
	      "      spec:\n"
	      "        initContainers:\n"
	      "        - name: warm\n"
	      "          restartPolicy: Always\n"
	      "          env: [{name: NCCL_IB_DISABLE, value: '1'}]\n"
	      "        containers:\n"
	      "        - name: log\n"
	      "          image: fluent\n"
	      "        - name: main\n"
	      "          args: [python3 -m dynamo.sglang --disaggregation-mode decode]\n");
	const struct service *d = svc(0, "dec");
	assert_int_equal(d->n_ctrs, 3);
	assert_string_equal(d->ctrs[0].name, "main");
	assert_int_equal(d->ctrs[0].kind, CTR_MAIN);
	assert_int_equal(ctr(d, "log")->kind, CTR_EXTRA);
	assert_int_equal(ctr(d, "warm")->kind, CTR_SIDECAR);
	assert_string_equal(d->container, "main");
	assert_null(d->label); /* the engine runs in main: findings say "dec" */
	assert_int_equal(d->role, ROLE_DECODE);
	assert_null(service_env_get(d, "NCCL_IB_DISABLE"));
}

/* ---- roles from content, never from names ---- */

static void test_plain_roles_from_flags_and_pairing(void **state)
{
	parse("kind: Deployment\n"
	      "metadata: {name: decode-looking-name}\n"
	      "spec:\n"
	      "  template:\n"
	      "    spec:\n"
	      "      containers:\n"
	      "      - name: engine\n"
	      "        command: [trtllm-serve, m, --server_role, CONTEXT]\n"
	      "---\n"
	      "kind: Deployment\n"
	      "metadata: {name: b}\n"
	      "spec:\n"
	      "  template:\n"
	      "    spec:\n"
	      "      containers:\n"
	      "      - name: engine\n"
	      "        command: [trtllm-serve, m, --server_role, GENERATION]\n"
	      "---\n"
	      "kind: Deployment\n"
	      "metadata: {name: prefill-by-name-only}\n"
	      "spec:\n"
	      "  template:\n"
	      "    spec:\n"
	      "      containers:\n"
	      "      - name: engine\n"
	      "        command: [vllm, serve, m]\n");
	manifest_finish(&ms, 0);
	assert_int_equal(ms.n_deps, 3);
	/* paired: the second moved into the first */
	assert_string_equal(ms.deps[0].name, "decode-looking-name + b");
	assert_int_equal(ms.deps[0].n_svcs, 2);
	assert_int_equal(ms.deps[0].svcs[0].role, ROLE_PREFILL);
	assert_string_equal(ms.deps[0].svcs[0].role_source, "--server_role CONTEXT");
	assert_int_equal(ms.deps[0].svcs[1].role, ROLE_DECODE);
	assert_int_equal(ms.deps[1].n_svcs, 0);
	assert_string_equal(ms.deps[1].paired_with, "decode-looking-name");
	/* a name is not a role */
	assert_int_equal(ms.deps[2].svcs[0].role, ROLE_UNKNOWN);
}

/* One pair per (namespace, model): a model's last path component names it,
 * an unnamed namespace (qd) or a model from a variable (vd) never splits a
 * pair. */
#define PLAIN(name, ns, cmd)              \
	"kind: Deployment\n"              \
	"metadata: {name: " name ns "}\n" \
	"spec:\n"                         \
	"  template:\n"                   \
	"    spec:\n"                     \
	"      containers:\n"             \
	"      - name: engine\n"          \
	"        command: [" cmd "]\n"
#define TRT(model, role) "trtllm-serve, " model ", --server_role, " role
#define VLLM_NIXL(model, role)                           \
	"vllm, serve, " model ", --kv-transfer-config, " \
	"'{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"" role "\"}'"

static void test_plain_pairs_by_namespace_and_model(void **state)
{
	static const char *const docs[] = {
		PLAIN("qp", ", namespace: q", TRT("Qwen/Qwen3-8B", "CONTEXT")),
		PLAIN("lp", ", namespace: a", VLLM_NIXL("meta/Llama-3", "kv_producer")),
		PLAIN("ld", ", namespace: b", VLLM_NIXL("meta/Llama-3", "kv_consumer")),
		PLAIN("qd", "", TRT("/models/qwen3-8b/", "GENERATION")),
		PLAIN("vd", ", namespace: a", VLLM_NIXL("$(MODEL)", "kv_consumer")),
		PLAIN("md", ", namespace: a", VLLM_NIXL("mistralai/Mistral-7B", "kv_consumer")),
	};
	char yaml[4096] = "";
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		strcat(yaml, "---\n");
		strcat(yaml, docs[i]);
	}
	parse(yaml);
	manifest_finish(&ms, 0);
	assert_int_equal(ms.n_deps, 6);
	assert_string_equal(ms.deps[0].svcs[0].model, "Qwen/Qwen3-8B");
	/* qwen: one model by its last component, case aside */
	assert_string_equal(ms.deps[0].name, "qp + qd");
	assert_string_equal(ms.deps[3].paired_with, "qp");
	/* llama in namespace a pairs with the decode whose model is a
	 * variable, never with the decode of namespace b */
	assert_string_equal(ms.deps[1].name, "lp + vd");
	assert_null(ms.deps[2].paired_with);
	assert_int_equal(ms.deps[2].n_svcs, 1);
	assert_string_equal(ms.deps[4].paired_with, "lp");
	/* another model's decode of namespace a stays alone */
	assert_null(ms.deps[5].paired_with);
	assert_int_equal(ms.deps[5].n_svcs, 1);
}

static void test_plain_kv_role_and_nnodes(void **state)
{
	parse("kind: StatefulSet\n"
	      "metadata: {name: s}\n"
	      "spec:\n"
	      "  replicas: 2\n"
	      "  template:\n"
	      "    metadata: {labels: {app: x}}\n"
	      "    spec:\n"
	      "      containers:\n"
	      "      - name: e\n"
	      "        args: ['vllm serve m --nnodes 2 --kv-transfer-config "
	      "{\"kv_connector\":\"P2pNcclConnector\",\"kv_role\":\"kv_consumer\"}']\n");
	const struct service *s = &ms.deps[0].svcs[0];
	assert_int_equal(s->role, ROLE_DECODE);
	assert_string_equal(s->role_source, "--kv-transfer-config kv_role kv_consumer");
	assert_int_equal(s->node_count, 2);
	assert_string_equal(s->nodes_how, "--nnodes 2");
}

/* ---- DRA claims by device class ---- */

static void test_claim_kinds(void **state)
{
	parse("apiVersion: resource.k8s.io/v1\n"
	      "kind: ResourceClaimTemplate\n"
	      "metadata: {name: intel}\n"
	      "spec: {spec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu.intel.com}}]}}}\n"
	      "---\n"
	      "kind: ResourceClaimTemplate\n"
	      "metadata: {name: nic}\n"
	      "spec: {spec: {devices: {requests: [{name: n, deviceClassName: rdma-dranet}]}}}\n"
	      "---\n"
	      "kind: ComputeDomain\n"
	      "metadata: {name: cd}\n"
	      "spec: {numNodes: 2, channel: {resourceClaimTemplate: {name: cd-chan}}}\n");
	assert_int_equal(manifest_claim_kind(&ms, "intel"), CLAIM_GPU);
	assert_int_equal(manifest_claim_kind(&ms, "nic"), CLAIM_NIC);
	assert_int_equal(manifest_claim_kind(&ms, "cd-chan"), CLAIM_MNNVL);
	assert_int_equal(manifest_claim_kind(&ms, "elsewhere"), CLAIM_UNKNOWN);
}

/* ---- operator-rendered objects ---- */

static void test_grove_podcliqueset(void **state)
{
	parse("apiVersion: grove.io/v1alpha1\n"
	      "kind: PodCliqueSet\n"
	      "metadata: {name: g}\n"
	      "spec:\n"
	      "  template:\n"
	      "    cliques:\n"
	      "    - name: p-ldr\n"
	      "      labels: {nvidia.com/dynamo-sub-component-type: prefill}\n"
	      "      spec:\n"
	      "        replicas: 1\n"
	      "        podSpec:\n"
	      "          affinity:\n"
	      "            podAntiAffinity:\n"
	      "              preferredDuringSchedulingIgnoredDuringExecution: []\n"
	      "          containers: [{name: main, command: [python3, -m, dynamo.vllm]}]\n"
	      "    - name: p-wkr\n"
	      "      spec:\n"
	      "        replicas: 1\n"
	      "        podSpec:\n"
	      "          affinity:\n"
	      "            podAntiAffinity:\n"
	      "              requiredDuringSchedulingIgnoredDuringExecution:\n"
	      "              - topologyKey: kubernetes.io/hostname\n"
	      "          containers: [{name: main}]\n"
	      "    podCliqueScalingGroups:\n"
	      "    - name: p\n"
	      "      cliqueNames: [p-ldr, p-wkr]\n");
	assert_int_equal(ms.n_deps, 1);
	assert_true(ms.deps[0].operator_rendered);
	const struct service *l = svc(0, "g/p-ldr");
	assert_int_equal(l->role, ROLE_PREFILL);
	assert_int_equal(l->node_count, 2);
	assert_true(l->anti_affinity);
	assert_false(l->anti_affinity_required);
	assert_true(svc(0, "g/p-wkr")->anti_affinity_required);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_v1alpha1_services, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v1beta1_components, setup, teardown),
		cmocka_unit_test_setup_teardown(test_roles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flow_style_and_anchors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multi_document_configmap_compute_domain, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_scalars_null_bool_tags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inline_env, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inline_env_argv_and_scalar_forms, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_workload_kinds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_leader_worker_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalid_yaml_keeps_earlier_documents, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_alias_bomb, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deep_nesting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_node_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_binary_huge_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crlf_bom_non_utf8, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undefined_alias_and_odd_shapes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_amplification_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_name_count, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v1alpha1_extra_and_sidecar_containers, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_v1beta1_init_sidecar_and_extra, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_plain_pairs_by_namespace_and_model, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_plain_roles_from_flags_and_pairing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_plain_kv_role_and_nnodes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_claim_kinds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_grove_podcliqueset, setup, teardown),
	};
	return cmocka_run_group_tests_name("manifest_parse", tests, NULL, NULL);
}
