/* SPDX-License-Identifier: Apache-2.0 */
/*
 * probe_collect(): one transcript per target, under one deadline.
 *   --replay FILE      read and parse a saved transcript (no process runs)
 *   -n NS --pod POD    exactly one `kubectl exec` running the embedded script
 *   (none)/--sysroot   `sh -c SCRIPT ci-probe ROOT` on this host
 * Thread-safe (the fleet fan-out calls it from --jobs threads): no globals,
 * no stdio on shared streams, every descriptor close-on-exec.
 */
#include "probe/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/redact.h"
#include "core/report.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "probe/kube.h"
#include "probe/run_command.h"

const char *probe_error_name(enum probe_error e)
{
	switch (e) {
	case PROBE_OK: return "ok";
	case PROBE_KUBECTL_MISSING: return "kubectl_missing";
	case PROBE_UNAUTHORIZED: return "unauthorized";
	case PROBE_FORBIDDEN: return "forbidden";
	case PROBE_POD_NOT_FOUND: return "pod_not_found";
	case PROBE_CONTAINER_NOT_FOUND: return "container_not_found";
	case PROBE_NO_SHELL: return "no_shell";
	case PROBE_TIMEOUT: return "timeout";
	case PROBE_EXEC_FAILED: return "exec_failed";
	case PROBE_BAD_TRANSCRIPT: return "bad_transcript";
	case PROBE_IO: return "io";
	case PROBE_BAD_TARGET: return "bad_target";
	}
	return "unknown";
}

const char *probe_error_fix(enum probe_error e)
{
	switch (e) {
	case PROBE_KUBECTL_MISSING: return "install kubectl or pass --kubectl PATH";
	case PROBE_UNAUTHORIZED:
		return "log in again (refresh the kubeconfig's credentials) or pass --context / "
		       "--kubeconfig, until kubectl get pods -n NS works";
	case PROBE_FORBIDDEN:
		return "grant 'get' on pods and 'create' on pods/exec in the namespace (check "
		       "with kubectl auth can-i create pods/exec -n NS)";
	case PROBE_POD_NOT_FOUND:
		return "check the pod's name and namespace (kubectl get pods -n NS)";
	case PROBE_CONTAINER_NOT_FOUND:
		return "name a running container of the pod with --container (kubectl get pod "
		       "POD -n NS -o jsonpath='{.spec.containers[*].name}')";
	case PROBE_NO_SHELL: return "pick a container that has a POSIX shell with --container";
	case PROBE_TIMEOUT:
		return "look at the pod (kubectl describe pod), or raise --timeout, and run again";
	case PROBE_EXEC_FAILED:
		return "look at the pod (kubectl describe pod) and at kubectl's own error (kubectl "
		       "exec into the pod by hand), then run again";
	case PROBE_BAD_TRANSCRIPT:
		return "check the path: --replay reads a transcript saved with --save-probe";
	default: return NULL;
	}
}

int probe_error_exit(enum probe_error e)
{
	if (e == PROBE_OK)
		return CI_EXIT_READY;
	if (e == PROBE_BAD_TARGET)
		return CI_EXIT_USAGE;
	return CI_EXIT_UNKNOWN;
}

void probe_outcome_release(struct probe_outcome *out)
{
	free(out->message);
	free(out->raw);
	free(out->target);
	free(out->save_error);
	transcript_release(&out->t);
	memset(out, 0, sizeof(*out));
}

static void fail(struct probe_outcome *out, enum probe_error e, char *message)
{
	out->err = e;
	free(out->message);
	out->message = message;
}

static const char *errstr(int err, char *buf, size_t n)
{
	return strerror_r(err, buf, n);
}

/* Read at most max bytes of path ("-": stdin) into *buf, by the deadline.
 * The file is opened O_NONBLOCK and its type checked on that fd: a FIFO
 * with no writer cannot hang the open, one whose writer never finishes
 * stops at the deadline (ETIMEDOUT), and sockets and devices are refused
 * (ENODEV).  Returns 0, or an errno (EFBIG when over max). */
