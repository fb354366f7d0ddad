/* SPDX-License-Identifier: Apache-2.0 */
/* The nixl checks: one descriptor each (id, layer, critical; see
 * struct check_desc in core/report.h), described in docs/checks.md. */
#ifndef CI_NIXL_DESC_H
#define CI_NIXL_DESC_H

#include <stddef.h>

#include "core/report.h"

enum nixl_check {
	NIXL_CK_PROBE = 0,
	NIXL_CK_TOOLS,
	NIXL_CK_PYTHON,
	NIXL_CK_PLUGINS,
	NIXL_CK_BACKEND,
	NIXL_CK_LIBFABRIC,
	NIXL_CK_UCX_VERSION,
	NIXL_CK_UCX_BUILD,
	NIXL_CK_UCX_RDMA,
	NIXL_CK_UCX_GPUDIRECT,
	NIXL_CK_UCX_CUDA,
	NIXL_CK_UCX_FILTERS,
	NIXL_CK_ENV_KV,
	NIXL_CK_MEMLOCK,
	NIXL_CK_NVLINK_FABRIC,
	NIXL_CK_MNNVL_IMEX,
	NIXL_CK_PEER,
	NIXL_CK_REACHABILITY,
	NIXL_CK_COUNT,
};

extern const struct check_desc nixl_check_table[NIXL_CK_COUNT];
/* The descriptor of one nixl check: NIXL_CHECK(PROBE). */
#define NIXL_CHECK(name) (&nixl_check_table[NIXL_CK_##name])

#endif
