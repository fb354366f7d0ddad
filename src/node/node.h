/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The node verb as a library: from a probe transcript to checks and facts,
 * so that `all` and the fleet fan-out can judge a pod the same way.
 */
#ifndef CI_NODE_H
#define CI_NODE_H

#include "core/report.h"
#include "parse/transcript.h"

/* Read the facts of `t` and add every node check and the pod's transport
 * variables (as facts, with `subject`) to r.  Pure. */
void node_analyze(struct ci_report *r, const struct transcript *t, const char *subject);
/* The same from facts already read (a fleet run reads each pod's facts once
 * and hands them to the node, nixl and fleet checks). */
struct node_facts;
void node_analyze_facts(struct ci_report *r, const struct node_facts *f, const char *subject);

#endif
