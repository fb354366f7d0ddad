/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The option table is the one source of every option (src/cmd/options.h):
 * each row names real verbs of the right target kind, each OPT_* bit has
 * one row, getopt's array is the table's, and --help, `help VERB`, the man
 * page and both completions show exactly the rows a verb takes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/help.h"
#include "cmd/options.h"

/* Calls fn(word) for each word of a space-separated list. */
static void each_word(const char *list,
		      void (*fn)(const char *w, const struct cli_option *d, unsigned kind),
		      const struct cli_option *d, unsigned kind)
{
	char buf[256];
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, " ");
		assert_true(n < sizeof(buf));
		memcpy(buf, p, n);
		buf[n] = '\0';
		fn(buf, d, kind);
		p += n;
		p += strspn(p, " ");
	}
}

static void real_verb(const char *w, const struct cli_option *d, unsigned kind)
{
	const struct verb *v = verb_find(w);
	if (!v)
		fail_msg("%s names '%s', which is not a verb", d->name, w);
	if (kind && !(v->targets & kind))
		fail_msg("%s: '%s' takes no %s target", d->name, w,
			 kind == VT_PROBE ? "probe" : "fleet");
	assert_true(cli_option_taken(v, d, v->targets));
}

static void test_rows_name_verbs(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_cli_options; i++) {
		const struct cli_option *d = &cli_options[i];
		each_word(d->verbs, real_verb, d, 0);
		each_word(d->probe, real_verb, d, VT_PROBE);
		each_word(d->fleet, real_verb, d, VT_FLEET);
		/* a row without a bit is every verb's; one with a bit names its verbs */
		if (d->bit)
			assert_true(d->verbs || d->probe || d->fleet);
		else
			assert_true(!d->verbs && !d->probe && !d->fleet);
	}
}

static void test_one_row_per_bit(void **state)
{
	(void)state;
	unsigned seen = 0;
	for (size_t i = 0; i < n_cli_options; i++) {
		unsigned b = cli_options[i].bit;
		if (!b)
			continue;
		if (seen & b)
			fail_msg("%s: its OPT_ bit is another row's too", cli_options[i].name);
		seen |= b;
	}
	assert_int_equal(seen, (1u << OPT_COUNT_) - 1);
}

static void test_rows_consistent(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_cli_options; i++) {
		const struct cli_option *d = &cli_options[i];
		assert_true(d->name[0] == '-' && d->text && d->text[0]);
		assert_int_equal(d->arg == NULL, d->has_arg == OA_NONE);
		if (d->has_arg == OA_OPTIONAL)
			assert_true(!strncmp(d->arg, "[=", 2));
		if (d->kind == OK_FLAG)
			assert_int_equal(d->has_arg, OA_NONE);
		if (d->kind == OK_STRING || d->kind == OK_DURATION)
			assert_int_equal(d->has_arg, OA_REQUIRED);
		if (d->kind == OK_COUNT)
			assert_true(d->min <= d->max && d->hint);
		if (d->kind == OK_DURATION)
			assert_non_null(d->hint);
		for (size_t k = 0; k < i; k++) {
			assert_string_not_equal(d->name, cli_options[k].name);
			char a = cli_option_short(d);
			assert_true(!a || a != cli_option_short(&cli_options[k]));
		}
	}
}

static const struct option *long_named(const struct option *l, const char *name)
{
	for (; l->name; l++)
		if (!strcmp(l->name, name))
			return l;
	return NULL;
}

static void test_getopt_from_table(void **state)
{
	(void)state;
	const char *shorts;
	const struct option *longs = cli_options_getopt(&shorts);
	assert_int_equal(shorts[0], ':');
	size_t n_long = 0;
	for (const struct option *l = longs; l->name; l++)
		n_long++;
	size_t want = 0;
	for (size_t i = 0; i < n_cli_options; i++) {
		const struct cli_option *d = &cli_options[i];
		const char *names[] = {d->name, d->alias};
		for (size_t k = 0; k < 2; k++) {
			if (!names[k] || strncmp(names[k], "--", 2))
				continue;
			want++;
			const struct option *l = long_named(longs, names[k] + 2);
			if (!l) {
				fail_msg("getopt does not take %s", names[k]);
				return;
			}
			assert_int_equal(l->has_arg, (int)d->has_arg);
			assert_ptr_equal(cli_option_of(l->val), d);
		}
		char sc = cli_option_short(d);
		if (sc) {
			const char *p = strchr(shorts + 1, sc);
			if (!p) {
				fail_msg("getopt does not take -%c", sc);
				return;
			}
			size_t colons = strspn(p + 1, ":");
			assert_int_equal(colons, (size_t)d->has_arg);
			assert_ptr_equal(cli_option_of(sc), d);
		}
	}
	assert_int_equal(n_long, want);
}

/* What the old masks were (commands.c's .options, targets.c's PROBE_OPTS
 * and FLEET_OPTS), so that the move to the rows changed no verb; then -A
 * (issue 24) for the fan-out verbs. */
