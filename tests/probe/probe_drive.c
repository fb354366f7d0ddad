/* SPDX-License-Identifier: Apache-2.0 */
/*
 * probe_drive: run probe_collect() once with CLI-like options and print one
 * line: "err=NAME calls=N elapsed=S target=..." (stdout), the message on
 * stderr, the transcript with --print.  Exit code: probe_error_exit().
 * Used by bench/probe.sh until the node verb exists.
 *   probe_drive [-n NS] [--pod P] [-c C] [--context X] [--kubeconfig F]
 *               [--kubectl K] [--timeout S] [--sysroot D] [--replay F]
 *               [--save-probe F] [--print]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"

int main(int argc, char **argv)
{
	struct probe_target o = {.timeout_s = PROBE_DEFAULT_TIMEOUT_S};
	const char *k = getenv("KUBECTL");
	bool print = false;
	o.kubectl = k && *k ? k : "kubectl";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--print")) {
			print = true;
			continue;
		}
		if (!v) {
			fprintf(stderr, "probe_drive: %s needs a value\n", a);
			return 64;
		}
		i++;
		if (!strcmp(a, "-n") || !strcmp(a, "--namespace"))
			o.namespace_ = v;
		else if (!strcmp(a, "--pod"))
			o.pod = v;
		else if (!strcmp(a, "-c") || !strcmp(a, "--container"))
			o.container = v;
		else if (!strcmp(a, "--context"))
			o.context = v;
		else if (!strcmp(a, "--kubeconfig"))
			o.kubeconfig = v;
		else if (!strcmp(a, "--kubectl"))
			o.kubectl = v;
		else if (!strcmp(a, "--timeout"))
			o.timeout_s = atof(v);
		else if (!strcmp(a, "--sysroot"))
			o.sysroot = v;
		else if (!strcmp(a, "--replay"))
			o.replay = v;
		else if (!strcmp(a, "--save-probe"))
			o.save_probe = v;
		else {
			fprintf(stderr, "probe_drive: unknown option %s\n", a);
			return 64;
		}
	}
	struct probe_outcome out;
	probe_collect(&o, NULL, &out);
	printf("err=%s calls=%d elapsed=%.4f sections=%zu complete=%d target=%s\n",
	       probe_error_name(out.err), out.kubectl_calls, out.elapsed_s, out.t.n, out.t.complete,
	       out.target ? out.target : "");
	if (out.message)
		fprintf(stderr, "%s\n", out.message);
	if (print && out.raw)
		fwrite(out.raw, 1, out.raw_len, stdout);
	int rc = probe_error_exit(out.err);
	probe_outcome_release(&out);
	return rc;
}
