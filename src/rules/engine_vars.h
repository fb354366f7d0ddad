/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Engine and NCCL variables that change the KV path and that no UCX rule
 * reads: one row each (name, when it breaks, the status, the words, the
 * source), judged once for node.env.kv and nixl.env.kv.
 */
#ifndef CI_RULES_ENGINE_VARS_H
#define CI_RULES_ENGINE_VARS_H

#include <stdbool.h>

#include "rules/fabric.h"

struct engine_var_rule {
	const char *name;
	int status;       /* enum ci_status when the rule matches */
	const char *what; /* the consequence */
	const char *fix;
	const char *source;
};

/* The row that the variable's value breaks in this fabric, or NULL when it
 * is fine (or not a variable these rules know). */
const struct engine_var_rule *engine_var_judge(const char *name, const char *value,
					       const struct fabric_model *m);
/* Every row, for docs and tests (NULL-terminated by name). */
const struct engine_var_rule *engine_var_rules(void);
/* A loopback host: localhost, 127.0.0.0/8, ::1, 0.0.0.0 / :: (unspecified). */
bool engine_host_loopback(const char *v);

#endif
