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
#include "rules/fabric.h"

/* Every check below, in order.  `subject` names the probed target. */
void node_checks_run(struct ci_report *r, const struct node_facts *f);
/* node_checks_run's table, in run order (node_checks.c): each row the
 * descriptor of the check its function decides. */
struct node_step {
	const struct check_desc *desc;
	void (*run)(struct ci_report *r, const struct node_facts *f);
};
extern const struct node_step node_steps[];
extern const size_t node_steps_len;

/* checks_rdma.c */
void node_check_rdma_devices(struct ci_report *r, const struct node_facts *f);
void node_check_rdma_ports(struct ci_report *r, const struct node_facts *f);
void node_check_rdma_uverbs(struct ci_report *r, const struct node_facts *f);
void node_check_roce_gid(struct ci_report *r, const struct node_facts *f);
void node_check_efa(struct ci_report *r, const struct node_facts *f);
/* EFA's userspace versions judged by rules/efa.c (checks_efa.c): node.efa
 * and nixl.libfabric print the same judgement */
struct efa_in;
struct efa_judgement;
void node_efa_in(const struct node_facts *f, struct efa_in *in);
void node_efa_judge(const struct node_facts *f, struct efa_judgement *j);
/* checks_gpu.c */
void node_check_gpudirect(struct ci_report *r, const struct node_facts *f);
void node_check_gdrcopy(struct ci_report *r, const struct node_facts *f);
void node_check_nvlink(struct ci_report *r, const struct node_facts *f);
void node_check_nvlink_fabric(struct ci_report *r, const struct node_facts *f);
void node_check_imex(struct ci_report *r, const struct node_facts *f);
/* The same judgements under another verb's descriptor (nixl.memlock,
 * nixl.nvlink.fabric, nixl.mnnvl.imex): one fact, one status. */
void node_check_nvlink_fabric_as(struct ci_report *r, const struct node_facts *f,
				 const struct check_desc *ck);
void node_check_imex_as(struct ci_report *r, const struct node_facts *f,
			const struct check_desc *ck);
/* UCX_TLS as node.env.ucx.tls judges it on this pod (the VR_UCX_TLS rule,
 * env/env_varrules.h), for a verb that must give the same status; false
 * when the environment is unread or UCX_TLS unset.  Release res after true. */
struct varrule_res;
bool node_ucx_tls_judge(const struct node_facts *f, struct varrule_res *res);
void node_check_memlock_as(struct ci_report *r, const struct node_facts *f,
			   const struct check_desc *ck);
void node_check_affinity(struct ci_report *r, const struct node_facts *f);
/* checks_host.c */
void node_check_memlock(struct ci_report *r, const struct node_facts *f);
void node_check_shm(struct ci_report *r, const struct node_facts *f);
/* checks_env.c */
void node_check_env(struct ci_report *r, const struct node_facts *f);
/* The engine/NCCL variable rows (rules/engine_vars.c) under check `ck`:
 * node.env.kv and nixl.env.kv say the same. */
void node_check_kv_env(struct ci_report *r, const struct node_facts *f,
		       const struct check_desc *ck);
/* The transport variables as facts. */
void node_report_env_facts(struct ci_report *r, const struct node_facts *f, const char *subject);

/* NCCL_IB_HCA semantics: "^" excludes, "=" exact names, else prefixes;
 * entries "dev[:port]".  True when `dev` is selected.  Exposed for tests. */
bool node_nccl_hca_selects(const char *value, const char *dev);

/* nic_role.c: the devices the data-rail checks judge.  Given: the pod has
 * its uverbs node.  Management: given, but carries the default route, sits
 * on a NUMA node without GPUs, or is 4x slower than the other NICs (then
 * the reason; NULL otherwise).  Data: given and not management. */
bool node_dev_given(const struct node_facts *f, const struct node_rdma_dev *d);
const char *node_dev_mgmt_reason(const struct node_facts *f, const struct node_rdma_dev *d);
bool node_data_dev(const struct node_facts *f, const struct node_rdma_dev *d);
/* The sysfs entry of a GPU nvidia-smi names by bus id; NULL when not seen. */
const struct node_pci_gpu *node_pci_gpu_find(const struct node_facts *f, const char *bus_id);

/* fabric_in.c: the facts as the fabric model's input, and the model
 * (rules/fabric.h) every check asks which path carries KV. */
void node_fabric_in(const struct node_facts *f, struct fabric_in *in);
void node_fabric(const struct node_facts *f, struct fabric_model *m);
/* The model says the pod is judged on MNNVL: a NIC is not required. */
bool node_fabric_nic_optional(const struct node_facts *f);

/* checks_link.c */
void node_check_mtu(struct ci_report *r, const struct node_facts *f);
void node_check_link_speed(struct ci_report *r, const struct node_facts *f);
void node_check_pcie_width(struct ci_report *r, const struct node_facts *f);
void node_check_errors(struct ci_report *r, const struct node_facts *f);

/* checks_pci.c */
void node_check_mig(struct ci_report *r, const struct node_facts *f);
void node_check_iommu(struct ci_report *r, const struct node_facts *f);

/* checks_gid.c */
void node_check_gid_index(struct ci_report *r, const struct node_facts *f);
bool node_gid_link_local(const char *gid);
bool node_gid_ipv4(const char *gid);
/* Every RoCE v2 GID of the port is link-local (fe80::): not routable on an
 * L3 fabric. */
bool node_port_v2_link_local_only(const struct node_port *p);
/* UCX_NET_DEVICES as UCX parses it: entries matched exactly ("mlx5_0:1";
 * a bare "mlx5_0" selects no RDMA port), `all`, `^` excludes. */
bool node_ucx_netdev_selects(const char *value, const char *device);

#define SUBJ_IB_PORTS "/sys/class/infiniband"

#endif
