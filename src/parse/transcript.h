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
 * Section names are the contract between probe.sh and the facts readers;
 * they are listed in src/node/sections.h.  Parsing a transcript is pure
 * (bytes -> struct transcript), so it lives with the parsers: the check
 * libraries link it without linking the code that runs the probe.
 */
#ifndef CI_TRANSCRIPT_H
#define CI_TRANSCRIPT_H

#include <stdbool.h>
#include <stddef.h>

struct section {
	char *name;
	char *body; /* the body lines with the '|' prefixes removed, each
			    * ending in '\n' (so "" when empty); NUL-terminated,
			    * but may hold NUL bytes: use len */
	size_t len;
	int rc;         /* exit status the script recorded; -1 if none */
	bool capped;    /* output was cut at the section cap */
	bool timed_out; /* the tool was stopped by `timeout` */
	bool missing;   /* the tool or file does not exist (command -v failed) */
};

struct transcript {
	struct section *s;
	size_t n, cap;
	bool complete;  /* @@done seen */
	bool valid;     /* the @@ci-probe header was seen */
	bool truncated; /* a cap below was hit: sections or bytes were dropped */
	size_t dropped; /* sections refused (cap, duplicate name, bad name) */
};

/* Caps, so that no input can make the parser grow without bound.  The
 * transport already caps what it reads (RUN_STDOUT_CAP); these hold for
 * --replay files and the fuzzer too. */
#define TRANSCRIPT_MAX_BYTES    (16u << 20) /* input looked at (whole lines) */
#define TRANSCRIPT_MAX_SECTIONS 512
#define TRANSCRIPT_MAX_NAME     128

void transcript_init(struct transcript *t);
void transcript_release(struct transcript *t);
/* Pure parser from bytes.  Rules beyond the format above:
 *  - lines before the header, and everything after @@done, are ignored;
 *  - a trailing CR is stripped from every line (body lines included);
 *  - @@begin while a section is open closes that one as cut (rc -1);
 *  - a section still open at the end keeps its body and gets rc -1;
 *  - @@end with another name than the open section is ignored;
 *  - a repeated name keeps the FIRST section (see transcript.c);
 *  - beyond the caps, sections/lines are dropped and `truncated` is set;
 *    the section open at the byte cap is marked capped.
 * May be called once per transcript_init. */
void transcript_parse(struct transcript *t, const char *buf, size_t len);
/* Set the section `name` to body (copied; any earlier section of that name
 * is replaced): for what the runner itself read beside the script (the
 * worker's kubectl logs), which a transcript from the pod must never be
 * able to pre-empt.  Not subject to the parse caps: the caller bounds it. */
void transcript_put(struct transcript *t, const char *name, const char *body, size_t len, int rc);
/* The same, for a body that was cut (the section reads as capped). */
void transcript_put_capped(struct transcript *t, const char *name, const char *body, size_t len,
			   int rc);
/* The section named `name`, or NULL. */
const struct section *transcript_get(const struct transcript *t, const char *name);
/* Is `name` a well-formed section name ([a-z0-9_.:/-]+, <= MAX_NAME)? */
bool transcript_name_valid(const char *name, size_t len);

#endif
