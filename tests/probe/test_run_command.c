/* SPDX-License-Identifier: Apache-2.0 */
/* run_command: exit codes, signals, caps, stdin, the deadline (the whole
 * process group is gone when it returns), spawn failures, descriptor
 * hygiene and concurrent use from many threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "probe/run_command.h"

static void run_sh(const char *script, double timeout, struct run_result *res)
{
	const char *argv[] = {"sh", "-c", script, "t", NULL};
	struct run_request req = {.argv = argv, .deadline = timeout > 0 ? run_now() + timeout : 0};
	assert_int_equal(run_command(&req, res), 0);
}

static void test_exit_codes(void **state)
{
	(void)state;
	struct run_result r;
	run_sh("exit 7", 10, &r);
	assert_int_equal(r.status, RUN_EXITED);
	assert_int_equal(r.exit_code, 7);
	assert_false(r.timed_out);
	assert_int_equal(r.out_len, 0);
	assert_string_equal(r.out, "");
	run_result_release(&r);

	run_sh("echo out; echo err >&2; exit 0", 0, &r);
	assert_int_equal(r.status, RUN_EXITED);
	assert_int_equal(r.exit_code, 0);
	assert_string_equal(r.out, "out\n");
	assert_string_equal(r.err, "err\n");
	assert_true(r.elapsed_s >= 0 && r.elapsed_s < 5);
	run_result_release(&r);
}

static void test_signal(void **state)
{
	(void)state;
	struct run_result r;
	run_sh("echo before; kill -9 $$", 10, &r);
	assert_int_equal(r.status, RUN_SIGNALED);
	assert_int_equal(r.term_signal, SIGKILL);
	assert_string_equal(r.out, "before\n");
	run_result_release(&r);
}

static void test_caps(void **state)
{
	(void)state;
	struct run_result r;
	/* 5 MB on stdout, 100 KB on stderr: kept up to the caps, the rest
	 * drained, so the child finishes and its status is kept. */
	run_sh("head -c 5000000 /dev/zero; head -c 100000 /dev/zero >&2; exit 4", 20, &r);
	assert_int_equal(r.status, RUN_EXITED);
	assert_int_equal(r.exit_code, 4);
	assert_int_equal(r.out_len, RUN_STDOUT_CAP);
	assert_true(r.out_capped);
	assert_int_equal(r.err_len, RUN_STDERR_CAP);
	assert_true(r.err_capped);
	run_result_release(&r);

	const char *argv[] = {"sh", "-c", "printf 0123456789", NULL};
	struct run_request req = {.argv = argv, .deadline = run_now() + 10, .stdout_cap = 4};
	run_command(&req, &r);
	assert_int_equal(r.out_len, 4);
	assert_string_equal(r.out, "0123");
	assert_true(r.out_capped);
	assert_false(r.err_capped);
	run_result_release(&r);
}

/* stdout_keep_tail: the newest bytes are kept, whatever the output's size
 * against the cap and the reads' sizes. */
static void test_keep_tail(void **state)
{
	(void)state;
	struct run_result r;
	const char *argv[] = {"sh", "-c", "printf 0123456789", NULL};
	struct run_request req = {.argv = argv,
				  .deadline = run_now() + 10,
				  .stdout_cap = 4,
				  .stdout_keep_tail = true};
	run_command(&req, &r);
	assert_string_equal(r.out, "6789");
	assert_true(r.out_capped);
	run_result_release(&r);

	/* under the cap: all of it, not capped */
	req.stdout_cap = 64;
	run_command(&req, &r);
	assert_string_equal(r.out, "0123456789");
	assert_false(r.out_capped);
	run_result_release(&r);

	/* 10 MB of numbered lines through a 1 MiB cap, many reads: the kept
	 * bytes are the last 1 MiB, ending with the last line */
	const char *big[] = {"sh", "-c",
			     "i=0; while [ $i -lt 100 ]; do head -c 100000 /dev/zero | tr '\\0' x; "
			     "echo \" line $i\"; i=$((i+1)); done; echo LAST",
			     NULL};
	struct run_request rb = {.argv = big,
				 .deadline = run_now() + 60,
				 .stdout_cap = 1u << 20,
				 .stdout_keep_tail = true};
	run_command(&rb, &r);
	assert_int_equal(r.status, RUN_EXITED);
	assert_int_equal(r.out_len, 1u << 20);
	assert_true(r.out_capped);
	assert_non_null(strstr(r.out, " line 99\nLAST\n"));
	assert_null(strstr(r.out, " line 80\n"));
	run_result_release(&r);
}

