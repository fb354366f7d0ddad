/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engines' own entry points: how vLLM, SGLang, TRT-LLM and Dynamo's
 * wrappers are started, whatever wraps them (`bash -c`, an entrypoint
 * script, `exec`, a variable holding the binary), and Ray's cluster start.
 * Each row carries its source (docs/checks.md cites the same).
 */
#ifndef CI_RULES_ENGINES_H
#define CI_RULES_ENGINES_H

#include <stdbool.h>

enum engine_id {
	ENGINE_NONE = 0,
	ENGINE_VLLM,
	ENGINE_SGLANG,
	ENGINE_TRTLLM,
	ENGINE_DYNAMO_VLLM,
	ENGINE_DYNAMO_SGLANG,
	ENGINE_DYNAMO_TRTLLM,
	ENGINE_DYNAMO_MOCKER,
	ENGINE_TEST, /* nixlbench, ucx_perftest: a transfer test */
};

struct engine_entry {
	const char *pattern; /* a module or a console script, as the command says it */
	enum engine_id engine;
	const char *source; /* project, file, version */
};

/* The engine a command line starts, by the rows (module names, console
 * scripts) and, for a word no row names, by the general rule: a command
 * word whose name says vllm/sglang followed by `serve` ("$VLLM_RS serve",
 * "/opt/vllm-rs/bin/vllm-rs serve").  *row: the row, NULL for the general
 * rule or none. */
enum engine_id engine_of_command(const char *cmdline, const struct engine_entry **row);

/* The engine a container that only passes arguments runs (its image's
 * entrypoint), by flags only that engine takes: --kv-transfer-config is
 * vLLM's, --disaggregation-transfer-backend SGLang's.  ENGINE_NONE. */
enum engine_id engine_of_flags(const char *args);

/* The vLLM KV connector a command line names that moves KV between engines
 * (a prefill/decode endpoint, whatever kv_role says), or NULL: storage and
 * offload connectors (LMCache, ExampleConnector) move none between pods. */
const char *engine_kv_transfer_connector(const char *cmdline);

/* What a vLLM KV connector does with KV, by its registered name (vLLM's
 * kv_connector/factory.py). */
enum kv_connector_kind {
	KV_CONN_UNKNOWN = 0, /* not a name vLLM registers (an out-of-tree module) */
	KV_CONN_NIXL,        /* moves KV between engines through NIXL */
	KV_CONN_TRANSFER,    /* moves KV between engines by another library */
	KV_CONN_LOCAL,       /* keeps KV within the node: CPU offload, a local file */
	KV_CONN_STORE,       /* through a KV store or file system shared by the pods */
};
struct kv_connector {
	const char *name; /* the registered name, as kv_connector spells it */
	enum kv_connector_kind kind;
	const char *source; /* project, file, version */
};
/* The row of a registered connector name; NULL: none. */
const struct kv_connector *engine_kv_connector(const char *name);

/* Dynamo releases whose behaviour a check follows. */
struct dynamo_release {
	int major, minor;
	const char *text;   /* "1.0" */
	const char *source; /* project, file, version */
};
/* dynamo.vllm stops defaulting to NIXL: a prefill worker without
 * --kv-transfer-config does not start, a decode worker has no connector */
const struct dynamo_release *dynamo_no_default_connector(void);
/* the newest release: what an image tag that names none is judged by */
const struct dynamo_release *dynamo_newest(void);

/* A workload CRD whose controller gives its engine container the command
 * when the manifest gives none: the command it runs and the variable whose
 * value it appends as more engine arguments. */
struct engine_default_launch {
	const char *kind;      /* the CRD's kind */
	const char *container; /* the container it fills, by name */
	const char *command;   /* what it runs */
	const char *args_env;  /* appended arguments, or NULL */
	const char *source;    /* project, file, version */
};
/* The row for a container of KIND named CONTAINER, or NULL. */
const struct engine_default_launch *engine_default_launch(const char *kind, const char *container);

/* vLLM, SGLang or TRT-LLM for any of the ids (Dynamo's wrappers run them). */
enum engine_id engine_family(enum engine_id e);

/* A Ray cluster start (`ray start --head` / `ray start --address=`): the
 * pods that run it form one multi-node engine.  *head: it is the head. */
bool engine_ray_start(const char *cmdline, bool *head);
extern const char *const engine_ray_source;

/* The command runs an engine or a transfer test (the env verb's relevance). */
bool engine_command_relevant(const char *cmdline);

#endif
