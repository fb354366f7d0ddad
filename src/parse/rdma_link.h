/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `rdma link show` (iproute2):
 *   "link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev p1p1 "
 * Lines end with a trailing space; attributes come as name/value pairs and
 * some may be absent (no netdev for IB ports).  Soft-RoCE shows "rxe_0/1".
 */
#ifndef CI_PARSE_RDMA_LINK_H
#define CI_PARSE_RDMA_LINK_H

#include <stddef.h>

#include "parse/sysfs_ib.h"

struct rdma_link_entry {
	char *dev; /* "mlx5_0" */
	unsigned port;
	enum ib_port_state state;
	enum ib_phys_state phys_state;
	char *netdev; /* NULL when not shown */
};

struct rdma_link {
	struct rdma_link_entry *v;
	size_t n, cap;
};

/* 0 when at least one "link" line was found or the input is empty; -1 otherwise. */
int rdma_link_parse(const char *buf, size_t len, struct rdma_link *out);
void rdma_link_release(struct rdma_link *l);

#endif
