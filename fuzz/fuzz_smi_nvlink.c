/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz nvidia-smi nvlink --status: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/smi_nvlink.h"
#include "fuzz_parse.h"

static void nvl(const uint8_t *data, size_t size)
{
	struct smi_nvlink n;

	if (smi_nvlink_parse((const char *)data, size, &n) == 0) {
		(void)smi_nvlink_count_active(&n);
		(void)smi_nvlink_count_inactive(&n);
	}
	smi_nvlink_release(&n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nvl(data, size);
	return 0;
}
