/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/mounts.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

/* fstab escapes: "\040" space, "\011" tab, "\012" newline, "\134" backslash. */
static char *unescape(const char *s)
{
	char *o = xmalloc(strlen(s) + 1), *p = o;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			int c = (s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0');
			*p++ = c ? (char)c : '?';
			s += 4;
		} else {
			*p++ = *s++;
		}
	}
	*p = '\0';
	return o;
}

int mounts_parse(const char *buf, size_t len, struct mounts *out)
{
	struct lines it;
	char *l, *tok[8];

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		size_t n = str_split_ws(l, tok, 8);
		struct mount_entry *e;

		if (n < 4 || tok[1][0] != '/')
			continue;
		if (out->n >= PARSE_MAX_ITEMS)
			break;
		e = XPUSH(out->v, out->n, out->cap);
		e->source = unescape(tok[0]);
		e->target = unescape(tok[1]);
		e->fstype = xstrdup(tok[2]);
		e->options = xstrdup(tok[3]);
	}
	lines_release(&it);
	return out->n ? 0 : -1;
}

void mounts_release(struct mounts *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].source);
		free(m->v[i].target);
		free(m->v[i].fstype);
		free(m->v[i].options);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

const struct mount_entry *mounts_find(const struct mounts *m, const char *target)
{
	size_t i;

	for (i = m->n; target && i > 0; i--)
		if (strcmp(m->v[i - 1].target, target) == 0)
			return &m->v[i - 1];
	return NULL;
}

/* "64M", "65536k", "1.5G", "67108864" -> bytes (powers of 1024). */
static bool sized(const char *s, uint64_t *bytes, bool need_suffix_ok)
{
	double v;
	const char *p = s;
	uint64_t mul = 1;

	if (!str_lead_double(s, &v))
		return false;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	switch (toupper((unsigned char)*p)) {
	case '\0': mul = 1; break;
	case 'K': mul = 1ULL << 10; break;
	case 'M': mul = 1ULL << 20; break;
	case 'G': mul = 1ULL << 30; break;
	case 'T': mul = 1ULL << 40; break;
	case 'P': mul = 1ULL << 50; break;
	case 'E': mul = 1ULL << 60; break;
	case 'B': mul = 1; break;
	default: return false;
	}
	if (*p) {
		p++;
		if (*p == 'i' || *p == 'I')
			p++;
		if (*p == 'B' || *p == 'b')
			p++;
		if (*p)
			return false;
	}
	(void)need_suffix_ok;
	if (v * (double)mul >= 1.8e19)
		return false;
	*bytes = (uint64_t)(v * (double)mul);
	return true;
}

bool mount_size_option(const struct mount_entry *e, uint64_t *bytes)
{
	const char *p;

	if (!e || !e->options)
		return false;
	for (p = e->options; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (str_starts(p, "size=")) {
			char tmp[32];
			size_t n = strcspn(p + 5, ",");
			if (n == 0 || n >= sizeof(tmp))
				return false;
			memcpy(tmp, p + 5, n);
			tmp[n] = '\0';
			if (strchr(tmp, '%'))
				return false;
			return sized(tmp, bytes, true);
		}
	}
	return false;
}

bool df_human_size(const char *s, uint64_t *bytes)
{
	return s && sized(s, bytes, true);
}

static uint64_t header_block(const char *t, bool *human)
{
	uint64_t b;

	*human = false;
	if (str_ieq(t, "Size")) {
		*human = true;
		return 1;
	}
	/* "1K-blocks", "1B-blocks", "1M-blocks", "1024-blocks", "512-blocks" */
	if (str_icontains(t, "-blocks")) {
		char tmp[24];
		size_t n = (size_t)(str_icontains(t, "-blocks") - t);
		if (n == 0 || n >= sizeof(tmp))
			return 1024;
		memcpy(tmp, t, n);
		tmp[n] = '\0';
		if (sized(tmp, &b, true) && b)
			return b;
	}
	return 1024;
}

static bool df_num(const char *s, bool human, uint64_t bs, uint64_t *out)
{
	uint64_t v;

	if (human)
		return sized(s, out, true);
	if (!str_to_u64(s, 10, &v))
		return false;
	*out = (bs && v > UINT64_MAX / bs) ? UINT64_MAX : v * bs;
	return true;
}

int df_parse(const char *buf, size_t len, struct df *out)
{
	struct lines it;
	char *l, *tok[32];
	bool header = false, human = false;
	char *pending = NULL;

	memset(out, 0, sizeof(*out));
	out->block_size = 1024;
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		size_t n = str_split_ws(l, tok, 32), i, mlen = 0, base = 0;
		struct df_entry *e;
		uint64_t sz, used, avail;
		char *fs;

		if (!n)
			continue;
		if (strcmp(tok[0], "Filesystem") == 0 && n >= 2) {
			out->block_size = header_block(tok[1], &human);
			header = true;
			continue;
		}
		if (!header)
			continue;
		if (n == 1 && !pending) {
			pending = xstrdup(tok[0]); /* long name: the row wraps */
			continue;
		}
		fs = pending ? pending : tok[0];
		base = pending ? 0 : 1;
		if (n < base + 5 || !df_num(tok[base], human, out->block_size, &sz) ||
		    !df_num(tok[base + 1], human, out->block_size, &used) ||
		    !df_num(tok[base + 2], human, out->block_size, &avail)) {
			free(pending);
			pending = NULL;
			continue;
		}
		if (out->n >= PARSE_MAX_ITEMS)
			break;
		e = XPUSH(out->v, out->n, out->cap);
		e->filesystem = xstrdup(fs);
		e->size_bytes = sz;
		e->used_bytes = used;
		e->avail_bytes = avail;
		e->use_pct = -1;
		{
			uint32_t pct;
			char tmp[8];
			size_t pl = strcspn(tok[base + 3], "%");
			if (pl > 0 && pl < sizeof(tmp)) {
				memcpy(tmp, tok[base + 3], pl);
				tmp[pl] = '\0';
				if (str_to_u32(tmp, 10, &pct) && pct <= 100)
					e->use_pct = (int)pct;
			}
		}
		/* the mount point may contain spaces: join the rest */
		for (i = base + 4; i < n; i++)
			mlen += strlen(tok[i]) + 1;
		e->mounted_on = xmalloc(mlen + 1);
		e->mounted_on[0] = '\0';
		for (i = base + 4; i < n; i++) {
			if (i > base + 4)
				strcat(e->mounted_on, " ");
			strcat(e->mounted_on, tok[i]);
		}
		free(pending);
		pending = NULL;
	}
	free(pending);
	lines_release(&it);
	return out->n ? 0 : -1;
}

void df_release(struct df *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].filesystem);
		free(d->v[i].mounted_on);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

const struct df_entry *df_find(const struct df *d, const char *mounted_on)
{
	size_t i;

	for (i = d->n; mounted_on && i > 0; i--)
		if (strcmp(d->v[i - 1].mounted_on, mounted_on) == 0)
			return &d->v[i - 1];
	return NULL;
}
