/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the result model and both renderers: arbitrary bytes in ids,
 * subjects, details, fixes, evidence, facts and steps (input files can put
 * any of them there) must render as text and as valid JSON without a crash.
 *
 * Input: lines; the first byte of each line picks what the line becomes
 * (check, fact, step, child report) and the status/layer/critical bits, the
 * rest is split on '|' into its fields.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/render.h"
#include "core/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FIELDS 6

static size_t split(char *s, char **f)
{
	size_t n = 0;
	f[n++] = s;
	for (char *p = s; *p && n < MAX_FIELDS; p++)
		if (*p == '|') {
			*p = '\0';
			f[n++] = p + 1;
		}
	for (size_t i = n; i < MAX_FIELDS; i++)
		f[i] = NULL;
	return n;
}

static void add_line(struct ci_report *r, unsigned char ctl, char *rest)
{
	char *f[MAX_FIELDS];
	size_t n = split(rest, f);
	switch (ctl & 3) {
	case 0: {
		struct ci_check *c =
			report_add(r, f[0], (enum ci_status)((ctl >> 2) & 3), (ctl >> 4) & 1,
				   (enum ci_layer)((ctl >> 5) & 3),
				   n > 1 && (ctl & 0x80) ? f[1] : NULL, "%s", n > 2 ? f[2] : "");
		if (n > 3)
			check_set_fix(c, "%s", f[3]);
		for (size_t i = 4; i < n; i++)
			check_add_evidence(c, "%s", f[i]);
		break;
	}
	case 1:
		report_add_fact(r, f[0], n > 1 ? f[1] : "", n > 2 ? f[2] : "", n > 3 ? f[3] : "");
		break;
	case 2: report_add_step(r, f[0], n > 1 ? f[1] : ""); break;
	default: {
		struct ci_report child;
		report_init(&child, "node", f[0]);
		if (n > 1)
			child.child_label = strdup(f[1]);
		for (size_t i = 2; i < n; i++)
			report_add(&child, "child.check", (enum ci_status)((ctl >> 2) & 3),
				   (ctl >> 4) & 1, CI_LAYER_DRIVER, f[i], "%s", f[i]);
		report_adopt_child(r, &child);
		break;
	}
	}
}

static void render_all(const struct ci_report *r, unsigned char mode)
{
	struct render_opts o = {0};
	o.quiet = mode & 1;
	o.verbose = mode & 2;
	o.color = mode & 4;
	struct ci_verdict v;
	verdict_compute(r, &v);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (out) {
		render_text(out, r, &v, &o);
		/* every other format from the same report */
		for (size_t i = 0; i < render_formats_len; i++)
			if (render_formats[i].render)
				render_formats[i].render(out, r, &v, &o);
		fclose(out);
	}
	free(buf);
	verdict_release(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	struct ci_report r;
	report_init(&r, "env", "fuzz");
	unsigned char mode = size ? (unsigned char)s[0] : 0;
	char *line = s;
	for (size_t lines = 0; line && *line && lines < 256; lines++) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (*line)
			add_line(&r, (unsigned char)line[0], line + 1);
		line = nl ? nl + 1 : NULL;
	}
	render_all(&r, mode);
	report_release(&r);
	free(s);
	return 0;
}
