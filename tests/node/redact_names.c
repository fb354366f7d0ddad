/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C side of the one redaction rule, for test_probe_script.py: reads
 * "NAME=VALUE" lines on stdin and prints, per line, what the tool itself
 * would show for that variable: "NAME skip" (not a transport name: never
 * read from a pod), else "NAME=<value as redact_value() gives it>" (the
 * name and value rules and URL credentials).  The
 * test feeds the same variables to the probe script in a pod-like shell and
 * requires the script's env:exec lines to be exactly these.
 */
#include <stdio.h>
#include <string.h>

#include "core/redact.h"

int main(void)
{
	char line[4096];
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		if (!redact_is_transport_name(line))
			printf("%s skip\n", line);
		else
			printf("%s=%s\n", line, redact_value(line, eq + 1));
	}
	return 0;
}
