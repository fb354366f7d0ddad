/* SPDX-License-Identifier: Apache-2.0 */
/* Where the layer, criticality and source of every live check are decided.  The
 * evidence of the path outranks the configuration, so what it says about
 * the path is critical; which process was read is not. */
#include "live/live_desc.h"

const struct check_desc live_check_table[LIVE_CK_COUNT] = {
	[LIVE_CK_PROCESS] = {"node.live.process", CI_LAYER_ENV, false,
			     "the engine process whose loaded libraries and descriptors are read",
			     "proc(5), /proc/pid/maps and /proc/pid/fd"},
	[LIVE_CK_LOADED] =
		{"node.live.loaded", CI_LAYER_DRIVER, true,
		 "what the engine loaded and holds: NIXL plugin, UCX IB/CUDA modules, uverbs",
		 "openucx/ucx src/ucs/sys/module.c@v1.18.0 (UCX loads its transports as libuct_*.so modules)"},
	[LIVE_CK_TRAFFIC] =
		{"node.live.traffic", CI_LAYER_FABRIC, true,
		 "what moved during --observe: NIXL bytes against RDMA and TCP bytes",
		 "ai-dynamo/nixl docs/telemetry.md@v1.4.0 (agent_tx_bytes_total, agent_rx_bytes_total)",
		 CI_DESC_EVIDENCE},
	[LIVE_CK_ERRORS] = {"node.live.errors", CI_LAYER_ENV, true,
			    "NIXL's error counters during --observe",
			    "ai-dynamo/nixl docs/telemetry.md@v1.4.0 (agent_errors_total)"},
	[LIVE_CK_LOGS] = {"node.live.logs", CI_LAYER_ENV, true,
			  "known transport lines in the worker's log (--logs)",
			  "check_interconnect src/rules/logs_table.c (tools/log_formats.py)"},
};
