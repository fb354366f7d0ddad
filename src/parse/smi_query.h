/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `nvidia-smi -q`: indented "Key : Value" lines, section headers without a
 * value.  We keep the header (driver/CUDA version, attached GPUs) and per
 * GPU the product name, UUID and the Fabric section (NVSwitch/MNNVL):
 * State, Status and, since r550, CliqueId, ClusterUUID and Health.
 * Also accepts `grep -C` excerpts of the Fabric block (no GPU header: one
 * implicit GPU).  "N/A" values are kept as printed.
 */
#ifndef CI_PARSE_SMI_QUERY_H
#define CI_PARSE_SMI_QUERY_H

#include <stdbool.h>
#include <stddef.h>

struct smi_fabric {
	bool present;    /* a Fabric section was seen */
	char *state;     /* "Completed", "In Progress", "N/A" */
	char *status;    /* "Success", "N/A" */
	char *clique_id; /* "2", "N/A"; NULL before r550 */
	char *cluster_uuid;
	char *health_summary;   /* "Healthy", "Unhealthy"; NULL if absent */
	char *health_bandwidth; /* "Full", "N/A" */
};

struct smi_query_gpu {
	char *bus_id; /* "00000000:53:00.0"; NULL for the implicit GPU */
	char *product_name;
	char *uuid;
	struct smi_fabric fabric;
	char *mig_current; /* MIG Mode > Current: "Enabled", "Disabled", "N/A" */
	/* PCI > GPU Link Info > Link Width: lanes (16 for "16x"); 0 when absent.
	 * The generation is not kept: it drops at idle (power saving). */
	unsigned link_width_max, link_width_cur;
};

struct smi_query {
	char *driver_version;
	char *cuda_version;
	int attached_gpus; /* -1 when absent */
	struct smi_query_gpu *gpus;
	size_t ngpus, cap;
};

/* 0 when recognised (NVSMI header, a GPU block or a Fabric block); -1 otherwise. */
int smi_query_parse(const char *buf, size_t len, struct smi_query *out);
void smi_query_release(struct smi_query *q);

/* "N/A", "[N/A]", "Not Supported", "[Not Supported]", empty or NULL. */
bool smi_is_na(const char *v);
/* The fabric has been set up: State "Completed" and Status "Success". */
bool smi_fabric_completed(const struct smi_fabric *f);
/* ClusterUUID absent, N/A or all zeros (no multi-node NVLink fabric). */
bool smi_fabric_no_cluster(const struct smi_fabric *f);
/* MIG Mode > Current reads "Enabled". */
bool smi_gpu_mig_enabled(const struct smi_query_gpu *g);

#endif
