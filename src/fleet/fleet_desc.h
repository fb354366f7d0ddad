/* SPDX-License-Identifier: Apache-2.0 */
/* The fleet checks: one descriptor each (id, layer, critical; see
 * struct check_desc in core/report.h), described in docs/checks.md. */
#ifndef CI_FLEET_DESC_H
#define CI_FLEET_DESC_H

#include <stddef.h>

#include "core/report.h"

enum fleet_check {
	FLEET_CK_PODS = 0,
	FLEET_CK_PODS_NOT_RUNNING,
	FLEET_CK_PODS_CAPPED,
	FLEET_CK_UNREACHABLE,
	FLEET_CK_ENV_DRIFT,
	FLEET_CK_UCX_VERSION,
	FLEET_CK_NIXL_VERSION,
	FLEET_CK_BACKEND,
	FLEET_CK_RDMA_PORTS,
	FLEET_CK_RDMA_RATE,
	FLEET_CK_LINK_LAYER,
	FLEET_CK_GPUS,
	FLEET_CK_DRIVER,
	FLEET_CK_GPUDIRECT_MODE,
	FLEET_CK_GDRCOPY,
	FLEET_CK_EFA_COLOCATED,
	FLEET_CK_ROCE_GID,
	FLEET_CK_RDMA_MTU,
	FLEET_CK_NIC_FW,
	FLEET_CK_MNNVL_DOMAIN,
	FLEET_CK_DRIFT_MATCH,
	FLEET_CK_DRIFT_RECIPE,
	FLEET_CK_DRIFT_IMAGE,
	FLEET_CK_LIVE_FLAT,
	FLEET_CK_LIVE_BALANCE,
	FLEET_CK_LIVE_WINDOW,
	FLEET_CK_COUNT,
};

extern const struct check_desc fleet_check_table[FLEET_CK_COUNT];
/* The descriptor of one fleet check: FLEET_CHECK(PODS). */
#define FLEET_CHECK(name) (&fleet_check_table[FLEET_CK_##name])

#endif