static int read_capped(const char *path, size_t max, double deadline, char **buf, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
				   : STDIN_FILENO;
	if (fd < 0)
		return errno == ENXIO ? ENODEV : errno;
	struct stat st;
	if (fd != STDIN_FILENO && fstat(fd, &st) == 0 &&
	    (S_ISDIR(st.st_mode) || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)))) {
		close(fd);
		return S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
	}
	size_t cap = 65536, n = 0;
	char *b = xmalloc(cap + 1);
	int rc = 0;
	for (;;) {
		if (n == cap) {
			if (cap > max) {
				rc = EFBIG;
				break;
			}
			cap *= 2;
			b = xrealloc(b, cap + 1);
		}
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				/* a pipe whose writer has not written yet */
				double left = deadline - run_now();
				if (left <= 0) {
					rc = ETIMEDOUT;
					break;
				}
				struct pollfd p = {.fd = fd, .events = POLLIN};
				poll(&p, 1, (int)(left * 1000) + 1);
				continue;
			}
			rc = errno;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			rc = EFBIG;
			break;
		}
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (rc) {
		free(b);
		return rc;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

static void collect_replay(const char *file, double deadline, struct probe_outcome *out)
{
	char eb[128];
	out->target = xasprintf("replay %s", file);
	int rc = read_capped(file, PROBE_REPLAY_MAX, deadline, &out->raw, &out->raw_len);
	if (rc == EFBIG) {
		fail(out, PROBE_BAD_TRANSCRIPT,
		     xasprintf("cannot replay %s: larger than %u MiB, not a probe transcript", file,
			       PROBE_REPLAY_MAX >> 20));
		return;
	}
	if (rc == ENODEV) {
		fail(out, PROBE_BAD_TRANSCRIPT,
		     xasprintf("cannot replay %s: not a regular file or a pipe (a socket or a "
			       "device), not read",
			       file));
		return;
	}
	if (rc) {
		fail(out, PROBE_BAD_TRANSCRIPT,
		     xasprintf("cannot replay %s: %s", file, errstr(rc, eb, sizeof(eb))));
		return;
	}
	transcript_parse(&out->t, out->raw, out->raw_len);
	if (!out->t.valid)
		fail(out, PROBE_BAD_TRANSCRIPT,
		     xasprintf("cannot replay %s: not a probe transcript (no '@@ci-probe v1' line)",
			       file));
	else if (!out->t.complete)
		fail(out, PROBE_BAD_TRANSCRIPT,
		     xasprintf("cannot replay %s: the transcript is cut (no '@@done' line)", file));
}

/* The first stderr line worth showing, sanitized, or NULL. */
static char *first_line(const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t n = (size_t)(le - p);
		if (n > 240)
			n = 240;
		size_t keep = 0;
		char *l = xmalloc(n + 1);
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)p[i];
			l[keep++] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
		}
		while (keep && l[keep - 1] == ' ')
			keep--;
		l[keep] = '\0';
		if (keep)
			return l;
		free(l);
		p = nl ? nl + 1 : end;
	}
	return NULL;
}

/* Take run_command's stdout as the transcript. */
static void take_output(struct probe_outcome *out, struct run_result *res)
{
	out->raw = res->out;
	out->raw_len = res->out_len;
	res->out = NULL;
	transcript_parse(&out->t, out->raw, out->raw_len);
}

/* A transcript that started but did not end: say why in one line. */
static char *cut_message(const char *what, const struct run_result *res)
{
	if (res->out_capped)
		return xasprintf("the probe output of %s passed the %u MiB cap and was cut", what,
				 RUN_STDOUT_CAP >> 20);
	char *l = first_line(res->err, res->err_len);
	/* What the other side said, quoted after the tool's words. */
	char *said = !l                          ? xstrdup("")
		     : !strncmp(what, "pod ", 4) ? xasprintf("; kubectl said '%s'", l)
						 : xasprintf("; its stderr said '%s'", l);
	char *m;
	if (res->status == RUN_SIGNALED)
		m = xasprintf("the probe of %s was cut (killed by signal %d)%s", what,
			      res->term_signal, said);
	else
		m = xasprintf("the probe of %s was cut (exit %d)%s", what, res->exit_code, said);
	free(said);
	free(l);
	return m;
}

/* The kubectl side of a pod target: what probe_target_check() checks and
 * what the exec runs are the same names. */
static struct kube_target kube_target_of(const struct probe_target *o, const char *pod)
{
	struct kube_target k = {
		.kubectl = o->kubectl && *o->kubectl ? o->kubectl : "kubectl",
		.context = o->context,
		.kubeconfig = o->kubeconfig,
		.namespace_ = o->namespace_,
		.pod = pod,
		.container = o->container,
	};
	return k;
}

double probe_target_timeout(const struct probe_target *t)
{
	return t->timeout_s > 0 ? t->timeout_s : PROBE_DEFAULT_TIMEOUT_S;
}

