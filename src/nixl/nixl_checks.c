/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The nixl.* checks: pure functions from nixl_facts to report_add calls.
 * Rules of the house: a reading that could not be made is `skipped` with the
 * reason, never a pass; reachability between two pods is never claimed.
 *
 * UCX version policy (see docs/checks.md): fail below 1.14 (no DMA-BUF
 * GPUDirect, the cuda_ipc fixes NIXL relies on, and real NIXL builds refuse
 * older UCX: "UCP version is incompatible, required: 1.18, actual: 1.12"),
 * warn below 1.18 (what NIXL releases are built against), ok from 1.18;
 * NIXL's README names 1.22.x as the tested series.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "env/env_varrules.h"
#include "nixl/nixl.h"
#include "nixl/nixl_desc.h"
#include "node/gpudirect.h"
#include "node/node_checks.h"
#include "parse/ucx_tls.h"
#include "rules/efa.h"
#include "rules/fabric.h"
#include "rules/nixl.h"
#include "rules/ucx.h"

/* Lists in details stop at about this many bytes, and say how many more
 * items there were (strbuf_joinf_capped). */
#define LIST_CAP 760

/* ---- tooling ---- */

static void check_tools(struct ci_report *r, const struct nixl_facts *f)
{
	static const enum nixl_tool listed[] = {NT_NIXLBENCH, NT_NIXL_TEST, NT_NIXL_EXAMPLE,
						NT_KVBENCH,   NT_ETCDCTL,   NT_UCX_PERFTEST};
	if (!f->have_which) {
		report_check(r, NIXL_CHECK(TOOLS), CI_SKIPPED, "PATH",
			     "the probe did not look the test tools up on PATH");
		return;
	}
	struct strbuf have = STRBUF_INIT, miss = STRBUF_INIT;
	for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
		if (f->tool_path[listed[i]])
			strbuf_joinstr(&have, ", ", nixl_tool_name(listed[i]));
		else
			strbuf_joinstr(&miss, ", ", nixl_tool_name(listed[i]));
	}
	bool bench = f->tool_path[NT_NIXLBENCH];
	bool perf = f->tool_path[NT_UCX_PERFTEST];
	struct ci_check *c;
	if (bench) {
		c = report_check(r, NIXL_CHECK(TOOLS), CI_OK, "PATH",
				 "pair-test tools present: %s%s%s", have.buf,
				 miss.len ? "; not on PATH: " : "", miss.len ? miss.buf : "");
	} else if (perf && f->backend == NB_UCX) {
		/* A test tool is not part of the KV path: the engine moves KV through
		 * libnixl, never through nixlbench. Its absence leaves the pair-test
		 * proof undone (skipped, the verdict stays what the transport facts
		 * say); the next steps name the image and command that give it. */
		c = report_check(
			r, NIXL_CHECK(TOOLS), CI_SKIPPED, "PATH",
			"no nixlbench in this image (only %s): the UCX pair test runs here, the "
			"NIXL pair test needs nixlbench from another image",
			have.buf);
		check_set_fix(c,
			      "run nixlbench from a NIXL-enabled image (the Dynamo runtime images "
			      "ship it), or from a debug pod on the same node with that image");
	} else {
		c = report_check(r, NIXL_CHECK(TOOLS), CI_SKIPPED, "PATH",
				 "no pair-test tool in this image (none of nixlbench, nixl_test, "
				 "nixl_example, kvbench, ucx_perftest%s): the pair test needs "
				 "another image",
				 f->tool_path[NT_ETCDCTL] ? "; etcdctl is there" : ", etcdctl");
		check_set_fix(
			c, "use a NIXL-enabled image (the Dynamo runtime images ship nixlbench), "
			   "or start a debug pod on the same node with such an image and the same "
			   "RDMA resources");
	}
	for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++)
		if (f->tool_path[listed[i]])
			check_add_evidence(c, "%s=%s", nixl_tool_name(listed[i]),
					   f->tool_path[listed[i]]);
	strbuf_release(&have);
	strbuf_release(&miss);
}

static void check_python(struct ci_report *r, const struct nixl_facts *f)
{
	if (!f->have_python) {
		report_check(r, NIXL_CHECK(PYTHON), CI_SKIPPED, "site-packages",
			     "the probe did not look for the nixl Python package");
		return;
	}
	if (!f->n_py) {
		report_check(
			r, NIXL_CHECK(PYTHON), CI_SKIPPED, "site-packages",
			"no nixl Python distribution (nixl, nixl-cu12, nixl-cu13) in the usual "
			"site-packages; an engine may still carry NIXL in its own tree");
		return;
	}
	struct strbuf b = STRBUF_INIT;
	for (size_t i = 0; i < f->n_py; i++)
		strbuf_joinf(&b, ", ", "%s %s", f->py[i].name, f->py[i].version);
	struct ci_check *c = report_check(r, NIXL_CHECK(PYTHON), CI_OK, "site-packages",
					  "NIXL Python package installed: %s", b.buf);
	for (size_t i = 0; i < f->n_py; i++)
		check_add_evidence(c, "%s", f->py[i].path);
	strbuf_release(&b);
}

/* ---- plugins and backend ---- */

static bool nixl_installed(const struct nixl_facts *f)
{
	return f->n_plugin_dirs || f->n_plugins || f->n_py;
}

