/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/logs.h"

#include <ctype.h>
#include <string.h>

/* The length of the conversion at f ('%' ... type letter), 0 when f is not
 * one ("%%" is a literal '%'). */
static size_t conv_len(const char *f)
{
	size_t i = 1;
	if (f[0] != '%' || f[1] == '%')
		return 0;
	while (f[i] && strchr("-+ #0123456789.*", f[i]))
		i++;
	while (f[i] && strchr("hlzjtLq", f[i]))
		i++;
	return f[i] && isalpha((unsigned char)f[i]) ? i + 1 : 0;
}

bool log_fmt_matches(const char *fmt, const char *line)
{
	const char *at = line;
	char frag[512];
	while (*fmt) {
		size_t n = 0;
		while (*fmt && n < sizeof(frag) - 1) {
			size_t c = conv_len(fmt);
			if (c) {
				fmt += c;
				break;
			}
			if (fmt[0] == '%' && fmt[1] == '%')
				fmt++;
			frag[n++] = *fmt++;
		}
		/* a fragment of spaces only says nothing */
		size_t s = 0;
		// cppcheck-suppress uninitvar ; frag[0..n) was written above
		while (s < n && frag[s] == ' ')
			s++;
		if (s == n)
			continue;
		frag[n] = '\0';
		const char *hit = strstr(at, frag);
		if (!hit)
			return false;
		at = hit + n;
	}
	return true;
}

/* glog's prefix (NIXL logs through absl/glog LOG()): a severity letter and
 * MMDD, "E1201 12:00:00.000000 ..."; 0 when the line has none. */
static char glog_level(const char *l)
{
	for (const char *p = l; *p; p++)
		if (strchr("IWEF", *p) && (p == l || p[-1] == ' ') &&
		    isdigit((unsigned char)p[1]) && isdigit((unsigned char)p[2]) &&
		    isdigit((unsigned char)p[3]) && isdigit((unsigned char)p[4]) && p[5] == ' ' &&
		    isdigit((unsigned char)p[6]) && isdigit((unsigned char)p[7]) && p[8] == ':')
			return *p;
	return 0;
}

/* "[host:pid:thread:tid] " then a source file and line: the prefix
 * ucs_log_fatal_error prints before ucs_fatal_error_message's text
 * ("%13s:%-4u %s"), the hostname free of ':' and ']'. */
bool log_line_ucx_fatal(const char *l)
{
	for (const char *b = strchr(l, '['); b; b = strchr(b + 1, '[')) {
		const char *p = b + 1;
		size_t host = strcspn(p, ":] \t");
		if (!host || p[host] != ':')
			continue;
		p += host + 1;
		/* pid (left-aligned, padded), thread name, tid */
		if (!isdigit((unsigned char)*p))
			continue;
		while (isdigit((unsigned char)*p))
			p++;
		while (*p == ' ')
			p++;
		if (*p++ != ':')
			continue;
		p += strcspn(p, ":]");
		if (*p++ != ':' || !isdigit((unsigned char)*p))
			continue;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p++ != ']')
			continue;
		while (*p == ' ')
			p++;
		/* file.c:NN */
		size_t f = strcspn(p, ": ");
		if (f < 3 || p[f] != ':' || !isdigit((unsigned char)p[f + 1]))
			continue;
		if (!memchr(p, '.', f))
			continue;
		return true;
	}
	return false;
}

bool log_line_marked(enum log_src src, enum log_at at, const char *l)
{
	if (at == LOG_AT_INFO)
		return src == LOG_SRC_NCCL && strstr(l, "NCCL INFO") != NULL;
	switch (src) {
	case LOG_SRC_UCX:
		/* ucs_log's "file.c:NN UCX  ERROR msg" / "UCX  WARN  msg", or
		 * the fatal prefix */
		return (strstr(l, "UCX") && (strstr(l, " ERROR ") || strstr(l, " WARN "))) ||
		       log_line_ucx_fatal(l);
	case LOG_SRC_NIXL: {
		char g = glog_level(l);
		return g != 'I';
	}
	case LOG_SRC_NCCL: return strstr(l, "NCCL WARN") != NULL;
	case LOG_SRC_OFI: return strstr(l, "NET/OFI") && strstr(l, "WARN");
	case LOG_SRC_EFA: return strstr(l, "<warn>") || strstr(l, "prov/efa") || strstr(l, ":efa:");
	case LOG_SRC_COUNT: break;
	}
	return false;
}

const struct log_rule *log_rule_match(const char *line, enum log_src *src)
{
	for (int s = 0; s < LOG_SRC_COUNT; s++) {
		const bool marked[2] = {log_line_marked((enum log_src)s, LOG_AT_LEVEL, line),
					log_line_marked((enum log_src)s, LOG_AT_INFO, line)};
		if (!marked[0] && !marked[1])
			continue;
		const struct log_source *ls = &log_sources_table[s];
		for (size_t i = 0; i < ls->n; i++)
			if (marked[ls->rows[i].at] && log_fmt_matches(ls->rows[i].fmt, line)) {
				*src = (enum log_src)s;
				return &ls->rows[i];
			}
	}
	return NULL;
}

enum log_meaning log_line_meaning(const struct log_rule *rule, enum log_src src, const char *line)
{
	if (src == LOG_SRC_UCX && rule->meaning != LOG_MEAN_INFO && log_line_ucx_fatal(line))
		return LOG_MEAN_FAIL;
	return rule->meaning;
}

const char *log_rule_tag(const struct log_source *ls, const struct log_rule *rule)
{
	for (unsigned i = 0; i < ls->n_tags && i < LOG_MAX_TAGS; i++)
		if (rule->versions & (1u << i))
			return ls->tags[i];
	return ls->n_tags ? ls->tags[0] : "";
}
