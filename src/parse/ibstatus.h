/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `ibstatus`: "Infiniband device 'mlx5_0' port 1 status:" blocks of
 * "key: value" lines whose values use the sysfs spellings ("4: ACTIVE",
 * "200 Gb/sec (4X HDR)", hex LIDs).  Ethernet ports show "default gid:
 * unknown" on some versions.
 */
#ifndef CI_PARSE_IBSTATUS_H
#define CI_PARSE_IBSTATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/sysfs_ib.h"

struct ibstatus_port {
	char *device; /* "mlx5_0" */
	unsigned port;
	char *default_gid; /* as printed; NULL if absent */
	bool gid_unknown;  /* "default gid: unknown" */
	uint32_t base_lid;
	uint32_t sm_lid;
	enum ib_port_state state;
	enum ib_phys_state phys_state;
	struct ib_rate rate;
	enum ib_link_layer link_layer;
};

struct ibstatus {
	struct ibstatus_port *ports;
	size_t nports, cap;
	bool empty;
};

/* 0 when at least one port block was found or the output is empty; -1 otherwise. */
int ibstatus_parse(const char *buf, size_t len, struct ibstatus *out);
void ibstatus_release(struct ibstatus *s);

#endif