bool probe_target_check(const struct probe_target *t, char **why)
{
	*why = NULL;
	if (t->replay || !(t->pod || t->namespace_))
		return true;
	struct kube_target k = kube_target_of(t, t->pod);
	const char *argv[KUBE_ARGV_MAX];
	return kube_exec_argv(&k, probe_script, "", argv, why) >= 0;
}

/* --logs: ONE read-only `kubectl logs --tail=N --timestamps` of the worker,
 * on its own thread beside the exec (same deadline), so the pair costs one
 * round trip.  Its output never leaves memory: the runner adds it to the
 * parsed transcript (not to the raw bytes --save-probe writes), and the
 * checks keep only the known transport lines. */
struct logs_job {
	struct kube_target k;
	char tail[32];
	double deadline;
	struct run_result res;
	bool ran;
	char *why; /* an invalid name: nothing ran */
};

static void *logs_run(void *arg)
{
	struct logs_job *j = arg;
	const char *argv[KUBE_ARGV_MAX];
	if (kube_logs_argv(&j->k, j->tail, argv, &j->why) < 0)
		return NULL;
	/* The newest lines matter most (the fallback a restart just took):
	 * a tail larger than the cap keeps its end, never its start. */
	struct run_request req = {.argv = argv,
				  .deadline = j->deadline,
				  .stdout_cap = PROBE_LOGS_MAX,
				  .stdout_keep_tail = true};
	run_command(&req, &j->res);
	j->ran = true;
	return NULL;
}

/* The logs section: kubectl's stdout, or rc != 0 and the reason. */
static void logs_put(struct logs_job *j, struct probe_outcome *out)
{
	if (!out->t.valid)
		return;
	if (!j->ran) {
		const char *w = j->why ? j->why : "kubectl logs could not be started";
		transcript_put(&out->t, PROBE_SEC_LOGS, w, strlen(w), 1);
	} else if (j->res.timed_out) {
		static const char w[] = "kubectl logs did not answer before the deadline";
		transcript_put(&out->t, PROBE_SEC_LOGS, w, sizeof(w) - 1, 1);
	} else if (j->res.status != RUN_EXITED || j->res.exit_code != 0) {
		char *m = first_line(j->res.err, j->res.err_len);
		const char *w = m ? m : "kubectl logs failed";
		transcript_put(&out->t, PROBE_SEC_LOGS, w, strlen(w), 1);
		free(m);
	} else if (j->res.out_capped) {
		/* Cut: the oldest bytes went; so does the first, partial line. */
		const char *b = j->res.out;
		const char *nl = memchr(b, '\n', j->res.out_len);
		size_t skip = nl ? (size_t)(nl - b) + 1 : j->res.out_len;
		transcript_put_capped(&out->t, PROBE_SEC_LOGS, b + skip, j->res.out_len - skip, 0);
	} else {
		transcript_put(&out->t, PROBE_SEC_LOGS, j->res.out ? j->res.out : "",
			       j->res.out_len, 0);
	}
	if (j->ran)
		run_result_release(&j->res);
	free(j->why);
}

static void collect_pod(const struct probe_target *o, const char *pod, double deadline,
			struct probe_outcome *out)
{
	struct kube_target k = kube_target_of(o, pod);
	const char *argv[KUBE_ARGV_MAX];
	char *why = NULL;
	char win[16];
	if (o->observe_s) {
		snprintf(win, sizeof(win), "%u", o->observe_s);
		k.window = win;
	}

	out->target = xasprintf("pod %s/%s", o->namespace_ ? o->namespace_ : "?", pod ? pod : "?");
	if (!o->namespace_ || !pod) {
		fail(out, PROBE_BAD_TARGET,
		     xstrdup(!pod ? "--pod is required with --namespace"
				  : "--namespace is required with --pod"));
		return;
	}
	if (o->sysroot) {
		fail(out, PROBE_BAD_TARGET,
		     xstrdup("--sysroot applies to the local probe, not to a pod"));
		return;
	}
	if (kube_exec_argv(&k, probe_script, "", argv, &why) < 0) {
		fail(out, PROBE_BAD_TARGET, why);
		return;
	}

	struct logs_job lj = {.k = kube_target_of(o, pod), .deadline = deadline};
	pthread_t lth;
	bool logs = o->logs_tail > 0, threaded = false;
	if (logs) {
		snprintf(lj.tail, sizeof(lj.tail), "--tail=%u", o->logs_tail);
		threaded = pthread_create(&lth, NULL, logs_run, &lj) == 0;
	}

