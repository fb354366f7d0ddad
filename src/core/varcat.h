/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The variable catalogue: one table (varcat.c) of every transport variable
 * the checks know, what it means and the rule applied to it.  `vars` prints
 * it and references/interconnect-env-vars.md must agree with it (a test
 * keeps the two in step).
 */
#ifndef CI_VARCAT_H
#define CI_VARCAT_H

#include <stdbool.h>
#include <stddef.h>

enum var_family {
	VF_UCX = 0,
	VF_NIXL,
	VF_NCCL,
	VF_LIBFABRIC,
	VF_BACKEND,
	VF_MOONCAKE
};

/* The fabric a deployment is written for (env) or a node has (node). */
enum ci_fabric {
	FAB_NONE = 0,        /* nothing visible */
	FAB_IB = 1u << 0,    /* InfiniBand */
	FAB_ROCE = 1u << 1,  /* RoCE (incl. GKE RDMA networks) */
	FAB_EFA = 1u << 2,   /* AWS EFA, libfabric */
	FAB_MNNVL = 1u << 3, /* GB200/GB300 multi-node NVLink, ComputeDomain */
};
#define FAB_RDMA (FAB_IB | FAB_ROCE)
#define FAB_ANY  (FAB_IB | FAB_ROCE | FAB_EFA | FAB_MNNVL)

struct var_info {
	const char *name;
	enum var_family family;
	unsigned critical_on; /* fabrics on which missing => warn (0: never critical) */
	const char *meaning;  /* one line */
	const char *rule;     /* one line: what the checks do with it */
};

extern const struct var_info varcat[];
extern const size_t varcat_len;

const struct var_info *varcat_lookup(const char *name);
const char *varcat_family_name(enum var_family f);
/* "ib,roce" style list of a fabric mask; writes into buf, returns buf. */
const char *fabric_mask_name(unsigned mask, char *buf, size_t len);
const char *fabric_name(enum ci_fabric f);

#endif
