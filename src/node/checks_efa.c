/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EFA's userspace versions (libfabric, aws-ofi-nccl, the EFA installer) as
 * the pod shows them, judged by the rows of rules/efa.c.  node.efa and
 * nixl.libfabric print the same judgement, so both verbs give one status.
 */
#include <stdio.h>
#include <string.h>

#include "node/node_checks.h"
#include "rules/efa.h"

void node_efa_in(const struct node_facts *f, struct efa_in *in)
{
	memset(in, 0, sizeof(*in));
	/* What the fi_info on PATH loads: its efa provider's version is
	 * libfabric's own (OFI_VERSION_DEF_PROV); the package list second. */
	if (f->fi_t.state == TOOL_OK)
		for (size_t i = 0; i < f->fi.n && !in->libfabric.known; i++) {
			const struct fi_info_entry *e = &f->fi.v[i];
			if (!e->provider || strcmp(e->provider, "efa") || !e->version)
				continue;
			in->libfabric = efa_ver_from_provider(e->version);
			if (in->libfabric.known) {
				snprintf(in->libfabric_text, sizeof(in->libfabric_text), "%u.%u.%u",
					 in->libfabric.major, in->libfabric.minor,
					 in->libfabric.patch);
				snprintf(in->libfabric_how, sizeof(in->libfabric_how),
					 "fi_info -p efa: provider version %.32s", e->version);
			}
		}
	if (!in->libfabric.known && f->efa_pkg_libfabric) {
		in->libfabric = efa_ver_parse(f->efa_pkg_libfabric);
		snprintf(in->libfabric_text, sizeof(in->libfabric_text), "%s",
			 f->efa_pkg_libfabric);
		snprintf(in->libfabric_how, sizeof(in->libfabric_how), "%s",
			 "/opt/amazon/efa_installed_packages");
	}
	if (f->efa_pkg_ofi_nccl) {
		in->ofi_nccl = efa_ver_parse(f->efa_pkg_ofi_nccl);
		snprintf(in->ofi_nccl_text, sizeof(in->ofi_nccl_text), "%s", f->efa_pkg_ofi_nccl);
	}
	in->ofi_nccl_lib = f->ofi_nccl_lib;
	if (f->efa_installer)
		snprintf(in->installer, sizeof(in->installer), "%s", f->efa_installer);
	in->nixl = efa_ver_parse(f->nixl_pkg_version);
	in->nixl_absent = f->nixl_looked && !f->nixl_seen;
	const char *sm = node_env_get(f, "FI_EFA_SET_CUDA_SYNC_MEMOPS");
	in->sync_memops_off = sm && !strcmp(sm, "0");
}

void node_efa_judge(const struct node_facts *f, struct efa_judgement *j)
{
	struct efa_in in;
	node_efa_in(f, &in);
	efa_judge(&in, j);
}