static void test_stdin(void **state)
{
	(void)state;
	struct run_result r;
	const char *argv[] = {"cat", NULL};
	static const char data[] = "hello\0world\n";
	struct run_request req = {.argv = argv,
				  .stdin_data = data,
				  .stdin_len = sizeof(data) - 1,
				  .deadline = run_now() + 10};
	run_command(&req, &r);
	assert_int_equal(r.status, RUN_EXITED);
	assert_int_equal(r.out_len, sizeof(data) - 1);
	assert_memory_equal(r.out, data, sizeof(data) - 1);
	run_result_release(&r);

	/* 2 MiB through cat: writing and reading must interleave */
	size_t big = 2u << 20;
	char *b = xmalloc(big);
	for (size_t i = 0; i < big; i++)
		b[i] = (char)('a' + i % 26);
	req.stdin_data = b;
	req.stdin_len = big;
	run_command(&req, &r);
	assert_int_equal(r.status, RUN_EXITED);
	assert_int_equal(r.out_len, big);
	assert_memory_equal(r.out, b, big);
	run_result_release(&r);

	/* a child that never reads: no SIGPIPE for us, its status kept */
	const char *argv2[] = {"sh", "-c", "exit 5", NULL};
	req.argv = argv2;
	run_command(&req, &r);
	assert_int_equal(r.status, RUN_EXITED);
	assert_int_equal(r.exit_code, 5);
	run_result_release(&r);
	free(b);

	/* no stdin: /dev/null, so a reader sees EOF at once */
	run_sh("cat; echo done", 10, &r);
	assert_string_equal(r.out, "done\n");
	run_result_release(&r);
}

/* Gone: no such process, or a zombie waiting for init (an orphan we can
 * no longer reap ourselves). */
static bool pid_gone(long pid)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *rp = strrchr(buf, ')');
	return rp && (rp[2] == 'Z' || rp[2] == 'X');
}

static void check_deadline(const char *script)
{
	struct run_result r;
	double timeout = 0.5;
	double t0 = run_now();
	run_sh(script, timeout, &r);
	double took = run_now() - t0;
	assert_int_equal(r.status, RUN_TIMED_OUT);
	assert_true(r.timed_out);
	assert_true(took >= timeout);
	assert_true(took < timeout + 1.0);
	assert_true(r.elapsed_s < timeout + 1.0);
	/* the script printed its pid and its background child's pid */
	long child = 0, grandchild = 0;
	assert_int_equal(sscanf(r.out, "%ld %ld", &child, &grandchild), 2);
	assert_true(child > 1 && grandchild > 1);
	assert_true(pid_gone(child));
	/* the grandchild was SIGKILLed with the group; init reaps it */
	for (int i = 0; i < 100 && !pid_gone(grandchild); i++)
		usleep(10000);
	assert_true(pid_gone(grandchild));
	run_result_release(&r);
}

static void test_deadline_kills_group(void **state)
{
	(void)state;
	check_deadline("sleep 30 & echo $$ $!; sleep 30");
	/* a child and grandchild that ignore SIGTERM: SIGKILL after the grace */
	check_deadline("trap '' TERM; sleep 30 & echo $$ $!; wait; sleep 30");
}

static void test_exit_kills_stragglers(void **state)
{
	(void)state;
	struct run_result r;
	/* the child exits at once but leaves a background sleeper holding our
	 * stdout: the call must not wait for it */
	double t0 = run_now();
	run_sh("sleep 30 & echo $!", 10, &r);
	assert_true(run_now() - t0 < 2.0);
	assert_int_equal(r.status, RUN_EXITED);
	long bg = atol(r.out);
	assert_true(bg > 1);
	for (int i = 0; i < 100 && !pid_gone(bg); i++)
		usleep(10000);
	assert_true(pid_gone(bg));
	run_result_release(&r);
}

static void test_spawn_errors(void **state)
{
	(void)state;
	struct run_result r;
	const char *a1[] = {"/nonexistent/dir/kubectl", NULL};
	struct run_request req = {.argv = a1, .deadline = run_now() + 5};
	assert_int_equal(run_command(&req, &r), -1);
	assert_int_equal(r.status, RUN_NOT_FOUND);
	assert_int_equal(r.spawn_errno, ENOENT);
	assert_non_null(r.out);
	run_result_release(&r);

	const char *a2[] = {"ci-no-such-command-on-path", NULL};
	req.argv = a2;
	assert_int_equal(run_command(&req, &r), -1);
	assert_int_equal(r.status, RUN_NOT_FOUND);
	run_result_release(&r);

	char tmpl[] = "/tmp/ci-run-noexec-XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\necho hi\n", 18), 18);
	close(fd);
	chmod(tmpl, 0644);
	const char *a3[] = {tmpl, NULL};
	req.argv = a3;
	assert_int_equal(run_command(&req, &r), -1);
	/* no x bit at all: EACCES, even for root */
	assert_int_equal(r.status, RUN_NOT_EXECUTABLE);
	assert_int_equal(r.spawn_errno, EACCES);
	run_result_release(&r);
	unlink(tmpl);

	struct run_request empty = {0};
	assert_int_equal(run_command(&empty, &r), -1);
	assert_int_equal(r.status, RUN_SPAWN_FAILED);
	run_result_release(&r);
}

