/* SPDX-License-Identifier: Apache-2.0 */
/* Kubernetes names, the one exec argv (the script element is the embedded
 * script byte for byte, user input only in its own elements), the embedding
 * itself, and the classification of every real kubectl error text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report.h"
#include "core/xalloc.h"
#include "probe/kube.h"
#include "probe/kube_dgd.h"
#include "probe/kube_kustomize.h"
#include "probe/probe.h"

static void test_names(void **state)
{
	(void)state;
	static const char *const good[] = {"a",
					   "0",
					   "vllm-decode-0",
					   "worker-7b9f-x2",
					   "a.b",
					   "pod.with-dots.x1",
					   "llama-3-70b-disagg-decodeworker-0",
					   NULL};
	static const char *const bad[] = {"",
					  "-a",
					  "a-",
					  "A",
					  "Pod",
					  "a_b",
					  "a;b",
					  "a b",
					  "$(id)",
					  "`id`",
					  "a..b",
					  ".a",
					  "a.",
					  "a\nb",
					  "a/b",
					  "-n",
					  "--kubeconfig=/x",
					  "é",
					  "a\tb",
					  "ns;rm -rf /",
					  NULL};
	for (const char *const *p = good; *p; p++)
		if (!kube_name_valid(*p))
			fail_msg("'%s' should be a valid pod name", *p);
	for (const char *const *p = bad; *p; p++) {
		if (kube_name_valid(*p))
			fail_msg("'%s' should be rejected as a pod name", *p);
		if (kube_label_valid(*p))
			fail_msg("'%s' should be rejected as a label", *p);
	}
	assert_false(kube_name_valid(NULL));
	assert_false(kube_label_valid(NULL));
	assert_false(kube_label_valid("a.b")); /* namespaces and containers: no dots */
	assert_true(kube_label_valid("dynamo-system"));

	char s[300];
	memset(s, 'a', 63);
	s[63] = '\0';
	assert_true(kube_label_valid(s));
	memset(s, 'a', 64);
	s[64] = '\0';
	assert_false(kube_label_valid(s));
	assert_false(kube_name_valid(s)); /* each label <= 63 */
	/* 253 = 3 labels of 63 and one of 61, with 3 dots */
	size_t n = 0;
	for (int i = 0; i < 3; i++) {
		memset(s + n, 'b', 63);
		n += 63;
		s[n++] = '.';
	}
	memset(s + n, 'c', 61);
	n += 61;
	s[n] = '\0';
	assert_int_equal(n, 253);
	assert_true(kube_name_valid(s));
	s[n++] = 'c';
	s[n] = '\0';
	assert_false(kube_name_valid(s));
}

static void test_loose(void **state)
{
	(void)state;
	assert_true(kube_loose_valid("arn:aws:eks:us-west-2:123456789012:cluster/prod"));
	assert_true(kube_loose_valid("gke_proj_us-central1_c1"));
	assert_true(kube_loose_valid("my context"));
	assert_true(kube_loose_valid("/home/u/.kube/config"));
	assert_false(kube_loose_valid(NULL));
	assert_false(kube_loose_valid(""));
	assert_false(kube_loose_valid("-n"));
	assert_false(kube_loose_valid("--kubeconfig=/etc/x"));
	assert_false(kube_loose_valid("a\nb"));
	assert_false(kube_loose_valid("a\x1b[31m"));
	assert_false(kube_loose_valid("a\x7f"));
	char *big = xmalloc(2000);
	memset(big, 'x', 1999);
	big[1999] = '\0';
	assert_false(kube_loose_valid(big));
	big[1024] = '\0';
	assert_true(kube_loose_valid(big));
	free(big);
}

