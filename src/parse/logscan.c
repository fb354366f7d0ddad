/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/logscan.h"

#include <stdlib.h>
#include <string.h>

#include "core/redact.h"
#include "core/xalloc.h"
#include "parse/lines.h"

#define EVIDENCE_MAX 300

struct pattern {
	enum log_symptom sym;
	const char *needle[4]; /* any of them (NULL-terminated) */
	const char *unless;    /* the line must not contain this */
};

/* Case-sensitive: these are fixed strings printed by the libraries. */
static const struct pattern patterns[] = {
	{LOG_NCCL_NET_SOCKET,
	 {"Using network Socket", "NET/Socket : Using", "via NET/Socket", NULL},
	 NULL},
	{LOG_NCCL_NET_IB, {"Using network IB", "NET/IB : Using [", NULL}, NULL},
	{LOG_NCCL_NET_OFI,
	 {"Using network AWS Libfabric", "NET/OFI Selected Provider", NULL},
	 NULL},
	{LOG_NCCL_IB_NO_DEVICE, {"NET/IB : No device found", NULL}, NULL},
	{LOG_NCCL_IB_OPEN_FAILED,
	 {"Call to ibv_open_device failed", "NET/IB : Unable to open device", NULL},
	 NULL},
	{LOG_NCCL_LIBIBVERBS_MISSING, {"Failed to open libibverbs", NULL}, NULL},
	{LOG_NCCL_IB_DISABLED, {"NCCL_IB_DISABLE set by environment to 1", NULL}, NULL},
	{LOG_NCCL_GDR_DISABLED, {"GPU Direct RDMA Disabled for HCA", NULL}, NULL},
	{LOG_NCCL_GDRDMA_USED, {"/GDRDMA", NULL}, NULL},
	{LOG_NCCL_NET_IB_NO_GDR, {"via NET/IB/", "via NET/IBext/", NULL}, "GDRDMA"},
	{LOG_NCCL_P2P, {"via P2P/", NULL}, NULL},
	{LOG_NCCL_MNNVL, {"MNNVL busId", NULL}, NULL},
	{LOG_UCX_NO_IB_PORTS, {"no compatible IB ports found", NULL}, NULL},
	{LOG_UCX_GDR_DISABLED,
	 {"cuda GPUDirect RDMA is disabled", "cuda GPUDirect RDMA is not detected", NULL},
	 NULL},
	{LOG_UCX_DMABUF_SUPPORTED, {"dmabuf is supported", NULL}, "not supported"},
	{LOG_UCX_DEVICE_UNAVAILABLE, {"network device '", NULL}, NULL},
	{LOG_UCX_TRANSPORT_UNAVAILABLE, {"transport '", NULL}, NULL},
	{LOG_UCX_VERSION_MISMATCH, {"UCP version is incompatible", NULL}, NULL},
	{LOG_UCX_UNREACHABLE,
	 {"Destination is unreachable", "failed: Connection refused", NULL},
	 NULL},
	{LOG_UCX_NO_AM_TRANSPORT, {"no active messages transport", NULL}, NULL},
	{LOG_UCX_CUDA_MODULE_MISSING, {"libuct_cuda.so", NULL}, NULL},
	{LOG_NIXL_ERR_BACKEND, {"NIXL_ERR_BACKEND", NULL}, NULL},
	{LOG_NIXL_REMOTE_DISCONNECT, {"NIXL_ERR_REMOTE_DISCONNECT", NULL}, NULL},
	{LOG_NIXL_BACKEND_NOT_FOUND,
	 {"getPluginParams: backend", "createBackend: unsupported backend", "createBackend failed",
	  NULL},
	 NULL},
	{LOG_NIXL_ETCD_STALE,
	 {"is greater than or equal to global size", "Failed to setup ETCD runtime", NULL},
	 NULL},
	{LOG_PEERMEM_NOT_DETECTED,
	 {"peer memory driver not", "Module nvidia_peermem not found", NULL},
	 NULL},
	{LOG_SHM_DEFAULT_64MB,
	 {"SHMEM allocation limit is set to the default of 64MB", NULL},
	 NULL},
	{LOG_PEERMEM_LOAD_FAILED,
	 {"could not insert 'nvidia_peermem'", "nvidia_peermem: Unknown symbol", NULL},
	 NULL},
	{LOG_RDMA_NO_DEVICE,
	 {"Did not detect devices", "Unable to find the Infiniband/RoCE device", NULL},
	 NULL},
	{LOG_UCX_MEMLOCK, {"max locked memory (ulimit -l)", NULL}, NULL},
	{LOG_UCX_NO_USABLE_TRANSPORT, {"no usable transports", NULL}, NULL},
	/* Mooncake's transfer engine (kvcache-ai/Mooncake, mooncake-transfer-engine/
	 * src/transport/rpc_communicator/rpc_communicator.cpp, v0.3.8 on):
	 * LOG(WARNING) after the RDMA set-up of its RPC server fails
	 * (MC_RPC_PROTOCOL=rdma), whose data transfers then go over TCP.  No
	 * UCX, NCCL, NIXL, aws-ofi-nccl or libfabric tag prints "falling back
	 * to TCP" or "fallback to TCP". */
	{LOG_TCP_FALLBACK, {"Falling back to TCP mode", NULL}, NULL},
};

