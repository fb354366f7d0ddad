/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `nvidia-smi nvlink -s` / `--status`:
 *   "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)"
 *   "         Link 0: 26.562 GB/s"   or   "Link 4: <inactive>" / "Inactive"
 * Empty output on GPUs without NVLink.  Link lines seen before any GPU
 * header (an excerpt, or a health-check message quoting them) are put in
 * an implicit GPU with index -1.
 *
 * Also `nvidia-smi nvlink --capabilities` ("Link 0, P2P is supported: true").
 */
#ifndef CI_PARSE_SMI_NVLINK_H
#define CI_PARSE_SMI_NVLINK_H

#include <stdbool.h>
#include <stddef.h>

struct smi_nvlink_link {
	unsigned num;
	bool active;
	double gbps; /* GB/s as printed (bytes); 0 when inactive */
};

struct smi_nvlink_gpu {
	int index;  /* -1 for the implicit GPU */
	char *name; /* "NVIDIA H100 80GB HBM3"; NULL if unknown */
	char *uuid; /* "GPU-5a10..."; NULL if unknown */
	struct smi_nvlink_link *links;
	size_t nlinks, cap;
};

struct smi_nvlink {
	struct smi_nvlink_gpu *gpus;
	size_t ngpus, cap;
	bool empty; /* no output: no NVLink on this GPU */
};

/* 0 when recognised (GPU or Link lines, or empty output); -1 otherwise. */
int smi_nvlink_parse(const char *buf, size_t len, struct smi_nvlink *out);
void smi_nvlink_release(struct smi_nvlink *n);
size_t smi_nvlink_count_active(const struct smi_nvlink *n);
size_t smi_nvlink_count_inactive(const struct smi_nvlink *n);

#endif
