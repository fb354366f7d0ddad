/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz /proc/modules and lsmod: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/modules.h"
#include "fuzz_parse.h"

static void mods(const uint8_t *data, size_t size)
{
	struct modules m;

	(void)modules_parse((const char *)data, size, &m);
	(void)modules_used_by(&m, "ib_core", "nvidia_peermem");
	(void)modules_has(&m, "gdrdrv");
	modules_release(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mods(data, size);
	return 0;
}
