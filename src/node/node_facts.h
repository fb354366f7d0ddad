/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a probe transcript says about one host or pod, read once by
 * node_facts_read() (pure: transcript in, struct out) and then judged by the
 * checks in node_checks.h.  Every reading remembers whether it could be made
 * at all, so that a missing tool becomes `skipped` and never a false pass.
 */
#ifndef CI_NODE_FACTS_H
#define CI_NODE_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "live/live.h"
#include "parse/fi_info.h"
#include "parse/smi_nvlink.h"
#include "parse/smi_p2p.h"
#include "parse/smi_query.h"
#include "parse/smi_topo.h"
#include "parse/sysfs_ib.h"
#include "parse/transcript.h"

/* Caps on what one transcript may make us hold. */
#define NODE_MAX_DEVS  64
#define NODE_MAX_PORTS 8
#define NODE_MAX_GIDS  256 /* the kernel's GID tables hold up to 256 (mlx5: 255) */
#define NODE_MAX_IFS   256
#define NODE_MAX_ENV   256

/* How a tool's output came back. */
enum tool_state {
	TOOL_ABSENT = 0, /* no section (older transcript, or not run here) */
	TOOL_MISSING,    /* not on PATH / file not there */
	TOOL_TIMEOUT,    /* stopped by `timeout` */
	TOOL_FAILED,     /* ran, exit status != 0 or unparsable output */
	TOOL_OK,
};

struct tool_out {
	enum tool_state state;
	int rc;
	bool capped;   /* the probe cut the output at its cap: what is missing is unknown */
	char why[160]; /* one line: why it cannot be used (for `skipped`) */
};

/* A PCI function's link and placement (sysfs). */
struct node_pci {
	unsigned width_cur, width_max; /* current_link_width / max_link_width; 0 unread */
	int numa;                      /* numa_node; -1 unknown */
	char iommu_type[16];           /* iommu_group/type: "identity", "DMA", "DMA-FQ"; "" */
};

/* An NVIDIA GPU seen on the PCI bus (sysfs /sys/bus/pci/devices). */
struct node_pci_gpu {
	char bdf[16]; /* "0000:53:00.0" */
	struct node_pci pci;
};
#define NODE_MAX_PCI_GPUS 32

/* One GID table entry that holds a GID (the probe prints only those). */
struct node_gid {
	unsigned index;
	enum ib_gid_type type; /* IB_GID_UNKNOWN when gid_attrs/types was not read */
	char gid[48];          /* "fe80:0000:...", as sysfs prints it */
};

/* Port counters (sysfs ports/N/counters and hw_counters), read twice about a
 * second apart by the probe; UINT64_MAX when not read. */
enum node_counter {
	NC_LINK_DOWNED = 0,
	NC_SYMBOL_ERROR,
	NC_LINK_ERROR_RECOVERY,
	NC_PORT_RCV_ERRORS,
	NC_EXCESSIVE_BUFFER_OVERRUN,
	NC_OUT_OF_SEQUENCE,
	NC_LOCAL_ACK_TIMEOUT,
	NC_RNR_NAK_RETRY,
	NC_NP_CNP_SENT,
	NC_RP_CNP_HANDLED,
	NC_COUNT
};
const char *node_counter_name(enum node_counter c); /* the sysfs file name */

struct node_port {
	unsigned num;
	enum ib_port_state state;
	enum ib_phys_state phys;
	enum ib_link_layer ll;
	struct ib_rate rate;
	char rate_raw[48];
	bool have_lid;
	uint32_t lid;
	bool have_gid_types;   /* some gid_attrs/types entry was readable */
	int roce_v2_index;     /* first index with a RoCE v2 type and a set GID; -1 */
	unsigned n_gids;       /* entries that hold a GID */
	struct node_gid *gids; /* sorted by index */
	size_t cap_gids;
	/* ibv_devinfo's view of the port (0: not listed) */
	unsigned active_mtu, max_mtu;
	/* counters: [0] first reading, [1] about a second later */
	uint64_t ctr[2][NC_COUNT];
	bool have_ctr[2];
};

