/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz the live-evidence parsers (/proc/PID/maps, `ls -l /proc/PID/fd`,
 * /proc/net/dev, Prometheus text): any bytes must parse without a crash or
 * a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_parse.h"
#include "parse/net_dev.h"
#include "parse/proc_fd.h"
#include "parse/proc_maps.h"
#include "parse/prom_text.h"

static void prom(const uint8_t *data, size_t size)
{
	struct prom_text p;
	double sum;

	(void)prom_text_parse((const char *)data, size, &p);
	(void)prom_text_sum(&p, "agent_tx_bytes_total", &sum);
	for (size_t i = 0; i < p.n; i++)
		(void)prom_sample_label(&p.v[i], "status");
	prom_text_release(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FUZZ_PARSE(proc_maps, proc_maps_parse, proc_maps_release);
	FUZZ_PARSE(proc_fds, proc_fds_parse, proc_fds_release);
	FUZZ_PARSE(net_devs, net_dev_parse, net_dev_release);
	prom(data, size);
	return 0;
}
