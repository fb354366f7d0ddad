/* SPDX-License-Identifier: Apache-2.0 */
/* Shared between the manifest reader's files; not part of its API. */
#ifndef CI_MANIFEST_INTERNAL_H
#define CI_MANIFEST_INTERNAL_H

#include "manifest/deploy_model.h"

/* Per-list caps: a hostile file cannot make a merge quadratic. */
#define MANIFEST_MAX_ENV        1024
#define MANIFEST_MAX_KV         1024
#define MANIFEST_MAX_SERVICES   1024
/* Entries copied from one place to many (deployment env into every service,
 * ConfigMap data through envFrom) per file: the one amplification the
 * tree's alias budget does not bound. */
#define MANIFEST_MAX_COPIES     200000u
#define MANIFEST_MAX_COPY_BYTES (64u << 20)

/* manifest_set.c */
void ms_diag(struct manifest_set *ms, enum diag_severity sev, const char *file, int line, int col,
	     char *msg /* owned */);
const char *ms_add_file(struct manifest_set *ms, const char *name);
/* Later wins: an entry of the same name is replaced in place.  False when
 * the list is full (the entry is dropped). */
bool env_list_set(struct env_list *l, const char *name, const char *value, const char *value_from,
		  enum env_origin origin, struct src_loc loc);
struct env_var *env_list_find(const struct env_list *l, const char *name);
void env_list_release(struct env_list *l);
/* Replace (same key) or append. */
bool kv_list_set(struct kv_list *l, const char *key, const char *value, struct src_loc loc);
/* Append even when the key exists (envFrom may name two secrets). */
bool kv_list_add(struct kv_list *l, const char *key, const char *value, struct src_loc loc);
struct kv *kv_list_find(const struct kv_list *l, const char *key);
void kv_list_release(struct kv_list *l);
void service_release(struct service *s);
/* After the engine container's lists changed: the service's view of them
 * (service.ctr_view) follows. */
void service_view_sync(struct service *s);
/* Give back the spare capacity of every list of the deployments from
 * first_dep on: called when a file's deployments are built, so that the
 * model of a large tree is the size of what it holds (bench/env.sh). */
void manifest_compact(struct manifest_set *ms, size_t first_dep);

/* manifest_shell.c: assignments a shell would export to the command it runs. */
typedef void (*shell_assign_fn)(void *ctx, const char *name, const char *value, int line);
/* Parse one shell script (a command/args string); line is that of its first
 * line, so each assignment gets its own. */
void shell_scan_assignments(const char *script, int line, shell_assign_fn fn, void *ctx);
/* argv form: `env A=b cmd ...` as separate elements. */
bool shell_is_env_word(const char *word);
bool shell_split_assignment(const char *word, size_t *name_len);
bool shell_env_name_ok(const char *name, size_t len);
/* The value of --disaggregation-mode (or the older --is-prefill-worker), or
 * NULL; written to out (size outsz). */
const char *shell_disagg_mode(const char *cmdline, char *out, size_t outsz);
/* The word after FLAG (`FLAG X`, `FLAG=X`, quoted or not), lowercased, or
 * NULL.  FLAG must start a word. */
const char *shell_flag_word(const char *cmdline, const char *flag, char *out, size_t outsz);

/* manifest_model.c */
void manifest_resolve_configmaps(struct manifest_set *ms, size_t first_dep, bool same_file);

#endif
