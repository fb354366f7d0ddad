/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Builders for hand-made deployment models and finders for report checks,
 * shared by the env unit tests.  Everything allocated here is owned by the
 * manifest_set and freed by manifest_set_release().
 */
#ifndef ENV_TEST_UTIL_H
#define ENV_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "core/report.h"
#include "core/xalloc.h"
#include "env/env_analyze.h"
#include "manifest/deploy_model.h"
#include "test_util.h"

static inline const char *tu_file(struct manifest_set *ms)
{
	if (!ms->n_files)
		*XPUSH(ms->files, ms->n_files, ms->cap_files) = xstrdup("deploy.yaml");
	return ms->files[0];
}

static inline struct deployment *tu_dep(struct manifest_set *ms, const char *name,
					const char *framework)
{
	struct deployment *d = XPUSH(ms->deps, ms->n_deps, ms->cap_deps);
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	d->kind = xstrdup("DynamoGraphDeployment");
	d->api_version = xstrdup("nvidia.com/v1alpha1");
	d->framework = framework ? xstrdup(framework) : NULL;
	d->loc.file = tu_file(ms);
	d->loc.line = 1;
	return d;
}

static inline struct service *tu_svc(struct deployment *d, const char *name, enum svc_role role,
				     long gpus, long nodes, const char *cmd)
{
	struct service *s = XPUSH(d->svcs, d->n_svcs, d->cap_svcs);
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->role = role;
	s->role_source = xstrdup("test");
	s->replicas = 1;
	s->node_count = nodes;
	s->gpus = gpus;
	s->image = xstrdup("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.3.0");
	s->command_line = cmd ? xstrdup(cmd) : NULL;
	s->loc = d->loc;
	s->command_loc = d->loc;
	return s;
}

static inline struct env_var *tu_env(struct service *s, const char *name, const char *value,
				     int line)
{
	struct env_var *v = XPUSH(s->env.v, s->env.n, s->env.cap);
	memset(v, 0, sizeof(*v));
	v->name = xstrdup(name);
	v->value = value ? xstrdup(value) : NULL;
	v->origin = ENV_CONTAINER;
	v->loc.file = s->loc.file;
	v->loc.line = line;
	return v;
}

static inline void tu_kv(struct kv_list *l, const char *k, const char *v)
{
	struct kv *e = XPUSH(l->v, l->n, l->cap);
	memset(e, 0, sizeof(*e));
	e->key = xstrdup(k);
	e->value = xstrdup(v);
}

/* A vLLM disaggregated pair (prefill + decode) with the given GPUs/nodes. */
#define TU_VLLM_PREFILL                                         \
	"python3 -m dynamo.vllm --disaggregation-mode prefill " \
	"--kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'"
#define TU_VLLM_DECODE                                         \
	"python3 -m dynamo.vllm --disaggregation-mode decode " \
	"--kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'"

/* Like tu_find, but never NULL: a missing check is a sentinel whose status
 * matches nothing, so assertions on it fail with a readable message. */
static inline const struct ci_check *tu_get(const struct ci_report *r, const char *id)
{
	static char miss_text[] = "(missing check)";
	static char *no_evidence[1] = {miss_text};
	static struct ci_check missing = {
		.id = miss_text,
		.status = (enum ci_status)99,
		.detail = miss_text,
		.fix = miss_text,
		.evidence = no_evidence,
		.n_evidence = 1,
	};
	const struct ci_check *c = tu_find(r, id);
	return c ? c : &missing;
}

static inline size_t tu_count(const struct ci_report *r, const char *id)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_checks; i++)
		n += !strcmp(r->checks[i].id, id);
	return n;
}

#endif
