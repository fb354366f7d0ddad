/* SPDX-License-Identifier: Apache-2.0 */
#include "varcat.h"

#include <stdio.h>
#include <string.h>

/* The table.  Keep references/interconnect-env-vars.md in step (a test
 * compares them). */
const struct var_info varcat[] = {
	{"UCX_TLS", VF_UCX, FAB_RDMA, "transports UCX may use",
	 "fail if only tcp/shm is left or every RDMA transport is excluded; warn without a CUDA transport"},
	{"UCX_NET_DEVICES", VF_UCX, FAB_RDMA, "devices UCX may use (dev:port list)",
	 "warn on bonded devices or malformed entries; node checks each entry exists"},
	{"NCCL_IB_HCA", VF_NCCL, FAB_RDMA, "HCAs NCCL may use (^ excludes, = exact)",
	 "node checks each entry exists"},
};
const size_t varcat_len = sizeof(varcat) / sizeof(varcat[0]);

const struct var_info *varcat_lookup(const char *name)
{
	for (size_t i = 0; i < varcat_len; i++)
		if (!strcmp(varcat[i].name, name))
			return &varcat[i];
	return NULL;
}

const char *varcat_family_name(enum var_family f)
{
	static const char *const names[] = {"ucx", "nixl", "nccl", "libfabric", "backend", "mooncake"};
	return (unsigned)f < sizeof(names) / sizeof(names[0]) ? names[f] : "?";
}

const char *fabric_name(enum ci_fabric f)
{
	switch (f) {
	case FAB_IB: return "infiniband";
	case FAB_ROCE: return "roce";
	case FAB_EFA: return "efa";
	case FAB_MNNVL: return "mnnvl";
	default: return "none";
	}
}

const char *fabric_mask_name(unsigned mask, char *buf, size_t len)
{
	static const enum ci_fabric all[] = {FAB_IB, FAB_ROCE, FAB_EFA, FAB_MNNVL};
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < 4; i++) {
		if (!(mask & all[i]))
			continue;
		int n = snprintf(buf + used, len - used, "%s%s", used ? "," : "", fabric_name(all[i]));
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	if (!used)
		snprintf(buf, len, "-");
	return buf;
}
