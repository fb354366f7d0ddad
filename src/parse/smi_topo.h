/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `nvidia-smi topo -m`: a matrix whose header row starts with a blank cell,
 * then GPUn / NICn (older drivers: mlx5_N) columns, then affinity columns
 * ("CPU Affinity", "NUMA Affinity", "GPU NUMA ID") that may be empty.
 * Cells are TAB-separated on a real run, space-aligned in pastes; the
 * diagonal is "X" (printed " X "), NIC rows lack the affinity cells.  A
 * "Legend:" block follows and, when NICs exist, a "NIC Legend:" block
 * mapping "NIC0: mlx5_0".  ANSI colour codes appear on a TTY.
 */
#ifndef CI_PARSE_SMI_TOPO_H
#define CI_PARSE_SMI_TOPO_H

#include <stdbool.h>
#include <stddef.h>

/* Ordered from nearest to farthest, so that a smaller value is better. */
enum topo_link {
	TOPO_UNKNOWN = 0,
	TOPO_SELF, /* X */
	TOPO_NV,   /* NV<n>: n bonded NVLinks */
	TOPO_PIX,  /* at most one PCIe bridge */
	TOPO_PXB,  /* several PCIe bridges, no host bridge */
	TOPO_PHB,  /* through a PCIe host bridge */
	TOPO_NODE, /* between host bridges in one NUMA node */
	TOPO_SYS,  /* across NUMA nodes (SMP interconnect) */
	TOPO_SOC,  /* old drivers' name for SYS */
};

struct topo_cell {
	enum topo_link kind;
	unsigned nvlinks; /* n of NV<n>, else 0 */
};

enum topo_dev_type {
	TOPO_DEV_GPU,
	TOPO_DEV_NIC,
	TOPO_DEV_OTHER
};

struct topo_dev {
	char *name; /* column label: "GPU0", "NIC3", "mlx5_0" */
	enum topo_dev_type type;
	int index;           /* n of GPUn / NICn / mlx5_n; -1 if none */
	char *nic_device;    /* NICs: "mlx5_3" from the NIC Legend, or the
	                                   label itself when it is a device name; NULL if unknown */
	char *cpu_affinity;  /* GPU rows: "0-47,96-143"; NULL when empty/absent */
	char *numa_affinity; /* "0"; NULL when empty/absent */
	char *gpu_numa_id;   /* "N/A"; NULL when empty/absent */
};

struct smi_topo {
	struct topo_dev *devs; /* in column order */
	size_t ndevs, cap;
	struct topo_cell *cells; /* ndevs * ndevs, row-major; rows absent
	                                   from the output stay TOPO_UNKNOWN */
	size_t ngpus, nnics;
	size_t nrows; /* matrix rows actually read */
};

/* 0 when a matrix header was found; -1 otherwise. */
int smi_topo_parse(const char *buf, size_t len, struct smi_topo *out);
void smi_topo_release(struct smi_topo *t);

/* Index into devs of the column labelled `name`, or of the NIC whose
 * nic_device is `name`; -1 if none. */
int smi_topo_find(const struct smi_topo *t, const char *name);
/* devs index of GPU number `gpu`, or -1. */
int smi_topo_gpu(const struct smi_topo *t, int gpu);
/* Cell at (row, col) by devs index; a TOPO_UNKNOWN cell when out of range. */
struct topo_cell smi_topo_cell(const struct smi_topo *t, size_t row, size_t col);
/* Number of NVLinks between GPU numbers a and b (0 when not NV<n>). */
unsigned smi_topo_nvlinks(const struct smi_topo *t, int gpu_a, int gpu_b);
/* Smallest NV<n> count over all GPU pairs; 0 if any pair is not linked by
 * NVLink or there are fewer than two GPUs. */
unsigned smi_topo_min_nvlinks(const struct smi_topo *t);
/* devs index of the NIC nearest to GPU number `gpu` (ties: first column),
 * its link kind in *kind; -1 when there is no NIC or no such GPU. */
int smi_topo_best_nic(const struct smi_topo *t, int gpu, enum topo_link *kind);
const char *topo_link_name(enum topo_link k); /* "X", "NV", "PIX", ... */
/* "NV18" -> TOPO_NV with n = 18; "PIX" -> TOPO_PIX ... */
struct topo_cell topo_cell_parse(const char *s);

#endif
