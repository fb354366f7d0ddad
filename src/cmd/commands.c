/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The verb table.  Adding a verb is one entry here and one file in this
 * directory (docs/HACKING.md, "Adding a verb"); the options it takes are
 * named in the option table's rows (options.c).  The runner (run_verb.c) does
 * the option checks, the target, the probe and its failure, the rendering
 * and the final write check for it.  The order is the order of --help.
 */
#include <string.h>

#include "cmd/cmd.h"
#include "nixl/nixl_desc.h"
#include "node/node_desc.h"

const struct verb verbs[] = {
	{
		.name = "env",
		.synopsis = "env <recipe dir|manifest|->...",
		.summary = "lint recipes, or a live DGD (--deployment)",
		.description =
			"Reads recipe folders (searched for *.yaml and *.yml) and manifest files, "
			"builds every DynamoGraphDeployment and GPU workload in them, and checks "
			"what the YAML says about the KV transport: UCX, NIXL, NCCL and "
			"libfabric variables, prefill/decode agreement, RDMA resources, IPC_LOCK "
			"and memlock. A kustomize overlay in them is judged as `kubectl "
			"kustomize` renders it (read-only; without kubectl its bases are listed, "
			"not judged alone). '-' reads one YAML stream from stdin; --deployment "
			"NAME reads the live DynamoGraphDeployment (one kubectl get) instead.",
		.examples =
			(const char *const[]){
				"check_interconnect env recipes/llama-3-70b/vllm/disagg-multi-node",
				"check_interconnect env --format sarif --output results.sarif recipes/",
				NULL,
			},
		/* paths, or with --deployment the live object (one kubectl get):
		 * no pods, so no fan-out options (options.c, FLEET_VERBS) */
		.targets = VT_PATHS | VT_FLEET,
		.fleet_optional = true,
		.min_args = 0,
		.max_args = -1,
		.run = cmd_env,
	},
	{
		.name = "node",
		.synopsis = "node [POD]",
		.summary = "RDMA, GPUDirect, GDRCopy, NVLink, memlock, env",
		.description =
			"Probes one pod (one kubectl exec), the local host, a --sysroot tree or a "
			"saved transcript: RDMA devices and ports, /dev/infiniband, GPUDirect "
			"(peermem or DMA-BUF), GDRCopy, NVLink and MNNVL, memlock, and the "
			"pod's real transport variables against its hardware. With "
			"--deployment or -l, every worker pod in parallel, with fleet checks. "
			"Without -n, the namespace of the current kubeconfig context.",
		.examples =
			(const char *const[]){
				"check_interconnect node -n dynamo --pod vllm-decode-0",
				"kubectl interconnect node -n dynamo vllm-decode-0",
				"check_interconnect node --deployment llm-disagg -n dynamo",
				"check_interconnect node --format npd",
				NULL,
			},
		.targets = VT_PROBE | VT_FLEET,
		.judge = cmd_node,
		.probe_check = NODE_CHECK(PROBE),
		.fleet = FLEET_NODE,
	},
	{
		.name = "nixl",
		.synopsis = "nixl [POD]",
		.summary = "NIXL/UCX readiness and the pair-test commands",
		.description =
			"Checks NIXL/UCX readiness in a pod: plugins, the backend, the UCX build, "
			"its transports and memory domains; then prints the pair-test commands "
			"(nixlbench, ucx_perftest) that prove reachability. It never runs "
			"them.",
		.examples =
			(const char *const[]){
				"check_interconnect nixl -n dynamo --pod vllm-prefill-0 --peer vllm-decode-0",
				"check_interconnect nixl --deployment llm-disagg -n dynamo",
				NULL,
			},
		.targets = VT_PROBE | VT_FLEET,
		.check = cmd_nixl_check,
		.start = cmd_nixl_start,
		.judge = cmd_nixl,
		.stop = cmd_nixl_stop,
		.probe_check = NIXL_CHECK(PROBE),
		.fleet = FLEET_NIXL,
	},
	{
		.name = "all",
		.synopsis = "all <recipe dir>",
		.summary = "env + node + nixl over a deployment, with drift",
		.description =
			"Runs env on the recipe and node and nixl on every worker pod of the "
			"deployment, and compares the recipe with what the pods really have "
			"(drift). Needs --deployment NAME (or -l LABELS).",
		.examples =
			(const char *const[]){
				"check_interconnect all recipes/llm-disagg --deployment llm-disagg -n dynamo",
				NULL,
			},
		.targets = VT_PATHS | VT_FLEET,
		.min_args = 1,
		.max_args = 1,
		.args_error = "needs one recipe folder or manifest: all RECIPE_DIR "
			      "--deployment NAME -n NAMESPACE",
		.run = cmd_all,
		.fleet = FLEET_ALL,
	},
	{
		.name = "agent",
		.synopsis = "agent",
		.summary = "watch every engine on this node, for Prometheus",
		.description =
			"Runs on a node (a DaemonSet pod with the host's PID namespace and "
			"read-only /proc, /sys, /dev and /var/log/pods), or under --sysroot. "
			"Every --interval it runs the node checks, finds every engine process, "
			"names its pod from the node's own files (its cgroup, the kubelet's "
			"/var/log/pods), reads its evidence as node --observe does over the "
			"window since the last scan, and serves the metrics at --listen "
			"(/metrics, /healthz). --once writes one scan (two samples a window "
			"apart) for node_exporter's textfile collector.",
		.examples =
			(const char *const[]){
				"check_interconnect agent --interval 60s --listen :9477",
				"check_interconnect agent --once --format prometheus --output "
				"/var/lib/node_exporter/textfile/check_interconnect.prom",
				NULL,
			},
		.targets = VT_NONE,
		.args_error = "takes no arguments",
		.check = cmd_agent_check,
		.run = cmd_agent,
	},
	{
		.name = "vars",
		.synopsis = "vars",
		.summary = "print the transport variable catalogue",
		.description =
			"Prints every transport variable the checks know, its family, when it is "
			"critical and the rule applied to it.",
		.examples =
			(const char *const[]){
				"check_interconnect vars",
				"check_interconnect vars --json",
				NULL,
			},
		.targets = VT_NONE,
		.args_error = "takes no arguments",
		.run = cmd_vars,
	},
};

const size_t n_verbs = sizeof(verbs) / sizeof(verbs[0]);

const struct verb *verb_find(const char *name)
{
	for (size_t i = 0; i < n_verbs; i++)
		if (!strcmp(name, verbs[i].name))
			return &verbs[i];
	return NULL;
}
