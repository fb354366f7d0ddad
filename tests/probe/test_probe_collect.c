/* SPDX-License-Identifier: Apache-2.0 */
/* probe_collect against the test kubectl (tests/fakes/kubectl) in each of
 * its modes: one exec per probe (counted from its log), the error each
 * mode maps to, the deadline, replay, and the --save-probe round trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/report.h"
#include "core/xalloc.h"
#include "probe/probe.h"
#include "probe/run_command.h"

#define FAKE   "tests/fakes/kubectl"
#define SAMPLE "tests/fixtures/probe/transcript_sample.txt"

static char tmpdir[64];
static char logpath[128];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ci-probe-test-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(logpath, sizeof(logpath), "%s/kubectl.log", tmpdir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Fresh fake environment for one case. */
static void fake_reset(void)
{
	unlink(logpath);
	unsetenv("FAKE_KUBECTL_MODE");
	unsetenv("FAKE_KUBECTL_LATENCY_MS");
	unsetenv("FAKE_KUBECTL_TRANSCRIPT");
	unsetenv("FAKE_KUBECTL_SYSROOT");
	unsetenv("FAKE_KUBECTL_DUMP_DIR");
	unsetenv("FAKE_KUBECTL_PODS_DIR");
	setenv("FAKE_KUBECTL_LOG", logpath, 1);
}

static int log_lines(void)
{
	FILE *f = fopen(logpath, "r");
	if (!f)
		return 0;
	int n = 0, c;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *b = xmalloc(cap);
	size_t r;
	while ((r = fread(b + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap)
			b = xrealloc(b, cap *= 2);
	}
	fclose(f);
	*len = n;
	return b;
}

static struct probe_target pod_opts(void)
{
	struct probe_target o = {
		.timeout_s = 10, .kubectl = FAKE, .namespace_ = "dynamo", .pod = "vllm-decode-0"};
	return o;
}

static void test_ok_transcript(void **state)
{
	(void)state;
	fake_reset();
	setenv("FAKE_KUBECTL_TRANSCRIPT", SAMPLE, 1);
	struct probe_target o = pod_opts();
	struct probe_outcome out;
	probe_collect(&o, NULL, &out);
	assert_int_equal(out.err, PROBE_OK);
	assert_null(out.message);
	assert_int_equal(out.kubectl_calls, 1);
	assert_int_equal(log_lines(), 1);
	assert_string_equal(out.target, "pod dynamo/vllm-decode-0");
	assert_true(out.t.valid);
	assert_true(out.t.complete);
	assert_int_equal(out.t.n, 4);
	size_t len;
	char *want = slurp(SAMPLE, &len);
	assert_int_equal(out.raw_len, len);
	assert_memory_equal(out.raw, want, len);
	free(want);
	assert_true(out.elapsed_s > 0 && out.elapsed_s < 10);
	probe_outcome_release(&out);
}

/* What kubectl receives: the embedded script byte for byte, user input in
 * its own elements, the pod override honoured. */
static void test_argv_seen_by_kubectl(void **state)
{
	(void)state;
	fake_reset();
	char dump[128];
	snprintf(dump, sizeof(dump), "%s/dump", tmpdir);
	mkdir(dump, 0755);
	setenv("FAKE_KUBECTL_DUMP_DIR", dump, 1);
	setenv("FAKE_KUBECTL_TRANSCRIPT", SAMPLE, 1);
	struct probe_target o = pod_opts();
	o.container = "main";
	o.context = "arn:aws:eks:us-west-2:1:cluster/x y";
	struct probe_outcome out;
	probe_collect(&o, "other-pod.x", &out);
	assert_int_equal(out.err, PROBE_OK);
	assert_string_equal(out.target, "pod dynamo/other-pod.x");
	static const char *const want[] = {"--context", "arn:aws:eks:us-west-2:1:cluster/x y",
					   "exec",      "-n",
					   "dynamo",    "other-pod.x",
					   "-c",        "main",
					   "--",        "sh",
					   "-c",        NULL,
					   "ci-probe",  ""};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char p[160];
		size_t len;
		snprintf(p, sizeof(p), "%s/arg%zu", dump, i + 1);
		char *got = slurp(p, &len);
		if (!got)
			fail_msg("kubectl got no argument %zu", i + 1);
		if (want[i]) {
			if (len != strlen(want[i]) || memcmp(got, want[i], len))
				fail_msg("argument %zu: '%.*s', expected '%s'", i + 1, (int)len,
					 got, want[i]);
		} else {
			assert_int_equal(len, probe_script_len);
			assert_memory_equal(got, probe_script, len);
		}
		free(got);
	}
	char p[160];
	snprintf(p, sizeof(p), "%s/arg%zu", dump, sizeof(want) / sizeof(want[0]) + 1);
	assert_int_equal(access(p, F_OK), -1); /* nothing more */
	probe_outcome_release(&out);
}

