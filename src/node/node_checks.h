/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The node checks: pure functions from node_facts to checks (node_desc.c).
 * Layers order what to fix first: no active link (FABRIC) before GPUDirect
 * (DRIVER) before the environment (ENV) before tuning (TUNING).
 *
 * A host that shows neither an RDMA device nor a GPU is not a GPU worker:
 * node.rdma.devices is then `skipped` (critical), so the verdict is
 * `unknown` with that explanation, and the checks that only matter for RDMA
 * (memlock, capabilities) are skipped rather than failed.  A GPU worker
 * without any RDMA device fails node.rdma.devices: its KV would move over TCP.
 */
#ifndef CI_NODE_CHECKS_H
#define CI_NODE_CHECKS_H

#include "core/report.h"
#include "node/node_facts.h"

/* Every check below, in order.  `subject` names the probed target. */
void node_checks_run(struct ci_report *r, const struct node_facts *f);

/* checks_rdma.c */
void node_check_rdma_devices(struct ci_report *r, const struct node_facts *f);
void node_check_rdma_ports(struct ci_report *r, const struct node_facts *f);
void node_check_rdma_uverbs(struct ci_report *r, const struct node_facts *f);
void node_check_roce_gid(struct ci_report *r, const struct node_facts *f);
void node_check_efa(struct ci_report *r, const struct node_facts *f);
/* checks_gpu.c */
void node_check_gpudirect(struct ci_report *r, const struct node_facts *f);
void node_check_gdrcopy(struct ci_report *r, const struct node_facts *f);
void node_check_nvlink(struct ci_report *r, const struct node_facts *f);
void node_check_nvlink_fabric(struct ci_report *r, const struct node_facts *f);
void node_check_imex(struct ci_report *r, const struct node_facts *f);
void node_check_affinity(struct ci_report *r, const struct node_facts *f);
/* checks_host.c */
void node_check_memlock(struct ci_report *r, const struct node_facts *f);
void node_check_caps(struct ci_report *r, const struct node_facts *f);
void node_check_shm(struct ci_report *r, const struct node_facts *f);
/* checks_env.c */
void node_check_env(struct ci_report *r, const struct node_facts *f);
/* The transport variables as facts. */
void node_report_env_facts(struct ci_report *r, const struct node_facts *f, const char *subject);

/* NCCL_IB_HCA semantics: "^" excludes, "=" exact names, else prefixes;
 * entries "dev[:port]".  True when `dev` is selected.  Exposed for tests. */
bool node_nccl_hca_selects(const char *value, const char *dev);

/* "64 KiB", "512 MiB", "unlimited" */
const char *node_bytes_str(uint64_t b, char *buf, size_t len);

#endif
