/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `ibv_devinfo` (plain and -v/-vv) and `ibv_devinfo -l`.
 * Real ibv_devinfo separates keys and values with TABs (-vv prints flag lists
 * on their own 5-tab lines, "GID[  0]:" rows); pastes expand them to spaces.
 * Without devices it prints "No IB devices found"; -l prints "N HCAs found:"
 * and one name per line.  libibverbs warnings ("no userspace device-specific
 * driver found") precede either when the provider library is missing.
 */
#ifndef CI_PARSE_IBV_DEVINFO_H
#define CI_PARSE_IBV_DEVINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/sysfs_ib.h"

struct ibv_port {
	unsigned num;
	enum ib_port_state state;      /* "PORT_ACTIVE (4)" */
	enum ib_phys_state phys_state; /* -v only: "LINK_UP (5)"; UNKNOWN otherwise */
	unsigned max_mtu;              /* bytes, 0 if absent */
	unsigned active_mtu;
	uint32_t sm_lid;
	uint32_t port_lid;
	enum ib_link_layer link_layer;
	char *active_width; /* -v only: "4X (2)" as printed */
	char *active_speed; /* -v only: "50.0 Gbps (64)", "invalid speed (0)" */
	char **gids;        /* -v only: "GID[  0]:" values in order */
	size_t ngids, cap_gids;
};

struct ibv_device {
	char *hca_id;    /* "mlx5_0" */
	char *transport; /* "InfiniBand (0)" */
	char *fw_ver;
	char *node_guid; /* "e09d:7303:000d:1fc0" */
	char *board_id;
	unsigned vendor_part_id;
	unsigned phys_port_cnt;
	struct ibv_port *ports;
	size_t nports, cap;
};

struct ibv_devinfo {
	struct ibv_device *devs; /* full listing */
	size_t ndevs, cap;
	bool no_devices; /* "No IB devices found" */
	int hcas_found;  /* -l: "N HCAs found:"; -1 when absent */
	char **names;    /* -l: the listed names */
	size_t nnames, cap_names;
	size_t no_driver_warnings; /* "libibverbs: Warning: no userspace device-specific driver" lines */
};

/* 0 when recognised (device blocks, "No IB devices found", a -l listing, or
 * only libibverbs warnings); -1 otherwise. */
int ibv_devinfo_parse(const char *buf, size_t len, struct ibv_devinfo *out);
void ibv_devinfo_release(struct ibv_devinfo *d);
const struct ibv_device *ibv_devinfo_find(const struct ibv_devinfo *d, const char *hca);

#endif
