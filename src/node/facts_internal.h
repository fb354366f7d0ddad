/* SPDX-License-Identifier: Apache-2.0 */
/* Pieces of node_facts_read(), one file per group of sections. */
#ifndef CI_NODE_FACTS_INTERNAL_H
#define CI_NODE_FACTS_INTERNAL_H

#include "node/node_facts.h"

void node_read_sys(struct node_facts *f, const struct section *s);
void node_read_dev(struct node_facts *f, const struct section *s);
/* The second counter reading (SEC_COUNTERS2), after node_read_sys. */
void node_read_second_sample(struct node_facts *f, const struct section *s);
/* facts_stack.c: libraries, routes and addresses, P2P, UCX version, pid 1. */
void node_read_stack(struct node_facts *f, const struct transcript *t);
/* A module seen loaded (in /proc/modules or as /sys/module/NAME). */
void node_note_module(struct node_facts *f, const char *name);

#endif
