/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/efa.h"

#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"

static const struct efa_rule rules[EFA_RULE_COUNT] = {
	[EFA_LF_NIXL_API] =
		{1, 18, 0, 0, 8, "1.18",
		 "ai-dynamo/nixl src/utils/libfabric/libfabric_common.cpp, "
		 "libfabric_rail.cpp, libfabric_topology.cpp (0.8.0-1.4.0; 0.7.x asked for 1.9): "
		 "fi_getinfo(FI_VERSION(1, 18), ...); ofiwg/libfabric src/fabric.c: "
		 "\"Requested version is newer than library\" -> -FI_ENOSYS"},
	[EFA_LF_NIXL07_API] = {1, 9, 0, 0, 7, "1.9",
			       "ai-dynamo/nixl 0.7.x src/utils/libfabric: fi_getinfo(FI_VERSION(1, "
			       "9), ...)"},
	[EFA_LF_NIXL_MIN] = {1, 21, 0, 0, 9, "1.21.0",
			     "ai-dynamo/nixl src/plugins/libfabric/README.md (0.9.0-1.4.0): "
			     "\"Minimum required version: v1.21.0\""},
	[EFA_LF_SYNC_MEMOPS_FROM] = {1, 16, 0, 0, 0, "1.16.0",
				     "ofiwg/libfabric v1.16.0-v1.19.0 prov/efa/src/efa_mr.c: "
				     "efa_mr_hmem_setup() calls cuda_set_sync_memops() "
				     "(cuPointerSetAttribute CU_POINTER_ATTRIBUTE_SYNC_MEMOPS) and "
				     "fails the registration with -FI_EINVAL when CUDA refuses "
				     "(FI_EFA_SET_CUDA_SYNC_MEMOPS, default 1, from v1.17.0)"},
	[EFA_LF_SYNC_MEMOPS_FIXED] = {1, 19, 1, 0, 0, "1.19.1",
				      "ofiwg/libfabric commit bc6c52c1f \"prov/efa: Move "
				      "cuda-sync-memops from MR to EP\" (v1.20.0; not in v1.19.1's "
				      "efa_mr.c either; v1.18.3 still has it)"},
};

const struct efa_rule *efa_rule(enum efa_rule_id id)
{
	return (unsigned)id < EFA_RULE_COUNT ? &rules[id] : NULL;
}

/* aws-ofi-nccl, per release: the libfabric its efa check asks for
 * (nccl_net_ofi_query_provider_capabilities: "EFA provider requires at
 * least libfabric version %s", -ENOTSUP), newest first. */
static const struct efa_ofi_row ofi_rows[] = {
	{1, 13, 1, 22, "1.22.0",
	 "aws/aws-ofi-nccl v1.13.0-aws .. v1.21.1 src/nccl_ofi_net.c(pp): "
	 "FI_VERSION_LT(fi_version(), FI_VERSION(1, 22)) -> -ENOTSUP"},
	{1, 8, 1, 18, "1.18.0",
	 "aws/aws-ofi-nccl v1.8.0-aws .. v1.12.1-aws src/nccl_ofi_net.c: "
	 "FI_VERSION_LT(fi_version(), FI_VERSION(1, 18)) -> -ENOTSUP (PR #333)"},
};

const struct efa_ofi_row *efa_ofi_nccl_needs(const struct efa_ver *v)
{
	if (!v || !v->known)
		return NULL;
	for (size_t i = 0; i < sizeof(ofi_rows) / sizeof(ofi_rows[0]); i++)
		if (efa_ver_cmp(v, ofi_rows[i].from_major, ofi_rows[i].from_minor, 0) >= 0)
			return &ofi_rows[i];
	return NULL;
}

static const char *num(const char *s, unsigned *out)
{
	unsigned long v = 0;
	const char *p = s;
	while (*p >= '0' && *p <= '9' && p - s < 6)
		v = v * 10 + (unsigned long)(*p++ - '0');
	if (p == s || (*p >= '0' && *p <= '9'))
		return NULL;
	*out = (unsigned)v;
	return p;
}

struct efa_ver efa_ver_parse(const char *s)
{
	struct efa_ver v = {0};
	if (!s)
		return v;
	while (*s == 'v' || *s == ' ')
		s++;
	const char *p = num(s, &v.major);
	if (!p || *p != '.')
		return v;
	p = num(p + 1, &v.minor);
	if (!p)
		return v;
	if (*p == '.') {
		const char *q = num(p + 1, &v.patch);
		if (!q)
			v.patch = 0;
	}
	v.known = true;
	return v;
}

struct efa_ver efa_ver_from_provider(const char *s)
{
	struct efa_ver v = {0}, raw = efa_ver_parse(s);
	/* OFI_VERSION_DEF_PROV (ofiwg/libfabric include/ofi.h, in-tree
	 * providers): FI_VERSION(MAJOR * 100 + MINOR, REVISION * 10). */
	if (!raw.known || raw.major < 100)
		return v;
	v.known = true;
	v.major = raw.major / 100;
	v.minor = raw.major % 100;
	v.patch = raw.minor / 10;
	return v;
}

