/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/ucx_info.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"
#include "parse/ucx_tls.h"

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

/* A UCX log line ("[1709593833.939632] [host:pid:tid] file.c:N UCX DEBUG ...",
 * or the same without the timestamp): never part of the listing. */
static bool is_log_line(const char *s)
{
	if (*s == '#')
		return false;
	return str_icontains(s, "UCX ") &&
	       (strstr(s, "DEBUG") || strstr(s, "WARN") || strstr(s, "ERROR") ||
		strstr(s, "INFO") || strstr(s, "TRACE") || strstr(s, "DIAG") || strstr(s, "FATAL"));
}

/* Strip the leading "#" marks and whitespace of a ucx_info line. */
static char *body(char *l)
{
	l = str_lstrip(l);
	while (*l == '#')
		l++;
	return str_lstrip(l);
}

/* --- ucx_info -v --- */

static void parse_semver(struct ucx_version *v)
{
	const char *p = v->version;
	unsigned part[3] = {0, 0, 0};
	int i;

	for (i = 0; i < 3 && p && isdigit((unsigned char)*p); i++) {
		unsigned long x = 0;
		while (isdigit((unsigned char)*p) && x < 1000000)
			x = x * 10 + (unsigned long)(*p++ - '0');
		part[i] = (unsigned)x;
		if (*p != '.')
			break;
		p++;
	}
	v->major = part[0];
	v->minor = part[1];
	v->patch = part[2];
}

/* First whitespace-delimited word of s, owned. */
static char *word(const char *s)
{
	const char *e;

	s = str_skip_ws(s);
	e = s;
	while (*e && !isspace((unsigned char)*e) && *e != ',')
		e++;
	return e > s ? xstrndup(s, (size_t)(e - s)) : NULL;
}

enum ucx_opt ucx_version_configured(const struct ucx_version *v, const char *feature)
{
	const char *p;
	enum ucx_opt r = UCX_OPT_DEFAULT;
	size_t fl;

	if (!v || !v->configure || !feature)
		return r;
	fl = strlen(feature);
	for (p = v->configure; (p = strstr(p, "--with")) != NULL; p++) {
		const char *q = p + 6;
		bool without = false;
		if (str_starts(q, "out-")) {
			without = true;
			q += 4;
		} else if (*q == '-') {
			q++;
		} else {
			continue;
		}
		if (strncmp(q, feature, fl) != 0)
			continue;
		q += fl;
		if (*q == '=') {
			without = without || (str_starts(q, "=no") &&
					      (q[3] == '\0' || isspace((unsigned char)q[3])));
		} else if (*q && !isspace((unsigned char)*q)) {
			continue; /* --with-cuda-foo is another option */
		}
		r = without ? UCX_OPT_WITHOUT : UCX_OPT_WITH;
	}
	return r;
}

int ucx_version_parse(const char *buf, size_t len, struct ucx_version *out)
{
	struct lines it;
	char *l;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		char *s, *k, *v;
		const char *p;

		if (is_log_line(l))
			continue;
		s = body(l);
		/* old releases: "UCT version=1.8.0 revision c30b7da" */
		if ((p = strstr(s, "version=")) &&
		    (str_istarts(s, "UCT ") || str_istarts(s, "UCX ") || str_istarts(s, "UCP "))) {
			if (!out->version)
				out->version = word(p + 8);
			if ((p = strstr(s, "revision ")) && !out->revision)
				out->revision = word(p + 9);
			continue;
		}
		/* UCX <= 1.13: "# Version 1.13.1" (newer: "Library version: x") */
		if (str_istarts(s, "Version ") && s[8] >= '0' && s[8] <= '9') {
			if (!out->version)
				out->version = word(s + 8);
			continue;
		}
		if (str_istarts(s, "Git branch") && (p = strstr(s, "revision "))) {
			free(out->revision);
			out->revision = word(p + 9);
			continue;
		}
		if (!str_kv(s, ':', &k, &v))
			continue;
		if (str_ieq(k, "Library version"))
			set_str(&out->version, v);
		else if (str_ieq(k, "Library path"))
			set_str(&out->library_path, v);
		else if (str_ieq(k, "API headers version"))
			set_str(&out->api_version, v);
		else if (str_ieq(k, "Configured with"))
			set_str(&out->configure, v);
	}
	lines_release(&it);
	if (out->version)
		parse_semver(out);
	out->cuda = ucx_version_configured(out, "cuda");
	out->verbs = ucx_version_configured(out, "verbs");
	out->gdrcopy = ucx_version_configured(out, "gdrcopy");
	out->rdmacm = ucx_version_configured(out, "rdmacm");
	out->efa = ucx_version_configured(out, "efa");
	out->knem = ucx_version_configured(out, "knem");
	out->xpmem = ucx_version_configured(out, "xpmem");
	out->rocm = ucx_version_configured(out, "rocm");
	out->mlx5 = ucx_version_configured(out, "mlx5-dv");
	if (out->mlx5 == UCX_OPT_DEFAULT)
		out->mlx5 = ucx_version_configured(out, "mlx5");
	return out->version ? 0 : -1;
}

