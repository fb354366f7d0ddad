/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/ucx_tls.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/*
 * ucp_tl_aliases of openucx/ucx src/ucp/core/ucp_context.c (master, the
 * UCP_TL_AUX form): the auxiliary members (ud_verbs:aux in rc_v,
 * ud_mlx5:aux in rc_x, rc, dc, dc_x) are left out, since an auxiliary
 * transport only sets connections up.  Older UCX (1.9 and before) also put
 * rdmacm in ib/rc/ud/dc; that is a connection manager, not a transport.
 */
static const struct {
	const char *name;
	const char *const tls[6];
} aliases[] = {
	{"mm", {"posix", "sysv", "xpmem"}},
	{"sm", {"posix", "sysv", "xpmem", "knem", "cma"}},
	{"shm", {"posix", "sysv", "xpmem", "knem", "cma"}},
	{"ib", {"rc_verbs", "ud_verbs", "rc_mlx5", "ud_mlx5", "dc_mlx5"}},
	{"ud_v", {"ud_verbs"}},
	{"ud_x", {"ud_mlx5"}},
	{"ud", {"ud_mlx5", "ud_verbs"}},
	{"rc_v", {"rc_verbs"}},
	{"rc_x", {"rc_mlx5"}},
	{"rc", {"rc_mlx5", "rc_verbs"}},
	{"dc", {"dc_mlx5"}},
	{"dc_x", {"dc_mlx5"}},
	{"ugni", {"ugni_smsg", "ugni_rdma"}},
	{"cuda", {"cuda_copy", "cuda_ipc", "gdr_copy"}},
	{"rocm", {"rocm_copy", "rocm_ipc", "rocm_gdr"}},
	{"ze", {"ze_copy", "ze_ipc", "ze_gdr"}},
};

/* The transports of uct/ib (verbs, mlx5, gga) and uct/ib/efa (srd): what
 * reaches another host through an RDMA NIC. */
static const char *const rdma_tls[] = {
	"rc_verbs", "rc_mlx5", "dc_mlx5", "ud_verbs", "ud_mlx5", "gga_mlx5", "srd",
};
/* uct/cuda: the transports that move GPU memory. */
static const char *const cuda_tls[] = {"cuda_copy", "cuda_ipc", "gdr_copy"};

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

static bool in(const char *s, const char *const *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, set[i]))
			return true;
	return false;
}

const char *const *ucx_tls_alias(const char *name)
{
	for (size_t i = 0; name && i < LEN(aliases); i++)
		if (!strcmp(name, aliases[i].name))
			return aliases[i].tls;
	return NULL;
}

/* Every transport tl names is in set (tl itself, or every alias member). */
static bool all_in(const char *tl, const char *const *set, size_t n)
{
	if (!tl)
		return false;
	const char *const *a = ucx_tls_alias(tl);
	if (!a)
		return in(tl, set, n);
	for (size_t i = 0; a[i]; i++)
		if (!in(a[i], set, n))
			return false;
	return true;
}

bool ucx_tl_is_rdma(const char *tl)
{
	return all_in(tl, rdma_tls, LEN(rdma_tls));
}

bool ucx_tl_is_cuda(const char *tl)
{
	return all_in(tl, cuda_tls, LEN(cuda_tls));
}

bool ucx_tls_entry_selects(const char *e, const char *tl)
{
	if (!e || !tl)
		return false;
	if (strchr(e, ':'))
		return false; /* "x:aux": setup only, no data */
	if (e[0] == '\\')
		return !ucx_tls_alias(e + 1) && !strcmp(e + 1, tl);
	if (!strcmp(e, tl))
		return true;
	const char *const *a = ucx_tls_alias(e);
	for (size_t i = 0; a && a[i]; i++)
		if (!strcmp(a[i], tl))
			return true;
	return false;
}

static const char *skip_ws(const char *s)
{
	while (s && isspace((unsigned char)*s))
		s++;
	return s;
}

/* Next comma-separated entry of *pp, trimmed, into buf; false at the end.
 * *skip: the entry does not fit buf (and is to be ignored). */
