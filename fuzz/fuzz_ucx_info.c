/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz ucx_info -v and -d and the transport helpers: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ucx_info.h"
#include "fuzz_parse.h"

static void ucx(const uint8_t *data, size_t size)
{
	struct ucx_version v;
	struct ucx_devices d;
	const char *names[8];

	(void)ucx_version_parse((const char *)data, size, &v);
	(void)ucx_version_at_least(&v, 1, 14, 0);
	ucx_version_release(&v);
	(void)ucx_devices_parse((const char *)data, size, &d);
	(void)ucx_devices_has_rdma(&d);
	(void)ucx_devices_rdma_transports(&d, names, 8);
	(void)ucx_devices_md_has_cuda(&d, "mlx5_0:1");
	(void)ucx_devices_rdma_md_has_cuda(&d);
	ucx_devices_release(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ucx(data, size);
	return 0;
}