static void check_plugins(struct ci_report *r, const struct nixl_facts *f)
{
	const char *pd = nixl_env(f, "NIXL_PLUGIN_DIR");
	if (!f->have_plugins) {
		report_na(r, NIXL_CHECK(PLUGINS), "NIXL plugins",
			  "the probe did not look for NIXL plugins");
		return;
	}
	if (!f->n_plugin_dirs && !f->n_plugins) {
		report_na(r, NIXL_CHECK(PLUGINS), "NIXL plugins",
			  "no NIXL plugin directory found (%s%s%s, /opt/nvidia/nvda_nixl, "
			  "/usr/local/nixl, the wheel's .nixl*.libs)",
			  pd ? "NIXL_PLUGIN_DIR=" : "NIXL_PLUGIN_DIR unset", pd ? pd : "", "");
		return;
	}
	if (!f->n_plugins) {
		struct ci_check *c =
			report_check(r, NIXL_CHECK(PLUGINS), CI_FAIL, "NIXL plugins",
				     "the NIXL plugin directory holds no libplugin_*.so: NIXL "
				     "can create no backend (NIXL_ERR_BACKEND)");
		for (size_t i = 0; i < f->n_plugin_dirs; i++)
			check_add_evidence(c, "%s/", f->plugin_dirs[i]);
		check_set_fix(c,
			      "point NIXL_PLUGIN_DIR at the plugins/ directory beside libnixl, or "
			      "use an image whose NIXL build installed its plugins");
		return;
	}
	struct strbuf b = STRBUF_INIT;
	for (size_t i = 0; i < f->n_plugins; i++)
		strbuf_joinstr(&b, ", ", f->plugins[i].name);
	struct ci_check *c = report_check_as(r, NIXL_CHECK(PLUGINS), CI_OK, false, CI_LAYER_DRIVER,
					     "NIXL plugins", "NIXL plugins found: %s", b.buf);
	strbuf_release(&b);
	for (size_t i = 0; i < f->n_plugin_dirs; i++)
		check_add_evidence(c, "%s/", f->plugin_dirs[i]);
}

static void check_backend(struct ci_report *r, const struct nixl_facts *f)
{
	const char *be = f->backend_name;
	struct ci_check *c;
	if (!f->have_plugins || !nixl_installed(f)) {
		c = report_check(
			r, NIXL_CHECK(BACKEND), CI_SKIPPED, be,
			"backend %s (%s): no NIXL installation found in this container, so its "
			"plugin cannot be checked",
			be, f->backend_how);
		check_set_fix(c, "probe the container that runs the engine (--container), or set "
				 "NIXL_PLUGIN_DIR in it");
		return;
	}
	if (!f->n_plugins) {
		report_check(r, NIXL_CHECK(BACKEND), CI_SKIPPED, be,
			     "backend %s (%s): no plugin could be found at all (see nixl.plugins)",
			     be, f->backend_how);
		return;
	}
	if (nixl_has_plugin(f, be)) {
		for (size_t i = 0; i < f->n_plugins; i++)
			if (!strcasecmp(f->plugins[i].name, be)) {
				c = report_check(r, NIXL_CHECK(BACKEND), CI_OK, be,
						 "the KV backend %s has its plugin (%s)", be,
						 f->backend_how);
				check_add_evidence(c, "%s", f->plugins[i].path);
				break;
			}
		return;
	}
	c = report_check(r, NIXL_CHECK(BACKEND), CI_FAIL, be,
			 "the KV backend %s has no plugin here (libplugin_%s.so missing; %s): "
			 "createBackend fails with NIXL_ERR_BACKEND",
			 be, be, f->backend_how);
	if (f->backend == NB_LIBFABRIC)
		check_set_fix(
			c, "use a NIXL build with the LIBFABRIC plugin (built against "
			   "libfabric with EFA), or set NIXL_PLUGIN_DIR to where it is installed");
	else
		check_set_fix(c,
			      "use a NIXL build that installs libplugin_%s.so, or set "
			      "NIXL_PLUGIN_DIR to its plugins/ directory",
			      be);
}

static void check_libfabric(struct ci_report *r, const struct nixl_facts *f)
{
	const struct node_facts *n = &f->node;
	struct ci_check *c;
	/* node.efa's judgement of the versions (rules/efa.c): one status */
	struct efa_judgement j;
	node_efa_judge(n, &j);
	bool bad = j.st == CI_FAIL || j.st == CI_WARN;
	if (n->fi_t.state != TOOL_OK && bad && node_count_efa_devs(n)) {
		c = report_check(r, NIXL_CHECK(LIBFABRIC), j.st, "libfabric",
				 "fi_info cannot tell the provider (%s); %s", n->fi_t.why,
				 j.detail);
		check_set_fix(c, "%s", j.fix);
		return;
	}
	if (n->fi_t.state != TOOL_OK) {
		report_check(r, NIXL_CHECK(LIBFABRIC), CI_SKIPPED, "fi_info -p efa",
			     "%s: libfabric's EFA provider cannot be confirmed",
			     *n->fi_t.why ? n->fi_t.why : "fi_info gave no answer");
		return;
	}
	if (fi_info_has_provider(&n->fi, "efa")) {
		size_t k = 0;
		for (size_t i = 0; i < n->fi.n; i++)
			k += n->fi.v[i].provider && !strcmp(n->fi.v[i].provider, "efa");
		c = report_check(r, NIXL_CHECK(LIBFABRIC), bad ? j.st : CI_OK, "fi_info -p efa",
				 "libfabric lists the efa provider (%zu endpoint%s)%s%s", k,
				 k == 1 ? "" : "s",
				 bad ? "; " : ": the LIBFABRIC backend has a device",
				 bad ? j.detail : "");
		if (bad)
			check_set_fix(c, "%s", j.fix);
		else if (j.st == CI_OK)
			check_add_evidence(c, "%s", j.detail);
		return;
	}
	c = report_check_as(
		r, NIXL_CHECK(LIBFABRIC), CI_FAIL, true, CI_LAYER_FABRIC, "fi_info -p efa",
		"libfabric finds no EFA provider%s: the LIBFABRIC backend has no device",
		n->fi.no_data ? " (fi_getinfo: -61)" : "");
	check_set_fix(c, "request vpc.amazonaws.com/efa in the pod resources and use an image with "
			 "the EFA libfabric (FI_PROVIDER=efa)");
}

/* ---- UCX ---- */

/* A UCX check that cannot be made: skipped, critical only when UCX carries
 * the KV, and at the driver layer whatever the check's own (UCX itself is
 * what is missing). */
