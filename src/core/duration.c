/* SPDX-License-Identifier: Apache-2.0 */
#include "core/duration.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *unit;
	double seconds;
} units[] = {
	/* longest first: "ms" before "m" */
	{"ms", 0.001},
	{"h", 3600},
	{"m", 60},
	{"s", 1},
};

bool duration_parse(const char *s, double *out)
{
	if (!s || !*s)
		return false;
	double total = 0;
	const char *p = s;
	bool any_unit = false;
	while (*p) {
		if (!isdigit((unsigned char)*p) && *p != '.')
			return false;
		char *end;
		double n = strtod(p, &end);
		if (end == p)
			return false;
		p = end;
		if (!*p) {
			/* a bare number: seconds, but only as the whole value
			 * ("30"); "1m30" is as ambiguous to us as to Go */
			if (any_unit)
				return false;
			total = n;
			break;
		}
		size_t k = 0;
		while (k < sizeof(units) / sizeof(units[0]) &&
		       strncmp(p, units[k].unit, strlen(units[k].unit)))
			k++;
		if (k == sizeof(units) / sizeof(units[0]))
			return false;
		total += n * units[k].seconds;
		p += strlen(units[k].unit);
		any_unit = true;
	}
	if (!(total > 0) || total > 86400)
		return false;
	*out = total;
	return true;
}
