/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One child process, bounded in time and output.  See run_command.h for the
 * contract; the comments here say why it is done this way.
 */
#include "probe/run_command.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/render.h"
#include "core/xalloc.h"

extern char **environ;

double run_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void run_result_release(struct run_result *res)
{
	free(res->out);
	free(res->err);
	memset(res, 0, sizeof(*res));
}

/* fd moved off 0..2 (close-on-exec), for descriptors opened before main
 * knows that stdio is open. */
static int fd_above_stdio_keep(int fd)
{
	if (fd < 0 || fd > 2)
		return fd;
	int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	if (nfd >= 0)
		fcntl(nfd, F_SETFL, fcntl(nfd, F_GETFL) | O_NONBLOCK);
	return nfd;
}

/* ---- signals: nothing we start outlives us ----
 *
 * run_signals_install() (main) catches SIGINT, SIGTERM, SIGHUP and SIGPIPE.
 * The handler only records the signal and writes one byte to a pipe that is
 * never drained, so every child_pump() (one per thread in the fleet fan-out)
 * wakes up in poll() and sees it.  Each pump then stops its child's process
 * group (TERM, grace, KILL) and reaps it; whoever reaps the last child exits
 * with 128+signal.  With no child alive the handler exits at once.
 *
 * n_live counts children from just before posix_spawn to just after the
 * reap, so the handler never exits while a spawn is under way, and a spawn
 * that starts after the signal is refused. */
static volatile sig_atomic_t sig_caught;
static int sig_pipe[2] = {-1, -1};
static atomic_int n_live;

static _Noreturn void sig_exit(void)
{
	render_output_unlink_pending(); /* --output's temporary file */
	_exit(128 + (int)sig_caught);
}

static void sig_handler(int sig)
{
	int saved = errno;
	if (!sig_caught)
		sig_caught = sig;
	if (atomic_load(&n_live) == 0)
		sig_exit();
	if (sig_pipe[1] >= 0) {
		ssize_t w = write(sig_pipe[1], "", 1);
		(void)w; /* full: the byte already there is enough */
	}
	errno = saved;
}

int run_signals_install(void)
{
	if (sig_pipe[0] < 0 && pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK))
		return -1;
	for (int i = 0; i < 2; i++) {
		int fd = fd_above_stdio_keep(sig_pipe[i]);
		if (fd < 0)
			return -1;
		sig_pipe[i] = fd;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigfillset(&sa.sa_mask); /* one handler at a time */
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		/* A signal ignored on entry stays ignored, as shells do: nohup
		 * means SIGHUP, and a background job means SIGINT, must not
		 * stop the run. */
		struct sigaction old;
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(sigs[i], &sa, NULL))
			return -1;
	}
	return 0;
}

/* A child is gone (reaped, or never started): if a signal came, the last
 * one to go ends the process; the others wait for it, bounded, so that a
 * child that cannot be reaped (stuck in the kernel) never hangs the tool. */
static void live_release(void)
{
	if (atomic_fetch_sub(&n_live, 1) == 1 && sig_caught)
		sig_exit();
	if (!sig_caught)
		return;
	for (int i = 0; i < 500 && atomic_load(&n_live) > 0; i++) {
		struct timespec ts = {.tv_sec = 0, .tv_nsec = 10 * 1000000L};
		nanosleep(&ts, NULL);
	}
	sig_exit();
}

/* A capture buffer: keeps up to cap bytes, drains and counts the rest so
 * that a chatty child never blocks on a full pipe (blocking would turn
 * "too much output" into "timed out", and lose its exit status). */
struct capture {
	int fd;
	char *buf;
	size_t len, cap, limit;
	bool capped;
	bool tail; /* keep the newest `limit` bytes (stdout_keep_tail) */
};

/* Keep-the-tail: the buffer grows to twice the limit; when more would not
 * fit, the newest bytes move to its front, so each byte is moved at most
 * once per `limit` bytes read (linear in the output). */
