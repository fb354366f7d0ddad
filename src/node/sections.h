/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sections printed by src/probe/probe.sh: the contract between the script
 * and the facts readers (node and nixl share ONE probe per pod).  Keep this
 * list and the header of probe.sh in step (tests/node/test_probe_script.py
 * checks that every name here is printed by the script).
 *
 * Naming: "<kind>:<what>".  Tool sections ("tool:*") hold the tool's stdout
 * and stderr merged (empty lines dropped); their @@end carries rc, `missing`
 * (not on PATH), `timeout` (stopped by `timeout 5`) and `capped` (the body
 * holds whole lines up to the cap: what is missing cannot be told).  An
 * absent section was not collected (an earlier script, or not needed).
 *
 * The sysfs readings are ONE section, SEC_SYS, of lines
 *     <path>=<first line of the file>    e.g. sys/class/infiniband/mlx5_0/ports/1/state=4: ACTIVE
 *     <path>/                            a directory that matters by being there
 * with paths relative to the probed root (no leading slash).  One section
 * keeps a 9-device node under ~300 lines without 300 section headers, and a
 * value is always one line, so it cannot break the format.  SEC_DEV lists
 * device nodes the same way ("dev/infiniband/uverbs0").
 */
#ifndef CI_NODE_SECTIONS_H
#define CI_NODE_SECTIONS_H

#define SEC_META         "meta" /* root=host|sysroot, kernel=, have_timeout= */
#define SEC_SYS          "sys"
#define SEC_DEV          "dev"
#define SEC_MODULES      "proc:modules" /* transport modules only */
#define SEC_NV_VERSION   "proc:nvidia-version"
#define SEC_STATUS       "proc:status"      /* Cap* lines only (the exec shell) */
#define SEC_LIMITS       "proc:limits"      /* "Max locked memory" line only */
#define SEC_PID1_STATUS  "proc:pid1-status" /* /proc/1/status Cap* lines (the worker) */
#define SEC_PID1_LIMITS  "proc:pid1-limits" /* /proc/1/limits "Max locked memory" */
#define SEC_MOUNTS       "proc:mounts"      /* /dev/shm lines only */
#define SEC_ULIMIT_L     "ulimit:l"         /* host/pod only (not under a sysroot) */
#define SEC_ULIMIT_HL    "ulimit:hl"
#define SEC_ENV_PID1     "env:pid1" /* transport NAME=VALUE, from /proc/1/environ */
/* transport NAME=VALUE, from the exec shell; one variable per line
 * (parse/env_section.h) */
#define SEC_ENV_EXEC     "env:exec"
#define SEC_WHICH        "which"             /* tool=path, "tool=" when absent */
#define SEC_IBV_DEVINFO  "tool:ibv_devinfo"  /* what libibverbs opens */
#define SEC_SMI_Q        "tool:nvsmi-q"      /* nvidia-smi -q, GPU headers + Fabric */
#define SEC_SMI_TOPO     "tool:nvsmi-topo"   /* nvidia-smi topo -m */
#define SEC_SMI_NVLINK   "tool:nvsmi-nvlink" /* nvidia-smi nvlink -s */
#define SEC_FI_INFO_EFA  "tool:fi_info-efa"
#define SEC_UCX_INFO_VD  "tool:ucx_info-vd" /* ucx_info -v -d: version, then devices */
#define SEC_UCX_INFO_V   "tool:ucx_info-v"  /* only when -v -d printed no version */
/* df -k /dev/shm, host/pod only, and only when /proc/mounts gives no size */
#define SEC_DF_SHM       "tool:df-shm"
/* legacy: printed by earlier scripts only, still read from saved transcripts
 * (v1 replays): the -q section answers the query, -v -d is one run. */
#define SEC_SMI_QUERY    "tool:nvsmi-query" /* legacy: --query-gpu=index,name,... */
#define SEC_UCX_INFO_D   "tool:ucx_info-d"  /* legacy: ucx_info -d alone */
#define SEC_NIXL_PLUGINS "nixl:plugins"     /* "<dir>/" then "<dir>/libplugin_X.so" */
#define SEC_NIXL_PYTHON  "nixl:python"      /* "<METADATA>: Name: x" / ": Version: y" */
/* Later readings: transcripts of earlier scripts lack them ("not
 * collected").  SEC_COUNTERS2: "interval_ms=N" (since the SEC_SYS reading),
 * then the same counter lines as SEC_SYS; host/pod only, and only where
 * there is an RDMA port. */
#define SEC_COUNTERS2    "sys:counters"
#define SEC_ROUTE        "proc:net-route"    /* /proc/net/route */
#define SEC_INET6        "proc:net-if_inet6" /* /proc/net/if_inet6 */
#define SEC_LIBS         "files:libs" /* paths of libibverbs.so.1.*, libgdrapi.so.2.*, libucp* */
/* /opt/amazon/efa_installed_packages as the EFA installer wrote it (its
 * version, then the package file names): parse/efa_packages.h */
#define SEC_EFA_PKGS     "efa:packages"
/* nvidia-smi topo -p2p r: only when topo -m shows two GPUs without NVLink */
#define SEC_SMI_P2P      "tool:nvsmi-p2p"

/* Prefixes of SEC_SYS / SEC_DEV paths. */
#define SYS_IB_PREFIX     "sys/class/infiniband/"
#define SYS_NET_PREFIX    "sys/class/net/"
#define SYS_MEMORY_PEERS  "sys/kernel/mm/memory_peers/"
#define SYS_MODULE_PREFIX "sys/module/"
#define DEV_UVERBS_PREFIX "dev/infiniband/uverbs"
#define DEV_GDRDRV        "dev/gdrdrv"
#define DEV_IMEX_PREFIX   "dev/nvidia-caps-imex-channels/channel"
#define DEV_NVIDIA_PREFIX "dev/nvidia"

/* Every section name above, for the script test. */
#define NODE_SECTION_LIST                                                                        \
	SEC_META, SEC_SYS, SEC_DEV, SEC_MODULES, SEC_NV_VERSION, SEC_STATUS, SEC_LIMITS,         \
		SEC_PID1_STATUS, SEC_PID1_LIMITS, SEC_MOUNTS, SEC_ULIMIT_L, SEC_ULIMIT_HL,       \
		SEC_ENV_PID1, SEC_ENV_EXEC, SEC_WHICH, SEC_IBV_DEVINFO, SEC_SMI_Q, SEC_SMI_TOPO, \
		SEC_SMI_NVLINK, SEC_SMI_QUERY, SEC_FI_INFO_EFA, SEC_UCX_INFO_VD, SEC_UCX_INFO_V, \
		SEC_UCX_INFO_D, SEC_DF_SHM, SEC_NIXL_PLUGINS, SEC_NIXL_PYTHON, SEC_COUNTERS2,    \
		SEC_ROUTE, SEC_INET6, SEC_LIBS, SEC_EFA_PKGS, SEC_SMI_P2P

#endif
