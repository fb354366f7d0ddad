/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which transports `ucx_info -d` lists UCX_NET_DEVICES applies to: only
 * network devices are filtered by it (UCX_TLS and UCX_NET_DEVICES
 * themselves are read by parse/ucx_tls.c, the one UCX vocabulary).
 */
#include <string.h>

#include "nixl/nixl.h"
#include "parse/ucx_tls.h"

bool nixl_tl_is_network(const struct ucx_tl *tl)
{
	if (tl->type)
		return !strcmp(tl->type, "network");
	return ucx_tl_is_rdma(tl->transport) || !strcmp(tl->transport, "tcp");
}
