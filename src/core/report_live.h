/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The live section of a report: the evidence of the path KV really took,
 * read from the running worker (src/live fills it; the renderers print it
 * as a section of its own, next to the checks it backs).  Absent (NULL in
 * struct ci_report) when the probe collected nothing live: a transcript
 * from an earlier version, a host without an engine, a verb that does not
 * look.
 */
#ifndef CI_REPORT_LIVE_H
#define CI_REPORT_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The path KV took, as the evidence says it. */
enum ci_live_path {
	CI_PATH_UNKNOWN = 0, /* not observed, or the bytes could not be attributed to KV */
	CI_PATH_RDMA,        /* NIXL's bytes went over the RDMA ports */
	CI_PATH_TCP,         /* NIXL's bytes went over the pod's kernel interfaces */
	CI_PATH_HOST_STAGING, /* over RDMA, but UCX had no CUDA transport: VRAM went through host memory */
	CI_PATH_LOCAL, /* NIXL moved bytes that neither left by RDMA nor by TCP (cuda_ipc, shm) */
	CI_PATH_IDLE,  /* nothing moved during the window */
	CI_PATH_LOOPBACK, /* over TCP on lo: both agents in the pod, KV left GPU memory */
	CI_PATH_MNNVL,    /* neither RDMA nor TCP, with an IMEX channel open: NVLink (cuda_ipc) */
	CI_PATH_SPOILED,  /* a counter the attribution needs was reset, wrapped or saturated */
};

struct ci_strv {
	char **v;
	size_t n, cap;
};

/* What moved through one RDMA port or one interface during the window. */
struct ci_live_bytes {
	char *name;    /* "mlx5_0", "rdmap16s27", "eth0" */
	unsigned port; /* RDMA port; 0 for an interface */
	uint64_t tx, rx;
};

struct ci_live_error {
	char *status; /* agent_errors_total's status label */
	double delta;
};

struct ci_live {
	/* the engine process and what it loaded and holds */
	bool found, readable;
	int pid;
	char *engine;               /* "dynamo.vllm", ...; NULL: pid 1 by position */
	char *comm;                 /* basename of argv[0] */
	char *how;                  /* "nixl", "cmdline", "pid1" */
	char *why;                  /* why not found / not readable; NULL */
	struct ci_strv plugins;     /* NIXL backends: "UCX", "LIBFABRIC" */
	struct ci_strv ucx_modules; /* libuct_* / libucm / libucp basenames */
	struct ci_strv ucx_dirs;    /* the folders libucp was mapped from (two: two UCX copies) */
	char *libfabric;            /* path of libfabric.so; NULL: not mapped */
	struct ci_strv providers;   /* libfabric providers seen mapped ("efa") */
	struct ci_strv descriptors; /* "/dev/infiniband/uverbs0", ... */

	bool logs; /* --logs: the worker's log was asked for */

	/* the window (--observe) */
	bool observed;
	double seconds;        /* measured, first sample to last */
	bool measured;         /* false: the samples had no clock, seconds is the window asked */
	uint64_t lo_tx, lo_rx; /* loopback, shown apart */
	bool have_lo;
	char *spoiled; /* the counters left out and why; NULL */
	struct ci_live_bytes *ports, *ifs;
	size_t n_ports, n_ifs;
	bool nixl; /* NIXL telemetry read at both ends */
	double nixl_tx, nixl_rx, nixl_errors;
	struct ci_live_error *errors;
	size_t n_errors;
	char *nixl_why; /* why there was no telemetry; NULL */

	/* the conclusion */
	enum ci_live_path path;
	char *conclusion; /* one line: the detail of the check that decided the path */
};

void ci_live_init(struct ci_live *l);
void ci_live_release(struct ci_live *l);
void ci_strv_add(struct ci_strv *sv, const char *s);
/* Add s unless it is already there. */
void ci_strv_add_unique(struct ci_strv *sv, const char *s);
struct ci_live_bytes *ci_live_add_port(struct ci_live *l, const char *name, unsigned port,
				       uint64_t tx, uint64_t rx);
struct ci_live_bytes *ci_live_add_if(struct ci_live *l, const char *name, uint64_t tx, uint64_t rx);
void ci_live_add_error(struct ci_live *l, const char *status, double delta);

/* "rdma", "tcp", "host-staging", "local", "idle", "loopback", "mnnvl",
 * "spoiled", "unknown": the JSON
 * value and the fleet matrix's live column. */
const char *ci_live_path_name(enum ci_live_path p);

#endif