static void capture_tail(struct capture *c, const char *p, size_t n)
{
	if (n >= c->limit) {
		if (c->len > 0 || n > c->limit)
			c->capped = true;
		p += n - c->limit;
		n = c->limit;
		c->len = 0;
	}
	if (c->len + n > 2 * c->limit) {
		size_t keep = c->limit - n;
		memmove(c->buf, c->buf + c->len - keep, keep);
		c->len = keep;
		c->capped = true;
	}
	if (c->len + n + 1 > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16384;
		while (cap < c->len + n + 1)
			cap *= 2;
		if (cap > 2 * c->limit + 1)
			cap = 2 * c->limit + 1;
		c->buf = xrealloc(c->buf, cap);
		c->cap = cap;
	}
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

static void capture_read(struct capture *c)
{
	char scratch[65536];
	ssize_t n = read(c->fd, scratch, sizeof(scratch));
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return;
		n = 0; /* treat as EOF */
	}
	if (n == 0) {
		close(c->fd);
		c->fd = -1;
		return;
	}
	if (c->tail) {
		capture_tail(c, scratch, (size_t)n);
		return;
	}
	size_t keep = (size_t)n;
	if (c->len + keep > c->limit) {
		keep = c->limit - c->len;
		c->capped = true;
	}
	if (!keep)
		return;
	if (c->len + keep + 1 > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16384;
		while (cap < c->len + keep + 1)
			cap *= 2;
		if (cap > c->limit + 1)
			cap = c->limit + 1;
		c->buf = xrealloc(c->buf, cap);
		c->cap = cap;
	}
	memcpy(c->buf + c->len, scratch, keep);
	c->len += keep;
}

static char *capture_take(struct capture *c, size_t *len)
{
	if (c->tail && c->len > c->limit) { /* the newest `limit` bytes */
		memmove(c->buf, c->buf + c->len - c->limit, c->limit);
		c->len = c->limit;
		c->capped = true;
	}
	char *b = c->buf ? c->buf : xmalloc(1);
	b[c->len] = '\0';
	*len = c->len;
	c->buf = NULL;
	return b;
}

/* Keep a descriptor off 0..2: dup2 onto the same number would not clear
 * close-on-exec, and the child would lose that stream. */
static int fd_above_stdio(int fd)
{
	if (fd < 0 || fd > 2)
		return fd;
	int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return nfd;
}

static int pidfd_for(pid_t pid)
{
#ifdef SYS_pidfd_open
	/* Readable when the child exits: lets poll() wait for output and exit
	 * together, with no SIGCHLD handler (which a library cannot own). */
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	return fd < 0 ? -1 : fd;
#else
	(void)pid;
	return -1;
#endif
}

/* Has the child exited?  WNOWAIT leaves it a zombie, so its pid (and with
 * it the process group id) cannot be reused while we still signal the
 * group. */
static bool child_exited(pid_t pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	for (;;) {
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0)
			return si.si_pid == pid;
		if (errno != EINTR)
			return true; /* ECHILD: nothing left to wait for */
	}
}

static void sleep_ms(int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* Wait up to ms for the child to exit, without reaping it. */
static bool wait_exit_for(pid_t pid, int pidfd, int ms)
{
	double until = run_now() + ms / 1000.0;
	for (;;) {
		if (child_exited(pid))
			return true;
		double left = until - run_now();
		if (left <= 0)
			return false;
		int step = (int)(left * 1000) + 1;
		if (pidfd >= 0) {
			struct pollfd p = {.fd = pidfd, .events = POLLIN};
			poll(&p, 1, step);
		} else {
			sleep_ms(step < 5 ? step : 5);
		}
	}
}

static int reap(pid_t pid)
{
	int st = 0;
	while (waitpid(pid, &st, 0) == -1) {
		if (errno != EINTR)
			return 0;
	}
	return st;
}

/* Find argv[0] like execvp would, before spawning: so that "not found" and
 * "not executable" are told apart the same way everywhere (an emulated or
 * older posix_spawn reports exec failures only as a child exiting 127).
 * Returns a malloc'ed path, or NULL with *err set. */
static char *resolve_exe(const char *name, int *err)
{
	if (!*name) {
		*err = ENOENT;
		return NULL;
	}
	if (strchr(name, '/')) {
		if (access(name, X_OK) == 0)
			return xstrdup(name);
		*err = errno;
		return NULL;
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	bool denied = false;
	size_t nl = strlen(name);
	for (const char *p = path;;) {
		const char *colon = strchr(p, ':');
		size_t dl = colon ? (size_t)(colon - p) : strlen(p);
		char *cand = xmalloc(dl + nl + 3);
		if (dl) {
			memcpy(cand, p, dl);
			cand[dl] = '/';
			memcpy(cand + dl + 1, name, nl + 1);
		} else {
			memcpy(cand, "./", 2); /* an empty entry is the current directory */
			memcpy(cand + 2, name, nl + 1);
		}
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access(cand, X_OK) == 0)
				return cand;
			denied = true;
		}
		free(cand);
		if (!colon)
			break;
		p = colon + 1;
	}
	*err = denied ? EACCES : ENOENT;
	return NULL;
}

