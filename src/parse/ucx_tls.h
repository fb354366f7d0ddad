/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The UCX transport vocabulary, in one place: which transports an UCX_TLS
 * alias names, which transports are RDMA or CUDA, and how an UCX_TLS value
 * selects transports.  As UCX's ucp_context.c applies it (ucp_tl_aliases
 * and ucp_is_resource_in_transports_list, openucx/ucx master):
 *  - a comma list; a leading '^' makes it a deny list; "all" names every
 *    transport; unset or blank allows everything;
 *  - names and aliases match exactly (strcmp: no prefixes, no case
 *    folding);
 *  - "\name" is the strict transport name: it never expands an alias
 *    ("\rc" names nothing, "\rc_mlx5" names rc_mlx5);
 *  - "name:aux" (and the ud_*:aux members of rc/dc) only allow a
 *    transport for connection setup: an auxiliary transport carries no
 *    data, so it never counts as selected here.
 * Pure, and bounded: at most UCX_TLS_MAX_ENTRIES entries of fewer than
 * UCX_TLS_MAX_ENTRY bytes are read; longer entries are ignored.
 */
#ifndef CI_UCX_TLS_H
#define CI_UCX_TLS_H

#include <stdbool.h>
#include <stddef.h>

#define UCX_TLS_MAX_ENTRIES 128
#define UCX_TLS_MAX_ENTRY   64

/* The transports alias names (NULL-terminated), or NULL when name is not
 * an alias. */
const char *const *ucx_tls_alias(const char *name);

/* A transport (as `ucx_info -d` lists it, or an alias of only such
 * transports) that moves data over an RDMA NIC: rc_verbs, rc_mlx5,
 * dc_mlx5, ud_verbs, ud_mlx5, gga_mlx5, srd; rc, ib, ...  NULL: false. */
bool ucx_tl_is_rdma(const char *tl);
/* cuda_copy, cuda_ipc, gdr_copy, and the alias cuda.  NULL: false. */
bool ucx_tl_is_cuda(const char *tl);

/* Does one UCX_TLS entry (no '^', trimmed) select transport tl? */
bool ucx_tls_entry_selects(const char *entry, const char *tl);
/* Does the UCX_TLS value let UCX use transport tl for data? */
bool ucx_tls_allows(const char *value, const char *tl);
/* Does it leave UCX an RDMA transport that can carry data: one of alias
 * ib's (rc/ud/dc over verbs or mlx5), or srd when an allow list names it?
 * gga_mlx5 does not count (BlueField cross-function access).  A CUDA one
 * (cuda_copy, cuda_ipc, gdr_copy)? */
bool ucx_tls_allows_rdma(const char *value);
bool ucx_tls_allows_cuda(const char *value);
/* A deny list ("^...")?  Leading blanks are skipped. */
bool ucx_tls_is_deny(const char *value);
/* No entry at all ("", ",,,", blanks)?  NULL is unset, not empty. */
bool ucx_tls_is_empty(const char *value);

/* UCX_NET_DEVICES: exact device names ("mlx5_0:1", "eth0") or "all"; no '^'
 * form (an entry "^mlx5_0:1" is a name that matches no device). */
bool ucx_net_devices_allows(const char *value, const char *device);
/* Its entries as UCX counts them (empty ones left out), and the first one
 * named twice (into dup; false when none).  UCX warns "device '%s' is
 * specified multiple times" and uses it once; more than 64 entries abort
 * it (ucp_is_resource_in_device_list, src/ucp/core/ucp_context.c:
 * ucs_assert_always(count <= 64), a 64-bit mask). */
#define UCX_NET_DEVICES_MAX 64
size_t ucx_net_devices_count(const char *value);
bool ucx_net_devices_duplicate(const char *value, char *dup, size_t len);

#endif
