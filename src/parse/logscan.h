/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Classifier for transport logs a user pastes or a pod prints: NCCL_DEBUG=INFO,
 * UCX warnings/debug lines, NIXL/nixlbench errors and NGC container banners.
 * Each recognised symptom is reported once, with the first line that shows it
 * (the evidence) and its line number.  Prefixes added on the way (mpirun
 * "[1,0]<stdout>:", CloudWatch timestamps) do not matter: matching is by
 * substring.
 */
#ifndef CI_PARSE_LOGSCAN_H
#define CI_PARSE_LOGSCAN_H

#include <stdbool.h>
#include <stddef.h>

enum log_symptom {
	LOG_NCCL_NET_SOCKET =
		0, /* "Using network Socket" / "NET/Socket : Using": KV/collectives over TCP */
	LOG_NCCL_NET_IB,  /* "Using network IB"/"IBext", "NET/IB : Using [0]mlx5_0" */
	LOG_NCCL_NET_OFI, /* "Using network AWS Libfabric", "NET/OFI Selected Provider is efa" */
	LOG_NCCL_IB_NO_DEVICE,       /* "NET/IB : No device found." */
	LOG_NCCL_IB_OPEN_FAILED,     /* "Call to ibv_open_device failed", "Unable to open device" */
	LOG_NCCL_LIBIBVERBS_MISSING, /* "Failed to open libibverbs.so" */
	LOG_NCCL_IB_DISABLED,        /* "NCCL_IB_DISABLE set by environment to 1." */
	LOG_NCCL_GDR_DISABLED,       /* "GPU Direct RDMA Disabled for HCA" */
	LOG_NCCL_GDRDMA_USED,        /* "via NET/IB/<n>/GDRDMA" */
	LOG_NCCL_NET_IB_NO_GDR,      /* "via NET/IB/<n>" without /GDRDMA */
	LOG_NCCL_P2P,                /* "via P2P/..." (intra-node NVLink/PCIe P2P) */
	LOG_NCCL_MNNVL,              /* "MNNVL busId ... fabric UUID ... cliqueId" */
	LOG_UCX_NO_IB_PORTS,         /* "no compatible IB ports found" */
	LOG_UCX_GDR_DISABLED,        /* "cuda GPUDirect RDMA is disabled" / "is not detected" */
	LOG_UCX_DMABUF_SUPPORTED,    /* "dmabuf is supported" */
	LOG_UCX_DEVICE_UNAVAILABLE,  /* "network device 'x' is not available" */
	LOG_UCX_TRANSPORT_UNAVAILABLE, /* "transport 'x' is not available" */
	LOG_UCX_VERSION_MISMATCH,      /* "UCP version is incompatible" */
	LOG_UCX_UNREACHABLE,           /* "Destination is unreachable", "Connection refused" */
	LOG_UCX_NO_AM_TRANSPORT,       /* "no active messages transport" */
	LOG_UCX_CUDA_MODULE_MISSING,   /* dlopen of libuct_cuda failed */
	LOG_NIXL_ERR_BACKEND,          /* "NIXL_ERR_BACKEND" */
	LOG_NIXL_REMOTE_DISCONNECT,    /* "NIXL_ERR_REMOTE_DISCONNECT" */
	LOG_NIXL_BACKEND_NOT_FOUND, /* "backend 'UCX' not found", "unsupported backend", "createBackend failed" */
	LOG_NIXL_ETCD_STALE, /* "Rank N is greater than or equal to global size", "Failed to setup ETCD runtime" */
	LOG_PEERMEM_NOT_DETECTED, /* NGC banner "peer memory driver not detected", modprobe nvidia_peermem not found */
	LOG_SHM_DEFAULT_64MB, /* NGC banner "SHMEM allocation limit is set to the default of 64MB" */
	LOG_PEERMEM_LOAD_FAILED, /* "could not insert 'nvidia_peermem'", "nvidia_peermem: Unknown symbol" */
	LOG_RDMA_NO_DEVICE, /* perftest "Did not detect devices", "Unable to find the Infiniband/RoCE device" */
	LOG_UCX_MEMLOCK, /* UCX uct_ib_md: "Please set max locked memory (ulimit -l) to 'unlimited'" */
	LOG_UCX_NO_USABLE_TRANSPORT, /* "no usable transports" */
	LOG_TCP_FALLBACK,            /* Mooncake "Falling back to TCP mode" */
	LOG_SYMPTOM_COUNT
};

struct log_finding {
	enum log_symptom sym;
	char *evidence; /* the first matching line, trimmed, capped at 300 bytes */
	size_t lineno;  /* 1-based */
	size_t count;   /* matching lines */
};

struct logscan {
	struct log_finding *v; /* in order of first appearance */
	size_t n, cap;
};

/* 0 when at least one symptom was found; -1 otherwise (nothing recognised). */
int logscan_parse(const char *buf, size_t len, struct logscan *out);
void logscan_release(struct logscan *l);
const struct log_finding *logscan_get(const struct logscan *l, enum log_symptom sym);
const char *log_symptom_name(enum log_symptom sym); /* "nccl.net_socket", ... */
/* The line is one of the symptoms above (matching as logscan_parse does). */
bool logscan_line_known(const char *line);

#endif