int efa_ver_cmp(const struct efa_ver *a, unsigned major, unsigned minor, unsigned patch)
{
	if (a->major != major)
		return a->major < major ? -1 : 1;
	if (a->minor != minor)
		return a->minor < minor ? -1 : 1;
	if (a->patch != patch)
		return a->patch < patch ? -1 : 1;
	return 0;
}

/* The runtime packages, as the installer's DEBS/RPMS name them
 * (aws-efa-installer efa_installer.sh writes their file names, without
 * .deb/.rpm, to /opt/amazon/efa_installed_packages): libfabric1-aws /
 * libfabric-aws (since the installer's own build), libfabric1 / libfabric
 * (older installers, e.g. 1.5.1's libfabric1_1.8.0amzn1.0); aws-ofi-nccl's
 * libnccl-ofi (aws/aws-ofi-nccl contrib/debian-template/control,
 * contrib/fedora/aws-ofi-nccl.spec). */
bool efa_pkg_is_libfabric(const char *name)
{
	static const char *const n[] = {"libfabric1-aws", "libfabric-aws", "libfabric1",
					"libfabric"};
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		if (name && !strcmp(name, n[i]))
			return true;
	return false;
}

bool efa_pkg_is_ofi_nccl(const char *name)
{
	return name && (!strcmp(name, "libnccl-ofi") || !strncmp(name, "libnccl-ofi-ngc-v", 17) ||
			!strcmp(name, "aws-ofi-nccl"));
}

static int sev(enum ci_status st)
{
	return st == CI_FAIL ? 3 : st == CI_WARN ? 2 : st == CI_OK ? 1 : 0;
}

static void add(struct efa_judgement *o, struct strbuf *d, struct strbuf *fx, enum ci_status st,
		const char *detail, const char *fix)
{
	if (sev(st) > sev(o->st))
		o->st = st;
	strbuf_joinf(d, "; ", "%s", detail);
	if (fix)
		strbuf_joinf(fx, "; ", "%s", fix);
}