	struct run_request req = {.argv = argv, .deadline = deadline};
	struct run_result res;
	run_command(&req, &res);
	if (res.status != RUN_NOT_FOUND && res.status != RUN_NOT_EXECUTABLE &&
	    res.status != RUN_SPAWN_FAILED)
		out->kubectl_calls++;
	take_output(out, &res);
	if (threaded)
		pthread_join(lth, NULL);
	else if (logs)
		logs_run(&lj); /* no thread: after the exec, still one call */
	if (logs) {
		out->kubectl_calls += lj.ran;
		logs_put(&lj, out);
	}

	if (res.timed_out) {
		fail(out, PROBE_TIMEOUT,
		     xasprintf(
			     "kubectl exec into %s did not finish within %g s (kubectl was stopped)",
			     out->target, probe_target_timeout(o)));
	} else if (out->t.valid && out->t.complete) {
		/* The script ran to its end: whatever kubectl says after that
		 * (a warning, its exit status) does not change the data. */
	} else if (out->t.valid) {
		fail(out, PROBE_EXEC_FAILED, cut_message(out->target, &res));
	} else {
		char *m = NULL;
		enum probe_error e = kube_classify(&k, res.status, res.spawn_errno, res.exit_code,
						   res.term_signal, res.err, res.err_len, &m);
		fail(out, e, m);
	}
	run_result_release(&res);
}

static void collect_local(const struct probe_target *o, double deadline, struct probe_outcome *out)
{
	char eb[128];
	const char *root = o->sysroot ? o->sysroot : "";
	out->target = o->sysroot ? xasprintf("sysroot %s", o->sysroot) : xstrdup("local host");
	if (o->sysroot) {
		struct stat st;
		if (!*o->sysroot || stat(o->sysroot, &st)) {
			fail(out, PROBE_BAD_TARGET,
			     xasprintf("--sysroot %s: %s", o->sysroot,
				       *o->sysroot ? errstr(errno, eb, sizeof(eb)) : "empty path"));
			return;
		}
		if (!S_ISDIR(st.st_mode)) {
			fail(out, PROBE_BAD_TARGET,
			     xasprintf("--sysroot %s: not a directory", o->sysroot));
			return;
		}
	}
	/* The root ($1) and the window ($2, digits) are arguments, never part
	 * of the script text. */
	char win[16];
	snprintf(win, sizeof(win), "%u", o->observe_s);
	const char *argv[] = {"sh", "-c", probe_script, "ci-probe", root, o->observe_s ? win : NULL,
			      NULL};
	struct run_request req = {.argv = argv, .deadline = deadline};
	struct run_result res;
	run_command(&req, &res);
	take_output(out, &res);

	if (res.status == RUN_NOT_FOUND || res.status == RUN_NOT_EXECUTABLE ||
	    res.status == RUN_SPAWN_FAILED) {
		fail(out, PROBE_EXEC_FAILED,
		     xasprintf("cannot run the probe: sh: %s",
			       errstr(res.spawn_errno, eb, sizeof(eb))));
	} else if (res.timed_out) {
		fail(out, PROBE_TIMEOUT,
		     xasprintf("the probe of the %s did not finish within %g s (it was stopped)",
			       out->target, probe_target_timeout(o)));
	} else if (out->t.valid && out->t.complete) {
		/* done */
	} else if (out->t.valid) {
		fail(out, PROBE_EXEC_FAILED, cut_message(out->target, &res));
	} else {
		char *l = first_line(res.err, res.err_len);
		fail(out, PROBE_EXEC_FAILED,
		     xasprintf(
			     "the probe script failed on the %s (exit %d) without a transcript%s%s",
			     out->target, res.exit_code, l ? ": " : "", l ? l : ""));
		free(l);
	}
	run_result_release(&res);
}

/* --save-probe, opened before anything is probed (so that a path that
 * cannot be written costs no probe): never through a symlink (O_NOFOLLOW),
 * never over an existing file unless --force (O_EXCL), and only ever a
 * regular file.  Returns the fd, or -1 with *why. */