static bool next_entry(const char **pp, char *buf, size_t len, bool *skip)
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
	*skip = b - a >= len;
	size_t c = *skip ? 0 : b - a;
	memcpy(buf, p + a, c);
	buf[c] = '\0';
	*pp = p[n] == ',' ? p + n + 1 : p + n;
	return true;
}

bool ucx_tls_is_deny(const char *value)
{
	return value && *skip_ws(value) == '^';
}

bool ucx_tls_is_empty(const char *value)
{
	if (!value)
		return false;
	const char *p = skip_ws(value);
	char e[UCX_TLS_MAX_ENTRY];
	bool skip;
	for (int n = 0; n < UCX_TLS_MAX_ENTRIES && next_entry(&p, e, sizeof(e), &skip); n++)
		if (skip || *e)
			return false;
	return true;
}

/* Both variables are comma lists, unset or blank allowing all; only
 * UCX_TLS has a deny form.  UCX parses UCX_TLS as an allow list
 * (ucs_config_allow_list_t: a leading '^' denies) but the device lists as
 * plain names (ucs_config_names_array_t, ucp_is_resource_in_device_list):
 * "^mlx5_0:1" there is a device name that matches nothing. */
static bool list_allows(const char *value, const char *want, bool deny_form,
			bool (*hits)(const char *e, const char *want, bool deny))
{
	if (!want)
		return false;
	if (!value || !*skip_ws(value))
		return true;
	value = skip_ws(value);
	bool deny = deny_form && *value == '^';
	if (deny)
		value++;
	const char *p = value;
	char e[UCX_TLS_MAX_ENTRY];
	bool skip, hit = false;
	for (int n = 0; n < UCX_TLS_MAX_ENTRIES && next_entry(&p, e, sizeof(e), &skip); n++) {
		if (skip || !*e)
			continue;
		if (hits(e, want, deny)) {
			hit = true;
			break;
		}
	}
	return deny ? !hit : hit;
}

/* "all" names every transport: "^all" leaves none. */
static bool tls_hits(const char *e, const char *tl, bool deny)
{
	(void)deny;
	return !strcmp(e, "all") || ucx_tls_entry_selects(e, tl);
}

static bool netdev_hits(const char *e, const char *device, bool deny)
{
	(void)deny;
	return !strcmp(e, "all") || !strcmp(e, device);
}

bool ucx_tls_allows(const char *value, const char *tl)
{
	return list_allows(value, tl, true, tls_hits);
}

bool ucx_tls_allows_rdma(const char *value)
{
	const char *const *ib = ucx_tls_alias("ib");
	for (size_t i = 0; ib[i]; i++)
		if (ucx_tls_allows(value, ib[i]))
			return true;
	/* srd exists only on EFA: a deny list that leaves it leaves nothing
	 * on InfiniBand/RoCE, so it counts only where the list allows it by
	 * name ("srd" or "all"). */
	return !ucx_tls_is_deny(value) && ucx_tls_allows(value, "srd");
}

bool ucx_tls_allows_cuda(const char *value)
{
	for (size_t i = 0; i < LEN(cuda_tls); i++)
		if (ucx_tls_allows(value, cuda_tls[i]))
			return true;
	return false;
}

bool ucx_net_devices_allows(const char *value, const char *device)
{
	return list_allows(value, device, false, netdev_hits);
}

size_t ucx_net_devices_count(const char *value)
{
	const char *p = skip_ws(value);
	if (p && *p == '^')
		p++;
	char e[UCX_TLS_MAX_ENTRY];
	bool skip;
	size_t n = 0;
	while (next_entry(&p, e, sizeof(e), &skip))
		n += skip || *e;
	return n;
}

bool ucx_net_devices_duplicate(const char *value, char *dup, size_t len)
{
	const char *p = skip_ws(value);
	if (p && *p == '^')
		p++;
	char seen[UCX_TLS_MAX_ENTRIES][UCX_TLS_MAX_ENTRY];
	char e[UCX_TLS_MAX_ENTRY];
	bool skip;
	for (size_t n = 0; n < UCX_TLS_MAX_ENTRIES && next_entry(&p, e, sizeof(e), &skip);) {
		if (skip || !*e)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(seen[i], e)) {
				snprintf(dup, len, "%s", e);
				return true;
			}
		memcpy(seen[n++], e, sizeof(e));
	}
	return false;
}
