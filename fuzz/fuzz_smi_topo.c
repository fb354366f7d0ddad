/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz nvidia-smi topo -m and its helpers: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/smi_topo.h"
#include "fuzz_parse.h"

static void topo(const uint8_t *data, size_t size)
{
	struct smi_topo t;
	enum topo_link k;
	int g;

	if (smi_topo_parse((const char *)data, size, &t) == 0) {
		for (g = 0; g < 4; g++) {
			(void)smi_topo_best_nic(&t, g, &k);
			(void)smi_topo_nvlinks(&t, g, g + 1);
		}
		(void)smi_topo_min_nvlinks(&t);
		(void)smi_topo_find(&t, "mlx5_0");
		(void)smi_topo_cell(&t, 1, 2);
	}
	smi_topo_release(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	topo(data, size);
	return 0;
}
