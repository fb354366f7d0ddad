/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz the env:pid1 / env:exec section reader: any bytes must parse without
 * a crash or a leak, and no name or value may hold a line break. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/env_section.h"
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct env_section e;
	(void)env_section_parse((const char *)data, size, &e);
	for (size_t i = 0; i < e.n; i++)
		if (strchr(e.v[i].name, '\n') || strchr(e.v[i].value, '\n') || !*e.v[i].name)
			abort();
	env_section_release(&e);
	return 0;
}
