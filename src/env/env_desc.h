/* SPDX-License-Identifier: Apache-2.0 */
/* The env checks: one descriptor each (id, layer, critical; see
 * struct check_desc in core/report.h), described in docs/checks.md. */
#ifndef CI_ENV_DESC_H
#define CI_ENV_DESC_H

#include <stddef.h>

#include "core/report.h"
#include "env/env_varrules.h"

enum env_check {
	ENV_CK_INPUT = 0,
	ENV_CK_DEPLOYMENT,
	ENV_CK_MODE,
	ENV_CK_TRANSPORT,
	ENV_CK_FABRIC,
	ENV_CK_BACKEND,
	ENV_CK_PAIR_AGREE,
	ENV_CK_VARS,
	ENV_CK_UCX_TLS,
	ENV_CK_UCX_NET_DEVICES,
	ENV_CK_UCX_IB_ADDR_TYPE,
	ENV_CK_UCX_RNDV,
	ENV_CK_NCCL_IB,
	ENV_CK_POD_RDMA,
	ENV_CK_POD_MEMLOCK,
	ENV_CK_POD_ANTI_AFFINITY,
	ENV_CK_POD_SHM,
	ENV_CK_COUNT,
};

extern const struct check_desc env_check_table[ENV_CK_COUNT];
/* The descriptor of one env check: ENV_CHECK(INPUT). */
#define ENV_CHECK(name) (&env_check_table[ENV_CK_##name])

/* The env check of one shared value rule (env.ucx.tls ... env.nccl.ib);
 * env_varrule_check(0) is the table env_check_pod_vars() takes. */
const struct check_desc *env_varrule_check(enum varrule_id id);

#endif