static void spawn_failed(struct run_result *res, int err)
{
	res->spawn_errno = err;
	if (err == ENOENT || err == ENOTDIR)
		res->status = RUN_NOT_FOUND;
	else if (err == EACCES || err == ENOEXEC || err == EPERM || err == EISDIR || err == ETXTBSY)
		res->status = RUN_NOT_EXECUTABLE;
	else
		res->status = RUN_SPAWN_FAILED;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* One running child, the git run-command way: child_spawn() starts it
 * with its pipes, child_pump() moves bytes until it exits or the deadline
 * passes, child_reap() stops and reaps it and says how it ended. */
struct child {
	pid_t pid;
	int pidfd;
	int in_fd;     /* our end of its stdin socket, or -1 */
	size_t in_off; /* stdin bytes sent so far */
	struct capture co, ce;
	bool exited; /* it exited (a zombie until child_reap) */
};

/* Pipes for stdout and stderr, and the child's stdin: a socket holding
 * req->stdin_data, else /dev/null.  Fills po/pe/pin/child_in; 0 or an
 * errno. */
static int child_pipes(const struct run_request *req, int po[2], int pe[2], int pin[2],
		       int *child_in)
{
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC))
		return errno;
	for (int i = 0; i < 2; i++) {
		po[i] = fd_above_stdio(po[i]);
		pe[i] = fd_above_stdio(pe[i]);
	}
	if (req->stdin_data) {
		/* A socket, not a pipe, so that writing to a child that stopped
		 * reading gives EPIPE through MSG_NOSIGNAL instead of a SIGPIPE
		 * that would end this whole run (run_signals_install). */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pin))
			return errno;
		pin[0] = fd_above_stdio(pin[0]);
		pin[1] = fd_above_stdio(pin[1]);
		*child_in = pin[1];
		pin[1] = -1;
		shutdown(*child_in, SHUT_WR);
	} else {
		*child_in = fd_above_stdio(open("/dev/null", O_RDONLY | O_CLOEXEC));
	}
	if (po[0] < 0 || po[1] < 0 || pe[0] < 0 || pe[1] < 0 || *child_in < 0)
		return errno ? errno : EMFILE;
	return 0;
}

/* posix_spawn exe with the child's ends of the pipes on 0..2; 0 or an
 * errno. */
static int child_exec(const struct run_request *req, const char *exe, int child_in, int out_w,
		      int err_w, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, child_in, 0);
	posix_spawn_file_actions_adddup2(&fa, out_w, 1);
	posix_spawn_file_actions_adddup2(&fa, err_w, 2);
	posix_spawnattr_init(&attr);
	sigset_t none, dflt;
	sigemptyset(&none);
	sigemptyset(&dflt);
	/* The caller may ignore or block signals (SIGPIPE is often ignored);
	 * the child starts clean so that `timeout`, pipes and our SIGTERM
	 * behave as they would from a shell. */
	static const int dflt_sigs[] = {SIGPIPE, SIGINT,  SIGQUIT, SIGTERM, SIGHUP,
					SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGTTIN,
					SIGTTOU, SIGTSTP, SIGXFSZ};
	for (size_t i = 0; i < sizeof(dflt_sigs) / sizeof(dflt_sigs[0]); i++)
		sigaddset(&dflt, dflt_sigs[i]);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dflt);
	/* Its own process group, so that the deadline can kill the child and
	 * everything it started (kubectl's helpers, the script's tools). */
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
						POSIX_SPAWN_SETSIGDEF);
	/* posix_spawn takes char *const[] for history's sake and does not
	 * write through it; copy the pointer rather than cast const away. */
	char *const *av;
	memcpy(&av, &req->argv, sizeof(av));
	int err = posix_spawn(pid, exe, &fa, &attr, av, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return err;
}

