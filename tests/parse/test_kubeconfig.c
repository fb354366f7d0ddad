/* SPDX-License-Identifier: Apache-2.0 */
/* kubeconfig: current-context, each context's namespace, odd shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/yaml_limits.h"
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

/* n levels of nesting under contexts[0].context, as flow or block YAML. */
static char *nested(int n, bool flow)
{
	size_t cap = (size_t)n * (flow ? 2 : (size_t)n + 8) + 256;
	char *s = malloc(cap), *p = s;
	if (!s)
		abort();
	p += sprintf(p, "current-context: a\ncontexts:\n- name: a\n  context:\n    namespace: ns\n"
			"    deep: ");
	if (flow) {
		for (int i = 0; i < n; i++)
			*p++ = '[';
		for (int i = 0; i < n; i++)
			*p++ = ']';
		*p++ = '\n';
	} else {
		*p++ = '\n';
		for (int i = 0; i < n; i++) {
			memset(p, ' ', (size_t)i + 6);
			p += i + 6;
			p += sprintf(p, "k:\n");
		}
		memset(p, ' ', (size_t)n + 6);
		p += n + 6;
		p += sprintf(p, "v\n");
	}
	*p = '\0';
	assert_true((size_t)(p - s) < cap);
	return s;
}

/* Issue 23: the recipe reader's caps.  A 128 KB file of nested flow
 * sequences (67 s through the document loader) stops at the depth cap
 * having read a few dozen events; 64 levels in all are still read. */
static void test_bounds_depth(void **state)
{
	(void)state;
	struct kubeconfig kc;
	char *s = nested(64 << 10, true); /* 128 KB of brackets */
	assert_int_equal(kubeconfig_parse(s, strlen(s), &kc), -1);
	assert_non_null(kc.error);
	assert_non_null(strstr(kc.error, "depth"));
	assert_true(kc.events <= 2 * YAML_MAX_DEPTH);
	assert_int_equal(kc.n_contexts, 0);
	kubeconfig_release(&kc);
	free(s);
	/* root, contexts, item, context: 4 levels; 60 more are the most */
	s = nested(YAML_MAX_DEPTH - 4, true);
	assert_int_equal(kubeconfig_parse(s, strlen(s), &kc), 0);
	assert_string_equal(kubeconfig_context(&kc, "a")->namespace_, "ns");
	kubeconfig_release(&kc);
	free(s);
	s = nested(YAML_MAX_DEPTH - 3, true);
	assert_int_equal(kubeconfig_parse(s, strlen(s), &kc), -1);
	kubeconfig_release(&kc);
	free(s);
	s = nested(2000, false); /* block style: about 2 MB */
	assert_int_equal(kubeconfig_parse(s, strlen(s), &kc), -1);
	assert_true(kc.events <= 3 * YAML_MAX_DEPTH); /* a key and a mapping per level */
	kubeconfig_release(&kc);
	free(s);
}

/* A maximum-size file of tiny nodes stops at the node cap, and one byte
 * over the size cap is not read at all. */
static void test_bounds_size(void **state)
{
	(void)state;
	size_t len = YAML_MAX_FILE_BYTES;
	char *s = malloc(len + 2);
	memset(s, '\n', len + 1);
	memcpy(s, "contexts:\n", 10);
	for (size_t i = 10; i + 4 <= len; i += 4)
		memcpy(s + i, "- a\n", 4);
	s[len] = '\0';
	struct kubeconfig kc;
	assert_int_equal(kubeconfig_parse(s, len, &kc), -1);
	assert_non_null(strstr(kc.error, "nodes"));
	assert_true(kc.events <= YAML_MAX_NODES + 1);
	kubeconfig_release(&kc);
	assert_int_equal(kubeconfig_parse(s, YAML_MAX_FILE_BYTES + 1, &kc), -1);
	assert_int_equal(kc.events, 0);
	assert_non_null(strstr(kc.error, "size"));
	kubeconfig_release(&kc);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contexts),    cmocka_unit_test(test_odd),
		cmocka_unit_test(test_files),       cmocka_unit_test(test_bounds_depth),
		cmocka_unit_test(test_bounds_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
