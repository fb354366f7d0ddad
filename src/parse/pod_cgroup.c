/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/pod_cgroup.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "parse/lines.h"

#define CGROUP_MAX_BYTES (64u << 10)

static bool all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

/* A pod UID: hex and '-' (or the systemd escaping's '_'), 8 to 64 bytes
 * (a static pod's UID is its config hash: 32 hex, no dashes). */
static bool uid_ok(const char *s, size_t n)
{
	if (n < 8 || n > POD_UID_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return false;
	return true;
}

static void copy_lower(char *dst, const char *s, size_t n, bool unescape)
{
	for (size_t i = 0; i < n; i++) {
		char c = (char)tolower((unsigned char)s[i]);
		dst[i] = unescape && c == '_' ? '-' : c;
	}
	dst[n] = '\0';
}

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);
	return n >= k && !memcmp(s + n - k, suf, k);
}

/* The pod component: "pod<uid>" (cgroupfs) or "...-pod<uid>.slice"
 * (systemd). */
static bool pod_component(const char *c, size_t n, const struct pod_cgroup_forms *f,
			  struct pod_cgroup *out)
{
	size_t pl = strlen(f->pod_prefix);
	const char *u = NULL;
	size_t un = 0;
	if (ends_with(c, n, f->slice_suffix)) {
		size_t body = n - strlen(f->slice_suffix);
		/* the last "-pod" in the slice name */
		for (size_t i = body; i-- > 0;)
			if (c[i] == '-' && i + 1 + pl <= body &&
			    !memcmp(c + i + 1, f->pod_prefix, pl)) {
				u = c + i + 1 + pl;
				un = body - (i + 1 + pl);
				break;
			}
	} else if (n > pl && !memcmp(c, f->pod_prefix, pl)) {
		u = c + pl;
		un = n - pl;
	}
	if (!u || !uid_ok(u, un))
		return false;
	copy_lower(out->uid, u, un, true);
	out->pod = true;
	return true;
}

static bool container_component(const char *c, size_t n, const struct pod_cgroup_forms *f,
				struct pod_cgroup *out)
{
	for (size_t i = 0; i < f->n_scopes; i++) {
		const struct pod_cgroup_scope *s = &f->scopes[i];
		size_t pl = strlen(s->prefix), sl = strlen(s->suffix);
		if (n < pl + sl || memcmp(c, s->prefix, pl) || !ends_with(c, n, s->suffix))
			continue;
		size_t idn = n - pl - sl;
		/* runtimes use the full 64-hex id; 12 is the shortest form seen */
		if (idn < 12 || idn > POD_CID_MAX || !all_hex(c + pl, idn))
			continue;
		copy_lower(out->cid, c + pl, idn, false);
		out->container = true;
		out->runtime = s->runtime;
		return true;
	}
	return false;
}

/* One cgroup path: the pod component below a kubepods ancestor, then the
 * container's component right below it. */
static void read_path(const char *p, const struct pod_cgroup_forms *f, struct pod_cgroup *out)
{
	bool qos = false;
	bool after_pod = false;
	while (*p) {
		while (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		if (!n)
			break;
		if (after_pod) {
			(void)container_component(p, n, f, out);
			return;
		}
		if (qos && pod_component(p, n, f, out))
			after_pod = true;
		else if (memmem(p, n, f->qos_root, strlen(f->qos_root)))
			qos = true;
		p += n;
	}
}

int pod_cgroup_parse(const char *buf, size_t len, const struct pod_cgroup_forms *f,
		     struct pod_cgroup *out)
{
	memset(out, 0, sizeof(*out));
	if (len > CGROUP_MAX_BYTES)
		len = CGROUP_MAX_BYTES;
	struct lines it;
	lines_init(&it, buf, len);
	char *l;
	int seen = 0;
	bool kept_pod = false, kept_v2 = false;
	while ((l = lines_next(&it))) {
		/* "hierarchy-ID:controller-list:cgroup-path" (cgroups(7)) */
		char *c1 = strchr(l, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c1 || !c2 || c1 == l || c2[1] != '/')
			continue;
		seen++;
		const char *path = c2 + 1;
		bool v2 = c1 - l == 1 && l[0] == '0' && c2 == c1 + 1;
		struct pod_cgroup one;
		memset(&one, 0, sizeof(one));
		read_path(path, f, &one);
		if (one.pod && !kept_pod) {
			memcpy(out->uid, one.uid, sizeof(out->uid));
			out->pod = true;
			if (one.container) {
				memcpy(out->cid, one.cid, sizeof(out->cid));
				out->container = true;
				out->runtime = one.runtime;
			}
			kept_pod = true;
			snprintf(out->path, sizeof(out->path), "%s", path);
		} else if (!kept_pod && (v2 || !*out->path) && !kept_v2) {
			snprintf(out->path, sizeof(out->path), "%s", path);
			kept_v2 = v2;
		}
	}
	lines_release(&it);
	return seen ? 0 : -1;
}

/* Split "a_b_c" into exactly three non-empty parts of at most the sizes. */
static bool split3(const char *s, const char **p, size_t *n)
{
	const char *a = strchr(s, '_');
	const char *b = a ? strchr(a + 1, '_') : NULL;
	if (!a || !b || strchr(b + 1, '_'))
		return false;
	p[0] = s, n[0] = (size_t)(a - s);
	p[1] = a + 1, n[1] = (size_t)(b - a - 1);
	p[2] = b + 1, n[2] = strlen(b + 1);
	return n[0] && n[1] && n[2];
}

/* A namespace, pod or container name: RFC 1123 characters (lower-case
 * letters, digits, '-', '.'), at most POD_NAME_MAX. */
static bool name_ok(const char *s, size_t n)
{
	if (!n || n > POD_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '-' ||
		      s[i] == '.'))
			return false;
	return true;
}

static void put(char *dst, const char *s, size_t n)
{
	memcpy(dst, s, n);
	dst[n] = '\0';
}

bool pod_logdir_parse(const char *name, struct pod_ref *out)
{
	memset(out, 0, sizeof(*out));
	const char *p[3];
	size_t n[3];
	if (!name || strlen(name) > 600 || !split3(name, p, n) || !name_ok(p[0], n[0]) ||
	    !name_ok(p[1], n[1]) || !uid_ok(p[2], n[2]) || memchr(p[2], '_', n[2]))
		return false;
	put(out->ns, p[0], n[0]);
	put(out->pod, p[1], n[1]);
	copy_lower(out->uid, p[2], n[2], false);
	return true;
}

bool pod_container_log_parse(const char *name, struct pod_ref *out)
{
	memset(out, 0, sizeof(*out));
	const char *p[3];
	size_t n[3];
	if (!name || strlen(name) > 700 || !split3(name, p, n) || !ends_with(p[2], n[2], ".log"))
		return false;
	size_t rest = n[2] - 4;
	const char *dash = NULL;
	for (size_t i = rest; i-- > 0;)
		if (p[2][i] == '-') {
			dash = p[2] + i;
			break;
		}
	if (!dash)
		return false;
	size_t cn = (size_t)(dash - p[2]), idn = rest - cn - 1;
	if (!name_ok(p[0], n[0]) || !name_ok(p[1], n[1]) || !name_ok(p[2], cn) || idn < 12 ||
	    idn > POD_CID_MAX || !all_hex(dash + 1, idn))
		return false;
	put(out->pod, p[0], n[0]);
	put(out->ns, p[1], n[1]);
	put(out->container, p[2], cn);
	copy_lower(out->cid, dash + 1, idn, false);
	return true;
}
