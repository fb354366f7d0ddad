/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/smi_nvlink.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

#define MAX_LINKS 64

/*
 * "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)" -> index, name, uuid.
 * Only the first "GPU <n>:" on the line counts.
 */
static bool gpu_header(const char *s, int *idx, char **name, char **uuid)
{
	const char *p, *u, *e;
	long v = 0;

	if (!str_starts(s, "GPU "))
		return false;
	p = s + 4;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p) && v < 100000)
		v = v * 10 + (*p++ - '0');
	if (*p != ':')
		return false;
	p = str_skip_ws(p + 1);
	*idx = (int)v;
	u = strstr(p, "(UUID:");
	if (u) {
		const char *us = str_skip_ws(u + 6);
		e = strchr(us, ')');
		if (!e)
			e = us + strlen(us);
		*uuid = e > us ? xstrndup(us, (size_t)(e - us)) : NULL;
		e = u;
	} else {
		*uuid = NULL;
		e = p + strlen(p);
	}
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	*name = e > p ? xstrndup(p, (size_t)(e - p)) : NULL;
	return true;
}

/* Find "Link <n>:" anywhere in the line (a health check may quote it after
 * its own prefix); returns the text after the colon, or NULL. */
static const char *link_item(const char *s, unsigned *num, char sep)
{
	const char *p = s;

	while ((p = strstr(p, "Link ")) != NULL) {
		const char *q = p + 5;
		unsigned long v = 0;
		if (isdigit((unsigned char)*q)) {
			while (isdigit((unsigned char)*q) && v < 100000)
				v = v * 10 + (unsigned long)(*q++ - '0');
			if (*q == sep) {
				*num = (unsigned)v;
				return q + 1;
			}
		}
		p += 5;
	}
	return NULL;
}

static struct smi_nvlink_gpu *new_gpu(struct smi_nvlink *n, int idx)
{
	struct smi_nvlink_gpu *g = XPUSH(n->gpus, n->ngpus, n->cap);

	memset(g, 0, sizeof(*g));
	g->index = idx;
	return g;
}

int smi_nvlink_parse(const char *buf, size_t len, struct smi_nvlink *out)
{
	struct lines it;
	char *l;
	struct smi_nvlink_gpu *g = NULL;
	bool any = false;

	memset(out, 0, sizeof(*out));
	if (!lines_start(&it, buf, len, &out->empty))
		return 0;
	while ((l = lines_next(&it))) {
		const char *s = str_skip_ws(l), *v;
		char *name, *uuid;
		unsigned num;
		int idx;
		struct smi_nvlink_link *lk;

		if (gpu_header(s, &idx, &name, &uuid)) {
			any = true;
			if (out->ngpus >= PARSE_MAX_ITEMS) {
				free(name);
				free(uuid);
				g = NULL;
				continue;
			}
			g = new_gpu(out, idx);
			g->name = name;
			g->uuid = uuid;
			continue;
		}
		v = link_item(s, &num, ':');
		if (!v)
			continue;
		any = true;
		if (!g)
			g = new_gpu(out, -1);
		if (g->nlinks >= MAX_LINKS)
			continue;
		lk = XPUSH(g->links, g->nlinks, g->cap);
		lk->num = num;
		lk->gbps = 0;
		lk->active = false;
		v = str_skip_ws(v);
		/* "<inactive>", "Inactive", "N/A": not a speed */
		if (str_lead_double(v, &lk->gbps) && lk->gbps > 0 && lk->gbps < 1e6)
			lk->active = true;
		else
			lk->gbps = 0;
	}
	lines_release(&it);
	return any ? 0 : -1;
}

void smi_nvlink_release(struct smi_nvlink *n)
{
	size_t i;

	for (i = 0; i < n->ngpus; i++) {
		free(n->gpus[i].name);
		free(n->gpus[i].uuid);
		free(n->gpus[i].links);
	}
	free(n->gpus);
	memset(n, 0, sizeof(*n));
}

static size_t count(const struct smi_nvlink *n, bool active)
{
	size_t i, j, c = 0;

	for (i = 0; i < n->ngpus; i++)
		for (j = 0; j < n->gpus[i].nlinks; j++)
			c += n->gpus[i].links[j].active == active;
	return c;
}

size_t smi_nvlink_count_active(const struct smi_nvlink *n)
{
	return count(n, true);
}

size_t smi_nvlink_count_inactive(const struct smi_nvlink *n)
{
	return count(n, false);
}
