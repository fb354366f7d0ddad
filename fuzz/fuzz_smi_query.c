/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz nvidia-smi -q, --query-gpu csv and the error classifier: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/smi_query.h"
#include "parse/smi_csv.h"
#include "parse/smi_error.h"
#include "fuzz_parse.h"

static void query(const uint8_t *data, size_t size)
{
	struct smi_query q;
	size_t i;

	(void)smi_query_parse((const char *)data, size, &q);
	for (i = 0; i < q.ngpus; i++) {
		(void)smi_fabric_completed(&q.gpus[i].fabric);
		(void)smi_fabric_no_cluster(&q.gpus[i].fabric);
	}
	smi_query_release(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	query(data, size);
	FUZZ_PARSE(smi_csv, smi_csv_parse, smi_csv_release);
	(void)smi_error_classify((const char *)data, size);
	return 0;
}