void efa_judge(const struct efa_in *in, struct efa_judgement *o)
{
	memset(o, 0, sizeof(*o));
	o->st = CI_SKIPPED;
	struct strbuf d = STRBUF_INIT, fx = STRBUF_INIT;
	char line[400];
	const struct efa_ver *lf = &in->libfabric;
	const char *lft = *in->libfabric_text ? in->libfabric_text : "?";
	if (!lf->known) {
		snprintf(o->detail, sizeof(o->detail),
			 "no libfabric version readable (fi_info -p efa prints no in-tree "
			 "provider version and /opt/amazon/efa_installed_packages names no "
			 "libfabric package)%s%s",
			 *in->installer ? "; EFA installer " : "", in->installer);
		return;
	}
	o->st = CI_OK;
	/* The rows of the image's NIXL release (the newest when unknown). */
	const struct efa_rule *api = efa_rule(EFA_LF_NIXL_API), *min = efa_rule(EFA_LF_NIXL_MIN);
	bool nixl_old =
		in->nixl.known && efa_ver_cmp(&in->nixl, api->nixl_major, api->nixl_minor, 0) < 0;
	bool min_holds =
		!in->nixl.known || efa_ver_cmp(&in->nixl, min->nixl_major, min->nixl_minor, 0) >= 0;
	if (nixl_old)
		api = efa_rule(EFA_LF_NIXL07_API);
	const struct efa_rule *sm0 = efa_rule(EFA_LF_SYNC_MEMOPS_FROM),
			      *sm1 = efa_rule(EFA_LF_SYNC_MEMOPS_FIXED);
	if (in->nixl_absent) {
		/* no NIXL in the image: its LIBFABRIC backend's rows do not apply */
	} else if (efa_ver_cmp(lf, api->major, api->minor, api->patch) < 0) {
		snprintf(line, sizeof(line),
			 "older than API %s: NIXL's LIBFABRIC backend asks fi_getinfo for %s "
			 "and gets -FI_ENOSYS, so it cannot start",
			 api->text, api->text);
		add(o, &d, &fx, CI_FAIL, line, NULL);
	} else if (min_holds && efa_ver_cmp(lf, min->major, min->minor, min->patch) < 0) {
		snprintf(line, sizeof(line),
			 "below NIXL's documented minimum %s for its LIBFABRIC backend", min->text);
		add(o, &d, &fx, CI_WARN, line, NULL);
	}
	if (efa_ver_cmp(lf, sm0->major, sm0->minor, sm0->patch) >= 0 &&
	    efa_ver_cmp(lf, sm1->major, sm1->minor, sm1->patch) < 0 && !in->sync_memops_off) {
		snprintf(line, sizeof(line),
			 "its efa provider sets CUDA's SYNC_MEMOPS in every registration "
			 "(%s to before %s): a cuMem (VMM) buffer, NCCL's default, fails "
			 "fi_mr_reg (-22)",
			 sm0->text, sm1->text);
		/* the variable is a way out only where the version is otherwise fine */
		add(o, &d, &fx, CI_WARN, line,
		    o->st == CI_FAIL ? NULL
				     : "or set FI_EFA_SET_CUDA_SYNC_MEMOPS=0 until it is upgraded");
	}
	const struct efa_ofi_row *ofi = efa_ofi_nccl_needs(&in->ofi_nccl);
	if (ofi && efa_ver_cmp(lf, ofi->needs_major, ofi->needs_minor, 0) < 0) {
		snprintf(line, sizeof(line),
			 "aws-ofi-nccl %s refuses the efa provider with it (it needs %s): NCCL "
			 "falls back to its socket transport (NIXL's KV is not NCCL's)",
			 *in->ofi_nccl_text ? in->ofi_nccl_text : "?", ofi->needs_text);
		add(o, &d, &fx, CI_WARN, line, NULL);
	}
	if (o->st == CI_OK) {
		if (in->nixl_absent)
			strbuf_addf(&d,
				    "libfabric %s (%s); no NIXL in the image, so NIXL's "
				    "LIBFABRIC minimum does not apply",
				    lft, *in->libfabric_how ? in->libfabric_how : "?");
		else
			strbuf_addf(&d, "libfabric %s (%s) meets NIXL's LIBFABRIC %s %s", lft,
				    *in->libfabric_how ? in->libfabric_how : "?",
				    min_holds ? "minimum" : "API",
				    min_holds ? min->text : api->text);
		if (ofi)
			strbuf_addf(&d, " and aws-ofi-nccl %s's %s",
				    *in->ofi_nccl_text ? in->ofi_nccl_text : "?", ofi->needs_text);
		else if (in->ofi_nccl_lib)
			strbuf_addf(&d, "; an aws-ofi-nccl plugin is in the image (version "
					"unread)");
	} else {
		/* The findings follow the version they are about. */
		struct strbuf h = STRBUF_INIT;
		strbuf_addf(&h, "libfabric %s (%s): %s", lft,
			    *in->libfabric_how ? in->libfabric_how : "?", d.buf);
		strbuf_release(&d);
		d = h;
		/* One fix, from the findings: the version every one of them needs. */
		const char *need = min->text;
		unsigned nmaj = min->major, nmin = min->minor;
		if (in->nixl_absent) {
			/* no NIXL row spoke: the sync-memops fix, or aws-ofi-nccl's need */
			need = sm1->text;
			nmaj = sm1->major;
			nmin = sm1->minor;
			if (!(efa_ver_cmp(lf, sm0->major, sm0->minor, sm0->patch) >= 0 &&
			      efa_ver_cmp(lf, sm1->major, sm1->minor, sm1->patch) < 0 &&
			      !in->sync_memops_off))
				nmaj = nmin = 0;
		}
		if (ofi && efa_ver_cmp(lf, ofi->needs_major, ofi->needs_minor, 0) < 0 &&
		    (ofi->needs_major > nmaj ||
		     (ofi->needs_major == nmaj && ofi->needs_minor > nmin)))
			need = ofi->needs_text;
		struct strbuf f = STRBUF_INIT;
		strbuf_addf(&f,
			    "use an image whose libfabric is %s or newer (a current "
			    "aws-efa-installer's, /opt/amazon/efa)",
			    need);
		if (fx.len)
			strbuf_addf(&f, " %s", fx.buf);
		snprintf(o->fix, sizeof(o->fix), "%s", f.buf);
		strbuf_release(&f);
	}
	if (*in->installer)
		strbuf_joinf(&d, "; ", "EFA installer %s", in->installer);
	snprintf(o->detail, sizeof(o->detail), "%s", d.buf);
	strbuf_release(&d);
	strbuf_release(&fx);
}

/* aws-ofi-nccl's plugin library, where its packages install it
 * (aws/aws-ofi-nccl contrib/debian-template/rules: OFI_NCCL_PREFIX
 * /opt/amazon/ofi-nccl, the NGC variants' /opt/amazon/aws-ofi-nccl;
 * src/Makefile.am: libnccl-net.so, libnccl-net-ofi.so,
 * libnccl-net-aws-ofi.so). */
bool efa_ofi_nccl_lib(const char *path)
{
	if (!path)
		return false;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strncmp(base, "libnccl-net", 11) == 0 &&
	       (strstr(path, "/opt/amazon/ofi-nccl/") || strstr(path, "/opt/amazon/aws-ofi-nccl/"));
}