static void test_argv_full(void **state)
{
	(void)state;
	struct kube_target k = {.kubectl = "/opt/bin/kubectl",
				.context = "arn:aws:eks:x:1:cluster/a b",
				.kubeconfig = "/tmp/k config",
				.namespace_ = "dynamo",
				.pod = "vllm-decode-0",
				.container = "main"};
	const char *argv[KUBE_ARGV_MAX];
	char *why = NULL;
	int n = kube_exec_argv(&k, probe_script, "", argv, &why);
	assert_null(why);
	static const char *const want[] = {"/opt/bin/kubectl",
					   "--context",
					   "arn:aws:eks:x:1:cluster/a b",
					   "--kubeconfig",
					   "/tmp/k config",
					   "exec",
					   "-n",
					   "dynamo",
					   "vllm-decode-0",
					   "-c",
					   "main",
					   "--",
					   "sh",
					   "-c",
					   NULL /* the script */,
					   "ci-probe",
					   ""};
	assert_int_equal(n, (int)(sizeof(want) / sizeof(want[0])));
	for (int i = 0; i < n; i++) {
		if (want[i])
			assert_string_equal(argv[i], want[i]);
		else
			assert_ptr_equal(argv[i], probe_script);
	}
	assert_null(argv[n]);
	/* never a TTY or stdin */
	for (int i = 0; i < n; i++) {
		assert_string_not_equal(argv[i], "-it");
		assert_string_not_equal(argv[i], "-t");
		assert_string_not_equal(argv[i], "-i");
		assert_string_not_equal(argv[i], "--tty");
	}
}

static void test_argv_minimal(void **state)
{
	(void)state;
	struct kube_target k = {.kubectl = "kubectl", .namespace_ = "ns", .pod = "p"};
	const char *argv[KUBE_ARGV_MAX];
	char *why = NULL;
	int n = kube_exec_argv(&k, probe_script, "", argv, &why);
	static const char *const want[] = {"kubectl", "exec", "-n", "ns",       "p", "--",
					   "sh",      "-c",   NULL, "ci-probe", ""};
	assert_int_equal(n, 11);
	for (int i = 0; i < n; i++)
		if (want[i])
			assert_string_equal(argv[i], want[i]);
	assert_ptr_equal(argv[8], probe_script);
	assert_memory_equal(argv[8], probe_script, probe_script_len);
	assert_int_equal(strlen(argv[8]), probe_script_len);
}

/* env --deployment: one read-only get, the names in their own elements. */
static void test_dgd_argv(void **state)
{
	(void)state;
	const char *argv[KUBE_DGD_ARGV_MAX];
	char *why = NULL;
	int n = kube_get_dgd_argv("kubectl", "ctx", NULL, "ns", "my.dgd", argv, &why);
	static const char *const want[] = {
		"kubectl", "--context", "ctx", "get", "dynamographdeployments.nvidia.com",
		"my.dgd",  "-n",        "ns",  "-o",  "json"};
	assert_int_equal(n, 10);
	for (int i = 0; i < n; i++)
		assert_string_equal(argv[i], want[i]);
	assert_null(argv[n]);
	static const char *const bad[] = {"-o", "a b", "x;rm", "UPPER", "", NULL};
	for (size_t i = 0; bad[i]; i++) {
		assert_int_equal(kube_get_dgd_argv("kubectl", NULL, NULL, "ns", bad[i], argv, &why),
				 -1);
		assert_non_null(why);
		free(why);
		why = NULL;
	}
	assert_int_equal(kube_get_dgd_argv("kubectl", NULL, NULL, "-n", "d", argv, &why), -1);
	free(why);
}

/* `kubectl kustomize -- DIR`: the folder is one element after "--", so a
 * folder named like an option stays a folder; an option-like kubectl is
 * refused.  What kustomize says is one line: the real stderr of kubectl
 * v1.32.4 (kustomize v5.5.0, klog's err="...") and of the older form. */
