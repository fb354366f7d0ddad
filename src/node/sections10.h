/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sections the node rules of issue 10 read (pid 1's limits and
 * capabilities, the second counter reading, libraries, routes, the P2P
 * matrix).  Every one is optional: a transcript without it (any probe
 * before it) replays, and what needs it is `skipped`, "not collected".
 * A name moves to sections.h once src/probe/probe.sh prints it (the
 * script test checks that every name there is printed).
 */
#ifndef CI_NODE_SECTIONS10_H
#define CI_NODE_SECTIONS10_H

/* pid 1's limits and status: SEC_PID1_LIMITS, SEC_PID1_STATUS (sections.h) */
#define SEC_LIMITS_PID1 SEC_PID1_LIMITS
#define SEC_STATUS_PID1 SEC_PID1_STATUS
#define SEC_COUNTERS2   "sys:counters" /* port counters again, ~1 s after SEC_SYS */
#define SEC_LIBS        "files:libs" /* paths of libibverbs.so.1.*, libgdrapi.so.2.*, libucp.so.* */
#define SEC_ROUTE       "proc:net-route"    /* /proc/net/route */
#define SEC_INET6       "proc:net-if_inet6" /* /proc/net/if_inet6 */
#define SEC_SMI_P2P     "tool:nvsmi-p2p"    /* nvidia-smi topo -p2p r */

#endif