/* Start req->argv; on success ch holds the child and our ends of its
 * pipes (non-blocking).  0, or -1 with res filled by spawn_failed(). */
static int child_spawn(const struct run_request *req, struct child *ch, struct run_result *res)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, pin[2] = {-1, -1};
	int child_in = -1;
	int rc = -1;
	char *exe = NULL;

	if (!req->argv || !req->argv[0]) {
		spawn_failed(res, EINVAL);
		return -1;
	}
	int err = 0;
	exe = resolve_exe(req->argv[0], &err);
	if (!exe) {
		spawn_failed(res, err);
		return -1;
	}
	if ((err = child_pipes(req, po, pe, pin, &child_in))) {
		spawn_failed(res, err);
		goto out;
	}
	atomic_fetch_add(&n_live, 1);
	if (sig_caught) {
		/* Interrupted: start nothing new. */
		spawn_failed(res, EINTR);
		live_release();
		goto out;
	}
	err = child_exec(req, exe, child_in, po[1], pe[1], &ch->pid);
	if (err) {
		ch->pid = -1;
		spawn_failed(res, err);
		live_release();
		goto out;
	}
	rc = 0;
	ch->pidfd = pidfd_for(ch->pid);
	ch->co.fd = po[0];
	ch->ce.fd = pe[0];
	po[0] = pe[0] = -1;
	fcntl(ch->co.fd, F_SETFL, fcntl(ch->co.fd, F_GETFL) | O_NONBLOCK);
	fcntl(ch->ce.fd, F_SETFL, fcntl(ch->ce.fd, F_GETFL) | O_NONBLOCK);
	ch->in_fd = pin[0];
	pin[0] = -1;
	if (ch->in_fd >= 0)
		fcntl(ch->in_fd, F_SETFL, fcntl(ch->in_fd, F_GETFL) | O_NONBLOCK);
out:
	free(exe);
	close_fd(&po[0]);
	close_fd(&po[1]);
	close_fd(&pe[0]);
	close_fd(&pe[1]);
	close_fd(&pin[0]);
	close_fd(&pin[1]);
	close_fd(&child_in);
	return rc;
}

/* Send the next piece of stdin; close it when all is sent or the child
 * stopped reading. */
static void child_feed(const struct run_request *req, struct child *ch)
{
	ssize_t w = send(ch->in_fd, req->stdin_data + ch->in_off, req->stdin_len - ch->in_off,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
	if (w > 0)
		ch->in_off += (size_t)w;
	if ((w < 0 && errno != EAGAIN && errno != EINTR) || ch->in_off >= req->stdin_len) {
		shutdown(ch->in_fd, SHUT_WR);
		close_fd(&ch->in_fd);
	}
}

/* Move bytes until the child has exited and its pipes are closed, or the
 * deadline passes (res->timed_out). */
static void child_pump(const struct run_request *req, struct child *ch, struct run_result *res)
{
	double drain_until = 0;
	for (;;) {
		if (!ch->exited && (ch->exited = child_exited(ch->pid))) {
			/* The child is done; anything of its group still alive is
			 * an orphan that would hold our pipes open until the
			 * deadline.  Nothing the probe starts may outlive it. */
			kill(-ch->pid, SIGKILL);
			close_fd(&ch->in_fd);
			/* A writer that escaped the group (setsid) could still
			 * hold a pipe: read what is there, but not forever. */
			drain_until = run_now() + 1.0;
		}
		if (ch->exited && ch->co.fd < 0 && ch->ce.fd < 0)
			break;

		int wait_ms = -1;
		double until = req->deadline;
		if (ch->exited && (until <= 0 || drain_until < until))
			until = drain_until;
		if (until > 0) {
			double left = until - run_now();
			if (left <= 0) {
				if (!ch->exited)
					res->timed_out = true;
				break;
			}
			wait_ms = (int)(left * 1000.0) + 1;
		}
		if (sig_caught && !ch->exited) {
			res->interrupted = true;
			break;
		}
		struct pollfd pf[5];
		int np = 0, io = -1, ie = -1, ii = -1;
		if (ch->co.fd >= 0) {
			io = np;
			pf[np++] = (struct pollfd){.fd = ch->co.fd, .events = POLLIN};
		}
		if (ch->ce.fd >= 0) {
			ie = np;
			pf[np++] = (struct pollfd){.fd = ch->ce.fd, .events = POLLIN};
		}
		if (ch->in_fd >= 0) {
			ii = np;
			pf[np++] = (struct pollfd){.fd = ch->in_fd, .events = POLLOUT};
		}
		if (sig_pipe[0] >= 0 && !ch->exited)
			pf[np++] =
				(struct pollfd){.fd = sig_pipe[0], .events = POLLIN}; /* wakes us */
		if (!ch->exited) {
			/* the pidfd only wakes us; child_exited() decides */
			if (ch->pidfd >= 0)
				pf[np++] = (struct pollfd){.fd = ch->pidfd, .events = POLLIN};
			else if (wait_ms < 0 || wait_ms > 10)
				wait_ms = 10; /* no pidfd: look at the child every 10 ms */
		}
		int n = poll(pf, (nfds_t)np, wait_ms);
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0)
			continue;
		if (io >= 0 && pf[io].revents)
			capture_read(&ch->co);
		if (ie >= 0 && pf[ie].revents)
			capture_read(&ch->ce);
		if (ii >= 0 && pf[ii].revents)
			child_feed(req, ch);
	}
	close_fd(&ch->in_fd);
}