struct node_rdma_dev {
	char *name;
	char *fw_ver, *hca_type, *board_id;
	int node_type; /* -1 when unknown */
	bool efa;      /* an AWS EFA device (efa_*, rdmap*) */
	bool bond;     /* a bonded device (mlx5_bond_*) */
	struct node_port ports[NODE_MAX_PORTS];
	size_t n_ports;
	char *netdevs[8];
	size_t n_netdevs;
	bool have_uverbs_map; /* device/infiniband_verbs/uverbsN was listed */
	int uverbs;           /* N of its uverbsN; -1 when unknown */
	struct node_pci pci;
};

struct node_netif {
	char *name;
	char *operstate;              /* "up", "down", "unknown"; NULL when unread */
	int type;                     /* ARPHRD: 1 ether, 32 infiniband, 772 loopback; -1 */
	bool default_route;           /* /proc/net/route: the default route leaves here */
	bool v4_routable;             /* a route other than 169.254/16 leaves here */
	bool v4_linklocal;            /* a 169.254/16 route leaves here */
	bool v6_global, v6_linklocal; /* /proc/net/if_inet6 scopes */
};

struct node_env_var {
	char *name, *value; /* value already redacted by the probe */
	const char *source; /* "pid 1 environment", "exec shell environment" */
};

struct node_facts {
	bool valid;    /* a probe transcript was read */
	bool complete; /* it ended with @@done */
	bool sysroot;  /* probed under --sysroot */
	bool gids_all; /* the probe read every GID index (meta gids=all), not 0-7 */
	char *kernel;  /* osrelease; NULL when unknown */
	int kernel_major, kernel_minor; /* -1 when unknown */

	/* RDMA (sysfs) */
	bool have_sys;
	struct node_rdma_dev devs[NODE_MAX_DEVS];
	size_t n_devs;
	struct node_netif ifs[NODE_MAX_IFS];
	size_t n_ifs;
	bool memory_peers;        /* /sys/kernel/mm/memory_peers exists */
	bool have_ctr2;           /* the second counter reading was taken */
	unsigned ctr_interval_ms; /* between the two readings; 0 unknown */
	bool have_route, have_inet6;
	struct node_pci_gpu pci_gpus[NODE_MAX_PCI_GPUS];
	size_t n_pci_gpus;
	bool have_pci_gpus;   /* the probe looked at the PCI bus */
	char *gdrdrv_version; /* /sys/module/gdrdrv/version */
	char *dmi_vendor;     /* /sys/class/dmi/id/sys_vendor: tells a VM from bare metal */
	char *dmi_product;    /* /sys/class/dmi/id/product_name */

	/* device nodes */
	bool have_dev;
	size_t n_uverbs;
	unsigned char uverbs_nodes[32]; /* bitmap of the N of /dev/infiniband/uverbsN (< 256) */
	bool dev_gdrdrv;
	size_t n_dev_gpus; /* /dev/nvidia<N> */
	size_t n_imex_channels;

	/* kernel modules and the NVIDIA driver */
	bool have_modules;
	bool mod_nvidia_peermem, mod_nv_peer_mem, mod_efa_peermem, mod_gdrdrv, mod_nvidia,
		mod_ib_uverbs, mod_efa;
	bool have_nv_version;
	bool open_module;      /* "Open Kernel Module" in /proc/driver/nvidia/version */
	char *nv_version_line; /* first line of /proc/driver/nvidia/version */

	/* GPUs (nvidia-smi) */
	struct tool_out smi_query_t, smi_topo_t, smi_nvlink_t, smi_q_t;
	size_t n_gpus;   /* from --query-gpu, else topo, else /dev/nvidia<N> */
	bool gpus_known; /* n_gpus comes from nvidia-smi */
	char *gpu_name;  /* first GPU's name */
	char *driver_version;
	struct smi_topo topo; /* valid when smi_topo_t.state == TOOL_OK */
	struct smi_nvlink nvlink;
	struct smi_query q;

