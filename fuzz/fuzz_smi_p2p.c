/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz the `nvidia-smi topo -p2p r` parser: any bytes, no crash, no leak. */
#include <stdint.h>

#include "parse/smi_p2p.h"
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FUZZ_PARSE(smi_p2p, smi_p2p_parse, smi_p2p_release);
	return 0;
}
