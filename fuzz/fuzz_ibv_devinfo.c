/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz ibv_devinfo (plain, -vv, -l), rdma link show and ibdev2netdev: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ibv_devinfo.h"
#include "parse/rdma_link.h"
#include "parse/ibdev2netdev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RUN(type, fn, rel) do { \
		struct type x_; \
		(void)fn((const char *)data, size, &x_); \
		rel(&x_); \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	RUN(ibv_devinfo, ibv_devinfo_parse, ibv_devinfo_release);
	RUN(rdma_link, rdma_link_parse, rdma_link_release);
	RUN(ibdev2netdev, ibdev2netdev_parse, ibdev2netdev_release);
	return 0;
}