static bool ucx_unusable(struct ci_report *r, const struct nixl_facts *f,
			 const struct check_desc *ck, const char *subject, bool need_d)
{
	bool crit = f->backend == NB_UCX;
	if (f->backend != NB_UCX) {
		report_check_as(r, ck, CI_SKIPPED, false, CI_LAYER_DRIVER, subject,
				"UCX is not on the KV path: the backend is %s (%s)",
				f->backend_name, f->backend_how);
		return true;
	}
	const struct tool_out *t = need_d ? &f->ucx_d_t : &f->ucx_v_t;
	bool ok = need_d ? f->have_ucxd : f->have_ucxv;
	if (!ok) {
		struct ci_check *c =
			report_check_as(r, ck, CI_SKIPPED, crit, CI_LAYER_DRIVER, subject,
					"%s: UCX cannot be inspected", t->why);
		if (t->state == TOOL_MISSING)
			check_set_fix(c,
				      "ucx_info ships with UCX (ucx-utils/ucx packages; the Dynamo "
				      "runtime images have it); probe a container that has it");
		return true;
	}
	return false;
}

static void check_ucx_version(struct ci_report *r, const struct nixl_facts *f)
{
	const struct check_desc *ck = NIXL_CHECK(UCX_VERSION);
	if (ucx_unusable(r, f, ck, "ucx_info -v", false))
		return;
	const struct ucx_version *v = &f->ucxv;
	const struct node_facts *n = &f->node;
	/* Two UCX copies: the system's and the NIXL wheel's (auditwheel's
	 * .nixl*.libs/libucp-<hash>.so); the one ucx_info shows may not be the
	 * one NIXL loads. */
	bool two = n->ucp_system && n->ucp_wheel, said_two = false;
	struct ci_check *c;
	const struct ucx_version_rule *low = ucx_rule(UCX_MIN_DMABUF),
				      *mnnvl = ucx_rule(UCX_MIN_MNNVL_IPC),
				      *full = ucx_rule(UCX_MIN_NIXL_FULL);
	if (!ucx_version_at_least(v, low->major, low->minor, 0)) {
		c = report_check(r, ck, CI_FAIL, "ucx_info -v",
				 "UCX %s is too old for NIXL (< %s: no DMA-BUF GPUDirect, and NIXL "
				 "builds refuse it: \"UCP version is incompatible\")",
				 v->version, low->text);
		check_set_fix(c,
			      "use UCX >= %s (NIXL's README tests 1.22.x), e.g. the UCX in the "
			      "Dynamo runtime images",
			      full->text);
	} else if (f->mnnvl && !ucx_version_at_least(v, mnnvl->major, mnnvl->minor, 0)) {
		c = report_check(
			r, ck, CI_FAIL, "ucx_info -v",
			"UCX %s on a multi-node NVLink system: fabric-handle cuda_ipc, which "
			"MNNVL needs, exists only from UCX %s, so KV cannot cross nodes over "
			"NVLink",
			v->version, mnnvl->text);
		check_set_fix(c, "use UCX >= %s (>= %s for MNNVL cuda_ipc)", full->text,
			      mnnvl->text);
	} else if (!ucx_version_at_least(v, full->major, full->minor, 0)) {
		c = report_check(
			r, ck, CI_WARN, "ucx_info -v",
			"UCX %s is older than %s: NIXL's UCX plugin warns \"CUDA support is "
			"limited, including the lack of support for multi-GPU within a single "
			"process\"",
			v->version, full->text);
		check_set_fix(c, "use UCX >= %s (NIXL's README tests 1.22.x)", full->text);
	} else if (two) {
		said_two = true;
		c = report_check(
			r, ck, CI_WARN, "ucx_info -v",
			"UCX %s on PATH, but the image holds two UCX copies (%s and the NIXL "
			"wheel's %s): two copies in one process can hang, and the version NIXL "
			"uses is the wheel's, not necessarily this one",
			v->version, n->ucp_system, n->ucp_wheel);
		check_set_fix(c,
			      "keep one UCX in the image, or let NIXL load its own with "
			      "NIXL_UCX_DEEPBIND=1 (RTLD_DEEPBIND) and check that copy's version");
	} else {
		c = report_check(r, ck, CI_OK, "ucx_info -v",
				 "UCX %s (>= %s; NIXL's README tests 1.22.x)", v->version,
				 full->text);
	}
	if (two && !said_two)
		check_add_evidence(c, "two UCX copies: %s and %s", n->ucp_system, n->ucp_wheel);
	if (v->library_path)
		check_add_evidence(c, "library: %s", v->library_path);
}

static bool has_cuda_tl(const struct ucx_devices *d)
{
	return ucx_devices_has_transport(d, "cuda_copy") ||
	       ucx_devices_has_transport(d, "cuda_ipc") || ucx_devices_has_transport(d, "gdr_copy");
}

