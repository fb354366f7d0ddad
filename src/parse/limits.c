/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/limits.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "parse/lines.h"

/* "unlimited" / "infinity" / a number times unit; saturates to unlimited. */
static bool limit_value(const char *s, uint64_t unit, uint64_t *out)
{
	uint64_t v;

	if (str_ieq(s, "unlimited") || str_ieq(s, "infinity")) {
		*out = LIMIT_UNLIMITED;
		return true;
	}
	if (!str_to_u64(s, 10, &v))
		return false;
	*out = (unit && v > UINT64_MAX / unit) ? LIMIT_UNLIMITED : v * unit;
	return true;
}

static uint64_t unit_of(const char *s)
{
	if (str_icontains(s, "kbytes") || str_icontains(s, "(kb") || str_icontains(s, "KiB"))
		return 1024;
	if (str_icontains(s, "512 bytes"))
		return 512;
	if (str_icontains(s, "blocks"))
		return 512;
	return 1;
}

/* The option letter of a bash line "... (kbytes, -l) value" or a dash line
 * "-l: ... value"; 0 when neither. */
static char flag_of(const char *s)
{
	const char *p;

	if (s[0] == '-' && isalpha((unsigned char)s[1]) && s[2] == ':')
		return s[1];
	p = strrchr(s, ')');
	if (p && p - s >= 2 && p[-2] == '-' && isalpha((unsigned char)p[-1]))
		return p[-1];
	return 0;
}

int limits_parse(const char *buf, size_t len, struct limits *out)
{
	struct lines it;
	char *l, *tok[16];
	size_t lines = 0;
	char *only = NULL;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		char *s = str_lstrip(l), *last;
		char f;
		size_t n;

		if (!*s)
			continue;
		lines++;
		only = s;
		/* /proc/<pid>/limits capitalises "Max"; bash prints "max ... (kbytes, -l)" */
		if ((str_starts(s, "Max locked memory") || str_starts(s, "Max open files")) &&
		    !strchr(s, '(')) {
			/* soft, hard, then the unit */
			bool memlock = str_starts(s, "Max locked memory");
			uint64_t soft, hard;
			n = str_split_ws(s, tok, 16);
			if (n < 5)
				continue;
			if (!limit_value(tok[n - 1], 1, &hard)) {
				n--;
				if (!limit_value(tok[n - 1], 1, &hard))
					continue;
			}
			if (!limit_value(tok[n - 2], 1, &soft))
				continue;
			if (memlock) {
				out->memlock_soft = soft;
				out->memlock_hard = hard;
				out->have_proc = true;
				out->format = LIMITS_PROC;
			} else {
				out->nofile_soft = soft;
				out->nofile_hard = hard;
			}
			continue;
		}
		f = flag_of(s);
		if (f != 'l' && f != 'n')
			continue;
		last = strrchr(s, ' ');
		if (!last)
			last = strrchr(s, '\t');
		if (!last)
			continue;
		last++;
		if (f == 'l') {
			if (limit_value(last, unit_of(s), &out->memlock)) {
				out->have_memlock = true;
				if (out->format != LIMITS_PROC)
					out->format = s[0] == '-' ? LIMITS_DASH : LIMITS_BASH;
			}
		} else if (limit_value(last, 1, &out->nofile)) {
			out->have_nofile = true;
		}
	}
	/* bare `ulimit -l`: one line, one value in kbytes */
	if (lines == 1 && !out->have_memlock && !out->have_proc && only &&
	    limit_value(only, 1024, &out->memlock)) {
		out->have_memlock = true;
		out->format = LIMITS_BARE;
	}
	lines_release(&it);
	return (out->have_memlock || out->have_proc) ? 0 : -1;
}

void limits_release(struct limits *l)
{
	memset(l, 0, sizeof(*l));
}
