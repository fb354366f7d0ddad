/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Small string parsers the env rules need.  Inputs come from untrusted YAML,
 * so every loop is bounded by the string and every copy by a cap.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <strings.h>

#include "core/xalloc.h"
#include "env/env_analyze.h"
#include "parse/ucx_tls.h"

#define MAX_VALUE 8192 /* longest flag/JSON value we extract */

bool str_in_ci(const char *s, const char *const *words)
{
	for (size_t i = 0; s && words[i]; i++)
		if (!strcasecmp(s, words[i]))
			return true;
	return false;
}

bool env_truthy(const char *v)
{
	static const char *const yes[] = {"1", "y", "yes", "true", "on", "try", NULL};
	return v && str_in_ci(v, yes);
}

/* What a UCX_TLS value leaves UCX, in the vocabulary of parse/ucx_tls.c
 * (UCX's own aliases, '^', "\\name", "all"). */
void ucx_tls_parse(const char *value, struct tls_info *t)
{
	memset(t, 0, sizeof(*t));
	if (!value)
		return;
	t->exclude = ucx_tls_is_deny(value);
	t->empty = !t->exclude && ucx_tls_is_empty(value);
	if (t->empty)
		return;
	t->rdma = ucx_tls_allows_rdma(value);
	t->cuda = ucx_tls_allows_cuda(value);
	t->cuda_ipc = ucx_tls_allows(value, "cuda_ipc");
	t->cuda_copy = ucx_tls_allows(value, "cuda_copy");
	t->tcp = ucx_tls_allows(value, "tcp");
	t->excl_rdma_all = t->exclude && !t->rdma;
	t->excl_cuda_ipc = t->exclude && !t->cuda_ipc;
}

static bool is_rdma_dev_name(const char *s, size_t n)
{
	static const char *const pfx[] = {"mlx",  "ib",   "irdma", "bnxt_re", "efa",
					  "rdma", "hfi",  "qedr",  "erdma",   "rocep",
					  "roce", "mana", NULL};
	for (size_t i = 0; pfx[i]; i++) {
		size_t l = strlen(pfx[i]);
		if (n >= l && !strncasecmp(s, pfx[i], l))
			return true;
	}
	return false;
}

unsigned ucx_net_devices_check(const char *value, char *first_bad, size_t len)
{
	unsigned bits = 0;
	if (first_bad && len)
		first_bad[0] = '\0';
	if (!value)
		return 0;
	if (strchr(value, '$'))
		return NETDEV_DYNAMIC;
	const char *p = value;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return NETDEV_EMPTY;
	if (!strcasecmp(p, "all"))
		return 0;
	bool any_rdma = false, any_tcp = false;
	for (int guard = 0; *p && guard < 256; guard++) {
		size_t n = strcspn(p, ",");
		size_t a = 0, b = n;
		while (a < b && isspace((unsigned char)p[a]))
			a++;
		while (b > a && isspace((unsigned char)p[b - 1]))
			b--;
		const char *e = p + a;
		size_t el = b - a;
		bool bad = false;
		if (!el) {
			bad = true;
		} else {
			const char *colon = memchr(e, ':', el);
			size_t name_len = colon ? (size_t)(colon - e) : el;
			for (size_t i = 0; i < name_len; i++)
				if (!isalnum((unsigned char)e[i]) && e[i] != '_' && e[i] != '-' &&
				    e[i] != '.')
					bad = true;
			if (!name_len)
				bad = true;
			if (colon) {
				size_t pl = el - name_len - 1;
				if (!pl)
					bad = true;
				for (size_t i = 0; i < pl; i++)
					if (!isdigit((unsigned char)colon[1 + i]))
						bad = true;
			}
			bool rdma = is_rdma_dev_name(e, name_len);
			/* An RDMA device needs its port (mlx5_0:1); a name
			 * without one is a network interface for tcp. */
			if (rdma && !colon)
				bad = true;
			if (rdma)
				any_rdma = true;
			else if (!colon)
				any_tcp = true;
			if (name_len >= 9 && !strncasecmp(e, "mlx5_bond", 9)) {
				bits |= NETDEV_BONDED;
				if (first_bad && len && !first_bad[0])
					snprintf(first_bad, len, "%.*s", (int)(el < 64 ? el : 64),
						 e);
			}
		}
		if (bad) {
			bits |= NETDEV_MALFORMED;
			if (first_bad && len && (!first_bad[0] || (bits & NETDEV_BONDED)))
				snprintf(first_bad, len, "%.*s", (int)(el < 64 ? el : 64),
					 el ? e : "(empty entry)");
		}
		p += n;
		if (*p == ',')
			p++;
	}
	if (any_tcp && !any_rdma)
		bits |= NETDEV_TCP_ONLY;
	return bits;
}