static void check_ucx_build(struct ci_report *r, const struct nixl_facts *f)
{
	if (ucx_unusable(r, f, NIXL_CHECK(UCX_BUILD), "ucx_info -v", false))
		return;
	const struct ucx_version *v = &f->ucxv;
	bool cuda_listed = f->have_ucxd && has_cuda_tl(&f->ucxd);
	bool rdma_listed = f->have_ucxd && ucx_devices_has_rdma(&f->ucxd);
	struct strbuf flags = STRBUF_INIT;
	if (v->cuda == UCX_OPT_WITH)
		strbuf_joinstr(&flags, ", ", "--with-cuda");
	if (v->verbs == UCX_OPT_WITH)
		strbuf_joinstr(&flags, ", ", "--with-verbs");
	if (v->gdrcopy == UCX_OPT_WITH)
		strbuf_joinstr(&flags, ", ", "--with-gdrcopy");
	if (v->efa == UCX_OPT_WITH)
		strbuf_joinstr(&flags, ", ", "--with-efa");
	struct ci_check *c;
	if (v->verbs == UCX_OPT_WITHOUT || v->cuda == UCX_OPT_WITHOUT) {
		bool both = v->verbs == UCX_OPT_WITHOUT && v->cuda == UCX_OPT_WITHOUT;
		c = report_check(
			r, NIXL_CHECK(UCX_BUILD), CI_FAIL, "ucx_info -v",
			"UCX %s was configured %s%s%s: %s", v->version,
			v->verbs == UCX_OPT_WITHOUT ? "--without-verbs" : "", both ? " and " : "",
			v->cuda == UCX_OPT_WITHOUT ? "--without-cuda" : "",
			v->verbs == UCX_OPT_WITHOUT ? "no RDMA transport at all, KV moves over TCP"
						    : "it cannot move GPU memory");
		check_set_fix(c,
			      "rebuild UCX with --with-verbs --with-cuda (and --with-gdrcopy), or "
			      "use the UCX of the Dynamo runtime images");
	} else if (!cuda_listed && v->cuda != UCX_OPT_WITH) {
		bool gpu = node_has_gpu(&f->node);
		c = report_check(
			r, NIXL_CHECK(UCX_BUILD), gpu ? CI_FAIL : CI_WARN, "ucx_info -v",
			"UCX %s shows no CUDA support (no --with-cuda, no cuda_copy/cuda_ipc "
			"transport)%s",
			v->version,
			gpu ? " on a GPU node: NIXL cannot register VRAM"
			    : "; no GPU is visible here, so CUDA transports may just have no device");
		check_set_fix(c, "use a UCX built --with-cuda (the UCX NIXL was built against)");
	} else {
		c = report_check(r, NIXL_CHECK(UCX_BUILD), CI_OK, "ucx_info -v",
				 "UCX %s built with CUDA%s%s", v->version,
				 v->verbs == UCX_OPT_WITH || rdma_listed ? " and verbs" : "",
				 flags.len ? "" : " (auto-detected: the transports show it)");
	}
	if (flags.len)
		check_add_evidence(c, "configure: %s", flags.buf);
	strbuf_release(&flags);
}

/* RDMA transports UCX lists, as "tl/dev" strings (first n). */
static void list_rdma(const struct ucx_devices *d, struct strbuf *b)
{
	for (size_t i = 0; i < d->ntls; i++)
		if (ucx_tl_is_rdma(d->tls[i].transport))
			strbuf_joinf_capped(b, LIST_CAP, ", ", "%s/%s", d->tls[i].transport,
					    d->tls[i].device ? d->tls[i].device : "?");
}

static void list_names(const struct ucx_devices *d, struct strbuf *b)
{
	for (size_t i = 0; i < d->ntls; i++) {
		bool dup = false;
		for (size_t j = 0; j < i && !dup; j++)
			dup = !strcmp(d->tls[j].transport, d->tls[i].transport);
		if (!dup)
			strbuf_joinf_capped(b, LIST_CAP, ", ", "%s", d->tls[i].transport);
	}
}

/* The probe cut ucx_info -d at its cap: an absence in it proves nothing
 * (a pod's UCX_LOG_LEVEL=debug once flooded the listing this way). */
static bool listing_cut(struct ci_report *r, const struct nixl_facts *f,
			const struct check_desc *ck, const char *what)
{
	if (!f->ucx_d_t.capped)
		return false;
	struct ci_check *c =
		report_check_as(r, ck, CI_SKIPPED, true, ck->layer, "ucx_info -d",
				"the ucx_info -d listing was cut at the probe's cap before "
				"any %s: the rest was not collected, so it cannot tell",
				what);
	check_set_fix(c, "run the probe again with the current check_interconnect (it quiets "
			 "UCX_LOG_LEVEL for ucx_info), or look at `ucx_info -d` in the pod");
	return true;
}

/* The UCX NIXL loads is its wheel's when the wheel bundles one: judge the
 * modules that copy can load ({pkg}.libs/ucx/libuct_*, rules/nixl.c),
 * whatever the ucx_info on PATH (another copy) lists.  True when said. */
static bool wheel_module_missing(struct ci_report *r, const struct nixl_facts *f,
				 const struct check_desc *ck, enum nixl_ucx_module m,
				 const char *what)
{
	const struct node_facts *n = &f->node;
	if (f->backend != NB_UCX || !n->wheel_uct_listed || (n->wheel_uct_mask & (1u << m)))
		return false;
	struct ci_check *c = report_check(
		r, ck, CI_FAIL, n->wheel_uct_dir ? n->wheel_uct_dir : "NIXL wheel",
		"the UCX that NIXL loads (its wheel's bundled copy, %s) has no %s module: %s",
		n->wheel_uct_dir ? n->wheel_uct_dir : "{pkg}.libs/ucx", nixl_ucx_module_name(m),
		what);
	check_set_fix(c,
		      "install a NIXL wheel whose bundled UCX has %s (the cu12/cu13 build "
		      "matching the CUDA of the image), or point UCX_MODULE_DIR at a UCX "
		      "module directory that has it",
		      nixl_ucx_module_name(m));
	return true;
}

