/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the env analysis end to end: arbitrary bytes through the manifest
 * reader, then every env rule (string parsers for UCX_TLS, device lists,
 * command-line flags, kv-transfer-config JSON, engine configs) and the
 * facts, rendered as JSON.  Nothing may crash, hang or leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/render.h"
#include "core/report.h"
#include "env/env_analyze.h"
#include "manifest/deploy_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct manifest_set ms;
	manifest_set_init(&ms);
	manifest_parse_bytes(&ms, "fuzz.yaml", (const char *)data, size);
	struct ci_report r;
	report_init(&r, "env", "fuzz");
	env_analyze(&r, &ms, "fuzz");
	struct ci_verdict v;
	verdict_compute(&r, &v);
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		struct render_opts o = {.verbose = true};
		render_json(null, &r, &v, &o);
		render_text(null, &r, &v, &o);
		fclose(null);
	}
	verdict_release(&v);
	report_release(&r);
	manifest_set_release(&ms);
	return 0;
}