	/* libraries in the image (names only): what the DMA-BUF path needs
	 * and which UCX copies a process could load */
	bool have_libs;
	int ibverbs_abi;      /* N of libibverbs.so.1.N.*; -1 when none seen */
	char *gdrapi_version; /* "2.4" from libgdrapi.so.2.4; NULL */
	/* EFA's userspace (SEC_EFA_PKGS, SEC_LIBS; rules/efa.c reads them):
	 * the installer's version and the libfabric and aws-ofi-nccl package
	 * versions it lists, NULL when not read; an aws-ofi-nccl plugin
	 * library in the image */
	char *efa_installer, *efa_pkg_libfabric, *efa_pkg_ofi_nccl;
	bool ofi_nccl_lib;
	/* the first NIXL package version of SEC_NIXL_PYTHON ("0.7.1"); NULL */
	char *nixl_pkg_version;
	/* NIXL's install places were listed (nixl:python and nixl:plugins both
	 * read), and whether any of them, or a NIXL wheel's bundled UCX, showed
	 * a NIXL: looked && !seen is "the image has no NIXL". */
	bool nixl_looked, nixl_seen;
	char *ucp_system; /* a libucp.so outside the NIXL wheel; NULL */
	char *ucp_wheel;  /* a NIXL wheel's bundled libucp* (rules/nixl.c); NULL */
	/* the wheel's bundled UCX modules ({pkg}.libs/ucx/libuct_*): listed at
	 * all, and which (bit enum nixl_ucx_module, rules/nixl.h) */
	bool wheel_uct_listed;
	unsigned wheel_uct_mask;
	char *wheel_uct_dir; /* "<wheel>/ucx" as listed; NULL */

	/* UCX as ucx_info -v reports it (the DMA-BUF path needs >= 1.14) */
	bool have_ucx_version;
	unsigned ucx_major, ucx_minor;
	char ucx_version[24];

	/* limits, capabilities, /dev/shm */
	bool have_memlock;
	uint64_t memlock_soft, memlock_hard; /* bytes or UINT64_MAX (unlimited) */
	bool have_memlock_hard;
	char memlock_source[48];
	bool memlock_pid1; /* read from the worker's own /proc/1/limits */
	bool have_caps;
	uint64_t cap_eff;
	char caps_source[48];
	bool have_shm; /* /dev/shm is mounted (mounts or df) */
	bool shm_size_known;
	uint64_t shm_bytes;
	char shm_how[96];

	/* libibverbs' own view: ibv_devinfo lists only the devices it could
	 * open, so it proves what sysfs and /dev/infiniband only suggest. */
	struct tool_out ibv_t, p2p_t;
	struct smi_p2p p2p;             /* nvidia-smi topo -p2p r; valid when p2p_t is TOOL_OK */
	char *ibv_names[NODE_MAX_DEVS]; /* hca_ids it listed */
	size_t ibv_n;
	size_t ibv_no_driver; /* "no userspace device-specific driver" warnings */

	/* EFA */
	struct tool_out fi_t;
	struct fi_info fi;

	/* the transport environment, as filtered inside the pod */
	bool have_env;
	struct node_env_var env[NODE_MAX_ENV];
	size_t n_env;

	/* what the serving process loaded, opened and moved (live/live.h) */
	struct live_facts live;
};

void node_facts_init(struct node_facts *f);
void node_facts_release(struct node_facts *f);
/* Read every fact from a parsed transcript.  Pure. */
void node_facts_read(struct node_facts *f, const struct transcript *t);

/* Lookups used by the checks. */
const struct node_rdma_dev *node_find_dev(const struct node_facts *f, const char *name);
const struct node_netif *node_find_if(const struct node_facts *f, const char *name);
const char *node_env_get(const struct node_facts *f, const char *name);
bool node_port_active(const struct node_port *p);
/* Any device that is not EFA (InfiniBand or RoCE). */
size_t node_count_verbs_devs(const struct node_facts *f);
size_t node_count_efa_devs(const struct node_facts *f);
/* GPUs visible one way or another. */
bool node_has_gpu(const struct node_facts *f);
/* The MNNVL fabric (GB200/GB300 NVL): some GPU reports a ClusterUUID. */
bool node_mnnvl(const struct node_facts *f);
/* A Grace (C2C) superchip: GB200/GB300/GH200 GPUs, where every GPU-NIC cell
 * of `topo -m` reads SYS by design. */
bool node_grace(const struct node_facts *f);
/* The effective CAP_IPC_LOCK of the worker (pid 1, else the exec shell). */
bool node_ipc_lock(const struct node_facts *f);
/* A port's GID entry at `index`, or NULL. */
const struct node_gid *node_port_gid(const struct node_port *p, unsigned index);

/* Fill a tool_out from a section (NULL: absent).  Exposed for the tests. */
void node_tool_state(const struct section *s, const char *tool, struct tool_out *out);

#endif
