/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `nvidia-smi --query-gpu=... --format=csv,noheader[,nounits]`: one line per
 * GPU, fields separated by ", " (names contain spaces, so split on commas
 * only).  A header line ("name, pci.device_id" or with "[MiB]" units) is
 * recognised when the caller did not pass noheader.
 */
#ifndef CI_PARSE_SMI_CSV_H
#define CI_PARSE_SMI_CSV_H

#include <stdbool.h>
#include <stddef.h>

struct smi_csv_row {
	char **fields; /* trimmed */
	size_t nfields, cap;
};

struct smi_csv {
	struct smi_csv_row header; /* nfields == 0 when no header line */
	struct smi_csv_row *rows;
	size_t nrows, cap;
};

/* 0 when at least one row was read; -1 on empty input or an nvidia-smi
 * error text (see smi_error.h). */
int smi_csv_parse(const char *buf, size_t len, struct smi_csv *out);
void smi_csv_release(struct smi_csv *c);
/* Field i of row r, or NULL when out of range. */
const char *smi_csv_field(const struct smi_csv *c, size_t r, size_t i);
/* Leading number of a field ("7979", "176.98 W"); false for N/A or text. */
bool smi_csv_number(const char *field, double *out);

#endif