static void test_masks(void **state)
{
	(void)state;
	const unsigned probe = OPT_NAMESPACE | OPT_POD | OPT_CONTAINER | OPT_CONTEXT |
			       OPT_KUBECONFIG | OPT_KUBECTL | OPT_SYSROOT | OPT_SAVE_PROBE |
			       OPT_REPLAY | OPT_TIMEOUT | OPT_FORCE;
	const unsigned fleet = OPT_NAMESPACE | OPT_CONTAINER | OPT_CONTEXT | OPT_KUBECONFIG |
			       OPT_KUBECTL | OPT_TIMEOUT | OPT_DEPLOYMENT | OPT_SELECTOR |
			       OPT_JOBS | OPT_DEADLINE | OPT_ALL_NAMESPACES;
	const unsigned live = OPT_OBSERVE | OPT_LOGS;
	/* env renders kustomize overlays with --kubectl */
	assert_int_equal(verb_allowed_options(verb_find("env"), VT_PATHS),
			 OPT_MAX_FILES | OPT_KUBECTL);
	assert_int_equal(verb_allowed_options(verb_find("env"), VT_FLEET),
			 OPT_MAX_FILES | OPT_NAMESPACE | OPT_CONTEXT | OPT_KUBECONFIG |
				 OPT_KUBECTL | OPT_TIMEOUT | OPT_DEPLOYMENT);
	assert_int_equal(verb_allowed_options(verb_find("node"), VT_PROBE), live | probe);
	assert_int_equal(verb_allowed_options(verb_find("node"), VT_FLEET), live | fleet);
	assert_int_equal(verb_allowed_options(verb_find("nixl"), VT_PROBE),
			 OPT_PEER | live | probe);
	assert_int_equal(verb_allowed_options(verb_find("nixl"), VT_FLEET),
			 OPT_PEER | live | fleet);
	assert_int_equal(verb_allowed_options(verb_find("all"), VT_PATHS), OPT_MAX_FILES | live);
	assert_int_equal(verb_allowed_options(verb_find("all"), VT_FLEET),
			 OPT_MAX_FILES | live | fleet);
	assert_int_equal(verb_allowed_options(verb_find("agent"), VT_NONE),
			 OPT_SYSROOT | OPT_TIMEOUT | OPT_INTERVAL | OPT_NODE_INTERVAL | OPT_LISTEN |
				 OPT_ONCE);
	assert_int_equal(verb_allowed_options(verb_find("vars"), VT_NONE), 0);
}

static char *printed(void (*fn)(FILE *, const struct verb *, int), const struct verb *v)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	fn(f, v, 200);
	long len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	char *text = calloc(1, (size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return text;
}

static void print_gen(FILE *f, const struct verb *v, int w)
{
	(void)w;
	const char *what = (const char *)v;
	if (!strcmp(what, "man"))
		help_roff(f);
	else if (!strcmp(what, "bash"))
		help_bash_completion(f);
	else
		help_zsh_completion(f);
}

/* The line help prints for d: "  -n, --namespace NS" or "  --pod POD". */
static bool help_shows(const char *text, const struct cli_option *d)
{
	char head[96];
	if (d->short_name)
		snprintf(head, sizeof(head), "\n  -%c, %s%s%s", d->short_name, d->name,
			 d->arg ? " " : "", d->arg ? d->arg : "");
	else
		snprintf(head, sizeof(head), "\n  %s%s%s", d->name, d->arg ? " " : "",
			 d->arg ? d->arg : "");
	for (const char *p = text; (p = strstr(p, head)); p++)
		if (p[strlen(head)] == ' ' || p[strlen(head)] == '\n')
			return true;
	return false;
}

static void test_help_lists_what_a_verb_takes(void **state)
{
	(void)state;
	char *all = printed(help_print, NULL);
	for (size_t i = 0; i < n_cli_options; i++)
		if (!help_shows(all, &cli_options[i]))
			fail_msg("--help does not show %s", cli_options[i].name);
	free(all);
	for (size_t k = 0; k < n_verbs; k++) {
		char *one = printed(help_print, &verbs[k]);
		for (size_t i = 0; i < n_cli_options; i++) {
			const struct cli_option *d = &cli_options[i];
			bool takes = d->bit ? (verb_allowed_options(&verbs[k], VT_PATHS | VT_PROBE |
										       VT_FLEET) &
					       d->bit) != 0
					    : true;
			if (help_shows(one, d) != takes)
				fail_msg("help %s %s %s", verbs[k].name,
					 takes ? "does not show" : "shows", d->name);
		}
		free(one);
	}
}

/* The roff spelling of an option name: every '-' escaped. */
static void roff_name(const char *name, char *out, size_t n)
{
	size_t k = 0;
	for (const char *p = name; *p && k + 3 < n; p++) {
		if (*p == '-')
			out[k++] = '\\';
		out[k++] = *p;
	}
	out[k] = '\0';
}

static void test_man_and_completions(void **state)
{
	(void)state;
	char *man = printed(print_gen, (const struct verb *)"man");
	char *bash = printed(print_gen, (const struct verb *)"bash");
	char *zsh = printed(print_gen, (const struct verb *)"zsh");
	for (size_t i = 0; i < n_cli_options; i++) {
		const struct cli_option *d = &cli_options[i];
		char r[96], b[96];
		roff_name(d->name, r, sizeof(r));
		if (!strstr(man, r))
			fail_msg("the man page lacks %s", d->name);
		/* the words bash offers after a '-' */
		const char *w = strstr(bash, "compgen -W \"--");
		assert_non_null(w);
		w += strlen("compgen -W \"");
		size_t wl = strcspn(w, "\"");
		snprintf(b, sizeof(b), " %s ", d->name);
		char *list = calloc(1, wl + 3);
		assert_non_null(list);
		list[0] = ' ';
		memcpy(list + 1, w, wl);
		list[wl + 1] = ' ';
		if (!strstr(list, b))
			fail_msg("the bash completion lacks %s", d->name);
		free(list);
		if (!strstr(zsh, d->name))
			fail_msg("the zsh completion lacks %s", d->name);
	}
	free(man);
	free(bash);
	free(zsh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_name_verbs),
		cmocka_unit_test(test_one_row_per_bit),
		cmocka_unit_test(test_rows_consistent),
		cmocka_unit_test(test_getopt_from_table),
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_help_lists_what_a_verb_takes),
		cmocka_unit_test(test_man_and_completions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
