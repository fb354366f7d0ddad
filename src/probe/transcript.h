/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A probe transcript: what the constant probe script (probe.sh) printed, split
 * into named sections.  The same format is produced locally, under --sysroot
 * and through `kubectl exec`, saved by --save-probe and read by --replay.
 *
 * Wire format (line oriented, LF; CR before LF tolerated):
 *   @@ci-probe v1                   first line
 *   @@begin NAME                    a section starts; NAME is [a-z0-9_.:/-]+
 *   |<line>                         a body line; every body line is prefixed
 *                                   with '|' by the script, so a tool's output
 *                                   can never forge a section boundary
 *   @@end NAME rc=N [capped] [timeout] [missing]
 *   @@done                          last line; its absence marks a cut transcript
 * Anything else (stray stderr, banners) is ignored.
 *
 * Section names are the contract between probe.sh and the parsers; they are
 * listed in probe_sections.h.
 */
#ifndef CI_TRANSCRIPT_H
#define CI_TRANSCRIPT_H

#include <stdbool.h>
#include <stddef.h>

struct section {
	char *name;
	char *body;        /* the body with the '|' prefixes removed, '\n'-joined */
	size_t len;
	int rc;            /* exit status the script recorded; -1 if none */
	bool capped;       /* output was cut at the section cap */
	bool timed_out;    /* the tool was stopped by `timeout` */
	bool missing;      /* the tool or file does not exist (command -v failed) */
};

struct transcript {
	struct section *s;
	size_t n, cap;
	bool complete;     /* @@done seen */
	bool valid;        /* the @@ci-probe header was seen */
};

void transcript_init(struct transcript *t);
void transcript_release(struct transcript *t);
/* Pure parser from bytes. */
void transcript_parse(struct transcript *t, const char *buf, size_t len);
/* The section named `name`, or NULL. */
const struct section *transcript_get(const struct transcript *t, const char *name);

#endif
