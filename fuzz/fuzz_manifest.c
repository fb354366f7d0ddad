/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: any bytes through the manifest reader, then release. */
#include "manifest/deploy_model.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct manifest_set ms;
	manifest_set_init(&ms);
	manifest_parse_bytes(&ms, "fuzz.yaml", (const char *)data, size);
	/* Touch the lookups too: they walk what the parser built. */
	for (size_t i = 0; i < ms.n_deps; i++)
		for (size_t j = 0; j < ms.deps[i].n_svcs; j++) {
			(void)service_env_get(&ms.deps[i].svcs[j], "UCX_TLS");
			(void)service_resource_get(&ms.deps[i].svcs[j], "rdma/ib");
			(void)service_has_cap(&ms.deps[i].svcs[j], "IPC_LOCK");
		}
	manifest_set_release(&ms);
	return 0;
}