static void check_ucx_rdma(struct ci_report *r, const struct nixl_facts *f)
{
	if (wheel_module_missing(r, f, NIXL_CHECK(UCX_RDMA), NIXL_UCT_IB,
				 "no verbs transport, so KV would move over TCP"))
		return;
	if (ucx_unusable(r, f, NIXL_CHECK(UCX_RDMA), "ucx_info -d", true))
		return;
	const struct ucx_devices *d = &f->ucxd;
	struct ci_check *c;
	if (ucx_devices_has_rdma(d)) {
		struct strbuf b = STRBUF_INIT;
		list_rdma(d, &b);
		report_check(r, NIXL_CHECK(UCX_RDMA), CI_OK, "ucx_info -d",
			     "UCX sees RDMA transports: %s", b.buf);
		strbuf_release(&b);
		return;
	}
	if (listing_cut(r, f, NIXL_CHECK(UCX_RDMA), "RDMA transport"))
		return;
	struct strbuf all = STRBUF_INIT;
	list_names(d, &all);
	size_t nverbs = node_count_verbs_devs(&f->node);
	if (f->mnnvl && ucx_devices_has_transport(d, "cuda_ipc")) {
		report_check(r, NIXL_CHECK(UCX_RDMA), CI_OK, "ucx_info -d",
			     "no RDMA transport, but this is a multi-node NVLink system: cuda_ipc "
			     "carries KV across nodes (transports: %s)",
			     all.buf);
		strbuf_release(&all);
		return;
	}
	char why[256];
	/* The layer follows the cause, so fix_first points at the real fix:
	 * no NIC reachable is the fabric; NICs that this UCX cannot drive are
	 * a build problem (driver layer). */
	enum ci_layer layer = CI_LAYER_FABRIC;
	bool build_cause = f->ucxv.verbs == UCX_OPT_WITHOUT ||
			   (nverbs && !(f->node.have_dev && !f->node.n_uverbs));
	if (build_cause && !f->efa)
		layer = CI_LAYER_DRIVER;
	if (f->ucxv.verbs == UCX_OPT_WITHOUT)
		snprintf(why, sizeof(why), "UCX was configured --without-verbs");
	else if (nverbs && f->node.have_dev && !f->node.n_uverbs)
		snprintf(why, sizeof(why),
			 "%zu RDMA device%s in sysfs, but no /dev/infiniband/uverbs* "
			 "in the pod",
			 nverbs, nverbs == 1 ? "" : "s");
	else if (nverbs)
		snprintf(why, sizeof(why),
			 "%zu RDMA device%s in sysfs that UCX does not use (UCX "
			 "built without verbs/mlx5, or the ports are down)",
			 nverbs, nverbs == 1 ? "" : "s");
	else if (f->efa)
		snprintf(why, sizeof(why),
			 "EFA is reached through libfabric, not through this UCX");
	else
		snprintf(why, sizeof(why), "no RDMA device is visible here");
	c = report_check_as(r, NIXL_CHECK(UCX_RDMA), CI_FAIL, true, layer, "ucx_info -d",
			    "UCX has no RDMA transport here (only %s): KV would move over TCP; %s",
			    all.len ? all.buf : "nothing", why);
	strbuf_release(&all);
	if (f->efa)
		check_set_fix(
			c, "on EFA use NIXL's LIBFABRIC backend (UCX on EFA gives no GPUDirect)");
	else if (nverbs && f->node.have_dev && !f->node.n_uverbs)
		check_set_fix(c, "give the pod its NICs: request rdma/ib (or the cluster's RDMA "
				 "resource) so that /dev/infiniband is mounted");
	else if (build_cause)
		check_set_fix(c,
			      "use a UCX built with verbs/mlx5 (ucx_info -d must list rc_mlx5 or "
			      "dc_mlx5), e.g. the UCX of the Dynamo runtime images");
	else
		check_set_fix(
			c,
			"run on a node with RDMA NICs given to the pod (rdma/ib resource), "
			"with a UCX built with verbs/mlx5 (ucx_info -d must list rc_mlx5 or dc_mlx5)");
}

/* The RDMA memory domains list host memory only: host staging, judged as
 * node.gpudirect judges it; the fix follows what the node side shows, so
 * that it never says "load nvidia_peermem" when peermem is registered. */
static void host_staging(struct ci_report *r, const struct nixl_facts *f, const char *mds,
			 size_t n_host)
{
	struct ci_check *c;
	/* Host staging: node.gpudirect's status and words (one rule). */
	struct gdr_view gv;
	node_gpudirect_view(&f->node, &gv);
	c = report_check(r, NIXL_CHECK(UCX_GPUDIRECT), node_host_staging_status(), "ucx_info -d",
			 "the RDMA memory domain%s %s list%s only host memory: %s",
			 n_host == 1 ? "" : "s", mds, n_host == 1 ? "s" : "",
			 node_host_staging_words());
	const char *gdr = nixl_env(f, "UCX_IB_GPU_DIRECT_RDMA");
	bool gdr_off = ucx_value_off(gdr);
	if (gdr_off) {
		check_set_fix(c, "UCX_IB_GPU_DIRECT_RDMA=%s turns GPUDirect off in UCX: unset it",
			      gdr);
	} else if (gv.mode == GDR_MODE_PEERMEM || gv.mode == GDR_MODE_EFA_PEERMEM ||
		   gv.mode == GDR_MODE_DMABUF || gv.mode == GDR_MODE_PEERMEM_BARE) {
		/* The kernel side is ready: the cause is in UCX. */
		check_set_fix(
			c,
			"the node side is ready (%s), so look at UCX: its IB module built "
			"without CUDA support (rebuild --with-cuda), or the ucx_info on PATH is not "
			"the UCX NIXL loads (the wheel bundles its own)",
			gv.name);
	} else {
		if (*gv.fix)
			check_set_fix(c, "%s", gv.fix);
		else
			check_set_fix(
				c,
				"enable GPUDirect RDMA on the node: load nvidia_peermem, or use "
				"DMA-BUF (NVIDIA open kernel module, kernel >= 5.12, UCX >= %s)",
				ucx_rule(UCX_MIN_DMABUF)->text);
	}
}

