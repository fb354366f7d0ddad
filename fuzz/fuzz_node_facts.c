/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the node verb's reading of a probe transcript: arbitrary bytes
 * (a --replay file is user input) through the transcript parser, the facts
 * reader (sysfs lines, tool sections handed to every parser) and every check.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/report.h"
#include "node/node.h"
#include "parse/transcript.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct transcript t;
	transcript_init(&t);
	transcript_parse(&t, (const char *)data, size);
	struct ci_report r;
	report_init(&r, "node", "fuzz");
	node_analyze(&r, &t, "fuzz");
	struct ci_verdict v;
	verdict_compute(&r, &v);
	verdict_release(&v);
	report_release(&r);
	transcript_release(&t);
	return 0;
}
