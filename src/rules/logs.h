/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The log lines of UCX, NIXL, NCCL, the AWS OFI NCCL plugin and libfabric's
 * EFA provider, as their sources write them: one section per transport in
 * rules/logs_table.c (generated from the format strings of the upstream
 * trees by tools/log_formats.py), each row the format string, what its call
 * means, its file and the tags that print it.
 *
 * A line matches a row when the row's literal fragments (the text between
 * its conversions) appear in the line in order, and the line carries its
 * transport's mark at the level of the call: UCX's "UCX  ERROR"/"UCX  WARN",
 * NCCL's "NCCL WARN", the plugin's "NET/OFI" with "WARN", libfabric's
 * "<warn>" or an EFA path, and for NIXL any glog prefix but I (info).
 */
#ifndef CI_RULES_LOGS_H
#define CI_RULES_LOGS_H

#include <stdbool.h>
#include <stddef.h>

enum log_src {
	LOG_SRC_UCX,
	LOG_SRC_NIXL,
	LOG_SRC_NCCL,
	LOG_SRC_OFI,
	LOG_SRC_EFA,
	LOG_SRC_COUNT
};

enum log_meaning {
	LOG_MEAN_FAIL, /* an error call: the operation failed */
	LOG_MEAN_WARN, /* a warning call: a known risk */
};

struct log_rule {
	const char *fmt;          /* the format string as the source writes it */
	enum log_meaning meaning; /* from the call that prints it */
	const char *file;         /* its file in the project */
	unsigned versions;        /* bit 0: the section's newer tag prints it, bit 1: the older */
};

struct log_source {
	const char *name;    /* "ucx", "nixl", "nccl", "ofi", "efa" */
	const char *project; /* "openucx/ucx" */
	const char *tags[2]; /* newer, older */
	const struct log_rule *rows;
	size_t n;
};

extern const struct log_source log_sources_table[LOG_SRC_COUNT];

/* The fragments of fmt, in order, appear in line. */
bool log_fmt_matches(const char *fmt, const char *line);
/* The line carries source src's mark (at a warning or error level). */
bool log_line_marked(enum log_src src, const char *line);
/* The first row that matches line, its source in *src; NULL: none. */
const struct log_rule *log_rule_match(const char *line, enum log_src *src);

#endif