static void check_ucx_gpudirect(struct ci_report *r, const struct nixl_facts *f)
{
	if (ucx_unusable(r, f, NIXL_CHECK(UCX_GPUDIRECT), "ucx_info -d", true))
		return;
	const struct ucx_devices *d = &f->ucxd;
	if (!ucx_devices_has_rdma(d)) {
		report_na(r, NIXL_CHECK(UCX_GPUDIRECT), "ucx_info -d",
			  "no RDMA memory domain to look at (see nixl.ucx.rdma)");
		return;
	}
	struct strbuf cuda = STRBUF_INIT, host = STRBUF_INIT;
	size_t typed = 0, n_cuda = 0, n_host = 0;
	for (size_t i = 0; i < d->nmds; i++) {
		const struct ucx_md *md = &d->mds[i];
		bool rdma = md->component && !strcmp(md->component, "ib");
		for (size_t j = 0; j < d->ntls && !rdma; j++)
			rdma = d->tls[j].md && !strcmp(d->tls[j].md, md->name) &&
			       ucx_tl_is_rdma(d->tls[j].transport);
		if (!rdma || md->no_devices)
			continue;
		if (md->nmem_types)
			typed++;
		if (ucx_md_has_mem_type(md, "cuda")) {
			n_cuda++;
			strbuf_joinf_capped(&cuda, LIST_CAP, ", ", "%s", md->name);
		} else if (md->nmem_types) {
			n_host++;
			strbuf_joinf_capped(&host, LIST_CAP, ", ", "%s", md->name);
		}
	}
	const char *gdr = nixl_env(f, "UCX_IB_GPU_DIRECT_RDMA");
	if (n_cuda && ucx_value_off(gdr)) {
		/* rules/ucx.c: the variable turns the CUDA registration off in the
		 * worker, whatever this listing (taken without it) shows */
		const struct ucx_value_rule *vr = ucx_value_rule(UCX_VR_GDR_OFF);
		struct ci_check *c = report_check(
			r, NIXL_CHECK(UCX_GPUDIRECT), (enum ci_status)vr->status,
			"UCX_IB_GPU_DIRECT_RDMA", "UCX_IB_GPU_DIRECT_RDMA=%s: %s", gdr, vr->what);
		check_set_fix(c, "%s", vr->fix);
	} else if (n_cuda) {
		struct ci_check *c = report_check(
			r, NIXL_CHECK(UCX_GPUDIRECT), CI_OK, "ucx_info -d",
			"GPUDirect RDMA inside UCX: the memory domain%s %s list%s cuda memory",
			n_cuda == 1 ? "" : "s", cuda.buf, n_cuda == 1 ? "s" : "");
		if (n_host)
			check_add_evidence(c, "host memory only: %s", host.buf);
	} else if (!typed) {
		report_na(r, NIXL_CHECK(UCX_GPUDIRECT), "ucx_info -d",
			  "this UCX prints no memory types for its RDMA memory domains: GPUDirect "
			  "inside UCX cannot be read (node.gpudirect shows the kernel side)");
	} else if (!listing_cut(r, f, NIXL_CHECK(UCX_GPUDIRECT),
				"memory domain with cuda memory")) {
		host_staging(r, f, host.buf, n_host);
	}
	strbuf_release(&cuda);
	strbuf_release(&host);
}

static void check_ucx_cuda(struct ci_report *r, const struct nixl_facts *f)
{
	struct ci_check *c;
	if (wheel_module_missing(r, f, NIXL_CHECK(UCX_CUDA), NIXL_UCT_CUDA,
				 "no cuda_copy/cuda_ipc, so VRAM is classified as host memory and "
				 "NIXL's memReg fails (NIXL_ERR_BACKEND)"))
		return;
	/* UCX's own log says its CUDA module did not load: that is an answer,
	 * whatever else the listing holds (even nothing). */
	if (f->backend == NB_UCX && f->ucx_cuda_missing) {
		bool gpu = node_has_gpu(&f->node);
		c = report_check(
			r, NIXL_CHECK(UCX_CUDA), gpu ? CI_FAIL : CI_WARN, "ucx_info -d",
			"UCX without CUDA support: its CUDA module failed to load, so there is "
			"no cuda_copy/cuda_ipc and VRAM is treated as host memory%s",
			gpu ? "" : " (no GPU is visible here)");
		check_add_evidence(c, "%s", f->ucx_cuda_missing);
		check_set_fix(
			c, "install UCX's CUDA module (libuct_cuda.so, e.g. the ucx-cuda package "
			   "or a UCX built --with-cuda) and the CUDA runtime it links against");
		return;
	}
	if (ucx_unusable(r, f, NIXL_CHECK(UCX_CUDA), "ucx_info -d", true))
		return;
	const struct ucx_devices *d = &f->ucxd;
	bool copy = ucx_devices_has_transport(d, "cuda_copy");
	bool ipc = ucx_devices_has_transport(d, "cuda_ipc");
	bool gdr = ucx_devices_has_transport(d, "gdr_copy");
	if (!copy && listing_cut(r, f, NIXL_CHECK(UCX_CUDA), "cuda_copy transport"))
		return;
	if (!copy) {
		bool gpu = node_has_gpu(&f->node);
		c = report_check(
			r, NIXL_CHECK(UCX_CUDA), gpu ? CI_FAIL : CI_WARN, "ucx_info -d",
			"no cuda_copy transport%s: UCX cannot move GPU memory, NIXL fails to "
			"register VRAM (NIXL_ERR_BACKEND)%s",
			ipc ? "" : " and no cuda_ipc",
			gpu ? "" : "; no GPU is visible here, which may be the only reason");
		check_set_fix(c,
			      "use a UCX built --with-cuda whose CUDA module loads (libuct_cuda; "
			      "run ucx_info -d with UCX_LOG_LEVEL=debug to see why it does not)");
		return;
	}
	if (!ipc && f->mnnvl) {
		c = report_check(
			r, NIXL_CHECK(UCX_CUDA), CI_FAIL, "ucx_info -d",
			"cuda_copy present but no cuda_ipc on a multi-node NVLink system: KV "
			"cannot cross nodes over NVLink");
		check_set_fix(
			c, "use a UCX whose cuda_ipc supports MNNVL (UCX_CUDA_IPC_ENABLE_MNNVL=y)");
		return;
	}
	report_check(r, NIXL_CHECK(UCX_CUDA), CI_OK, "ucx_info -d",
		     "cuda_copy%s%s present: UCX moves GPU memory%s", ipc ? ", cuda_ipc" : "",
		     gdr ? ", gdr_copy" : "",
		     ipc ? "" : " (no cuda_ipc: only within-process copies)");
}

