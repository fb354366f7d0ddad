/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/smi_csv.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"
#include "parse/smi_error.h"

#define MAX_FIELDS 128

static void split_row(struct smi_csv_row *r, char *l)
{
	char *p = l, *c;

	memset(r, 0, sizeof(*r));
	for (;;) {
		c = strchr(p, ',');
		if (c)
			*c = '\0';
		if (r->nfields < MAX_FIELDS)
			*XPUSH(r->fields, r->nfields, r->cap) = xstrdup(str_trim(p));
		if (!c)
			break;
		p = c + 1;
	}
}

/* A header names query fields ("name", "pci.device_id", "memory.total [MiB]"):
 * lower-case words with dots/underscores and optional unit brackets. */
static bool looks_like_header(const struct smi_csv_row *r)
{
	size_t i;
	bool dotted = false;

	for (i = 0; i < r->nfields; i++) {
		const char *f = r->fields[i];
		if (!*f)
			return false;
		for (; *f && *f != ' '; f++) {
			if (*f == '.')
				dotted = true;
			else if (!islower((unsigned char)*f) && *f != '_' &&
				 !isdigit((unsigned char)*f))
				return false;
		}
		if (*f && !str_starts(f, " ["))
			return false;
	}
	return dotted || r->nfields == 1 || (r->nfields && strcmp(r->fields[0], "name") == 0);
}

static void row_release(struct smi_csv_row *r)
{
	size_t i;

	for (i = 0; i < r->nfields; i++)
		free(r->fields[i]);
	free(r->fields);
	memset(r, 0, sizeof(*r));
}

int smi_csv_parse(const char *buf, size_t len, struct smi_csv *out)
{
	struct lines it;
	char *l;

	memset(out, 0, sizeof(*out));
	if (smi_error_classify(buf, len) != SMI_OK)
		return -1;
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		struct smi_csv_row r;

		if (!*str_skip_ws(l))
			continue;
		split_row(&r, l);
		if (out->nrows == 0 && out->header.nfields == 0 && looks_like_header(&r)) {
			out->header = r;
			continue;
		}
		if (out->nrows >= PARSE_MAX_ITEMS) {
			row_release(&r);
			break;
		}
		*XPUSH(out->rows, out->nrows, out->cap) = r;
	}
	lines_release(&it);
	return out->nrows ? 0 : -1;
}

void smi_csv_release(struct smi_csv *c)
{
	size_t i;

	row_release(&c->header);
	for (i = 0; i < c->nrows; i++)
		row_release(&c->rows[i]);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

const char *smi_csv_field(const struct smi_csv *c, size_t r, size_t i)
{
	if (r >= c->nrows || i >= c->rows[r].nfields)
		return NULL;
	return c->rows[r].fields[i];
}

bool smi_csv_number(const char *field, double *out)
{
	return str_lead_double(field, out);
}
