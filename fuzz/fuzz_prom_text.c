/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz the Prometheus text parser (NIXL's telemetry scrape): any bytes must
 * parse without a crash or a leak, and the helpers the checks call must
 * hold on whatever it kept. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/prom_text.h"
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prom_text p;
	(void)prom_text_parse((const char *)data, size, &p);
	double sum;
	(void)prom_text_sum(&p, "agent_tx_bytes_total", &sum);
	(void)prom_text_sum(&p, "agent_errors_total", &sum);
	for (size_t i = 0; i < p.n && i < 64; i++) {
		(void)prom_sample_label(&p.v[i], "status");
		(void)prom_sample_label(&p.v[i], "pid");
	}
	prom_text_release(&p);
	return 0;
}