/* What UCX_TLS and UCX_NET_DEVICES leave of the RDMA transports UCX lists. */
struct ucx_filtered {
	const char *tls, *nd, *subj;
	size_t n_rdma;
	struct strbuf use, cut; /* "rc_mlx5/mlx5_0:1", "tcp/eth0 (UCX_TLS)" */
	bool copy_ok, ipc_ok;
	bool twice; /* UCX_NET_DEVICES names dup twice */
	char dup[UCX_TLS_MAX_ENTRY];
};

static void filters_gather(const struct nixl_facts *f, struct ucx_filtered *u)
{
	const struct ucx_devices *d = &f->ucxd;
	u->twice = u->nd && ucx_net_devices_duplicate(u->nd, u->dup, sizeof(u->dup));
	for (size_t i = 0; i < d->ntls; i++) {
		const struct ucx_tl *tl = &d->tls[i];
		if (!ucx_tl_is_rdma(tl->transport))
			continue;
		u->n_rdma++;
		bool t_ok = ucx_tls_allows(u->tls, tl->transport);
		bool d_ok = !nixl_tl_is_network(tl) || ucx_net_devices_allows(u->nd, tl->device);
		const char *dev = tl->device ? tl->device : "?";
		if (t_ok && d_ok)
			strbuf_joinf_capped(&u->use, LIST_CAP, ", ", "%s/%s", tl->transport, dev);
		else
			strbuf_joinf_capped(&u->cut, LIST_CAP, ", ", "%s/%s (%s)", tl->transport,
					    dev, !t_ok ? "UCX_TLS" : "UCX_NET_DEVICES");
	}
	bool copy_listed = ucx_devices_has_transport(d, "cuda_copy");
	u->copy_ok = !copy_listed || ucx_tls_allows(u->tls, "cuda_copy");
	u->ipc_ok = ucx_tls_allows(u->tls, "cuda_ipc") && ucx_devices_has_transport(d, "cuda_ipc");
}

static void filters_evidence(struct ci_check *c, const struct ucx_filtered *u)
{
	if (u->tls)
		check_add_evidence(c, "UCX_TLS=%s", u->tls);
	if (u->nd)
		check_add_evidence(c, "UCX_NET_DEVICES=%s", u->nd);
}

static void filters_say(struct ci_report *r, const struct nixl_facts *f,
			const struct ucx_filtered *u)
{
	const struct check_desc *ck = NIXL_CHECK(UCX_FILTERS);
	struct ci_check *c = NULL;
	if (!u->n_rdma) {
		if (f->mnnvl && u->ipc_ok)
			c = report_check(
				r, ck, CI_OK, u->subj,
				"the filters keep cuda_ipc, which carries KV across nodes on "
				"this multi-node NVLink system");
		else
			report_na(r, ck, u->subj,
				  "UCX lists no RDMA transport for the filters to keep (see "
				  "nixl.ucx.rdma)");
	} else if (!u->use.len && !(f->mnnvl && u->ipc_ok)) {
		c = report_check(r, ck, CI_FAIL, u->subj,
				 "the environment filters leave no RDMA transport of the %zu UCX "
				 "lists: KV would move over TCP or fail",
				 u->n_rdma);
		filters_evidence(c, u);
		check_add_evidence(c, "removed: %s", u->cut.buf);
		check_set_fix(c,
			      "allow RDMA in UCX_TLS (e.g. rc_x,rc,cuda_copy,cuda_ipc, or leave it "
			      "unset) and name devices ucx_info -d lists in UCX_NET_DEVICES "
			      "(dev:port, e.g. mlx5_0:1)");
	} else if (!u->copy_ok) {
		/* rules/ucx.c: the same row node.env.ucx.tls and env.ucx.tls judge */
		const struct ucx_value_rule *vr = ucx_value_rule(UCX_VR_TLS_NO_CUDA_COPY);
		c = report_check(r, ck, (enum ci_status)vr->status, u->subj,
				 "UCX_TLS=%s leaves out cuda_copy: %s", u->tls, vr->what);
		check_set_fix(c, "%s", vr->fix);
	} else {
		c = report_check(r, ck, CI_OK, u->subj, "the environment filters keep RDMA: %s",
				 u->use.buf);
		filters_evidence(c, u);
		if (u->cut.len)
			check_add_evidence(c, "filtered out: %s", u->cut.buf);
	}
	/* UCX warns and uses the device once: a copy-paste, not a fault */
	if (u->twice && c)
		check_add_evidence(c,
				   "UCX_NET_DEVICES names %s twice: UCX warns \"device '%s' is "
				   "specified multiple times\" and uses it once",
				   u->dup, u->dup);
}

/* UCX matches devices against a 64-bit mask and aborts above that many
 * entries; true when that was reported. */
static bool filters_too_many(struct ci_report *r, const char *nd)
{
	size_t nnd = nd ? ucx_net_devices_count(nd) : 0;
	if (nnd <= UCX_NET_DEVICES_MAX)
		return false;
	struct ci_check *big = report_check(
		r, NIXL_CHECK(UCX_FILTERS), CI_FAIL, "UCX_NET_DEVICES",
		"UCX_NET_DEVICES has %zu entries: UCX matches devices against a 64-bit mask "
		"and aborts above %d (ucs_assert_always in ucp_is_resource_in_device_list)",
		nnd, UCX_NET_DEVICES_MAX);
	check_set_fix(big,
		      "name at most %d devices (dev:port) in UCX_NET_DEVICES, or "
		      "leave it unset",
		      UCX_NET_DEVICES_MAX);
	return true;
}

/* On multi-node NVLink, UCX_TLS without cuda_ipc moves KV off NVLink (onto
 * the NIC, or nowhere): node.env.ucx.tls's rule decides, so both verbs give
 * one status (ai-dynamo/nixl#1110, "failed to select lane").  True when it
 * said so. */
