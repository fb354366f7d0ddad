/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/pip_meta.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

int pip_meta_parse(const char *buf, size_t len, struct pip_meta *out)
{
	struct lines it;
	char *l;
	bool seen = false;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		char *k, *v;

		if (!*l) {
			if (seen)
				break; /* the body (long description) follows */
			continue;
		}
		if (l[0] == ' ' || l[0] == '\t')
			continue; /* folded continuation of the previous header */
		if (!str_kv(l, ':', &k, &v) || !*k || strchr(k, ' '))
			continue;
		seen = true;
		if (str_ieq(k, "Name") && !out->name)
			out->name = xstrdup(v);
		else if (str_ieq(k, "Version") && !out->version)
			out->version = xstrdup(v);
		else if (str_ieq(k, "Summary") && !out->summary)
			out->summary = xstrdup(v);
		else if (str_ieq(k, "Requires-Python") && !out->requires_python)
			out->requires_python = xstrdup(v);
		else if (str_ieq(k, "Requires-Dist") && out->nrequires < 1024)
			*XPUSH(out->requires_dist, out->nrequires, out->cap) = xstrdup(v);
	}
	lines_release(&it);
	return (out->name && out->version) ? 0 : -1;
}

void pip_meta_release(struct pip_meta *m)
{
	size_t i;

	for (i = 0; i < m->nrequires; i++)
		free(m->requires_dist[i]);
	free(m->requires_dist);
	free(m->name);
	free(m->version);
	free(m->summary);
	free(m->requires_python);
	memset(m, 0, sizeof(*m));
}