/* The embedded script runs inside the fake pod against a sysroot. */
static void test_ok_sysroot_script(void **state)
{
	(void)state;
	fake_reset();
	setenv("FAKE_KUBECTL_SYSROOT", "tests/fixtures/probe/sysroot_min", 1);
	struct probe_target o = pod_opts();
	o.timeout_s = 20;
	struct probe_outcome out;
	probe_collect(&o, NULL, &out);
	if (out.err)
		fail_msg("%s: %s", probe_error_name(out.err), out.message);
	assert_true(out.t.valid);
	assert_true(out.t.complete);
	assert_true(out.t.n >= 1);
	assert_int_equal(out.kubectl_calls, 1);
	assert_int_equal(log_lines(), 1);
	probe_outcome_release(&out);
}

static void test_error_modes(void **state)
{
	(void)state;
	static const struct {
		const char *mode;
		enum probe_error want;
		const char *msg;
	} cases[] = {
		{"unauthorized", PROBE_UNAUTHORIZED,
		 "kubectl is not logged in or has no usable context/kubeconfig; kubectl said 'You must be logged in to the server (Unauthorized)'"},
		{"upgrade_unauthorized", PROBE_UNAUTHORIZED,
		 "kubectl is not logged in or has no usable context/kubeconfig; kubectl said 'unable to upgrade connection: Unauthorized'"},
		{"nocontext", PROBE_UNAUTHORIZED,
		 "kubectl has no cluster configured (no kubeconfig or context; pass --context or --kubeconfig)"},
		{"forbidden", PROBE_FORBIDDEN,
		 "RBAC forbids exec into pod dynamo/vllm-decode-0 (needs 'get' on pods and 'create' on pods/exec); kubectl said 'pods \"vllm-decode-0\" is forbidden: User \"system:serviceaccount:dynamo:default\" cannot create resource \"pods/exec\" in API group \"\" in the namespace \"dynamo\"'"},
		{"notfound", PROBE_POD_NOT_FOUND,
		 "pod dynamo/vllm-decode-0 not found; kubectl said 'pods \"vllm-decode-0\" not found'"},
		{"gone", PROBE_POD_NOT_FOUND,
		 "pod dynamo/vllm-decode-0 not found; kubectl said 'unable to upgrade connection: pod does not exist'"},
		{"container", PROBE_CONTAINER_NOT_FOUND,
		 "container not found or not running in pod dynamo/vllm-decode-0; kubectl said 'unable to upgrade connection: container not found (\"main\")'"},
		{"noshell", PROBE_NO_SHELL,
		 "no 'sh' in the container of pod dynamo/vllm-decode-0: the probe needs a POSIX shell (pick another container with --container); kubectl said 'OCI runtime exec failed: exec failed: unable to start container process: exec: \"sh\": executable file not found in $PATH: unknown'"},
		{"noshell_containerd", PROBE_NO_SHELL, NULL},
		{"exit127", PROBE_NO_SHELL, NULL},
		{"unreachable", PROBE_EXEC_FAILED,
		 "kubectl cannot reach the cluster; kubectl said 'Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout'"},
		{"error", PROBE_EXEC_FAILED,
		 "kubectl exec into pod dynamo/vllm-decode-0 failed (exit 1) without a probe transcript; kubectl said 'error dialing backend: remote error: tls: internal error'"},
		{"cut", PROBE_EXEC_FAILED,
		 "the probe of pod dynamo/vllm-decode-0 was cut (exit 137); kubectl said 'command terminated with exit code 137'"},
		{"garbage", PROBE_EXEC_FAILED,
		 "kubectl exec into pod dynamo/vllm-decode-0 failed (exit 0) without a probe transcript"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_reset();
		setenv("FAKE_KUBECTL_MODE", cases[i].mode, 1);
		struct probe_target o = pod_opts();
		struct probe_outcome out;
		probe_collect(&o, NULL, &out);
		if (out.err != cases[i].want)
			fail_msg("mode %s: %s (%s), expected %s", cases[i].mode,
				 probe_error_name(out.err), out.message,
				 probe_error_name(cases[i].want));
		assert_non_null(out.message);
		assert_null(strchr(out.message, '\n'));
		if (cases[i].msg && strcmp(out.message, cases[i].msg))
			fail_msg("mode %s: message\n  '%s'\nexpected\n  '%s'", cases[i].mode,
				 out.message, cases[i].msg);
		assert_int_equal(probe_error_exit(out.err), CI_EXIT_UNKNOWN);
		assert_int_equal(out.kubectl_calls, 1);
		assert_int_equal(log_lines(), 1);
		if (!strcmp(cases[i].mode, "cut")) {
			assert_true(out.t.valid);
			assert_false(out.t.complete);
			assert_non_null(transcript_get(&out.t, "cut_here"));
		}
		probe_outcome_release(&out);
	}
}

static void test_hang_deadline(void **state)
{
	(void)state;
	fake_reset();
	setenv("FAKE_KUBECTL_MODE", "hang", 1);
	struct probe_target o = pod_opts();
	o.timeout_s = 1.0;
	struct probe_outcome out;
	double t0 = run_now();
	probe_collect(&o, NULL, &out);
	double took = run_now() - t0;
	assert_int_equal(out.err, PROBE_TIMEOUT);
	assert_string_equal(
		out.message,
		"kubectl exec into pod dynamo/vllm-decode-0 did not finish within 1 s (kubectl was stopped)");
	assert_true(took >= 1.0);
	if (took >= 2.0)
		fail_msg("returned %.3f s after start with a 1 s deadline", took);
	assert_int_equal(out.kubectl_calls, 1);
	assert_int_equal(probe_error_exit(out.err), CI_EXIT_UNKNOWN);
	probe_outcome_release(&out);
}

static void test_latency(void **state)
{
	(void)state;
	fake_reset();
	setenv("FAKE_KUBECTL_TRANSCRIPT", SAMPLE, 1);
	setenv("FAKE_KUBECTL_LATENCY_MS", "300", 1);
	struct probe_target o = pod_opts();
	struct probe_outcome out;
	probe_collect(&o, NULL, &out);
	assert_int_equal(out.err, PROBE_OK);
	assert_true(out.elapsed_s >= 0.3);
	assert_int_equal(log_lines(), 1);
	probe_outcome_release(&out);
}

/* Per-pod behaviour for the fleet work: a folder per pod. */
static void test_pods_dir(void **state)
{
	(void)state;
	fake_reset();
	char dir[128], p[192];
	snprintf(dir, sizeof(dir), "%s/pods", tmpdir);
	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/good", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "cp %s %s/good/transcript", SAMPLE, dir);
	assert_int_equal(system(p), 0);
	snprintf(p, sizeof(p), "%s/denied", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/denied/mode", dir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("forbidden\n", f);
	fclose(f);
	setenv("FAKE_KUBECTL_PODS_DIR", dir, 1);
	struct probe_target o = pod_opts();
	struct probe_outcome out;
	probe_collect(&o, "good", &out);
	assert_int_equal(out.err, PROBE_OK);
	probe_outcome_release(&out);
	probe_collect(&o, "denied", &out);
	assert_int_equal(out.err, PROBE_FORBIDDEN);
	probe_outcome_release(&out);
	probe_collect(&o, "absent", &out);
	assert_int_equal(out.err, PROBE_POD_NOT_FOUND);
	probe_outcome_release(&out);
	assert_int_equal(log_lines(), 3);
}

static void test_bad_targets(void **state)
{
	(void)state;
	static const char *const pods[] = {"a;reboot", "p q", "$(id)", "-it", "UPPER", "", NULL};
	for (const char *const *p = pods; *p; p++) {
		fake_reset();
		struct probe_target o = pod_opts();
		struct probe_outcome out;
		probe_collect(&o, *p, &out);
		if (out.err != PROBE_BAD_TARGET)
			fail_msg("pod '%s' gave %s", *p, probe_error_name(out.err));
		assert_int_equal(probe_error_exit(out.err), CI_EXIT_USAGE);
		assert_int_equal(out.kubectl_calls, 0);
		assert_int_equal(log_lines(), 0); /* no process ran */
		probe_outcome_release(&out);
	}
	struct {
		struct probe_target o;
		const char *msg;
	} cases[] = {
		{{.timeout_s = 5, .kubectl = FAKE, .namespace_ = "ns"},
		 "--pod is required with --namespace"},
		{{.timeout_s = 5, .kubectl = FAKE, .pod = "p"},
		 "--namespace is required with --pod"},
		{{.timeout_s = 5, .kubectl = FAKE, .namespace_ = "ns; id", .pod = "p"}, NULL},
		{{.timeout_s = 5,
		  .kubectl = FAKE,
		  .namespace_ = "ns",
		  .pod = "p",
		  .container = "$(x)"},
		 NULL},
		{{.timeout_s = 5,
		  .kubectl = FAKE,
		  .namespace_ = "ns",
		  .pod = "p",
		  .context = "--as=root"},
		 NULL},
		{{.timeout_s = 5,
		  .kubectl = FAKE,
		  .namespace_ = "ns",
		  .pod = "p",
		  .kubeconfig = "-f"},
		 NULL},
		{{.timeout_s = 5, .kubectl = FAKE, .namespace_ = "ns", .pod = "p", .sysroot = "/"},
		 "--sysroot applies to the local probe, not to a pod"},
		{{.timeout_s = 5, .sysroot = "/nonexistent/sysroot"},
		 "--sysroot /nonexistent/sysroot: No such file or directory"},
		{{.timeout_s = 5, .sysroot = SAMPLE}, "--sysroot " SAMPLE ": not a directory"},
		{{.timeout_s = 5, .kubectl = FAKE, .namespace_ = "ns\x1b[2J", .pod = "p\n"},
		 "invalid namespace name (a Kubernetes name: lowercase letters, digits and '-', at most 63)"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_reset();
		struct probe_outcome out;
		probe_collect(&cases[i].o, NULL, &out);
		if (out.err != PROBE_BAD_TARGET)
			fail_msg("case %zu gave %s", i, probe_error_name(out.err));
		if (cases[i].msg)
			assert_string_equal(out.message, cases[i].msg);
		assert_int_equal(log_lines(), 0);
		for (const char *p = out.target; *p; p++)
			assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
		probe_outcome_release(&out);
	}
}

static void test_kubectl_missing(void **state)
{
	(void)state;
	fake_reset();
	struct probe_target o = pod_opts();
	o.kubectl = "ci-no-such-kubectl";
	struct probe_outcome out;
	probe_collect(&o, NULL, &out);
	assert_int_equal(out.err, PROBE_KUBECTL_MISSING);
	assert_string_equal(out.message, "kubectl not found (install it or pass --kubectl PATH)");
	assert_int_equal(out.kubectl_calls, 0);
	assert_int_equal(probe_error_exit(out.err), CI_EXIT_UNKNOWN);
	probe_outcome_release(&out);

	o.kubectl = "tests/fakes/no-such-kubectl";
	probe_collect(&o, NULL, &out);
	assert_int_equal(out.err, PROBE_KUBECTL_MISSING);
	assert_string_equal(
		out.message,
		"kubectl not found at 'tests/fakes/no-such-kubectl' (install it or pass --kubectl PATH)");
	probe_outcome_release(&out);

	o.kubectl = SAMPLE; /* exists, not executable */
	probe_collect(&o, NULL, &out);
	assert_int_equal(out.err, PROBE_KUBECTL_MISSING);
	assert_non_null(strstr(out.message, "cannot be run: Permission denied"));
	probe_outcome_release(&out);
}

static void test_replay(void **state)
{
	(void)state;
	struct probe_target o = {.timeout_s = 5, .replay = SAMPLE};
	struct probe_outcome out;
	probe_collect(&o, NULL, &out);
	assert_int_equal(out.err, PROBE_OK);
	assert_string_equal(out.target, "replay " SAMPLE);
	assert_int_equal(out.kubectl_calls, 0);
	assert_int_equal(out.t.n, 4);
	probe_outcome_release(&out);

	static const struct {
		const char *file;
		const char *msg;
	} bad[] = {
		{"tests/fixtures/probe/kubectl__notfound_pods_not_found.txt",
		 "cannot replay tests/fixtures/probe/kubectl__notfound_pods_not_found.txt: not a probe transcript (no '@@ci-probe v1' line)"},
		{"tests/fixtures/probe/no-such-file",
		 "cannot replay tests/fixtures/probe/no-such-file: No such file or directory"},
		{"tests/fixtures/probe", "cannot replay tests/fixtures/probe: Is a directory"},
		/* refused by its type on the opened fd, never read (issue 11) */
		{"/dev/zero",
		 "cannot replay /dev/zero: not a regular file or a pipe (a socket or a device), not read"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.replay = bad[i].file;
		probe_collect(&o, NULL, &out);
		assert_int_equal(out.err, PROBE_BAD_TRANSCRIPT);
		assert_string_equal(out.message, bad[i].msg);
		assert_int_equal(probe_error_exit(out.err), CI_EXIT_UNKNOWN);
		probe_outcome_release(&out);
	}

	char cut[160];
	snprintf(cut, sizeof(cut), "%s/cut.txt", tmpdir);
	FILE *f = fopen(cut, "w");
	fputs("@@ci-probe v1\n@@begin a\n|x\n", f);
	fclose(f);
	o.replay = cut;
	probe_collect(&o, NULL, &out);
	assert_int_equal(out.err, PROBE_BAD_TRANSCRIPT);
	assert_non_null(strstr(out.message, "the transcript is cut (no '@@done' line)"));
	assert_true(out.t.valid);
	probe_outcome_release(&out);
}

/* Save through the pod path (the real script, through the fake), replay the
 * file: the same bytes, the same sections. */
static void test_save_replay_round_trip(void **state)
{
	(void)state;
	fake_reset();
	char saved[160];
	snprintf(saved, sizeof(saved), "%s/saved.probe", tmpdir);
	setenv("FAKE_KUBECTL_SYSROOT", "tests/fixtures/probe/sysroot_min", 1);
	struct probe_target o = pod_opts();
	o.timeout_s = 20;
	o.save_probe = saved;
	struct probe_outcome a, b;
	probe_collect(&o, NULL, &a);
	assert_int_equal(a.err, PROBE_OK);

	struct probe_target r = {.timeout_s = 5, .replay = saved};
	probe_collect(&r, NULL, &b);
	assert_int_equal(b.err, PROBE_OK);
	assert_int_equal(a.raw_len, b.raw_len);
	assert_memory_equal(a.raw, b.raw, a.raw_len);
	assert_int_equal(a.t.n, b.t.n);
	for (size_t i = 0; i < a.t.n; i++) {
		assert_string_equal(a.t.s[i].name, b.t.s[i].name);
		assert_int_equal(a.t.s[i].len, b.t.s[i].len);
		assert_memory_equal(a.t.s[i].body, b.t.s[i].body, a.t.s[i].len);
		assert_int_equal(a.t.s[i].rc, b.t.s[i].rc);
	}
	assert_int_equal(log_lines(), 1);
	probe_outcome_release(&a);
	probe_outcome_release(&b);

	/* an unwritable --save-probe is found before anything runs */
	fake_reset();
	setenv("FAKE_KUBECTL_TRANSCRIPT", SAMPLE, 1);
	o.save_probe = "/nonexistent/dir/x.probe";
	probe_collect(&o, NULL, &a);
	assert_int_equal(a.err, PROBE_BAD_TARGET);
	assert_string_equal(
		a.message,
		"cannot write --save-probe /nonexistent/dir/x.probe: No such file or directory");
	assert_false(a.t.valid);
	assert_int_equal(log_lines(), 0); /* kubectl never ran */
	probe_outcome_release(&a);

	/* ... and an existing file is not overwritten without --force */
	fake_reset();
	o.save_probe = saved;
	probe_collect(&o, NULL, &a);
	assert_int_equal(a.err, PROBE_BAD_TARGET);
	assert_non_null(strstr(a.message, "the file exists (--force overwrites it)"));
	probe_outcome_release(&a);

	/* a failed probe writes no file */
	fake_reset();
	setenv("FAKE_KUBECTL_MODE", "forbidden", 1);
	char nofile[160];
	snprintf(nofile, sizeof(nofile), "%s/never.probe", tmpdir);
	o.save_probe = nofile;
	probe_collect(&o, NULL, &a);
	assert_int_equal(a.err, PROBE_FORBIDDEN);
	assert_int_equal(access(nofile, F_OK), -1);
	probe_outcome_release(&a);
}

static void test_local_targets(void **state)
{
	(void)state;
	struct probe_target o = {.timeout_s = 20};
	struct probe_outcome out;
	probe_collect(&o, NULL, &out);
	if (out.err)
		fail_msg("%s: %s", probe_error_name(out.err), out.message);
	assert_string_equal(out.target, "local host");
	assert_true(out.t.valid && out.t.complete);
	assert_int_equal(out.kubectl_calls, 0);
	probe_outcome_release(&out);

	o.sysroot = "tests/fixtures/probe/sysroot_min";
	probe_collect(&o, NULL, &out);
	assert_int_equal(out.err, PROBE_OK);
	assert_string_equal(out.target, "sysroot tests/fixtures/probe/sysroot_min");
	assert_true(out.t.valid && out.t.complete);
	probe_outcome_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ok_transcript),
		cmocka_unit_test(test_argv_seen_by_kubectl),
		cmocka_unit_test(test_ok_sysroot_script),
		cmocka_unit_test(test_error_modes),
		cmocka_unit_test(test_hang_deadline),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_pods_dir),
		cmocka_unit_test(test_bad_targets),
		cmocka_unit_test(test_kubectl_missing),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_save_replay_round_trip),
		cmocka_unit_test(test_local_targets),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
