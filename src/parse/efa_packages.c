/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/efa_packages.h"

#include <string.h>

static void copy(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* "libfabric1-aws_1.18.2amzn1.0_amd64" or
 * "libfabric-aws-1.18.2amzn1.0-1.amzn2.x86_64": name and version. */
static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t m = strlen(suf);
	return n > m && !memcmp(s + n - m, suf, m);
}

static bool split_pkg(const char *s, size_t n, struct efa_pkg *p)
{
	/* An RPM's arch (".x86_64") may hold '_'; a Debian name never does. */
	bool rpm = ends_with(s, n, ".x86_64") || ends_with(s, n, ".aarch64") ||
		   ends_with(s, n, ".noarch");
	const char *u = rpm ? NULL : memchr(s, '_', n);
	if (u) {
		const char *v = u + 1, *end = s + n;
		const char *u2 = memchr(v, '_', (size_t)(end - v));
		copy(p->name, sizeof(p->name), s, (size_t)(u - s));
		copy(p->version, sizeof(p->version), v, (size_t)((u2 ? u2 : end) - v));
		return u > s && *p->version;
	}
	/* RPM: drop ".ARCH", then "-RELEASE"; what is left is NAME-VERSION. */
	size_t m = n;
	for (size_t i = m; i > 0; i--)
		if (s[i - 1] == '.') {
			const char *a = s + i;
			size_t al = n - i;
			if ((al == 6 && !memcmp(a, "x86_64", 6)) ||
			    (al == 7 && !memcmp(a, "aarch64", 7)) ||
			    (al == 6 && !memcmp(a, "noarch", 6)))
				m = i - 1;
			break;
		}
	size_t r = m;
	while (r > 0 && s[r - 1] != '-')
		r--;
	if (r < 2)
		return false;
	size_t v = r - 1;
	while (v > 0 && s[v - 1] != '-')
		v--;
	if (v < 2)
		return false;
	copy(p->name, sizeof(p->name), s, v - 1);
	copy(p->version, sizeof(p->version), s + v, r - 1 - v);
	return *p->name && *p->version;
}

static const char *find_in(const char *s, size_t n, const char *pat)
{
	size_t pl = strlen(pat);
	for (size_t i = 0; i + pl <= n; i++)
		if (!memcmp(s + i, pat, pl))
			return s + i;
	return NULL;
}

int efa_packages_parse(const char *buf, size_t len, struct efa_packages *out)
{
	memset(out, 0, sizeof(*out));
	if (!buf)
		return -1;
	bool header = false;
	size_t i = 0;
	while (i < len) {
		size_t e = i;
		while (e < len && buf[e] != '\n')
			e++;
		const char *l = buf + i;
		size_t n = e - i;
		i = e + 1;
		if (n && l[0] == '#') {
			static const char ver[] = "EFA installer version:";
			const char *p = find_in(l, n, ver);
			if (p) {
				p += sizeof(ver) - 1;
				while (p < l + n && is_space(*p))
					p++;
				size_t vl = 0;
				while (p + vl < l + n && !is_space(p[vl]))
					vl++;
				copy(out->installer, sizeof(out->installer), p, vl);
				header = true;
			} else if (find_in(l, n, "Debug packages installed: yes")) {
				out->debug = true;
			}
			continue;
		}
		/* the package list: space-separated file names */
		size_t j = 0;
		while (j < n && out->n < EFA_PKGS_MAX) {
			while (j < n && is_space(l[j]))
				j++;
			size_t k = j;
			while (k < n && !is_space(l[k]))
				k++;
			if (k > j && split_pkg(l + j, k - j, &out->pkgs[out->n]))
				out->n++;
			j = k;
		}
	}
	return header || out->n ? 0 : -1;
}
