/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interface byte counters of one network namespace, from /proc/net/dev:
 *   "Inter-|   Receive ...|  Transmit"                  (two header lines)
 *   "  eth0: 1843211 12044 0 0 0 0 0 0 92811 1101 0 0 0 0 0 0"
 * Large counters can touch the colon ("eth0:18432110"), so the name ends at
 * the colon, not at a space.  Field 1 is received bytes, field 9 sent bytes.
 */
#ifndef CI_PARSE_NET_DEV_H
#define CI_PARSE_NET_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct net_dev_if {
	char *name;
	uint64_t rx_bytes, tx_bytes;
};

struct net_devs {
	struct net_dev_if *v;
	size_t n, cap;
	bool capped;
};

/* 0 when at least one interface line was read; -1 otherwise. */
int net_dev_parse(const char *buf, size_t len, struct net_devs *out);
void net_dev_release(struct net_devs *d);
const struct net_dev_if *net_dev_find(const struct net_devs *d, const char *name);

#endif
