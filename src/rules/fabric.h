/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fabric model: from a pod's facts, decide once which paths can carry KV
 * between this pod and its peers (InfiniBand, RoCE, EFA, multi-node NVLink,
 * NVLink inside the node, TCP), and which of them KV takes between nodes.
 * Every check that would otherwise assume a NIC (node, nixl, fleet, live,
 * `all`'s drift) asks this model instead.
 *
 * Pure: a small input struct of its own (plain counts and readings, no
 * node_facts), so that live/ (below node/ in the layers) can fill it too.
 * docs/checks.md ("The fabric model") cites the sources of every rule here.
 */
#ifndef CI_RULES_FABRIC_H
#define CI_RULES_FABRIC_H

#include <stdbool.h>

enum fabric_path {
	FABRIC_IB = 0, /* InfiniBand verbs (UCX rc/dc/ud mlx5, NCCL net IB) */
	FABRIC_ROCE,   /* RoCE verbs */
	FABRIC_EFA,    /* AWS EFA through libfabric (NIXL's LIBFABRIC backend) */
	FABRIC_MNNVL,  /* multi-node NVLink: cuda_ipc over fabric handles, IMEX */
	FABRIC_NVLINK, /* NVLink inside the node only (peers on the same node) */
	FABRIC_TCP,    /* always there: the slow path */
	FABRIC_PATH_COUNT,
};

/* What nvidia-smi -q says of the GPUs' NVLink fabric. */
enum fabric_gpu_state {
	FGS_UNREAD = 0, /* nvidia-smi -q could not be read */
	FGS_NO_BLOCK,   /* read, but no GPU prints a Fabric block (drivers before r530) */
	FGS_NA,         /* every Fabric State reads N/A / Not Supported: no fabric probe */
	FGS_NO_STATE,   /* a Fabric block without a State line (cut or changed format) */
	FGS_NOT_READY,  /* some GPU: not Completed/Success (Not Started, In Progress, ...) */
	FGS_COMPLETED,  /* every GPU that reports one: Completed / Success */
};

enum fabric_tri {
	FABRIC_UNKNOWN = 0,
	FABRIC_NO,
	FABRIC_YES,
};

struct fabric_in {
	/* RDMA NICs this pod was given (its uverbs node is there; EFA: listed
	 * in sysfs) with at least one ACTIVE port, per kind */
	unsigned ib_nics, roce_nics, efa_nics;
	/* RDMA devices sysfs lists but the pod cannot open (no uverbs node):
	 * the host's devices, shown in every pod in shared RDMA-namespace mode */
	unsigned nics_not_given;
	/* RDMA devices given to the pod without an ACTIVE port (carry nothing
	 * now; node.rdma.ports reports them) */
	unsigned nics_given_down;
	bool nics_read; /* /sys/class/infiniband (and /dev) were read */

	unsigned gpus;
	/* every GPU pair linked by NVLink (topo -m NV#); UNKNOWN: not read */
	enum fabric_tri nvlink_all_pairs;
	unsigned nvlinks_active;   /* nvidia-smi nvlink -s; 0 when unread */
	bool nvswitch_form_factor; /* the product name says SXM/HGX (read only
				    * when the links cannot be) */
	enum fabric_gpu_state fabric;
	bool cluster_uuid;      /* some GPU reports a non-zero ClusterUUID */
	unsigned imex_channels; /* /dev/nvidia-caps-imex-channels/channel<N> */

	/* UCX as NIXL's copy reports it (0.0: unknown) and its cuda_ipc */
	unsigned ucx_major, ucx_minor;
	enum fabric_tri ucx_cuda_ipc;
};

struct fabric_model {
	/* A fabric state is expected from these GPUs: they sit in an NVLink
	 * domain (ClusterUUID) or NVLink joins every pair (an NVSwitch board),
	 * or, links unreadable, the product is an SXM/HGX part.  Never the CPU:
	 * a Grace host without NVSwitch (GH200, GB10) has no fabric to read. */
	bool nvswitch_class;
	/* The GPUs are in a multi-node NVLink domain (ClusterUUID). */
	bool mnnvl_domain;
	/* The path can carry KV to a peer pod (on another node for every path
	 * but FABRIC_NVLINK).  FABRIC_TCP is always true. */
	bool can[FABRIC_PATH_COUNT];
	/* What KV takes between nodes: MNNVL inside an NVLink domain, else
	 * the RDMA kind the pod was given (EFA, InfiniBand, RoCE), else TCP. */
	enum fabric_path kv;
	/* The MNNVL path is judged on MNNVL (IMEX, fabric, UCX cuda_ipc), so
	 * a missing NIC or uverbs node is a warning, not a failure. */
	bool nic_optional;
	/* Why the MNNVL path cannot carry KV although the GPUs are in a
	 * domain ("" when it can, or no domain): one line. */
	const char *mnnvl_gap;
};

void fabric_decide(const struct fabric_in *in, struct fabric_model *out);
const char *fabric_path_name(enum fabric_path p);
/* The source of the model's rules, one line each (docs/checks.md). */
const char *fabric_rule_source(void);

#endif
