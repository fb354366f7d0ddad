/* SPDX-License-Identifier: Apache-2.0 */
/* The live checks (node.live.*): one descriptor each (id, layer, critical;
 * see struct check_desc in core/report.h), described in docs/checks.md. */
#ifndef CI_LIVE_DESC_H
#define CI_LIVE_DESC_H

#include <stddef.h>

#include "core/report.h"

enum live_check {
	LIVE_CK_PROCESS = 0,
	LIVE_CK_LOADED,
	LIVE_CK_TRAFFIC,
	LIVE_CK_ERRORS,
	LIVE_CK_LOGS,
	LIVE_CK_COUNT,
};

extern const struct check_desc live_check_table[LIVE_CK_COUNT];

#endif
