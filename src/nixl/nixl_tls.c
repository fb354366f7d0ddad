/* SPDX-License-Identifier: Apache-2.0 */
/*
 * UCX_TLS and UCX_NET_DEVICES as UCX applies them, so that the filters can be
 * judged against the transports `ucx_info -d` really lists instead of by the
 * words they contain.  Facts taken from UCX's documented behaviour:
 *  - UCX_TLS is a comma list; a leading '^' makes it an exclusion list;
 *    `all` allows everything; a name with a leading '\' is a strict
 *    transport name (never an alias);
 *  - aliases: rc = rc_mlx5 + rc_verbs, rc_x = rc_mlx5, rc_v = rc_verbs,
 *    ud = ud_mlx5 + ud_verbs, ud_x / ud_v likewise, dc = dc_x = dc_mlx5,
 *    ib = rc_verbs, ud_verbs, rc_mlx5, ud_mlx5, dc_mlx5,
 *    sm = shm = posix, sysv, xpmem, knem, cma; mm = posix, sysv, xpmem,
 *    cuda = cuda_copy, cuda_ipc, gdr_copy; rocm = rocm_copy, rocm_ipc,
 *    rocm_gdr.  (UCX adds ud_*:aux for connection setup to rc/dc; an
 *    auxiliary transport carries no data, so it does not count here.)
 *  - UCX_NET_DEVICES filters network devices only, by exact name
 *    ("mlx5_0:1", "eth0"), `all`, or '^' exclusion.
 * Pure and bounded: at most 128 list entries of 63 bytes are considered.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "nixl/nixl.h"
#include "parse/lines.h"

struct alias {
	const char *name;
	const char *const tls[6];
};

static const struct alias aliases[] = {
	{"rc", {"rc_mlx5", "rc_verbs"}},
	{"rc_x", {"rc_mlx5"}},
	{"rc_v", {"rc_verbs"}},
	{"ud", {"ud_mlx5", "ud_verbs"}},
	{"ud_x", {"ud_mlx5"}},
	{"ud_v", {"ud_verbs"}},
	{"dc", {"dc_mlx5"}},
	{"dc_x", {"dc_mlx5"}},
	{"ib", {"rc_verbs", "ud_verbs", "rc_mlx5", "ud_mlx5", "dc_mlx5"}},
	{"sm", {"posix", "sysv", "xpmem", "knem", "cma"}},
	{"shm", {"posix", "sysv", "xpmem", "knem", "cma"}},
	{"mm", {"posix", "sysv", "xpmem"}},
	{"cuda", {"cuda_copy", "cuda_ipc", "gdr_copy"}},
	{"rocm", {"rocm_copy", "rocm_ipc", "rocm_gdr"}},
};

#define MAX_ENTRIES 128
#define MAX_ENTRY   64

/* Next comma-separated entry of *pp, trimmed, into buf; false at the end. */
static bool next_entry(const char **pp, char *buf, size_t len, bool *too_long)
{
	const char *p = *pp;
	if (!p || !*p)
		return false;
	size_t n = strcspn(p, ",");
	size_t a = 0, b = n;
	while (a < b && isspace((unsigned char)p[a]))
		a++;
	while (b > a && isspace((unsigned char)p[b - 1]))
		b--;
	*too_long = b - a >= len;
	size_t c = *too_long ? 0 : b - a;
	memcpy(buf, p + a, c);
	buf[c] = '\0';
	*pp = p[n] == ',' ? p + n + 1 : p + n;
	return true;
}

static bool blank(const char *v)
{
	return !v || !*str_skip_ws(v);
}

/* Does one UCX_TLS entry name transport tl? */
static bool entry_matches(const char *e, const char *tl)
{
	if (e[0] == '\\')
		return !strcmp(e + 1, tl);
	if (!strcmp(e, "all") || !strcmp(e, tl))
		return true;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (strcmp(e, aliases[i].name))
			continue;
		for (size_t j = 0; j < 6 && aliases[i].tls[j]; j++)
			if (!strcmp(aliases[i].tls[j], tl))
				return true;
	}
	return false;
}

/* One UCX_TLS entry against tl: "name:aux"-like suffixes are UCX-internal,
 * so only the name is compared. */
static bool tls_entry_hits(char *e, const char *tl, bool exclude)
{
	(void)exclude;
	char *colon = strchr(e, ':');
	if (colon)
		*colon = '\0';
	return entry_matches(e, tl);
}

/* One UCX_NET_DEVICES entry against device: `all` only widens an allow
 * list; "^all" excludes nothing by name. */
static bool netdev_entry_hits(char *e, const char *device, bool exclude)
{
	return (!exclude && !strcmp(e, "all")) || !strcmp(e, device);
}

/* Both variables share UCX's list grammar (comma list, leading '^'
 * excludes, unset or blank allows all); only the per-entry match differs. */
static bool list_allows(const char *value, const char *want,
			bool (*hits)(char *e, const char *want, bool exclude))
{
	if (blank(value) || !want)
		return true;
	value = str_skip_ws(value);
	bool exclude = *value == '^';
	if (exclude)
		value++;
	const char *p = value;
	char e[MAX_ENTRY];
	bool long_entry, hit = false;
	for (int n = 0; n < MAX_ENTRIES && next_entry(&p, e, sizeof(e), &long_entry); n++) {
		if (long_entry || !*e)
			continue;
		if (hits(e, want, exclude)) {
			hit = true;
			break;
		}
	}
	return exclude ? !hit : hit;
}

bool nixl_tls_allows(const char *value, const char *tl)
{
	return list_allows(value, tl, tls_entry_hits);
}

bool nixl_netdev_allows(const char *value, const char *device)
{
	return list_allows(value, device, netdev_entry_hits);
}

bool nixl_tl_is_network(const struct ucx_tl *tl)
{
	if (tl->type)
		return !strcmp(tl->type, "network");
	return ucx_is_rdma_transport(tl->transport) || !strcmp(tl->transport, "tcp");
}
