/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints sample reports as JSON, one document after each "\x1e" line, so
 * that validate_json_samples.py can check schema/check_interconnect.schema.json
 * against what render_json really produces (every verdict, children, nulls,
 * invalid UTF-8) before any verb exists.
 */
#include <stdio.h>
#include <string.h>

#include "core/render.h"

static void emit(const struct ci_report *r)
{
	struct render_opts o = {.format = CI_FORMAT_JSON};
	struct ci_verdict v;
	verdict_compute(r, &v);
	fputs("\x1e\n", stdout);
	render_json(stdout, r, &v, &o);
	verdict_release(&v);
}

int main(void)
{
	struct ci_report r, c;

	report_init(&r, "env", "empty");
	emit(&r); /* unknown, nothing checked */
	report_add(&r, "env.ok", CI_OK, true, CI_LAYER_FABRIC, NULL, "fine");
	emit(&r); /* ready */
	struct ci_check *k =
		report_add(&r, "env.ucx.tls", CI_WARN, true, CI_LAYER_ENV, "decode", "warned");
	check_set_fix(k, "do this");
	check_add_evidence(k, "deploy.yaml:1: UCX_TLS=rc");
	report_add_fact(&r, "UCX_TLS", "rc", "decode", "deploy.yaml:1");
	report_add_fact(&r, "HF_TOKEN", "<redacted>", "decode", "deploy.yaml:2");
	emit(&r); /* degraded */
	report_add(&r, "env.skip", CI_SKIPPED, true, CI_LAYER_DRIVER, NULL, "could not");
	emit(&r); /* unknown, critical skip */
	report_add(&r, "env.bad_utf8", CI_FAIL, false, CI_LAYER_TUNING, "s\xff", "d\xc3\x28");
	report_add_step(&r, "run", "nixlbench --backend UCX\nsecond line");
	emit(&r); /* blocked */
	report_release(&r);

	report_init(&r, "node", "deployment d");
	report_add(&r, "fleet.drift", CI_OK, false, CI_LAYER_ENV, NULL, "none");
	report_init(&c, "node", "pod/a");
	c.child_label = strdup("prefill on n1");
	report_add(&c, "node.rdma", CI_FAIL, true, CI_LAYER_FABRIC, "mlx5_0", "down");
	report_adopt_child(&r, &c);
	report_init(&c, "nixl", "pod/b");
	report_add(&c, "nixl.reach", CI_SKIPPED, true, CI_LAYER_FABRIC, NULL, "not verified");
	report_add_step(&c, "pair test", "ucx_perftest -m cuda");
	report_adopt_child(&r, &c);
	emit(&r);
	report_release(&r);

	report_init(&r, "all", "recipe + deployment");
	report_init(&c, "env", "recipe");
	report_add(&c, "env.x", CI_OK, true, CI_LAYER_ENV, NULL, "ok");
	report_adopt_child(&r, &c);
	emit(&r);
	report_release(&r);
	return 0;
}