/* Extract a balanced {...} starting at p; returns length or 0. */
static size_t json_span(const char *p)
{
	int depth = 0;
	bool in_str = false;
	for (size_t i = 0; p[i] && i < MAX_VALUE; i++) {
		char ch = p[i];
		if (in_str) {
			if (ch == '\\' && p[i + 1])
				i++;
			else if (ch == '"')
				in_str = false;
			continue;
		}
		if (ch == '"')
			in_str = true;
		else if (ch == '{')
			depth++;
		else if (ch == '}' && --depth == 0)
			return i + 1;
	}
	return 0;
}

static bool flag_boundary(const char *cmd, const char *at, size_t fl)
{
	if (at > cmd && !isspace((unsigned char)at[-1]) && at[-1] != '"' && at[-1] != '\'')
		return false;
	char after = at[fl];
	return after == '\0' || after == '=' || after == ':' || isspace((unsigned char)after) ||
	       after == '"' || after == '\'' || after == '\\';
}

char *cmdline_flag_value(const char *cmd, const char *flag)
{
	if (!cmd || !flag)
		return NULL;
	size_t fl = strlen(flag);
	const char *at = cmd;
	while ((at = strstr(at, flag))) {
		if (!flag_boundary(cmd, at, fl)) {
			at += fl;
			continue;
		}
		const char *p = at + fl;
		/* `--flag" "value"` happens when list elements were quoted. */
		if (*p == '"' || *p == '\'')
			p++;
		if (*p == '=' || *p == ':')
			p++;
		while (*p == ' ' || *p == '\t')
			p++;
		/* a YAML block scalar indicator (config files): |, |-, >+ ... */
		if ((*p == '|' || *p == '>') && strchr("-+\r\n", p[1] ? p[1] : '\n'))
			p += 1 + (p[1] == '-' || p[1] == '+');
		while (*p == ' ' || *p == '\t' || *p == '\\' || *p == '\n' || *p == '\r')
			p++;
		if (*p == '{') {
			size_t n = json_span(p);
			return n ? xstrndup(p, n) : xstrndup(p, strnlen(p, MAX_VALUE));
		}
		if (*p == '\'' || *p == '"') {
			char q = *p++;
			if (*p == '{') {
				size_t n = json_span(p);
				if (n)
					return xstrndup(p, n);
			}
			const char *end = p;
			while (*end && *end != q && end - p < MAX_VALUE) {
				if (q == '"' && *end == '\\' && end[1])
					end++;
				end++;
			}
			return xstrndup(p, (size_t)(end - p));
		}
		if (!*p || (p[0] == '-' && p[1] == '-'))
			return xstrdup("");
		size_t n = strcspn(p, " \t\r\n;&|)");
		if (n > MAX_VALUE)
			n = MAX_VALUE;
		return xstrndup(p, n);
	}
	return NULL;
}

const struct kv *configmap_entry(const struct manifest_set *ms, const char *name, const char *key)
{
	for (size_t i = 0; ms && i < ms->n_cms; i++) {
		const struct configmap *cm = &ms->cms[i];
		if (!cm->name || strcmp(cm->name, name))
			continue;
		for (size_t k = 0; k < cm->data.n; k++)
			if (cm->data.v[k].key && !strcmp(cm->data.v[k].key, key))
				return &cm->data.v[k];
	}
	return NULL;
}

/* "<configmap NAME/KEY>" -> the ConfigMap entry. */
static const struct kv *configmap_ref(const struct manifest_set *ms, const char *ref)
{
	static const char pfx[] = "<configmap ";
	if (!ref || strncmp(ref, pfx, sizeof(pfx) - 1))
		return NULL;
	const char *p = ref + sizeof(pfx) - 1;
	const char *slash = strchr(p, '/');
	const char *end = strrchr(p, '>');
	if (!slash || !end || end < slash)
		return NULL;
	char name[256], key[256];
	snprintf(name, sizeof(name), "%.*s", (int)(slash - p), p);
	snprintf(key, sizeof(key), "%.*s", (int)(end - slash - 1), slash + 1);
	return configmap_entry(ms, name, key);
}

char *resolve_env_ref(const struct manifest_set *ms, const struct service *s, const char *value,
		      struct src_loc *loc)
{
	if (!value)
		return NULL;
	const char *p = value;
	while (*p == '"' || *p == '\'' || isspace((unsigned char)*p))
		p++;
	if (*p != '$')
		return xstrdup(value);
	p++;
	char close = *p == '{' ? '}' : *p == '(' ? ')' : 0;
	if (close)
		p++;
	char name[128];
	size_t n = 0;
	while ((isalnum((unsigned char)p[n]) || p[n] == '_') && n < sizeof(name) - 1)
		n++;
	memcpy(name, p, n);
	name[n] = '\0';
	const struct env_var *v = n && s ? service_env_get(s, name) : NULL;
	if (v && v->value) {
		if (loc)
			*loc = v->loc;
		return xstrdup(v->value);
	}
	const struct kv *cm = v ? configmap_ref(ms, v->value_from) : NULL;
	if (cm && cm->value) {
		if (loc)
			*loc = cm->loc;
		return xstrdup(cm->value);
	}
	return xstrdup(value);
}

static int line_of(const char *text, const char *at)
{
	int line = 1;
	for (const char *p = text; p < at; p++)
		line += *p == '\n';
	return line;
}

