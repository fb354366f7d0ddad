/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz the kubeconfig reader: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_parse.h"
#include "parse/kubeconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kubeconfig kc;
	(void)kubeconfig_parse((const char *)data, size, &kc);
	(void)kubeconfig_context(&kc, kc.current_context);
	kubeconfig_release(&kc);
	return 0;
}
