/* SPDX-License-Identifier: Apache-2.0 */
/* Where the layer and criticality of every nixl check are decided. */
#include "nixl/nixl_desc.h"

const struct check_desc nixl_check_table[NIXL_CK_COUNT] = {
	[NIXL_CK_PROBE] = {"nixl.probe", CI_LAYER_FABRIC, true,
			   "the probe ran and its transcript was read"},
	[NIXL_CK_TOOLS] = {"nixl.tools", CI_LAYER_TUNING, false,
			   "the tools for the pair test are installed"},
	[NIXL_CK_PYTHON] = {"nixl.python", CI_LAYER_ENV, false, "the NIXL Python package"},
	[NIXL_CK_PLUGINS] = {"nixl.plugins", CI_LAYER_DRIVER, true,
			     "the NIXL backend plugins are installed"},
	[NIXL_CK_BACKEND] = {"nixl.backend", CI_LAYER_DRIVER, true,
			     "the backend NIXL will use for KV"},
	[NIXL_CK_LIBFABRIC] = {"nixl.libfabric", CI_LAYER_DRIVER, true,
			       "libfabric with the EFA provider for the LIBFABRIC backend"},
	[NIXL_CK_UCX_VERSION] = {"nixl.ucx.version", CI_LAYER_DRIVER, true,
				 "the UCX version NIXL loads"},
	[NIXL_CK_UCX_BUILD] = {"nixl.ucx.build", CI_LAYER_DRIVER, true,
			       "UCX built with CUDA and verbs support"},
	[NIXL_CK_UCX_RDMA] = {"nixl.ucx.rdma", CI_LAYER_DRIVER, true,
			      "UCX sees an RDMA transport on the pod's devices"},
	[NIXL_CK_UCX_GPUDIRECT] = {"nixl.ucx.gpudirect", CI_LAYER_DRIVER, true,
				   "UCX can register GPU memory for RDMA"},
	[NIXL_CK_UCX_CUDA] = {"nixl.ucx.cuda", CI_LAYER_DRIVER, true,
			      "UCX has its CUDA transports"},
	[NIXL_CK_UCX_FILTERS] = {"nixl.ucx.filters", CI_LAYER_ENV, true,
				 "UCX_TLS / UCX_NET_DEVICES leave an RDMA path"},
	[NIXL_CK_ENV_KV] = {"nixl.env.kv", CI_LAYER_ENV, false,
			    "engine and NCCL variables that break or slow the KV path"},
	[NIXL_CK_PEER] = {"nixl.peer", CI_LAYER_ENV, false, "the peer pod for the pair test"},
	[NIXL_CK_REACHABILITY] = {"nixl.reachability", CI_LAYER_FABRIC, false,
				  "whether the peer is reachable (needs the pair test)"},
};