/* Extra conditions a needle alone cannot express. */
static bool extra_ok(enum log_symptom sym, const char *l)
{
	switch (sym) {
	case LOG_UCX_DEVICE_UNAVAILABLE:
	case LOG_UCX_TRANSPORT_UNAVAILABLE: return strstr(l, "is not available") != NULL;
	case LOG_UCX_CUDA_MODULE_MISSING:
		return strstr(l, "failed") != NULL || strstr(l, "cannot open") != NULL;
	default: return true;
	}
}

/* One of the pattern's needles is in s, its exception is not, and its
 * symptom's extra condition holds. */
static bool pattern_matches(const struct pattern *pt, const char *s)
{
	size_t k;
	for (k = 0; k < 4 && pt->needle[k]; k++)
		if (strstr(s, pt->needle[k]))
			break;
	if (k == 4 || !pt->needle[k])
		return false;
	if (pt->unless && strstr(s, pt->unless))
		return false;
	return extra_ok(pt->sym, s);
}

bool logscan_line_known(const char *s)
{
	for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++)
		if (pattern_matches(&patterns[p], s))
			return true;
	return false;
}

static void add(struct logscan *out, enum log_symptom sym, const char *line, size_t lineno)
{
	size_t i;
	struct log_finding *f;

	for (i = 0; i < out->n; i++)
		if (out->v[i].sym == sym) {
			out->v[i].count++;
			return;
		}
	f = XPUSH(out->v, out->n, out->cap);
	f->sym = sym;
	/* Redacted before the cut (core/redact.h): a URL's '@' or a
	 * password may lie past EVIDENCE_MAX bytes, and a cut line would
	 * no longer show it as one.  core xstrndup copies exactly n bytes:
	 * bound by the real length. */
	char *clean = redact_text(line);
	f->evidence = xstrndup(clean, strnlen(clean, EVIDENCE_MAX));
	free(clean);
	f->lineno = lineno;
	f->count = 1;
}

int logscan_parse(const char *buf, size_t len, struct logscan *out)
{
	struct lines it;
	char *l;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		const char *s = str_skip_ws(l);
		if (!*s)
			continue;
		for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++)
			if (pattern_matches(&patterns[p], s))
				add(out, patterns[p].sym, s, it.lineno);
	}
	lines_release(&it);
	return out->n ? 0 : -1;
}

void logscan_release(struct logscan *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].evidence);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

const struct log_finding *logscan_get(const struct logscan *l, enum log_symptom sym)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i].sym == sym)
			return &l->v[i];
	return NULL;
}

const char *log_symptom_name(enum log_symptom sym)
{
	static const char *const n[LOG_SYMPTOM_COUNT] = {
		[LOG_NCCL_NET_SOCKET] = "nccl.net_socket",
		[LOG_NCCL_NET_IB] = "nccl.net_ib",
		[LOG_NCCL_NET_OFI] = "nccl.net_ofi",
		[LOG_NCCL_IB_NO_DEVICE] = "nccl.ib_no_device",
		[LOG_NCCL_IB_OPEN_FAILED] = "nccl.ib_open_failed",
		[LOG_NCCL_LIBIBVERBS_MISSING] = "nccl.libibverbs_missing",
		[LOG_NCCL_IB_DISABLED] = "nccl.ib_disabled",
		[LOG_NCCL_GDR_DISABLED] = "nccl.gdr_disabled",
		[LOG_NCCL_GDRDMA_USED] = "nccl.gdrdma_used",
		[LOG_NCCL_NET_IB_NO_GDR] = "nccl.net_ib_no_gdr",
		[LOG_NCCL_P2P] = "nccl.p2p",
		[LOG_NCCL_MNNVL] = "nccl.mnnvl",
		[LOG_UCX_NO_IB_PORTS] = "ucx.no_ib_ports",
		[LOG_UCX_GDR_DISABLED] = "ucx.gdr_disabled",
		[LOG_UCX_DMABUF_SUPPORTED] = "ucx.dmabuf_supported",
		[LOG_UCX_DEVICE_UNAVAILABLE] = "ucx.device_unavailable",
		[LOG_UCX_TRANSPORT_UNAVAILABLE] = "ucx.transport_unavailable",
		[LOG_UCX_VERSION_MISMATCH] = "ucx.version_mismatch",
		[LOG_UCX_UNREACHABLE] = "ucx.unreachable",
		[LOG_UCX_NO_AM_TRANSPORT] = "ucx.no_am_transport",
		[LOG_UCX_CUDA_MODULE_MISSING] = "ucx.cuda_module_missing",
		[LOG_NIXL_ERR_BACKEND] = "nixl.err_backend",
		[LOG_NIXL_REMOTE_DISCONNECT] = "nixl.remote_disconnect",
		[LOG_NIXL_BACKEND_NOT_FOUND] = "nixl.backend_not_found",
		[LOG_NIXL_ETCD_STALE] = "nixl.etcd_stale",
		[LOG_PEERMEM_NOT_DETECTED] = "gpu.peermem_not_detected",
		[LOG_SHM_DEFAULT_64MB] = "container.shm_64mb",
		[LOG_PEERMEM_LOAD_FAILED] = "gpu.peermem_load_failed",
		[LOG_RDMA_NO_DEVICE] = "rdma.no_device",
		[LOG_UCX_MEMLOCK] = "ucx.memlock",
		[LOG_UCX_NO_USABLE_TRANSPORT] = "ucx.no_usable_transport",
		[LOG_TCP_FALLBACK] = "tcp_fallback",
	};
	return (unsigned)sym < LOG_SYMPTOM_COUNT && n[sym] ? n[sym] : "unknown";
}
