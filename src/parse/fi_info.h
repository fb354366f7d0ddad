/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `fi_info -p efa` (libfabric): blocks of
 *   "provider: efa" / "    fabric: efa" / "    domain: rdmap197s0-rdm" /
 *   "    version: 116.10" / "    type: FI_EP_RDM" / "    protocol: FI_PROTO_EFA"
 * "fi_getinfo: -61" or "fi_getinfo: -61 (No data available)" means no
 * provider matched (no EFA).  Output from `mpirun --tag-output` carries
 * "[1,0]<stdout>:" prefixes, which are removed (the rank is kept).
 */
#ifndef CI_PARSE_FI_INFO_H
#define CI_PARSE_FI_INFO_H

#include <stdbool.h>
#include <stddef.h>

struct fi_info_entry {
	char *provider; /* "efa" */
	char *fabric;
	char *domain; /* "rdmap197s0-rdm" */
	char *version;
	char *type;     /* "FI_EP_RDM" */
	char *protocol; /* "FI_PROTO_EFA" */
	int rank;       /* mpirun tag rank; -1 when untagged */
};

struct fi_info {
	struct fi_info_entry *v;
	size_t n, cap;
	int getinfo_error; /* -61 for "fi_getinfo: -61"; 0 when absent */
	bool no_data;      /* getinfo_error == -61 (FI_ENODATA) */
};

/* 0 when recognised (provider blocks or a fi_getinfo error); -1 otherwise. */
int fi_info_parse(const char *buf, size_t len, struct fi_info *out);
void fi_info_release(struct fi_info *f);
bool fi_info_has_provider(const struct fi_info *f, const char *provider);

#endif