/* Stop what is still running, reap the child, and say how it ended. */
static void child_reap(struct child *ch, struct run_result *res)
{
	if (res->timed_out || res->interrupted) {
		/* SIGTERM first so kubectl can close its stream cleanly, then
		 * SIGKILL for anything that ignores it. */
		kill(-ch->pid, SIGTERM);
		wait_exit_for(ch->pid, ch->pidfd, RUN_KILL_GRACE_MS);
		kill(-ch->pid, SIGKILL);
	} else if (!ch->exited) {
		kill(-ch->pid, SIGKILL); /* poll failed: do not leave it running */
	}
	int st = reap(ch->pid);
	if (res->interrupted) {
		/* The tool is about to exit: give what was left of the group
		 * (kubectl's children) a moment to be gone, bounded. */
		for (int i = 0; i < RUN_KILL_GRACE_MS / 5 && kill(-ch->pid, 0) == 0; i++)
			sleep_ms(5);
	}
	live_release();
	if (res->timed_out) {
		res->status = RUN_TIMED_OUT;
		if (WIFSIGNALED(st))
			res->term_signal = WTERMSIG(st);
		else if (WIFEXITED(st))
			res->exit_code = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		res->status = RUN_SIGNALED;
		res->term_signal = WTERMSIG(st);
	} else {
		res->status = RUN_EXITED;
		res->exit_code = WEXITSTATUS(st);
	}
}

int run_command(const struct run_request *req, struct run_result *res)
{
	double start = run_now();
	struct child ch = {
		.pid = -1,
		.pidfd = -1,
		.in_fd = -1,
		.co = {.fd = -1,
		       .limit = req->stdout_cap ? req->stdout_cap : RUN_STDOUT_CAP,
		       .tail = req->stdout_keep_tail},
		.ce = {.fd = -1, .limit = req->stderr_cap ? req->stderr_cap : RUN_STDERR_CAP},
	};
	memset(res, 0, sizeof(*res));
	res->exit_code = -1;

	int rc = child_spawn(req, &ch, res);
	if (rc == 0) {
		child_pump(req, &ch, res);
		child_reap(&ch, res);
	}
	close_fd(&ch.pidfd);
	close_fd(&ch.in_fd);
	close_fd(&ch.co.fd);
	close_fd(&ch.ce.fd);
	res->out = capture_take(&ch.co, &res->out_len);
	res->out_capped = ch.co.capped;
	res->err = capture_take(&ch.ce, &res->err_len);
	res->err_capped = ch.ce.capped;
	res->elapsed_s = run_now() - start;
	return rc;
}