/* Descriptors this process hands to every child (not close-on-exec). */
static void inherited_fds(bool inherited[1024])
{
	memset(inherited, 0, 1024 * sizeof(bool));
	DIR *d = opendir("/proc/self/fd");
	assert_non_null(d);
	int dfd = dirfd(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] == '.' || fd == dfd || fd < 0 || fd >= 1024)
			continue;
		int fl = fcntl(fd, F_GETFD);
		if (fl >= 0 && !(fl & FD_CLOEXEC))
			inherited[fd] = true;
	}
	closedir(d);
}

/* The child's own descriptors, tested one by one without opening anything
 * (a glob would open the directory and list its own descriptor). */
#define LIST_FDS \
	"i=0; while [ $i -lt 1024 ]; do [ -e /proc/$$/fd/$i ] && echo $i; i=$((i+1)); done; :"

static void check_fds(const char *out, const bool inherited[1024])
{
	char *copy = xstrdup(out), *save = NULL;
	int seen = 0;
	for (char *tok = strtok_r(copy, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save)) {
		int fd = atoi(tok);
		seen++;
		if (fd > 2 && (fd >= 1024 || !inherited[fd]))
			fail_msg("child inherited descriptor %d", fd);
	}
	assert_true(seen >= 3);
	free(copy);
}

/* The child sees 0, 1, 2 and only what this process had open without
 * close-on-exec before the call (the test runner's own descriptors). */
static void test_no_fd_leak(void **state)
{
	(void)state;
	bool inherited[1024];
	inherited_fds(inherited);
	struct run_result r;
	run_sh(LIST_FDS, 10, &r);
	assert_int_equal(r.status, RUN_EXITED);
	check_fds(r.out, inherited);
	run_result_release(&r);
}

struct job {
	int i;
	struct run_result r;
};

static void *job_run(void *arg)
{
	struct job *j = arg;
	char script[256];
	if (j->i == 0)
		snprintf(script, sizeof(script), "%s", LIST_FDS);
	else
		snprintf(script, sizeof(script), "sleep 0.5; echo job%d; echo e%d >&2; exit %d",
			 j->i, j->i, j->i);
	const char *argv[] = {"sh", "-c", script, NULL};
	struct run_request req = {.argv = argv, .deadline = run_now() + 30};
	run_command(&req, &j->r);
	return NULL;
}

/* 16 concurrent calls (the fan-out's default --jobs): each gets its own
 * output and status, and a child started while the others' pipes are open
 * inherits none of them. */
static void test_threads(void **state)
{
	(void)state;
	enum {
		N = 16
	};
	struct job jobs[N];
	pthread_t th[N];
	bool inherited[1024];
	inherited_fds(inherited);
	for (int i = N - 1; i >= 0; i--) {
		jobs[i].i = i;
		if (i == 0)
			usleep(200000); /* the others are running, their pipes open */
		assert_int_equal(pthread_create(&th[i], NULL, job_run, &jobs[i]), 0);
	}
	for (int i = 0; i < N; i++)
		pthread_join(th[i], NULL);
	for (int i = 1; i < N; i++) {
		char want[32];
		snprintf(want, sizeof(want), "job%d\n", i);
		assert_string_equal(jobs[i].r.out, want);
		snprintf(want, sizeof(want), "e%d\n", i);
		assert_string_equal(jobs[i].r.err, want);
		assert_int_equal(jobs[i].r.status, RUN_EXITED);
		assert_int_equal(jobs[i].r.exit_code, i);
	}
	assert_int_equal(jobs[0].r.status, RUN_EXITED);
	check_fds(jobs[0].r.out, inherited);
	for (int i = 0; i < N; i++)
		run_result_release(&jobs[i].r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_codes),
		cmocka_unit_test(test_signal),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_keep_tail),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_deadline_kills_group),
		cmocka_unit_test(test_exit_kills_stragglers),
		cmocka_unit_test(test_spawn_errors),
		cmocka_unit_test(test_no_fd_leak),
		cmocka_unit_test(test_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
