/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/proc_maps.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

const char *path_basename(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* A shared object: "libX.so" or "libX.so.1.2", not a data file. */
static bool is_shared_object(const char *path)
{
	const char *b = path_basename(path);
	const char *so = strstr(b, ".so");
	return so && (so[3] == '\0' || so[3] == '.');
}

static bool seen(const struct proc_maps *m, const char *path)
{
	/* Processes map a library in 4-5 segments back to back, so the last
	 * entry answers almost every lookup; the list itself is short. */
	for (size_t i = m->n; i-- > 0;)
		if (!strcmp(m->paths[i], path))
			return true;
	return false;
}

/* "addr perms offset dev inode [path]": the path starts at the sixth field
 * and may contain spaces ("(deleted)" suffixes are kept as printed). */
static const char *maps_path(char *line)
{
	char *p = line;
	for (int field = 0; field < 5; field++) {
		p = str_lstrip(p);
		if (!*p)
			return NULL;
		if (field == 0 && !strchr(p, '-'))
			return NULL;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	p = str_lstrip(p);
	return *p == '/' ? p : NULL;
}

int proc_maps_parse(const char *buf, size_t len, struct proc_maps *out)
{
	struct lines it;
	bool empty = false, any = false;
	char *l;

	memset(out, 0, sizeof(*out));
	if (!lines_start(&it, buf, len, &empty))
		return empty ? 0 : -1;
	while ((l = lines_next(&it))) {
		const char *path = maps_path(l);
		if (!path)
			continue;
		any = true;
		if (!is_shared_object(path) || seen(out, path))
			continue;
		if (out->n >= PARSE_MAX_ITEMS) {
			out->capped = true;
			continue;
		}
		*XPUSH(out->paths, out->n, out->cap) = xstrdup(path);
	}
	lines_release(&it);
	return any ? 0 : -1;
}

void proc_maps_release(struct proc_maps *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->paths[i]);
	free(m->paths);
	memset(m, 0, sizeof(*m));
}

const char *proc_maps_find(const struct proc_maps *m, const char *prefix)
{
	for (size_t i = 0; i < m->n; i++)
		if (str_starts(path_basename(m->paths[i]), prefix))
			return m->paths[i];
	return NULL;
}
