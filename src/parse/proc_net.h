/* SPDX-License-Identifier: Apache-2.0 */
/*
 * /proc/net/route and /proc/net/if_inet6 (world-readable, one network
 * namespace: the pod's).  Only what the socket-interface and management-NIC
 * rules need: which interface holds the default route, and which hold a
 * routable or only a link-local address.  Pure: bytes in, struct out.
 */
#ifndef CI_PARSE_PROC_NET_H
#define CI_PARSE_PROC_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct net_route {
	char *iface;
	uint32_t dest, gateway, mask; /* host byte order */
	unsigned flags;
};

struct proc_route {
	struct net_route *v;
	size_t n, cap;
};

/* 0 when the header was seen (an empty table is an answer); -1 otherwise. */
int proc_route_parse(const char *buf, size_t len, struct proc_route *out);
void proc_route_release(struct proc_route *r);
/* The interface of the default route (0.0.0.0/0), or NULL. */
const char *proc_route_default(const struct proc_route *r);
/* Is r inside 169.254.0.0/16 (IPv4 link-local)? */
bool net_route_link_local(const struct net_route *r);

enum inet6_scope {
	INET6_GLOBAL = 0,
	INET6_HOST,
	INET6_LINK,
	INET6_SITE,
	INET6_OTHER
};

struct inet6_addr {
	char *iface;
	char addr[33]; /* 32 hex digits */
	enum inet6_scope scope;
};

struct proc_inet6 {
	struct inet6_addr *v;
	size_t n, cap;
};

/* 0 when every non-blank line parsed or the file was empty; -1 when no
 * line had the if_inet6 shape. */
int proc_inet6_parse(const char *buf, size_t len, struct proc_inet6 *out);
void proc_inet6_release(struct proc_inet6 *a);

#endif
