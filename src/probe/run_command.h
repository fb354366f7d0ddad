/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Run one process from an argv (never through a shell), capture its stdout
 * and stderr up to a cap each, feed it optional stdin, and stop it at a
 * deadline.  Thread-safe: no SIGCHLD, and the only process-wide state is
 * the optional signal handling below (run_signals_install); every
 * descriptor is close-on-exec, so concurrent calls (the fleet fan-out runs
 * up to --jobs of them) never leak pipes into each other's children.
 *
 * The child is made the leader of a new process group; at the deadline the
 * whole group gets SIGTERM, then SIGKILL after RUN_KILL_GRACE_MS, and the
 * child is reaped before the call returns.  Members that left the group
 * (setsid) escape; the probe script never does that.
 */
#ifndef CI_RUN_COMMAND_H
#define CI_RUN_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#define RUN_STDOUT_CAP    (4u << 20)
#define RUN_STDERR_CAP    (64u << 10)
#define RUN_KILL_GRACE_MS 200

enum run_status {
	RUN_EXITED = 0,     /* exit_code is valid */
	RUN_SIGNALED,       /* term_signal is valid (and it was not us) */
	RUN_TIMED_OUT,      /* the deadline passed; the group was killed */
	RUN_NOT_FOUND,      /* argv[0] does not exist (ENOENT/ENOTDIR) */
	RUN_NOT_EXECUTABLE, /* argv[0] exists but cannot be run (EACCES, ENOEXEC, ...) */
	RUN_SPAWN_FAILED,   /* anything else (pipes, fork): spawn_errno */
};

struct run_request {
	const char *const
		*argv;          /* argv[0] is looked up in PATH (like execvp) unless it has a '/' */
	const char *stdin_data; /* NULL: the child's stdin is /dev/null */
	size_t stdin_len;
	/* Absolute deadline on run_now()'s clock; <= 0: none. */
	double deadline;
	size_t stdout_cap, stderr_cap; /* 0: the RUN_*_CAP defaults */
	/* Keep the NEWEST stdout_cap bytes of stdout rather than the first
	 * (a log, whose last lines matter most); out_capped says older bytes
	 * were dropped.  The buffer holds at most twice the cap. */
	bool stdout_keep_tail;
};

struct run_result {
	enum run_status status;
	int exit_code;   /* RUN_EXITED */
	int term_signal; /* RUN_SIGNALED; or the signal that ended a timed-out child */
	bool timed_out;
	bool interrupted; /* a signal came (run_signals_install); the group was killed */
	int spawn_errno;  /* RUN_NOT_FOUND, RUN_NOT_EXECUTABLE, RUN_SPAWN_FAILED */
	char *out;        /* NUL-terminated; never NULL after run_command */
	size_t out_len;
	bool out_capped; /* more was written and drained, not kept (the
			  * oldest bytes, with stdout_keep_tail) */
	char *err;
	size_t err_len;
	bool err_capped;
	double elapsed_s;
};

/* Seconds on CLOCK_MONOTONIC: the clock for deadlines. */
double run_now(void);
/* Run req; fill res (always, also on failure: release it).  Returns 0 when
 * the process ran (exited, signalled or timed out), -1 when it could not
 * be started. */
int run_command(const struct run_request *req, struct run_result *res);
void run_result_release(struct run_result *res);

/* Catch SIGINT, SIGTERM, SIGHUP and SIGPIPE for the whole process (main
 * calls it once, first): on one, every running child's process group gets
 * SIGTERM, then SIGKILL after RUN_KILL_GRACE_MS, each child is reaped, and
 * the process exits with 128+signal (at once when no child is running).
 * The call that reaps the last child does the exit; no new child starts
 * after the signal.  0, or -1 with errno. */
int run_signals_install(void);

#endif