static void test_kustomize(void **state)
{
	(void)state;
	const char *argv[KUBE_KUSTOMIZE_ARGV_MAX];
	assert_int_equal(kube_kustomize_argv("kubectl", "-rf", argv), 4);
	assert_string_equal(argv[1], "kustomize");
	assert_string_equal(argv[2], "--");
	assert_string_equal(argv[3], "-rf");
	assert_null(argv[4]);
	assert_int_equal(kube_kustomize_argv("--kubeconfig=x", "d", argv), -1);
	assert_int_equal(kube_kustomize_argv("kubectl", "", argv), -1);

	static const char klog[] =
		"E1202 13:19:22.433489   27041 run.go:72] \"command failed\" "
		"err=\"accumulating resources: accumulation err='accumulating resources from "
		"'../missing': evalsymlink failure on '/tmp/kz/missing' : lstat /tmp/kz/missing: "
		"no such file or directory'\"\n";
	char *m = kube_kustomize_error(klog, sizeof(klog) - 1);
	assert_non_null(strstr(m, "accumulating resources: accumulation err="));
	assert_null(strchr(m, '"'));
	free(m);
	static const char old[] = "Warning: something\nerror: must build at directory: "
				  "not a valid directory: evalsymlink failure\n";
	m = kube_kustomize_error(old, sizeof(old) - 1);
	assert_string_equal(m,
			    "must build at directory: not a valid directory: evalsymlink failure");
	free(m);
	m = kube_kustomize_error("one\ntwo\n\n", 9);
	assert_string_equal(m, "two");
	free(m);
	m = kube_kustomize_error(NULL, 0);
	assert_string_equal(m, "no message");
	free(m);
	char big[1000];
	memset(big, 'x', sizeof(big));
	m = kube_kustomize_error(big, sizeof(big));
	assert_int_equal(strlen(m), 200);
	free(m);

	/* no kubectl: said once, the run goes on without a rendering */
	char *out = NULL, *err = NULL;
	size_t len = 0;
	assert_int_equal(
		kube_kustomize("/nonexistent/kubectl", "d", run_now() + 5, &out, &len, &err),
		PROBE_KUBECTL_MISSING);
	assert_null(out);
	assert_non_null(strstr(err, "not found"));
	free(err);
}

/* Hostile input is refused before any argv exists (and so before any
 * process runs: probe_collect checks this first). */
static void test_argv_rejects(void **state)
{
	(void)state;
	struct {
		struct kube_target k;
		const char *needle;
	} cases[] = {
		{{.kubectl = "kubectl", .namespace_ = "a;b", .pod = "p"}, "namespace"},
		{{.kubectl = "kubectl", .namespace_ = "ns x", .pod = "p"}, "namespace"},
		{{.kubectl = "kubectl", .namespace_ = "ns", .pod = "$(reboot)"}, "pod"},
		{{.kubectl = "kubectl", .namespace_ = "ns", .pod = "-it"}, "pod"},
		{{.kubectl = "kubectl", .namespace_ = "ns", .pod = "p; id"}, "pod"},
		{{.kubectl = "kubectl", .namespace_ = "-n", .pod = "p"}, "namespace"},
		{{.kubectl = "kubectl",
		  .namespace_ = "ns",
		  .pod = "p",
		  .container = "--privileged"},
		 "container"},
		{{.kubectl = "kubectl", .namespace_ = "ns", .pod = "p", .container = "a b"},
		 "container"},
		{{.kubectl = "kubectl", .namespace_ = "ns", .pod = "p", .context = "--as=admin"},
		 "--context"},
		{{.kubectl = "kubectl", .namespace_ = "ns", .pod = "p", .context = "a\nb"},
		 "--context"},
		{{.kubectl = "kubectl", .namespace_ = "ns", .pod = "p", .kubeconfig = "-x"},
		 "--kubeconfig"},
		{{.kubectl = "kubectl", .namespace_ = NULL, .pod = "p"}, "namespace"},
		{{.kubectl = "kubectl", .namespace_ = "ns", .pod = NULL}, "pod"},
		{{.kubectl = "", .namespace_ = "ns", .pod = "p"}, "kubectl"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[KUBE_ARGV_MAX];
		char *why = NULL;
		if (kube_exec_argv(&cases[i].k, probe_script, "", argv, &why) != -1)
			fail_msg("case %zu accepted", i);
		assert_non_null(why);
		if (!strstr(why, cases[i].needle))
			fail_msg("case %zu: '%s' does not name %s", i, why, cases[i].needle);
		assert_null(strchr(why, '\n'));
		free(why);
	}
}

/* The embedded script is probe.sh byte for byte. */
static void test_embedded_script(void **state)
{
	(void)state;
	FILE *f = fopen("src/probe/probe.sh", "rb");
	assert_non_null(f);
	size_t cap = probe_script_len + 16;
	char *buf = xmalloc(cap);
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	assert_int_equal(n, probe_script_len);
	assert_memory_equal(buf, probe_script, n);
	assert_int_equal(probe_script[probe_script_len], '\0');
	assert_int_equal(strlen(probe_script), probe_script_len);
	free(buf);
}

/* ---- classification over the real kubectl texts ---- */

/* The output part of a fixture (after "# ---"), split at "### " lines. */
static size_t fixture_chunks(const char *path, char **chunks, size_t max)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	char line[4096];
	bool body = false;
	size_t n = 0;
	size_t len = 0;
	char *cur = NULL;
	while (fgets(line, sizeof(line), f)) {
		if (!body) {
			if (!strncmp(line, "# ---", 5))
				body = true;
			continue;
		}
		if (!strncmp(line, "### ", 4)) {
			if (cur && n < max)
				chunks[n++] = cur;
			cur = NULL;
			len = 0;
			continue;
		}
		size_t l = strlen(line);
		cur = xrealloc(cur, len + l + 1);
		memcpy(cur + len, line, l + 1);
		len += l;
	}
	if (cur && n < max)
		chunks[n++] = cur;
	fclose(f);
	if (!body)
		fail_msg("%s has no '# ---' header line", path);
	return n;
}

