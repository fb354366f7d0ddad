/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz ibv_devinfo (plain, -vv, -l), rdma link show and ibdev2netdev: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ibv_devinfo.h"
#include "parse/rdma_link.h"
#include "parse/ibdev2netdev.h"
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FUZZ_PARSE(ibv_devinfo, ibv_devinfo_parse, ibv_devinfo_release);
	FUZZ_PARSE(rdma_link, rdma_link_parse, rdma_link_release);
	FUZZ_PARSE(ibdev2netdev, ibdev2netdev_parse, ibdev2netdev_release);
	return 0;
}