void ucx_version_release(struct ucx_version *v)
{
	free(v->version);
	free(v->library_path);
	free(v->api_version);
	free(v->revision);
	free(v->configure);
	memset(v, 0, sizeof(*v));
}

bool ucx_version_at_least(const struct ucx_version *v, unsigned major, unsigned minor,
			  unsigned patch)
{
	if (!v || !v->version)
		return false;
	if (v->major != major)
		return v->major > major;
	if (v->minor != minor)
		return v->minor > minor;
	return v->patch >= patch;
}

/* --- ucx_info -d --- */

/* "host (access,reg,cache), cuda (reg)": split at commas outside parens. */
static void mem_types(struct ucx_md *md, const char *s)
{
	while (*s && md->nmem_types < 32) {
		const char *start = str_skip_ws(s), *p = start, *name_end, *fl = NULL, *fle = NULL;
		int depth = 0;
		struct ucx_mem_type *mt;

		while (*p && (depth > 0 || *p != ',')) {
			if (*p == '(') {
				if (depth++ == 0)
					fl = p + 1;
			} else if (*p == ')' && depth > 0) {
				if (--depth == 0)
					fle = p;
			}
			p++;
		}
		name_end = start;
		while (name_end < p && *name_end != '(' && !isspace((unsigned char)*name_end))
			name_end++;
		if (name_end > start) {
			mt = XPUSH(md->mem_types, md->nmem_types, md->cap);
			mt->name = xstrndup(start, (size_t)(name_end - start));
			mt->flags = (fl && fle && fle >= fl) ? xstrndup(fl, (size_t)(fle - fl))
							     : xstrdup("");
		}
		s = *p ? p + 1 : p;
	}
}

int ucx_devices_parse(const char *buf, size_t len, struct ucx_devices *out)
{
	struct lines it;
	char *l;
	struct ucx_md *md = NULL;
	struct ucx_tl *tl = NULL;
	bool any = false;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		char *s, *k, *v;

		if (is_log_line(l)) {
			out->nlog_lines++;
			continue;
		}
		s = body(l);
		if (!*s)
			continue;
		if (strstr(s, "no supported devices found")) {
			if (md)
				md->no_devices = true;
			continue;
		}
		if (!str_kv(s, ':', &k, &v))
			continue;
		if (str_ieq(k, "Memory domain")) {
			tl = NULL;
			if (!*v || out->nmds >= PARSE_MAX_ITEMS) {
				md = NULL;
				continue;
			}
			md = XPUSH(out->mds, out->nmds, out->cap_mds);
			memset(md, 0, sizeof(*md));
			md->name = xstrdup(v);
			any = true;
		} else if (str_ieq(k, "Component")) {
			if (md && *v)
				set_str(&md->component, v);
		} else if (str_ieq(k, "memory types")) {
			if (md && !md->nmem_types)
				mem_types(md, v);
		} else if (str_ieq(k, "Transport")) {
			if (!*v || out->ntls >= PARSE_MAX_ITEMS) {
				tl = NULL;
				continue;
			}
			tl = XPUSH(out->tls, out->ntls, out->cap_tls);
			memset(tl, 0, sizeof(*tl));
			tl->transport = xstrdup(v);
			tl->md = md ? xstrdup(md->name) : NULL;
			any = true;
		} else if (str_ieq(k, "Device")) {
			if (tl && *v)
				set_str(&tl->device, v);
		} else if (str_ieq(k, "Type")) {
			if (tl && *v)
				set_str(&tl->type, v);
		} else if (str_ieq(k, "Connection manager")) {
			md = NULL;
			tl = NULL;
			if (*v && out->ncms < 64)
				*XPUSH(out->cms, out->ncms, out->cap_cms) = xstrdup(v);
		}
	}
	lines_release(&it);
	return any ? 0 : -1;
}

