/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/proc_fd.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

static bool have(const struct proc_fds *f, const char *t)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->targets[i], t))
			return true;
	return false;
}

int proc_fds_parse(const char *buf, size_t len, struct proc_fds *out)
{
	struct lines it;
	bool empty = false, any = false;
	char *l;

	memset(out, 0, sizeof(*out));
	if (!lines_start(&it, buf, len, &empty))
		return empty ? 0 : -1;
	while ((l = lines_next(&it))) {
		/* The target is what follows the LAST " -> ": a name before
		 * it cannot hold one (fd names are numbers). */
		char *arrow = NULL, *p = l;
		while ((p = strstr(p, " -> "))) {
			arrow = p;
			p += 4;
		}
		if (!arrow)
			continue;
		const char *t = arrow + 4;
		any = true;
		out->n_fds++;
		if (str_starts(t, "socket:")) {
			out->n_sockets++;
			continue;
		}
		/* A dump's fd entries are links inside the tree
		 * ("../../../dev/infiniband/uverbs0"): read them as the
		 * absolute device path they stand for. */
		char *abs = NULL;
		if (*t != '/') {
			while (str_starts(t, "../") || str_starts(t, "./"))
				t += *t == '.' && t[1] == '/' ? 2 : 3;
			if (!str_starts(t, "dev/"))
				continue;
			t = abs = xasprintf("/%s", t);
		}
		if (have(out, t)) {
			free(abs);
			continue;
		}
		if (out->n >= PARSE_MAX_ITEMS) {
			out->capped = true;
			free(abs);
			continue;
		}
		*XPUSH(out->targets, out->n, out->cap) = abs ? abs : xstrdup(t);
	}
	lines_release(&it);
	return any ? 0 : -1;
}

void proc_fds_release(struct proc_fds *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->targets[i]);
	free(f->targets);
	memset(f, 0, sizeof(*f));
}

size_t proc_fds_count(const struct proc_fds *f, const char *prefix)
{
	size_t n = 0;
	for (size_t i = 0; i < f->n; i++)
		if (str_starts(f->targets[i], prefix))
			n++;
	return n;
}