static size_t indent_of_line(const char *text, const char *at)
{
	const char *ls = at;
	while (ls > text && ls[-1] != '\n')
		ls--;
	size_t n = 0;
	while (ls[n] == ' ' || ls[n] == '\t')
		n++;
	return n;
}

char *config_section_value(const char *text, const char *section, const char *key,
			   int *line_in_text)
{
	if (!text || !section || !key)
		return NULL;
	size_t sl = strlen(section), kl = strlen(key);
	for (const char *at = strstr(text, section); at; at = strstr(at + sl, section)) {
		size_t base = indent_of_line(text, at);
		const char *p = at + sl;
		int braces = 0;
		bool json = false;
		/* Walk the section: JSON-ish until its braces close, YAML
		 * while lines are indented deeper than the section key. */
		for (size_t steps = 0; *p && steps < 4096; steps++) {
			if (*p == '{') {
				braces++;
				json = true;
			} else if (*p == '}') {
				if (--braces <= 0 && json)
					break;
			} else if (*p == '\n') {
				if (!json) {
					const char *q = p + 1;
					size_t ind = 0;
					while (q[ind] == ' ' || q[ind] == '\t')
						ind++;
					if (q[ind] && q[ind] != '\n' && q[ind] != '#' &&
					    ind <= base)
						break;
				}
			}
			bool word_start =
				p > text && !isalnum((unsigned char)p[-1]) && p[-1] != '_';
			if (word_start && !strncmp(p, key, kl) && !isalnum((unsigned char)p[kl]) &&
			    p[kl] != '_') {
				const char *v = p + kl;
				if (*v == '"' || *v == '\'')
					v++;
				while (*v == ' ' || *v == '\t')
					v++;
				if (*v == ':' || *v == '=') {
					v++;
					while (*v == ' ' || *v == '\t' || *v == '"' || *v == '\'')
						v++;
					size_t n = strcspn(v, "\"',}\r\n #");
					if (n && n < 64) {
						if (line_in_text)
							*line_in_text = line_of(text, p);
						return xstrndup(v, n);
					}
				}
			}
			p++;
		}
	}
	return NULL;
}

char *cmdline_ulimit_l(const char *cmd)
{
	if (!cmd)
		return NULL;
	for (const char *at = strstr(cmd, "ulimit"); at; at = strstr(at + 6, "ulimit")) {
		const char *p = at + 6;
		/* ulimit -l X, ulimit -Sl X, ulimit -Hl X, ulimit -n N -l X */
		for (int guard = 0;
		     *p && *p != ';' && *p != '&' && *p != '|' && *p != '\n' && guard < 200;
		     guard++, p++) {
			if (p[0] == '-' && p[1] && strchr("SHl", p[1])) {
				const char *f = p + 1;
				while (*f == 'S' || *f == 'H')
					f++;
				if (*f != 'l')
					continue;
				f++;
				while (*f == ' ' || *f == '\t')
					f++;
				size_t n = strcspn(f, " \t\r\n;&|\"'");
				if (n && n < 32)
					return xstrndup(f, n);
			}
		}
	}
	return NULL;
}

char *config_key_value(const char *text, const char *key, int *line_in_text)
{
	if (!text || !key)
		return NULL;
	size_t kl = strlen(key);
	for (const char *at = strstr(text, key); at; at = strstr(at + kl, key)) {
		/* the key must start its line (YAML) or follow a quote/brace (JSON) */
		const char *b = at;
		if (b > text && (b[-1] == '"' || b[-1] == '\''))
			b--;
		const char *q = b;
		while (q > text && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '{' || q[-1] == ','))
			q--;
		if (q > text && q[-1] != '\n')
			continue;
		const char *v = at + kl;
		if (*v == '"' || *v == '\'')
			v++;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v != ':')
			continue;
		v++;
		while (*v == ' ' || *v == '\t' || *v == '"' || *v == '\'')
			v++;
		size_t n = strcspn(v, "\"',}\r\n #");
		if (!n || n >= 256)
			continue;
		if (line_in_text)
			*line_in_text = line_of(text, at);
		return xstrndup(v, n);
	}
	return NULL;
}

bool dynamo_image_version(const char *image, int *major, int *minor)
{
	if (!image)
		return false;
	const char *slash = strrchr(image, '/');
	const char *colon = strrchr(slash ? slash : image, ':');
	/* only Dynamo's own images carry Dynamo's version in the tag */
	if (!colon || !strstr(image, "dynamo"))
		return false;
	const char *t = colon + 1;
	if (*t == 'v' || *t == 'V')
		t++;
	if (*t < '0' || *t > '9')
		return false;
	char *end;
	long ma = strtol(t, &end, 10);
	long mi = 0;
	if (*end == '.' && end[1] >= '0' && end[1] <= '9')
		mi = strtol(end + 1, &end, 10);
	if (ma < 0 || ma > 99 || mi < 0 || mi > 999)
		return false;
	*major = (int)ma;
	*minor = (int)mi;
	return true;
}
