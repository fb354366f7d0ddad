/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The software stack and the network around it, the readings that are not
 * sysfs: the libraries the
 * image holds (names only), the pod's routes and addresses, the P2P matrix
 * and the UCX version.  Each section is optional: a transcript of an older
 * probe simply leaves the `have_*` flags false ("not collected").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "node/facts_internal.h"
#include "node/sections.h"
#include "parse/efa_packages.h"
#include "parse/lines.h"
#include "parse/proc_net.h"
#include "parse/smi_error.h"
#include "parse/ucx_info.h"
#include "rules/efa.h"
#include "rules/nixl.h"

static struct node_netif *netif(struct node_facts *f, const char *name)
{
	for (size_t i = 0; i < f->n_ifs; i++)
		if (!strcmp(f->ifs[i].name, name))
			return &f->ifs[i];
	return NULL;
}

/* "libibverbs.so.1.14.50.0" -> 14: the ABI minor; ibv_reg_dmabuf_mr() is
 * IBVERBS_1.12, first shipped in rdma-core v34 (libibverbs.so.1.12.34.0). */
static int ibverbs_abi(const char *base)
{
	const char *p = base + strlen("libibverbs.so.1.");
	uint32_t v;
	char num[12];
	size_t n = strspn(p, "0123456789");
	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, p, n);
	num[n] = '\0';
	return str_to_u32(num, 10, &v) && v < 1000 ? (int)v : -1;
}

static void read_libs(struct node_facts *f, const struct section *s)
{
	if (!s || s->missing)
		return;
	f->have_libs = true;
	struct lines it;
	char *l;
	lines_init(&it, s->body, s->len);
	while ((l = lines_next(&it))) {
		l = str_trim(l);
		const char *base = strrchr(l, '/');
		base = base ? base + 1 : l;
		if (str_starts(base, "libibverbs.so.1.")) {
			int abi = ibverbs_abi(base);
			if (abi > f->ibverbs_abi)
				f->ibverbs_abi = abi;
		} else if (str_starts(base, "libgdrapi.so.2.") && !f->gdrapi_version) {
			/* "libgdrapi.so.2.4" -> "2.4" */
			const char *v = base + strlen("libgdrapi.so.");
			size_t n = strspn(v, "0123456789.");
			while (n && v[n - 1] == '.')
				n--;
			if (n && n < 16)
				f->gdrapi_version = xstrndup(v, n);
		} else if (efa_ofi_nccl_lib(l)) {
			f->ofi_nccl_lib = true;
		} else if (str_starts(base, "libuct_") && nixl_layout_wheel_dir(l)) {
			enum nixl_ucx_module m = nixl_layout_ucx_module(l);
			if (!f->wheel_uct_listed && strlen(l) < 512)
				f->wheel_uct_dir = xstrndup(l, (size_t)(base - l) - 1);
			f->wheel_uct_listed = true;
			if (m < NIXL_UCT_COUNT)
				f->wheel_uct_mask |= 1u << m;
		} else if (str_starts(base, "libucp")) {
			/* A NIXL wheel bundles its own UCX ({pkg}.libs/, rules/nixl.c) */
			bool wheel = nixl_layout_wheel_dir(l) > 0;
			char **slot = wheel ? &f->ucp_wheel : &f->ucp_system;
			if (!*slot && strlen(l) < 512)
				*slot = xstrdup(l);
		}
	}
	lines_release(&it);
}

static void read_route(struct node_facts *f, const struct section *s)
{
	if (!s || s->missing)
		return;
	struct proc_route r;
	if (proc_route_parse(s->body, s->len, &r) == 0) {
		f->have_route = true;
		for (size_t i = 0; i < r.n; i++) {
			struct node_netif *n = netif(f, r.v[i].iface);
			if (!n)
				continue;
			if (r.v[i].dest == 0 && r.v[i].mask == 0 && (r.v[i].flags & 1u))
				n->default_route = true;
			if (net_route_link_local(&r.v[i]))
				n->v4_linklocal = true;
			else
				n->v4_routable = true;
		}
	}
	proc_route_release(&r);
}

static void read_inet6(struct node_facts *f, const struct section *s)
{
	if (!s || s->missing)
		return;
	struct proc_inet6 a;
	if (proc_inet6_parse(s->body, s->len, &a) == 0) {
		f->have_inet6 = true;
		for (size_t i = 0; i < a.n; i++) {
			struct node_netif *n = netif(f, a.v[i].iface);
			if (!n)
				continue;
			if (a.v[i].scope == INET6_GLOBAL)
				n->v6_global = true;
			else if (a.v[i].scope == INET6_LINK)
				n->v6_linklocal = true;
		}
	}
	proc_inet6_release(&a);
}

