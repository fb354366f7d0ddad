/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `ucx_info` outputs.
 *
 * -v: "# Library version: 1.16.0", "# Library path: ...", "# API headers
 *     version: 1.16.0", "# Git branch '', revision e4bb802", "# Configured
 *     with: --prefix=... --with-cuda=/usr/local/cuda --with-gdrcopy=/usr".
 *     Verbs/mlx5 support is auto-detected, so its absence from the configure
 *     line proves nothing: only "--without-verbs" does.
 *
 * -d: blocks, every line starting with "#":
 *     "# Memory domain: mlx5_0" / "#     Component: ib" /
 *     "#         memory types: host (access,reg,cache), cuda (reg)" /
 *     "#      Transport: rc_mlx5" / "#         Device: mlx5_0:1" /
 *     "#           Type: network" / "#   < no supported devices found >" /
 *     "# Connection manager: rdmacm".
 *     With UCX_LOG_LEVEL=debug, "[ts] [host:pid:tid] file.c:N UCX DEBUG ..."
 *     lines are interleaved: they are counted and otherwise ignored.
 *
 * -c: "UCX_TLS=rc,cuda_copy" lines (values may be empty).
 */
#ifndef CI_PARSE_UCX_INFO_H
#define CI_PARSE_UCX_INFO_H

#include <stdbool.h>
#include <stddef.h>

enum ucx_opt {
	UCX_OPT_DEFAULT = 0, /* not on the configure line */
	UCX_OPT_WITH,        /* --with-X or --with-X=path */
	UCX_OPT_WITHOUT,     /* --without-X or --with-X=no */
};

struct ucx_version {
	char *version; /* "1.16.0" */
	unsigned major, minor, patch;
	char *library_path;
	char *api_version;
	char *revision;  /* "e4bb802" */
	char *configure; /* the "Configured with:" arguments */
	enum ucx_opt cuda, verbs, gdrcopy, rdmacm, efa, knem, xpmem, rocm, mlx5;
};

/* 0 when "Library version" was found; -1 otherwise. */
int ucx_version_parse(const char *buf, size_t len, struct ucx_version *out);
void ucx_version_release(struct ucx_version *v);
/* What the configure line says about `feature` ("cuda", "verbs", "efa"...). */
enum ucx_opt ucx_version_configured(const struct ucx_version *v, const char *feature);
/* version >= major.minor.patch (false when the version is unknown). */
bool ucx_version_at_least(const struct ucx_version *v, unsigned major, unsigned minor,
			  unsigned patch);

struct ucx_mem_type {
	char *name;  /* "host", "cuda", "cuda-managed", "rocm" */
	char *flags; /* "access,reg,cache"; "" when none */
};

struct ucx_md {
	char *name;      /* "mlx5_0", "cuda_cpy", "tcp", "self" */
	char *component; /* "ib", "cuda_cpy", ...; NULL if absent */
	struct ucx_mem_type *mem_types;
	size_t nmem_types, cap;
	bool no_devices; /* "< no supported devices found >" */
};

struct ucx_tl {
	char *transport; /* "rc_mlx5", "tcp", "cuda_copy" */
	char *device;    /* "mlx5_0:1", "ib0", "memory", "cuda" */
	char *md;        /* the memory domain it was listed under */
	char *type;      /* "network", "intra-node", "accelerator", "loopback"; NULL if absent */
};

struct ucx_devices {
	struct ucx_md *mds;
	size_t nmds, cap_mds;
	struct ucx_tl *tls;
	size_t ntls, cap_tls;
	char **cms; /* connection managers: "tcp", "rdmacm" */
	size_t ncms, cap_cms;
	size_t nlog_lines; /* interleaved UCX log lines ignored */
};

/* 0 when a "Memory domain" or "Transport" line was found; -1 otherwise. */
int ucx_devices_parse(const char *buf, size_t len, struct ucx_devices *out);
void ucx_devices_release(struct ucx_devices *d);

bool ucx_devices_has_transport(const struct ucx_devices *d, const char *tl);
bool ucx_devices_has_rdma(const struct ucx_devices *d);
/* Distinct RDMA transport names in listing order, into names[0..max);
 * returns how many (pointers into d, not owned). */
size_t ucx_devices_rdma_transports(const struct ucx_devices *d, const char **names, size_t max);
const struct ucx_md *ucx_devices_md(const struct ucx_devices *d, const char *name);
bool ucx_md_has_mem_type(const struct ucx_md *md, const char *type);
/* The memory domain of RDMA device `dev` ("mlx5_0", or "mlx5_0:1") lists
 * cuda memory: GPUDirect RDMA inside UCX.  False when dev is unknown. */
bool ucx_devices_md_has_cuda(const struct ucx_devices *d, const char *dev);
/* Any memory domain of component "ib" (or carrying RDMA transports) lists
 * cuda memory. */
bool ucx_devices_rdma_md_has_cuda(const struct ucx_devices *d);

#endif
