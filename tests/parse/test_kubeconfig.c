/* SPDX-License-Identifier: Apache-2.0 */
/* kubeconfig: current-context, each context's namespace, odd shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "parse/kubeconfig.h"
#include "probe/kube_context.h"

static void parse_str(const char *s, struct kubeconfig *kc, int want)
{
	assert_int_equal(kubeconfig_parse(s, strlen(s), kc), want);
}

static void test_contexts(void **state)
{
	(void)state;
	struct kubeconfig kc;
	parse_str("current-context: a\ncontexts:\n- name: a\n  context: {namespace: ns-a}\n"
		  "- name: b\n  context: {cluster: c}\n- context: {namespace: nameless}\n",
		  &kc, 0);
	assert_string_equal(kc.current_context, "a");
	assert_int_equal(kc.n_contexts, 2);
	assert_string_equal(kubeconfig_context(&kc, "a")->namespace_, "ns-a");
	assert_null(kubeconfig_context(&kc, "b")->namespace_);
	assert_null(kubeconfig_context(&kc, "c"));
	kubeconfig_release(&kc);
}

static void test_odd(void **state)
{
	(void)state;
	struct kubeconfig kc;
	parse_str("", &kc, -1);
	kubeconfig_release(&kc);
	parse_str("- a list\n", &kc, -1);
	kubeconfig_release(&kc);
	parse_str("current-context: \"\"\ncontexts: {not: a list}\n", &kc, 0);
	assert_null(kc.current_context);
	assert_int_equal(kc.n_contexts, 0);
	kubeconfig_release(&kc);
	parse_str("current-context: [x]\ncontexts: [1, {name: [y]}, {name: z, context: 3}]\n", &kc,
		  0);
	assert_null(kc.current_context);
	assert_int_equal(kc.n_contexts, 1);
	assert_null(kc.contexts[0].namespace_);
	kubeconfig_release(&kc);
	parse_str("{unclosed: [\n", &kc, -1);
	kubeconfig_release(&kc);
}

static void ns_is(const char *kubeconfig, const char *ctx, const char *want)
{
	char *ns = kube_context_namespace(kubeconfig, ctx);
	assert_string_equal(ns, want);
	free(ns);
}

/* The files: --kubeconfig, else $KUBECONFIG (first file wins per field),
 * else $HOME/.kube/config; "default" when nothing says. */
static void test_files(void **state)
{
	(void)state;
	const char *a = "tests/fixtures/kube/config", *b = "tests/fixtures/kube/config-second";
	unsetenv("KUBECONFIG");
	setenv("HOME", "/nonexistent", 1);
	ns_is(NULL, NULL, "default");
	ns_is(a, NULL, "dynamo");
	ns_is(a, "staging", "staging");
	ns_is(a, "no-namespace", "default");
	ns_is(a, "missing", "default");
	setenv("KUBECONFIG", "tests/fixtures/kube/config:tests/fixtures/kube/config-second", 1);
	ns_is(NULL, NULL, "dynamo");      /* a's current-context and a's context */
	ns_is(NULL, "other", "other-ns"); /* only b defines it */
	setenv("KUBECONFIG", "tests/fixtures/kube/config-second:tests/fixtures/kube/config", 1);
	ns_is(NULL, NULL, "other-ns");
	ns_is(NULL, "gpu-cluster", "should-not-win"); /* b first now */
	ns_is(b, "staging", "default");               /* --kubeconfig replaces $KUBECONFIG */
	setenv("KUBECONFIG", "/dev/null:/nonexistent", 1);
	ns_is(NULL, NULL, "default");
	unsetenv("KUBECONFIG");
	setenv("HOME", "tests/fixtures/kube/home", 1);
	ns_is(NULL, NULL, "dynamo");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contexts),
		cmocka_unit_test(test_odd),
		cmocka_unit_test(test_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
