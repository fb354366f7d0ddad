/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz /proc/net/route and /proc/net/if_inet6: any bytes, no crash, no leak. */
#include <stdint.h>

#include "parse/proc_net.h"
#include "fuzz_parse.h"

static void route(const uint8_t *data, size_t size)
{
	struct proc_route r;
	(void)proc_route_parse((const char *)data, size, &r);
	(void)proc_route_default(&r);
	for (size_t i = 0; i < r.n; i++)
		(void)net_route_link_local(&r.v[i]);
	proc_route_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	route(data, size);
	FUZZ_PARSE(proc_inet6, proc_inet6_parse, proc_inet6_release);
	return 0;
}