/* kubectl exits with the remote status when it says so, else 1 */
static int exit_of(const char *chunk)
{
	const char *p = strstr(chunk, "command terminated with exit code ");
	return p ? atoi(p + 34) : 1;
}

static void test_classify_fixtures(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		enum probe_error want;
		size_t chunks;
		const char *msg_part;
	} cases[] = {
		{"kubectl__notfound_pods_not_found.txt", PROBE_POD_NOT_FOUND, 2,
		 "pod dynamo/w-0 not found; kubectl said "},
		{"kubectl__unauthorized_must_be_logged_in.txt", PROBE_UNAUTHORIZED, 2,
		 "not logged in"},
		{"kubectl__no_context_localhost_refused_crafted.txt", PROBE_UNAUTHORIZED, 1,
		 "no cluster configured"},
		{"kubectl_exec__bash_no_such_file_exit127.txt", PROBE_NO_SHELL, 1,
		 "no 'sh' in the container of pod dynamo/w-0"},
		{"kubectl_exec__containerd_internal_error_ps_not_found.txt", PROBE_NO_SHELL, 1,
		 "executable file not found"},
		{"kubectl_exec__oci_executable_not_found_exit126.txt", PROBE_NO_SHELL, 1,
		 "OCI runtime exec failed"},
		{"kubectl_exec__forbidden_pods_exec_crafted.txt", PROBE_FORBIDDEN, 2,
		 "RBAC forbids exec into pod dynamo/w-0"},
		{"kubectl_exec__unable_to_upgrade_connection_container_not_found.txt",
		 PROBE_CONTAINER_NOT_FOUND, 2, "container not found"},
		{"kubectl_exec__unable_to_upgrade_connection_pod_does_not_exist.txt",
		 PROBE_POD_NOT_FOUND, 1, "pod does not exist"},
	};
	struct kube_target k = {.kubectl = "kubectl", .namespace_ = "dynamo", .pod = "w-0"};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[256];
		char *chunks[8];
		snprintf(path, sizeof(path), "tests/fixtures/probe/%s", cases[i].file);
		size_t n = fixture_chunks(path, chunks, 8);
		if (n != cases[i].chunks)
			fail_msg("%s: %zu outputs, expected %zu", cases[i].file, n,
				 cases[i].chunks);
		for (size_t c = 0; c < n; c++) {
			char *m = NULL;
			enum probe_error e = kube_classify(&k, RUN_EXITED, 0, exit_of(chunks[c]), 0,
							   chunks[c], strlen(chunks[c]), &m);
			if (e != cases[i].want)
				fail_msg("%s #%zu: %s, expected %s (%s)", cases[i].file, c + 1,
					 probe_error_name(e), probe_error_name(cases[i].want), m);
			assert_non_null(m);
			assert_null(strchr(m, '\n'));
			if (!strstr(m, cases[i].msg_part))
				fail_msg("%s #%zu: message '%s' lacks '%s'", cases[i].file, c + 1,
					 m, cases[i].msg_part);
			assert_int_equal(probe_error_exit(e), CI_EXIT_UNKNOWN);
			free(m);
			free(chunks[c]);
		}
	}
}

