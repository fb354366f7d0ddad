/* SPDX-License-Identifier: Apache-2.0 */
/*
 * InfiniBand/RoCE value interpretation shared by the sysfs reader and the
 * ibv_devinfo parser.  Every tool spells
 * the same port state differently ("4: ACTIVE", "Active", "PORT_ACTIVE (4)",
 * "ACTIVE"), so each interpreter accepts all of them and maps them to the
 * kernel's numeric codes (include/rdma/ib_verbs.h).
 *
 * Also here: the `head -v` style dump of sysfs files ("==> path <==") and the
 * `ls /sys/class/infiniband` listing (one per line or multi-column).
 */
#ifndef CI_PARSE_SYSFS_IB_H
#define CI_PARSE_SYSFS_IB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Numeric values are the kernel's; UNKNOWN (0) when unrecognised. */
enum ib_port_state {
	IB_STATE_UNKNOWN = 0,
	IB_STATE_DOWN = 1,
	IB_STATE_INIT = 2,
	IB_STATE_ARMED = 3,
	IB_STATE_ACTIVE = 4,
	IB_STATE_ACTIVE_DEFER = 5,
};
enum ib_phys_state {
	IB_PHYS_UNKNOWN = 0,
	IB_PHYS_SLEEP = 1,
	IB_PHYS_POLLING = 2,
	IB_PHYS_DISABLED = 3,
	IB_PHYS_TRAINING = 4,
	IB_PHYS_LINKUP = 5,
	IB_PHYS_ERROR_RECOVERY = 6,
	IB_PHYS_PHY_TEST = 7,
};
enum ib_link_layer {
	IB_LL_UNKNOWN = 0,
	IB_LL_INFINIBAND,
	IB_LL_ETHERNET
};
enum ib_gid_type {
	IB_GID_UNKNOWN = 0,
	IB_GID_IB_ROCE_V1,
	IB_GID_ROCE_V2
};

/* "4: ACTIVE", "Active", "ACTIVE", "PORT_ACTIVE (4)", "4" */
enum ib_port_state ib_port_state_parse(const char *s);
/* "5: LinkUp", "LinkUp", "LINK_UP (5)", "Disabled", "3: Disabled", "5" */
enum ib_phys_state ib_phys_state_parse(const char *s);
/* "InfiniBand", "Ethernet" (any case) */
enum ib_link_layer ib_link_layer_parse(const char *s);
/* "RoCE v2", "IB/RoCE v1", "RoCE v1" */
enum ib_gid_type ib_gid_type_parse(const char *s);
const char *ib_port_state_name(enum ib_port_state st); /* "ACTIVE" ... "UNKNOWN" */
const char *ib_phys_state_name(enum ib_phys_state st); /* "LinkUp" ... */
const char *ib_link_layer_name(enum ib_link_layer ll); /* "InfiniBand", "Ethernet", "unknown" */

/* "400 Gb/sec (4X NDR)", "200 Gb/sec (2X NDR)", "40 Gb/sec (4X QDR)",
 * "2.5 Gb/sec (1X SDR)", or ibstat's bare "400". */
struct ib_rate {
	double gbps;    /* 0 when unknown */
	unsigned width; /* lanes: 4 for "4X"; 0 when not given */
	char speed[8];  /* "NDR", "HDR", "EDR", ...; "" when not given */
};
bool ib_rate_parse(const char *s, struct ib_rate *out);

/* LIDs: sysfs and ibstatus print hex ("0x0", "0x33bf"), ibstat and
 * ibv_devinfo decimal.  "0x" prefix means hex, otherwise decimal. */
bool ib_lid_parse(const char *s, uint32_t *out);
/* GUIDs: "0x946dae0300cde72c" or "e09d:7303:000d:1fc0". */
bool ib_guid_parse(const char *s, uint64_t *out);
/* GID "fe80:0000:0000:0000:0015:5dff:fd34:11eb" (8 groups of 4 hex) or
 * the compressed IPv6 forms ("::", "fe80::1").  False when malformed. */
bool ib_gid_parse(const char *s, uint8_t out[16]);
/* An unset GID table entry reads all zeros: true for such a GID, and for
 * anything that does not parse as one. */
bool ib_gid_is_zero(const char *s);
/* sysfs node_type "1: CA", "2: switch"...: the number, or -1. */
int ib_node_type_parse(const char *s);

#endif