static void read_p2p(struct node_facts *f, const struct section *s)
{
	node_tool_state(s, "nvidia-smi topo -p2p r", &f->p2p_t);
	if (f->p2p_t.state != TOOL_OK)
		return;
	if (smi_error_classify(s->body, s->len) != SMI_OK ||
	    smi_p2p_parse(s->body, s->len, &f->p2p) != 0) {
		smi_p2p_release(&f->p2p);
		f->p2p_t.state = TOOL_FAILED;
		snprintf(f->p2p_t.why, sizeof(f->p2p_t.why),
			 "nvidia-smi topo -p2p r printed no matrix");
	}
}

static void read_ucx_version(struct node_facts *f, const struct section *s)
{
	if (!s || s->missing || s->rc != 0)
		return;
	struct ucx_version v;
	if (ucx_version_parse(s->body, s->len, &v) == 0 && v.version) {
		f->have_ucx_version = true;
		f->ucx_major = v.major;
		f->ucx_minor = v.minor;
		snprintf(f->ucx_version, sizeof(f->ucx_version), "%s", v.version);
	}
	ucx_version_release(&v);
}

/* The EFA installer's record: its version, and the versions of the
 * libfabric and aws-ofi-nccl packages it installed (rules/efa.c names
 * them). */
static void read_efa_pkgs(struct node_facts *f, const struct section *s)
{
	if (!s || s->missing)
		return;
	struct efa_packages *p = xcalloc(1, sizeof(*p)); /* 24 KiB: not on the stack */
	if (efa_packages_parse(s->body, s->len, p) == 0) {
		if (*p->installer)
			f->efa_installer = xstrdup(p->installer);
		for (size_t i = 0; i < p->n; i++) {
			if (!f->efa_pkg_libfabric && efa_pkg_is_libfabric(p->pkgs[i].name))
				f->efa_pkg_libfabric = xstrdup(p->pkgs[i].version);
			else if (!f->efa_pkg_ofi_nccl && efa_pkg_is_ofi_nccl(p->pkgs[i].name))
				f->efa_pkg_ofi_nccl = xstrdup(p->pkgs[i].version);
		}
	}
	free(p);
}

/* "<METADATA path>: Version: 0.7.1": the NIXL release (rules/efa.c's rows
 * depend on it: what NIXL's LIBFABRIC backend asks of libfabric). */
static void read_nixl_version(struct node_facts *f, const struct section *s)
{
	if (!s || s->missing)
		return;
	struct lines it;
	char *l;
	lines_init(&it, s->body, s->len);
	while (!f->nixl_pkg_version && (l = lines_next(&it))) {
		const char *v = strstr(l, ": Version: ");
		if (!v)
			continue;
		v += strlen(": Version: ");
		size_t n = strspn(v, "0123456789.");
		if (n && n < 24)
			f->nixl_pkg_version = xstrndup(v, n);
	}
	lines_release(&it);
}

/* Did the listings of NIXL's install places show a NIXL?  A dist-info
 * METADATA line (nixl:python) or a libplugin_*.so (nixl:plugins); the
 * wheel's bundled UCX (read_libs) counts too. */
static void read_nixl_presence(struct node_facts *f, const struct section *py,
			       const struct section *pl)
{
	f->nixl_looked = py && !py->missing && pl && !pl->missing;
	if (py && !py->missing && memmem(py->body, py->len, ": Name: ", 8))
		f->nixl_seen = true;
	if (pl && !pl->missing && memmem(pl->body, pl->len, "/libplugin_", 11))
		f->nixl_seen = true;
	if (f->nixl_pkg_version || f->ucp_wheel)
		f->nixl_seen = true;
}

void node_read_stack(struct node_facts *f, const struct transcript *t)
{
	read_nixl_version(f, transcript_get(t, SEC_NIXL_PYTHON));
	read_libs(f, transcript_get(t, SEC_LIBS));
	read_nixl_presence(f, transcript_get(t, SEC_NIXL_PYTHON),
			   transcript_get(t, SEC_NIXL_PLUGINS));
	read_efa_pkgs(f, transcript_get(t, SEC_EFA_PKGS));
	read_route(f, transcript_get(t, SEC_ROUTE));
	read_inet6(f, transcript_get(t, SEC_INET6));
	read_p2p(f, transcript_get(t, SEC_SMI_P2P));
	/* The probe runs `ucx_info -v -d` once (SEC_UCX_INFO_VD); older ones
	 * ran -v alone. */
	const struct section *vd = transcript_get(t, SEC_UCX_INFO_VD);
	read_ucx_version(f, vd && !vd->missing ? vd : transcript_get(t, SEC_UCX_INFO_V));
}
