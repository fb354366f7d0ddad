/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EFA's userspace: the versions of libfabric and aws-ofi-nccl that the KV
 * path (NIXL's LIBFABRIC backend) and NCCL's EFA path (the aws-ofi-nccl net
 * plugin) need, and the known-bad ones, each row with its source (the
 * upstream file and release that state it; docs/checks.md cites the same).
 * Pure: plain numbers in, rows and one judgement out.
 */
#ifndef CI_RULES_EFA_H
#define CI_RULES_EFA_H

#include <stdbool.h>

#include "core/report.h"

/* A version as three numbers; known false when it could not be read. */
struct efa_ver {
	bool known;
	unsigned major, minor, patch;
};

enum efa_rule_id {
	/* NIXL's LIBFABRIC backend (from NIXL 0.8.0) asks fi_getinfo() for API
	 * 1.18; an older library answers -FI_ENOSYS: the backend cannot start */
	EFA_LF_NIXL_API = 0,
	/* NIXL 0.7.x asked for API 1.9 */
	EFA_LF_NIXL07_API,
	/* NIXL's documented minimum libfabric for the LIBFABRIC backend (from
	 * NIXL 0.9.0) */
	EFA_LF_NIXL_MIN,
	/* the efa provider sets CU_POINTER_ATTRIBUTE_SYNC_MEMOPS inside
	 * fi_mr_reg() from this release ... */
	EFA_LF_SYNC_MEMOPS_FROM,
	/* ... until this one (moved to the endpoint, on demand) */
	EFA_LF_SYNC_MEMOPS_FIXED,
	EFA_RULE_COUNT,
};

struct efa_rule {
	unsigned major, minor, patch;
	unsigned nixl_major, nixl_minor; /* NIXL releases the row holds for (from) */
	const char *text;                /* "1.21.0" */
	const char *source;              /* project, file, release */
};

const struct efa_rule *efa_rule(enum efa_rule_id id);

/* aws-ofi-nccl's own check (nccl_net_ofi_query_provider_capabilities):
 * from plugin release `from`, the efa provider is refused (-ENOTSUP) with a
 * libfabric older than `needs`. */
struct efa_ofi_row {
	unsigned from_major, from_minor;
	unsigned needs_major, needs_minor;
	const char *needs_text;
	const char *source;
};
/* The row that applies to plugin version v, or NULL (older plugins check
 * nothing at run time). */
const struct efa_ofi_row *efa_ofi_nccl_needs(const struct efa_ver *v);

/* "1.18.2amzn1.0", "1.19.0-1", "2.1.0": the leading numbers. */
struct efa_ver efa_ver_parse(const char *s);
/* The efa provider's version as `fi_info -p efa` prints it ("122.0",
 * "116.10", "201.0") is libfabric's own for an in-tree provider
 * (OFI_VERSION_DEF_PROV); older providers' "2.0" cannot be read so. */
struct efa_ver efa_ver_from_provider(const char *s);
int efa_ver_cmp(const struct efa_ver *a, unsigned major, unsigned minor, unsigned patch);

/* The package names the EFA installer lists in
 * /opt/amazon/efa_installed_packages: libfabric's runtime package, and
 * aws-ofi-nccl's (the installer's own package names). */
bool efa_pkg_is_libfabric(const char *name);
bool efa_pkg_is_ofi_nccl(const char *name);
/* A path of files:libs that is aws-ofi-nccl's plugin library. */
bool efa_ofi_nccl_lib(const char *path);

/* What a pod's image holds. */
struct efa_in {
	struct efa_ver libfabric;
	char libfabric_text[48]; /* as read, for the detail ("1.18.2amzn1.0") */
	char libfabric_how[96];  /* where: "fi_info -p efa, provider 118.20" */
	struct efa_ver ofi_nccl;
	char ofi_nccl_text[48];
	bool ofi_nccl_lib;    /* the plugin library is in the image (version unread) */
	char installer[32];   /* "1.28.0", or "" */
	bool sync_memops_off; /* FI_EFA_SET_CUDA_SYNC_MEMOPS=0 */
	struct efa_ver nixl;  /* the image's NIXL release; unknown: the newest rows */
	bool nixl_absent;     /* NIXL's install places were read and hold no NIXL */
};

/* The one judgement both `node` and `nixl` print: CI_OK, CI_WARN, CI_FAIL,
 * or CI_SKIPPED when no libfabric version could be read. */
struct efa_judgement {
	enum ci_status st;
	char detail[640];
	char fix[400];
};
void efa_judge(const struct efa_in *in, struct efa_judgement *out);

#endif
