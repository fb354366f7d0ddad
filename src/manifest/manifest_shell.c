/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Environment assignments inside command/args strings.  Recipes set
 * transport variables there (`export UCX_TLS=rc && python3 ...`,
 * `UCX_TLS=... python3 -m dynamo.vllm`), so the env rules must see them.
 *
 * This is a word splitter that knows just enough POSIX shell: quotes,
 * backslashes, line continuations, `$(...)`, comments and the command
 * separators.  An assignment counts where a shell would apply it: a
 * NAME=value word at the start of a simple command (a prefix assignment),
 * or an argument of `export`/`declare -x` or of the `env` command.
 */
#include "manifest/manifest_internal.h"

#include "core/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define WORD_MAX (64u * 1024u)

struct word {
	char *buf;
	size_t n, cap;
};

static void word_put(struct word *w, char c)
{
	if (w->n + 1 >= WORD_MAX)
		return; /* truncate absurd words; the name part survives */
	if (w->n + 2 > w->cap) {
		w->cap = w->cap ? w->cap * 2 : 64;
		w->buf = xrealloc(w->buf, w->cap);
	}
	w->buf[w->n++] = c;
	w->buf[w->n] = '\0';
}

bool shell_env_name_ok(const char *name, size_t len)
{
	if (len == 0 || isdigit((unsigned char)name[0]))
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

/* NAME=... with a shell-valid name (any case); *name_len is NAME's length. */
bool shell_split_assignment(const char *word, size_t *name_len)
{
	size_t i = 0;
	if (!(isalpha((unsigned char)word[0]) || word[0] == '_'))
		return false;
	while (isalnum((unsigned char)word[i]) || word[i] == '_')
		i++;
	if (word[i] != '=')
		return false;
	*name_len = i;
	return true;
}

bool shell_is_env_word(const char *word)
{
	const char *slash = strrchr(word, '/');
	return strcmp(slash ? slash + 1 : word, "env") == 0;
}

static bool is_sep(char c)
{
	return c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '`' || c == '\n';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Words after which the next word still starts a command. */
static bool is_prefix_keyword(const char *w)
{
	static const char *const kw[] = {"exec",  "then", "do",   "else", "elif",  "if", "while",
					 "until", "!",    "time", "{",    "nohup", NULL};
	for (size_t i = 0; kw[i]; i++)
		if (strcmp(w, kw[i]) == 0)
			return true;
	return false;
}

enum mode {
	M_NORMAL,
	M_EXPORT,
	M_ENV
};

struct scan {
	const char *s;
	size_t i;
	int line;
};

/* Read one word into w (unquoted).  Returns false at end of input. */
static void read_word(struct scan *sc, struct word *w)
{
	const char *s = sc->s;
	w->n = 0;
	if (w->buf)
		w->buf[0] = '\0';
	while (s[sc->i]) {
		char c = s[sc->i];
		if (is_blank(c) || is_sep(c))
			return;
		if (c == '\\') {
			sc->i++;
			if (s[sc->i] == '\n') { /* continuation joins the word */
				sc->line++;
				sc->i++;
			} else if (s[sc->i]) {
				word_put(w, s[sc->i++]);
			}
			continue;
		}
		if (c == '\'') {
			sc->i++;
			while (s[sc->i] && s[sc->i] != '\'') {
				if (s[sc->i] == '\n')
					sc->line++;
				word_put(w, s[sc->i++]);
			}
			if (s[sc->i])
				sc->i++;
			continue;
		}
		if (c == '"') {
			sc->i++;
			while (s[sc->i] && s[sc->i] != '"') {
				char d = s[sc->i];
				if (d == '\\' && s[sc->i + 1] && strchr("\"\\$`\n", s[sc->i + 1])) {
					if (s[sc->i + 1] == '\n') {
						sc->line++;
						sc->i += 2;
						continue;
					}
					d = s[sc->i + 1];
					sc->i++;
				} else if (d == '\n') {
					sc->line++;
				}
				word_put(w, d);
				sc->i++;
			}
			if (s[sc->i])
				sc->i++;
			continue;
		}
		if (c == '$' && s[sc->i + 1] == '(') {
			/* $(...) belongs to the word; nesting counted, quotes ignored. */
			int depth = 0;
			while (s[sc->i]) {
				char d = s[sc->i];
				if (d == '(')
					depth++;
				else if (d == ')' && --depth == 0) {
					word_put(w, d);
					sc->i++;
					break;
				} else if (d == '\n') {
					sc->line++;
				}
				word_put(w, d);
				sc->i++;
			}
			continue;
		}
		word_put(w, c);
		sc->i++;
	}
}

void shell_scan_assignments(const char *script, int line, shell_assign_fn fn, void *ctx)
{
	if (!script)
		return;
	struct scan sc = {script, 0, line};
	struct word w = {0};
	bool cmd_start = true, skip_arg = false;
	enum mode mode = M_NORMAL;
	const char *s = script;

	while (s[sc.i]) {
		char c = s[sc.i];
		if (is_blank(c)) {
			sc.i++;
			continue;
		}
		if (c == '\\' && s[sc.i + 1] == '\n') {
			sc.line++;
			sc.i += 2;
			continue;
		}
		if (is_sep(c)) {
			if (c == '\n')
				sc.line++;
			cmd_start = true;
			mode = M_NORMAL;
			sc.i++;
			continue;
		}
		if (c == '#') { /* comment to end of line */
			while (s[sc.i] && s[sc.i] != '\n')
				sc.i++;
			continue;
		}
		int wline = sc.line;
		size_t before = sc.i;
		read_word(&sc, &w);
		if (sc.i == before) { /* cannot happen; never spin */
			sc.i++;
			continue;
		}
		if (!w.buf || !w.n)
			continue;
		size_t nlen = 0;
		bool assign = shell_split_assignment(w.buf, &nlen);

		if (mode == M_EXPORT) {
			if (assign && shell_env_name_ok(w.buf, nlen)) {
				w.buf[nlen] = '\0';
				fn(ctx, w.buf, w.buf + nlen + 1, wline);
			}
			continue;
		}
		if (mode == M_ENV) {
			if (skip_arg) {
				skip_arg = false;
				continue;
			}
			if (w.buf[0] == '-') {
				/* options that take a value: -u NAME, -C DIR, -S STRING */
				skip_arg = strcmp(w.buf, "-u") == 0 || strcmp(w.buf, "-C") == 0 ||
					   strcmp(w.buf, "-S") == 0 ||
					   strcmp(w.buf, "--unset") == 0 ||
					   strcmp(w.buf, "--chdir") == 0;
				continue;
			}
			if (assign) {
				if (shell_env_name_ok(w.buf, nlen)) {
					w.buf[nlen] = '\0';
					fn(ctx, w.buf, w.buf + nlen + 1, wline);
				}
				continue;
			}
			mode = M_NORMAL;
			cmd_start = false;
			continue;
		}
		if (!cmd_start)
			continue;
		if (assign) {
			if (shell_env_name_ok(w.buf, nlen)) {
				w.buf[nlen] = '\0';
				fn(ctx, w.buf, w.buf + nlen + 1, wline);
			}
			continue; /* more prefix assignments may follow */
		}
		if (strcmp(w.buf, "export") == 0 || strcmp(w.buf, "declare") == 0 ||
		    strcmp(w.buf, "typeset") == 0) {
			/* `declare X=1` does not export, but recipes use it the same
			 * way; options such as -x are skipped as non-assignments. */
			mode = M_EXPORT;
			cmd_start = false;
		} else if (shell_is_env_word(w.buf)) {
			mode = M_ENV;
			cmd_start = false;
		} else if (!is_prefix_keyword(w.buf)) {
			cmd_start = false;
		}
	}
	free(w.buf);
}

const char *shell_flag_word(const char *cmdline, const char *flag, char *out, size_t outsz)
{
	if (!cmdline || !flag || outsz < 2)
		return NULL;
	size_t fl = strlen(flag);
	const char *p = cmdline;
	while ((p = strstr(p, flag)) != NULL) {
		const char *q = p + fl;
		bool start = p == cmdline || is_blank(p[-1]) || p[-1] == '\n' || p[-1] == '"' ||
			     p[-1] == '\'';
		p = q;
		if (!start || (*q != '=' && !is_blank(*q) && *q != '\n' && *q != '\\' &&
			       *q != '"' && *q != '\''))
			continue; /* --disaggregation-mode-foo */
		while (*q == '=' || is_blank(*q) || *q == '"' || *q == '\'' || *q == '\\' ||
		       *q == '\n')
			q++;
		size_t n = 0;
		while ((isalnum((unsigned char)q[n]) || q[n] == '_' || q[n] == '-' || q[n] == '$' ||
			q[n] == '{' || q[n] == '}') &&
		       n + 1 < outsz) {
			out[n] = (char)tolower((unsigned char)q[n]);
			n++;
		}
		out[n] = '\0';
		if (n)
			return out;
	}
	return NULL;
}

const char *shell_disagg_mode(const char *cmdline, char *out, size_t outsz)
{
	if (!cmdline || outsz < 2)
		return NULL;
	if (shell_flag_word(cmdline, "--disaggregation-mode", out, outsz))
		return out;
	const char *old = strstr(cmdline, "--is-prefill-worker");
	if (old) {
		const char *v = "prefill";
		if (strlen(v) + 1 > outsz)
			return NULL;
		strcpy(out, v);
		return out;
	}
	return NULL;
}
