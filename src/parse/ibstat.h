/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `ibstat` (infiniband-diags): "CA 'mlx5_0'" blocks, each with "Port N:"
 * sub-blocks.  Indentation is tabs or spaces (pastes lose tabs).  ibstat may
 * print every device it can and then stop with "ibpanic: ... stat of IB
 * device 'X' failed" (exit 255), or print nothing at all (no devices).
 */
#ifndef CI_PARSE_IBSTAT_H
#define CI_PARSE_IBSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/sysfs_ib.h"

struct ibstat_port {
	unsigned num;
	enum ib_port_state state;      /* "State: Active" */
	enum ib_phys_state phys_state; /* "Physical state: LinkUp" */
	char *state_text;              /* as printed, NULL if absent */
	char *phys_state_text;
	double rate_gbps; /* "Rate: 400"; 0 if absent */
	uint32_t base_lid;
	uint32_t sm_lid;
	unsigned lmc;
	uint64_t port_guid;
	enum ib_link_layer link_layer;
};

struct ibstat_ca {
	char *name;    /* "mlx5_0" */
	char *ca_type; /* "MT4129" */
	char *fw_ver;
	char *hw_ver;
	uint64_t node_guid;
	uint64_t sys_image_guid;
	unsigned nports_declared; /* "Number of ports: 1" */
	struct ibstat_port *ports;
	size_t nports, cap;
};

struct ibstat {
	struct ibstat_ca *cas;
	size_t ncas, cap;
	bool empty;         /* no output at all (no devices, exit 0) */
	bool panic;         /* an "ibpanic:" line was seen */
	char *panic_msg;    /* that line, without "ibpanic: " */
	char *panic_device; /* the quoted device in it, e.g. "mlx5_an0"; may be NULL */
};

/* 0 when recognised (CA blocks, ibpanic, or empty output); -1 otherwise. */
int ibstat_parse(const char *buf, size_t len, struct ibstat *out);
void ibstat_release(struct ibstat *s);
const struct ibstat_ca *ibstat_find(const struct ibstat *s, const char *ca);

#endif