void ucx_devices_release(struct ucx_devices *d)
{
	size_t i, j;

	for (i = 0; i < d->nmds; i++) {
		for (j = 0; j < d->mds[i].nmem_types; j++) {
			free(d->mds[i].mem_types[j].name);
			free(d->mds[i].mem_types[j].flags);
		}
		free(d->mds[i].mem_types);
		free(d->mds[i].name);
		free(d->mds[i].component);
	}
	free(d->mds);
	for (i = 0; i < d->ntls; i++) {
		free(d->tls[i].transport);
		free(d->tls[i].device);
		free(d->tls[i].md);
		free(d->tls[i].type);
	}
	free(d->tls);
	for (i = 0; i < d->ncms; i++)
		free(d->cms[i]);
	free(d->cms);
	memset(d, 0, sizeof(*d));
}

bool ucx_devices_has_transport(const struct ucx_devices *d, const char *tl)
{
	size_t i;

	for (i = 0; tl && i < d->ntls; i++)
		if (strcmp(d->tls[i].transport, tl) == 0)
			return true;
	return false;
}

bool ucx_devices_has_rdma(const struct ucx_devices *d)
{
	size_t i;

	for (i = 0; i < d->ntls; i++)
		if (ucx_tl_is_rdma(d->tls[i].transport))
			return true;
	return false;
}

size_t ucx_devices_rdma_transports(const struct ucx_devices *d, const char **names, size_t max)
{
	size_t i, j, n = 0;

	for (i = 0; i < d->ntls && n < max; i++) {
		bool dup = false;
		if (!ucx_tl_is_rdma(d->tls[i].transport))
			continue;
		for (j = 0; j < n && !dup; j++)
			dup = strcmp(names[j], d->tls[i].transport) == 0;
		if (!dup)
			names[n++] = d->tls[i].transport;
	}
	return n;
}

const struct ucx_md *ucx_devices_md(const struct ucx_devices *d, const char *name)
{
	size_t i;

	for (i = 0; name && i < d->nmds; i++)
		if (strcmp(d->mds[i].name, name) == 0)
			return &d->mds[i];
	return NULL;
}

bool ucx_md_has_mem_type(const struct ucx_md *md, const char *type)
{
	size_t i;

	for (i = 0; md && type && i < md->nmem_types; i++)
		if (strcmp(md->mem_types[i].name, type) == 0)
			return true;
	return false;
}

bool ucx_devices_md_has_cuda(const struct ucx_devices *d, const char *dev)
{
	char name[128];
	size_t n, i;
	const struct ucx_md *md;

	if (!dev)
		return false;
	n = strcspn(dev, ":");
	if (n == 0 || n >= sizeof(name))
		return false;
	memcpy(name, dev, n);
	name[n] = '\0';
	md = ucx_devices_md(d, name);
	if (md)
		return ucx_md_has_mem_type(md, "cuda");
	/* not named after the device: the md its transports are listed under */
	for (i = 0; i < d->ntls; i++) {
		const char *td = d->tls[i].device;
		if (td && strncmp(td, name, n) == 0 && (td[n] == ':' || td[n] == '\0') &&
		    (md = ucx_devices_md(d, d->tls[i].md)))
			return ucx_md_has_mem_type(md, "cuda");
	}
	return false;
}

bool ucx_devices_rdma_md_has_cuda(const struct ucx_devices *d)
{
	size_t i;
	const struct ucx_md *md;

	for (i = 0; i < d->nmds; i++)
		if (d->mds[i].component && strcmp(d->mds[i].component, "ib") == 0 &&
		    ucx_md_has_mem_type(&d->mds[i], "cuda"))
			return true;
	for (i = 0; i < d->ntls; i++)
		if (ucx_tl_is_rdma(d->tls[i].transport) && (md = ucx_devices_md(d, d->tls[i].md)) &&
		    ucx_md_has_mem_type(md, "cuda"))
			return true;
	return false;
}
