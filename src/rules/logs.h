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
 * transport's mark at the level of the call: UCX's "UCX  ERROR"/"UCX  WARN"
 * or its fatal prefix "[host:pid:thread:tid] file.c:NN " (ucs_log_fatal_error,
 * src/ucs/debug/log.c: the process aborts after it), NCCL's "NCCL WARN"
 * ("NCCL INFO" for the rows printed at info level), the plugin's "NET/OFI"
 * with "WARN", libfabric's "<warn>" or an EFA path, and for NIXL any glog
 * prefix but I (info).
 *
 * What a row means comes from the code path after its call (the generator,
 * tools/log_formats.py, says how): fail when it returns an error, warn when
 * it carries on, info for a test tool's diagnostics (ucx_perftest), which a
 * serving process never prints, and for the calls of functions that tear
 * down (cleanup, destroy, finalize), printed on shutdown: shown, never
 * counted.
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
	LOG_MEAN_FAIL, /* the code path fails after the call: breaks or forces the slow path */
	LOG_MEAN_WARN, /* the code carries on: a known risk */
	LOG_MEAN_INFO, /* a test tool's diagnostic (ucx_perftest/libperf) or a teardown
			* message (a cleanup/destroy/finalize function): shown, not counted */
};

/* The level the call prints at, which decides the mark a line carries. */
enum log_at {
	LOG_AT_LEVEL, /* the logger's error or warning level */
	LOG_AT_INFO,  /* an info call whose words say the fast path is off (NCCL INFO) */
};

#define LOG_MAX_TAGS 10

struct log_rule {
	const char *fmt;          /* the format string as the source writes it */
	enum log_meaning meaning; /* from the code path after the call */
	enum log_at at;           /* the level it is printed at */
	const char *file;         /* its file in the project */
	unsigned versions;        /* bit i: the section's tags[i] prints it */
};

struct log_source {
	const char *name;               /* "ucx", "nixl", "nccl", "ofi", "efa" */
	const char *project;            /* "openucx/ucx" */
	const char *tags[LOG_MAX_TAGS]; /* newest first */
	unsigned n_tags;
	const struct log_rule *rows;
	size_t n;
};

extern const struct log_source log_sources_table[LOG_SRC_COUNT];

/* The fragments of fmt, in order, appear in line. */
bool log_fmt_matches(const char *fmt, const char *line);
/* The line carries source src's mark at the level at. */
bool log_line_marked(enum log_src src, enum log_at at, const char *line);
/* UCX's fatal prefix, "[host:pid:thread:tid] file.c:NN ": the process
 * aborts after the line (ucs_log_fatal_error, src/ucs/debug/log.c). */
bool log_line_ucx_fatal(const char *line);
/* What a matched line means: the row's meaning, or fail for a line with
 * UCX's fatal prefix (whatever the row, the process aborts). */
enum log_meaning log_line_meaning(const struct log_rule *rule, enum log_src src, const char *line);
/* The newest tag of the section that prints the row. */
const char *log_rule_tag(const struct log_source *ls, const struct log_rule *rule);
/* The first row that matches line, its source in *src; NULL: none. */
const struct log_rule *log_rule_match(const char *line, enum log_src *src);

#endif