static int save_open(const char *path, bool force, bool *created, char **why)
{
	char eb[128];
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK;
	*created = true;
	int fd = open(path, flags | O_EXCL, 0644);
	if (fd < 0 && errno == EEXIST && force) {
		*created = false;
		fd = open(path, flags, 0644);
	}
	if (fd < 0) {
		int err = errno;
		struct stat lst;
		bool link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
		if (link)
			*why = xasprintf("cannot write --save-probe %s: it is a symbolic link (not "
					 "followed; name the file itself)",
					 path);
		else if (err == EEXIST)
			*why = xasprintf("cannot write --save-probe %s: the file exists (--force "
					 "overwrites it)",
					 path);
		else
			*why = xasprintf("cannot write --save-probe %s: %s", path,
					 errstr(err, eb, sizeof(eb)));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*why = xasprintf("cannot write --save-probe %s: not a regular file", path);
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* The transcript to save: as received, except the body lines of NIXL's
 * telemetry sections (live:nixl:*), which pass the one redaction rule
 * (core/redact.h): the script filters the environment inside the pod, but
 * an exporter's labels are the workload's own text and may carry a token
 * or a URL password.  The parser redacts the same labels, so replaying the
 * saved bytes gives the same report. */
char *probe_transcript_saved(const char *raw, size_t len, size_t *out_len)
{
	struct strbuf sb;
	strbuf_init(&sb);
	bool nixl = false;
	for (size_t i = 0; i < len;) {
		const char *l = raw + i;
		const char *nl = memchr(l, '\n', len - i);
		size_t n = nl ? (size_t)(nl - l) + 1 : len - i;
		if (n > 8 && !memcmp(l, "@@begin ", 8))
			nixl = n > 17 && !memcmp(l + 8, "live:nixl", 9);
		else if (n > 6 && !memcmp(l, "@@end ", 6))
			nixl = false;
		if (nixl && l[0] == '|' && !memchr(l, '\0', n)) {
			char *line = xstrndup(l, n);
			char *red = redact_text(line);
			strbuf_add(&sb, red, strlen(red));
			free(red);
			free(line);
		} else {
			strbuf_add(&sb, l, n);
		}
		i += n;
	}
	*out_len = sb.len;
	return strbuf_detach(&sb);
}

/* Write the transcript (probe_transcript_saved).  A failure is out->save_error, never
 * out->err: the analysis stands. */
static void save_probe(int fd, const char *path, struct probe_outcome *out)
{
	char eb[128];
	int err = 0;
	if (ftruncate(fd, 0))
		err = errno;
	size_t len = 0, off = 0;
	char *text = probe_transcript_saved(out->raw ? out->raw : "", out->raw_len, &len);
	while (!err && off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			break;
		}
		off += (size_t)w;
	}
	free(text);
	if (close(fd) && !err)
		err = errno;
	if (err)
		out->save_error = xasprintf("cannot write --save-probe %s: %s", path,
					    errstr(err, eb, sizeof(eb)));
}

static void blank_controls(char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

void probe_collect(const struct probe_target *o, const char *pod_override,
		   struct probe_outcome *out)
{
	double start = run_now();
	/* The window runs inside the probe: the deadline grows by it. */
	double timeout = probe_target_timeout(o) + o->observe_s;
	const char *pod = pod_override ? pod_override : o->pod;

	memset(out, 0, sizeof(*out));
	transcript_init(&out->t);
	int save_fd = -1;
	bool save_created = false;
	if (o->save_probe) {
		char *why = NULL;
		save_fd = save_open(o->save_probe, o->save_force, &save_created, &why);
		if (save_fd < 0) {
			fail(out, PROBE_BAD_TARGET, why);
			out->target = xstrdup(o->save_probe);
			blank_controls(out->message);
			return;
		}
	}
	if (o->replay_data) {
		out->target = xstrdup(o->replay_target ? o->replay_target : o->replay);
		out->raw = xmalloc(o->replay_len + 1);
		memcpy(out->raw, o->replay_data, o->replay_len);
		out->raw[o->replay_len] = 0;
		out->raw_len = o->replay_len;
		transcript_parse(&out->t, out->raw, out->raw_len);
		if (!out->t.valid || !out->t.complete)
			fail(out, PROBE_BAD_TRANSCRIPT,
			     xasprintf("cannot replay %s: its transcript is not a whole probe "
				       "transcript",
				       o->replay));
	} else if (o->replay)
		collect_replay(o->replay, start + timeout, out);
	else if (pod || o->namespace_)
		collect_pod(o, pod, start + timeout, out);
	else
		collect_local(o, start + timeout, out);

	/* The target and message echo user input (paths, names that failed
	 * validation): no control byte reaches a terminal through them, and
	 * each stays one line. */
	blank_controls(out->target);
	blank_controls(out->message);
	/* A cut transcript is saved too: it is what a bug report needs. */
	if (save_fd >= 0 && out->t.valid && out->raw) {
		save_probe(save_fd, o->save_probe, out);
	} else if (save_fd >= 0) {
		close(save_fd);
		if (save_created)
			unlink(o->save_probe); /* nothing to keep: leave no empty file */
	}
	out->elapsed_s = run_now() - start;
}