static void test_classify_messages(void **state)
{
	(void)state;
	struct kube_target k = {.kubectl = "kubectl", .namespace_ = "ns", .pod = "p"};
	char *m = NULL;

	assert_int_equal(kube_classify(&k, RUN_NOT_FOUND, ENOENT, -1, 0, "", 0, &m),
			 PROBE_KUBECTL_MISSING);
	assert_string_equal(m, "kubectl not found (install it or pass --kubectl PATH)");
	free(m);

	struct kube_target kp = k;
	kp.kubectl = "/opt/k8s/kubectl";
	assert_int_equal(kube_classify(&kp, RUN_NOT_FOUND, ENOENT, -1, 0, "", 0, &m),
			 PROBE_KUBECTL_MISSING);
	assert_string_equal(
		m, "kubectl not found at '/opt/k8s/kubectl' (install it or pass --kubectl PATH)");
	free(m);

	assert_int_equal(kube_classify(&kp, RUN_NOT_EXECUTABLE, EACCES, -1, 0, "", 0, &m),
			 PROBE_KUBECTL_MISSING);
	assert_string_equal(
		m,
		"kubectl '/opt/k8s/kubectl' cannot be run: Permission denied (pass --kubectl PATH)");
	free(m);

	/* exit 127 alone (no text): the shell is missing */
	assert_int_equal(kube_classify(&k, RUN_EXITED, 0, 127, 0, "", 0, &m), PROBE_NO_SHELL);
	free(m);

	/* the fixture for the exit status 126 trailer alone */
	static const char t126[] = "command terminated with exit code 126\n";
	assert_int_equal(kube_classify(&k, RUN_EXITED, 0, 126, 0, t126, sizeof(t126) - 1, &m),
			 PROBE_NO_SHELL);
	free(m);

	static const char unreach[] =
		"Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout\n";
	assert_int_equal(kube_classify(&k, RUN_EXITED, 0, 1, 0, unreach, sizeof(unreach) - 1, &m),
			 PROBE_EXEC_FAILED);
	assert_string_equal(
		m,
		"kubectl cannot reach the cluster; kubectl said 'Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout'");
	free(m);

	/* warnings are skipped; ANSI and CR do not reach the message */
	static const char other[] = "Defaulted container \"main\" out of: main, sidecar\r\n"
				    "W0101 00:00:00.000000 1 warnings.go:70] something\n"
				    "error: \x1b[31mstrange failure\x1b[0m\r\n";
	assert_int_equal(kube_classify(&k, RUN_EXITED, 0, 1, 0, other, sizeof(other) - 1, &m),
			 PROBE_EXEC_FAILED);
	assert_string_equal(
		m,
		"kubectl exec into pod ns/p failed (exit 1) without a probe transcript; kubectl said ' [31mstrange failure [0m'");
	free(m);

	assert_int_equal(kube_classify(&k, RUN_EXITED, 0, 0, 0, "", 0, &m), PROBE_EXEC_FAILED);
	assert_string_equal(
		m, "kubectl exec into pod ns/p failed (exit 0) without a probe transcript");
	free(m);

	assert_int_equal(kube_classify(&k, RUN_SIGNALED, 0, -1, 9, "", 0, &m), PROBE_EXEC_FAILED);
	assert_string_equal(m, "kubectl exec into pod ns/p was killed by signal 9");
	free(m);

	static const char ctr[] = "error: container gpu is not valid for pod p\n";
	assert_int_equal(kube_classify(&k, RUN_EXITED, 0, 1, 0, ctr, sizeof(ctr) - 1, &m),
			 PROBE_CONTAINER_NOT_FOUND);
	assert_string_equal(
		m,
		"container not found or not running in pod ns/p; kubectl said 'container gpu is not valid for pod p'");
	free(m);

	static const char done[] =
		"error: cannot exec into a container in a completed pod; current phase is Succeeded\n";
	assert_int_equal(kube_classify(&k, RUN_EXITED, 0, 1, 0, done, sizeof(done) - 1, &m),
			 PROBE_CONTAINER_NOT_FOUND);
	free(m);

	static const char forb[] =
		"Error from server (Forbidden): pods \"p\" is forbidden: User \"u\" cannot create resource \"pods/exec\" in API group \"\" in the namespace \"ns\"\n";
	assert_int_equal(kube_classify(&k, RUN_EXITED, 0, 1, 0, forb, sizeof(forb) - 1, &m),
			 PROBE_FORBIDDEN);
	assert_string_equal(
		m,
		"RBAC forbids exec into pod ns/p (needs 'get' on pods and 'create' on pods/exec); "
		"kubectl said 'pods \"p\" is forbidden: User \"u\" cannot create "
		"resource \"pods/exec\" in API group \"\" in the namespace \"ns\"'");
	free(m);

	static const char nf[] = "Error from server (NotFound): pods \"p\" not found\n";
	assert_int_equal(kube_classify(&k, RUN_EXITED, 0, 1, 0, nf, sizeof(nf) - 1, &m),
			 PROBE_POD_NOT_FOUND);
	assert_string_equal(m, "pod ns/p not found; kubectl said 'pods \"p\" not found'");
	free(m);

	static const char ctx[] = "error: context \"prod\" does not exist\n";
	assert_int_equal(kube_classify(&k, RUN_EXITED, 0, 1, 0, ctx, sizeof(ctx) - 1, &m),
			 PROBE_UNAUTHORIZED);
	assert_string_equal(
		m,
		"kubectl is not logged in or has no usable context/kubeconfig; kubectl said 'context \"prod\" does not exist'");
	free(m);

	/* a very long line is cut, still one line */
	char longl[2000];
	memset(longl, 'z', sizeof(longl) - 2);
	longl[sizeof(longl) - 2] = '\n';
	longl[sizeof(longl) - 1] = '\0';
	kube_classify(&k, RUN_EXITED, 0, 1, 0, longl, strlen(longl), &m);
	assert_true(strlen(m) < 400);
	assert_non_null(strstr(m, "..."));
	free(m);
}

static void test_error_names(void **state)
{
	(void)state;
	assert_string_equal(probe_error_name(PROBE_OK), "ok");
	assert_string_equal(probe_error_name(PROBE_NO_SHELL), "no_shell");
	assert_string_equal(probe_error_name(PROBE_BAD_TARGET), "bad_target");
	assert_int_equal(probe_error_exit(PROBE_OK), 0);
	assert_int_equal(probe_error_exit(PROBE_TIMEOUT), 3);
	assert_int_equal(probe_error_exit(PROBE_KUBECTL_MISSING), 3);
	assert_int_equal(probe_error_exit(PROBE_BAD_TARGET), 64);
	for (int e = PROBE_OK; e <= PROBE_BAD_TARGET; e++)
		assert_string_not_equal(probe_error_name((enum probe_error)e), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_loose),
		cmocka_unit_test(test_argv_full),
		cmocka_unit_test(test_argv_minimal),
		cmocka_unit_test(test_dgd_argv),
		cmocka_unit_test(test_kustomize),
		cmocka_unit_test(test_argv_rejects),
		cmocka_unit_test(test_embedded_script),
		cmocka_unit_test(test_classify_fixtures),
		cmocka_unit_test(test_classify_messages),
		cmocka_unit_test(test_error_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