static bool mnnvl_tls_cut(struct ci_report *r, const struct nixl_facts *f)
{
	if (!node_mnnvl(&f->node))
		return false;
	struct varrule_res res;
	if (!node_ucx_tls_judge(&f->node, &res))
		return false;
	bool said = false;
	for (size_t i = 0; i < res.n_note && !said; i++) {
		const struct varrule_note *no = &res.note[i];
		if (no->st != CI_WARN && no->st != CI_FAIL)
			continue;
		struct ci_check *c =
			report_check(r, NIXL_CHECK(UCX_FILTERS), no->st, "UCX_TLS", "%s", no->msg);
		if (no->fix)
			check_set_fix(c, "%s", no->fix);
		said = true;
	}
	varrule_res_release(&res);
	return said;
}

static void check_ucx_filters(struct ci_report *r, const struct nixl_facts *f)
{
	if (ucx_unusable(r, f, NIXL_CHECK(UCX_FILTERS), "UCX_TLS", true))
		return;
	struct ucx_filtered u = {.tls = nixl_env(f, "UCX_TLS"),
				 .nd = nixl_env(f, "UCX_NET_DEVICES"),
				 .use = STRBUF_INIT,
				 .cut = STRBUF_INIT};
	if (!u.tls && !u.nd) {
		report_check(
			r, NIXL_CHECK(UCX_FILTERS), CI_OK, "UCX_TLS",
			"UCX_TLS and UCX_NET_DEVICES are unset: UCX may use every transport it "
			"lists");
		return;
	}
	if (filters_too_many(r, u.nd))
		return;
	if (mnnvl_tls_cut(r, f))
		return;
	u.subj = u.tls && u.nd ? "UCX_TLS, UCX_NET_DEVICES" : u.tls ? "UCX_TLS" : "UCX_NET_DEVICES";
	filters_gather(f, &u);
	filters_say(r, f, &u);
	strbuf_release(&u.use);
	strbuf_release(&u.cut);
}

/* ---- peer and reachability ---- */

static void check_peer(struct ci_report *r, const struct nixl_facts *f, const struct nixl_target *t)
{
	struct ci_check *c;
	if (f->efa && t->peer && t->pod_node && t->peer_node &&
	    !strcmp(t->pod_node, t->peer_node)) {
		/* EFA moves data between nodes only: a same-node pair retries
		 * forever (fi_read EAGAIN), in the test and in serving. */
		c = report_check_as(r, NIXL_CHECK(PEER), CI_WARN, false, CI_LAYER_FABRIC, t->peer,
				    "%s; on EFA a pair on one node (%s) fails with EAGAIN",
				    t->peer_why ? t->peer_why : t->peer, t->pod_node);
		check_set_fix(c, "keep prefill and decode on different nodes (pod anti-affinity), "
				 "and pass --peer with a pod on another node");
		return;
	}
	switch (t->peer_state) {
	case PEER_GIVEN:
		report_check(r, NIXL_CHECK(PEER), CI_OK, t->peer, "peer %s, given with --peer",
			     t->peer);
		break;
	case PEER_FOUND:
		report_check(r, NIXL_CHECK(PEER), CI_OK, t->peer, "%s",
			     t->peer_why ? t->peer_why : t->peer);
		break;
	case PEER_NOT_FOUND:
		c = report_check(r, NIXL_CHECK(PEER), CI_SKIPPED, "peer", "no peer found: %s",
				 t->peer_why ? t->peer_why : "");
		check_set_fix(c, "name the other side with --peer POD");
		break;
	case PEER_LOOKUP_FAILED:
		c = report_check(r, NIXL_CHECK(PEER), CI_SKIPPED, "peer",
				 "the peer could not be looked up: %s",
				 t->peer_why ? t->peer_why : "");
		check_set_fix(c, "name the other side with --peer POD");
		break;
	case PEER_NONE:
	default:
		report_check(r, NIXL_CHECK(PEER), CI_SKIPPED, "peer",
			     "no peer named (--peer HOST): the commands below use the placeholder "
			     "<peer-host>");
		break;
	}
}

static void check_reachability(struct ci_report *r, const struct nixl_target *t)
{
	const char *peer = t->peer ? t->peer : "the peer";
	/* Not critical on purpose: no read-only look can ever prove it, so a
	 * critical skip would make every nixl verdict `unknown`.  The pair test
	 * in the next commands is the proof. */
	report_check(r, NIXL_CHECK(REACHABILITY), CI_SKIPPED, peer,
		     "not verified by a read-only check: only the pair test in the next commands "
		     "proves that KV reaches the peer over RDMA");
}

void nixl_analyze(struct ci_report *r, const struct nixl_facts *f, const struct nixl_target *t,
		  const char *subject)
{
	check_tools(r, f);
	check_python(r, f);
	check_plugins(r, f);
	check_backend(r, f);
	if (f->backend == NB_LIBFABRIC)
		check_libfabric(r, f);
	check_ucx_version(r, f);
	check_ucx_build(r, f);
	check_ucx_rdma(r, f);
	check_ucx_gpudirect(r, f);
	check_ucx_cuda(r, f);
	check_ucx_filters(r, f);
	/* What node judges of the same pod, under this verb's ids (one fact,
	 * one status): the memlock limit NIXL's registrations are charged to,
	 * and on GPUs the fabric model says have an NVLink fabric, its state
	 * (not Completed: CUDA cannot start, error 802) and the IMEX channel
	 * UCX's cuda_ipc needs across nodes. */
	struct fabric_model m;
	node_fabric(&f->node, &m);
	if (!t->node_judged)
		node_check_memlock_as(r, &f->node, NIXL_CHECK(MEMLOCK));
	if (!t->node_judged && m.nvswitch_class)
		node_check_nvlink_fabric_as(r, &f->node, NIXL_CHECK(NVLINK_FABRIC));
	if (!t->node_judged && m.mnnvl_domain)
		node_check_imex_as(r, &f->node, NIXL_CHECK(MNNVL_IMEX));
	node_check_kv_env(r, &f->node, NIXL_CHECK(ENV_KV));
	check_peer(r, f, t);
	check_reachability(r, t);
	node_report_env_facts(r, &f->node, subject);
}
