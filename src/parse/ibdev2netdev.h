/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `ibdev2netdev` (MLNX_OFED): "mlx5_0 port 1 ==> ib0 (Up)"; devices come in
 * lexical order (mlx5_19 before mlx5_2); SR-IOV VF netdevs look like
 * "ibp75s0v7".
 */
#ifndef CI_PARSE_IBDEV2NETDEV_H
#define CI_PARSE_IBDEV2NETDEV_H

#include <stdbool.h>
#include <stddef.h>

struct ibdev2netdev_entry {
	char *dev;
	unsigned port;
	char *netdev;
	bool up;     /* "(Up)" */
	char *state; /* the text inside the parentheses */
};

struct ibdev2netdev {
	struct ibdev2netdev_entry *v;
	size_t n, cap;
};

/* 0 when at least one mapping line was found or the input is empty; -1 otherwise. */
int ibdev2netdev_parse(const char *buf, size_t len, struct ibdev2netdev *out);
void ibdev2netdev_release(struct ibdev2netdev *m);
const struct ibdev2netdev_entry *ibdev2netdev_find(const struct ibdev2netdev *m, const char *dev);

#endif
