/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/proc_status.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

int proc_status_parse(const char *buf, size_t len, struct proc_status *out)
{
	struct lines it;
	char *l;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		char *k, *v;
		uint64_t x;

		if (!str_kv(l, ':', &k, &v))
			continue;
		if (strcmp(k, "Name") == 0) {
			if (!out->name)
				out->name = xstrdup(v);
			continue;
		}
		if (!str_starts(k, "Cap") || !str_to_u64(v, 16, &x))
			continue;
		if (strcmp(k, "CapInh") == 0)
			out->cap_inh = x;
		else if (strcmp(k, "CapPrm") == 0)
			out->cap_prm = x;
		else if (strcmp(k, "CapEff") == 0) {
			out->cap_eff = x;
			out->have_caps = true;
		} else if (strcmp(k, "CapBnd") == 0)
			out->cap_bnd = x;
		else if (strcmp(k, "CapAmb") == 0)
			out->cap_amb = x;
	}
	lines_release(&it);
	return out->have_caps ? 0 : -1;
}

void proc_status_release(struct proc_status *p)
{
	free(p->name);
	memset(p, 0, sizeof(*p));
}

bool proc_status_has_cap(uint64_t set, unsigned bit)
{
	return bit < 64 && (set >> bit & 1);
}
