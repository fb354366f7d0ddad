/* SPDX-License-Identifier: Apache-2.0 */
#include "core/redact.h"

#include <ctype.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* Name fragments that mark a value as secret.  Matched case-insensitively on
 * the whole name, so NIXL_ETCD_PASSWORD and aws_secret_access_key both hit.
 * Short or common fragments (secret_tokens) are matched only as a whole
 * word of the name (API_KEY, KEY_FILE, TLS_CERT, AZURE_SAS) so that harmless
 * transport names such as UCX_KEEPALIVE_INTERVAL or NCCL_IB_PKEY are not
 * hidden; a test checks that no catalogued transport variable is. */
static const char *const secret_words[] = {
	"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "PRIVATE",
	"AUTH",  "COOKIE", "SESSION",  "APIKEY", "ACCESS_KEY", "SIGNATURE",
};

static const char *const secret_tokens[] = {
	"KEY", "PASS", "PWD", "CERT", "CREDS", "CRED", "BEARER", "JWT", "PRIVKEY", "PEM", "SAS",
};

/*
 * Every fragment list is matched in one pass over the text: at each
 * position only the fragments that begin with its letter are compared (an
 * index by first letter, built once).  Scanning the text once per fragment
 * made redaction a fifth of env's instructions.
 */
struct frag_set {
	const char *const *v;
	size_t n;
	uint32_t by_first[26]; /* bit i: v[i] starts with 'A' + letter */
	uint32_t other;        /* bit i: v[i] starts with anything else */
};

static struct frag_set words_set = {
	secret_words, sizeof(secret_words) / sizeof(*secret_words), {0}, 0};
static struct frag_set tokens_set = {
	secret_tokens, sizeof(secret_tokens) / sizeof(*secret_tokens), {0}, 0};

_Static_assert(sizeof(secret_words) / sizeof(*secret_words) <= 32, "one bit per fragment");
_Static_assert(sizeof(secret_tokens) / sizeof(*secret_tokens) <= 32, "one bit per fragment");

static void frag_index(struct frag_set *f)
{
	for (size_t i = 0; i < f->n && i < 32; i++) {
		unsigned c = (unsigned char)f->v[i][0];
		if (c >= 'A' && c <= 'Z')
			f->by_first[c - 'A'] |= 1u << i;
		else
			f->other |= 1u << i;
	}
}

static void frag_sets_build(void);
static pthread_once_t frag_once = PTHREAD_ONCE_INIT;

/* The fragments of f that may begin at p. */
static uint32_t frag_starting(const struct frag_set *f, const char *p)
{
	int c = toupper((unsigned char)*p);
	return (c >= 'A' && c <= 'Z' ? f->by_first[c - 'A'] : 0) | f->other;
}

/* Length of fragment w when the text at p starts with it (any case), else 0. */
static size_t frag_at(const char *p, const char *w)
{
	size_t i = 0;
	while (w[i] && p[i] && toupper((unsigned char)p[i]) == w[i])
		i++;
	return w[i] ? 0 : i;
}

/* A fragment of f anywhere in s; word: only as a whole word (no letter or
 * digit on either side). */
static bool frag_find(const char *s, const struct frag_set *f, bool word)
{
	pthread_once(&frag_once, frag_sets_build);
	for (const char *p = s; *p; p++) {
		uint32_t m = frag_starting(f, p);
		if (!m || (word && p != s && isalnum((unsigned char)p[-1])))
			continue;
		for (size_t i = 0; m; i++, m >>= 1) {
			size_t n = (m & 1u) ? frag_at(p, f->v[i]) : 0;
			if (n && (!word || !isalnum((unsigned char)p[n])))
				return true;
		}
	}
	return false;
}

bool redact_is_secret_name(const char *name)
{
	if (!name)
		return false;
	return frag_find(name, &words_set, false) || frag_find(name, &tokens_set, true);
}

/* Value fragments that carry a secret whatever the variable is called:
 * "user=x password=y", "?token=...", "Authorization: Bearer ...". */
static const char *const secret_value_marks[] = {
	"PASSWORD=", "PASSWD=",     "PWD=",    "TOKEN=",    "SECRET=", "APIKEY=",
	"API_KEY=",  "ACCESS_KEY=", "BEARER ", "PASSWORD:", "TOKEN:",
};

static struct frag_set marks_set = {
	secret_value_marks, sizeof(secret_value_marks) / sizeof(*secret_value_marks), {0}, 0};

_Static_assert(sizeof(secret_value_marks) / sizeof(*secret_value_marks) <= 32,
	       "one bit per fragment");

static void frag_sets_build(void)
{
	frag_index(&words_set);
	frag_index(&tokens_set);
	frag_index(&marks_set);
}

bool redact_is_secret_value(const char *value)
{
	return value && frag_find(value, &marks_set, false);
}

/* The userinfo of the URL whose "://" is at sep: [*start, *end) is what to
 * hide (the password after "user:", or a lone user, which is often a token:
 * https://TOKEN@host).  False when the authority has no '@'. */
static bool url_userinfo(const char *sep, const char **start, const char **end)
{
	const char *a = sep + 3;
	size_t n = strcspn(a, "/?#, \t\r\n;\"'");
	const char *at = NULL;
	for (size_t i = 0; i < n; i++)
		if (a[i] == '@')
			at = a + i; /* the last '@': a password may hold one */
	if (!at)
		return false;
	const char *colon = memchr(a, ':', (size_t)(at - a));
	*start = colon ? colon + 1 : a;
	*end = at;
	return true;
}

bool redact_has_url_credentials(const char *value)
{
	const char *st, *en;
	for (const char *p = value ? strstr(value, "://") : NULL; p; p = strstr(p + 3, "://"))
		if (url_userinfo(p, &st, &en))
			return true;
	return false;
}

char *redact_url_credentials(const char *value)
{
	if (!value)
		return NULL;
	size_t len = strlen(value), cap = len + 1, o = 0;
	char *out = xmalloc(cap);
	const char *p = value;
	for (const char *sep = strstr(p, "://"); sep; sep = strstr(p, "://")) {
		const char *st, *en;
		if (!url_userinfo(sep, &st, &en)) {
			size_t k = (size_t)(sep + 3 - p);
			memcpy(out + o, p, k);
			o += k;
			p = sep + 3;
			continue;
		}
		size_t k = (size_t)(st - p), rl = strlen(REDACTED);
		cap += rl;
		out = xrealloc(out, cap);
		memcpy(out + o, p, k);
		o += k;
		memcpy(out + o, REDACTED, rl);
		o += rl;
		p = en;
	}
	memcpy(out + o, p, strlen(p) + 1);
	return out;
}

/* Values rewritten by redact_url_credentials, kept for the life of the
 * process so that redact_value() can hand out a const string like the
 * others; a run sees a handful of such values, so the list stays short. */
static struct {
	pthread_mutex_t lock;
	char **v;
	size_t n, cap;
} rewritten = {.lock = PTHREAD_MUTEX_INITIALIZER};

static const char *rewritten_intern(char *s)
{
	pthread_mutex_lock(&rewritten.lock);
	for (size_t i = 0; i < rewritten.n; i++)
		if (!strcmp(rewritten.v[i], s)) {
			free(s);
			s = rewritten.v[i];
			pthread_mutex_unlock(&rewritten.lock);
			return s;
		}
	*XPUSH(rewritten.v, rewritten.n, rewritten.cap) = s;
	pthread_mutex_unlock(&rewritten.lock);
	return s;
}

const char *redact_value(const char *name, const char *value)
{
	if (!value)
		return NULL;
	if (redact_is_secret_name(name) || redact_is_secret_value(value))
		return REDACTED;
	if (redact_has_url_credentials(value))
		return rewritten_intern(redact_url_credentials(value));
	return value;
}

char *redact_value_dup(const char *name, const char *value)
{
	return value ? xstrdup(redact_value(name, value)) : NULL;
}

/* ---- free text ---- */

/* Words that take their secret after a plain space ("password X",
 * "--token X"): only these, since a secret-like name such as AUTH is
 * followed by ordinary words in logs ("Authentication failed for"). */
static const char *const space_keys[] = {
	"PASSWORD",      "PASSWD",     "PWD",          "PASS",         "PASSPHRASE",
	"TOKEN",         "SECRET",     "APIKEY",       "API_KEY",      "API-KEY",
	"ACCESS_KEY",    "ACCESS-KEY", "ACCESS-TOKEN", "ACCESS_TOKEN", "CLIENT_SECRET",
	"CLIENT-SECRET", "AUTH-TOKEN", "AUTH_TOKEN",
};
/* HTTP auth schemes (RFC 9110 11.4 and the common ones): the next word is
 * the credential. */
static const char *const auth_schemes[] = {"BEARER", "BASIC", "DIGEST", "TOKEN", "NEGOTIATE"};

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

static bool eq_ci(const char *a, size_t n, const char *w)
{
	size_t m = strlen(w);
	if (n != m)
		return false;
	for (size_t i = 0; i < n; i++)
		if (toupper((unsigned char)a[i]) != w[i])
			return false;
	return true;
}

static bool in_list(const char *a, size_t n, const char *const *list, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (eq_ci(a, n, list[i]))
			return true;
	return false;
}

/* The end of the value that starts at v (quoted: up to its closing quote). */
static const char *value_end(const char *v)
{
	if (*v == '"' || *v == '\'') {
		const char *e = strchr(v + 1, *v);
		return e ? e + 1 : v + strlen(v);
	}
	while (*v && !isspace((unsigned char)*v) && !strchr(",;&\"'}]>)", *v))
		v++;
	return v;
}

/* Append [a, b) to out. */
static void put(char **out, size_t *o, size_t *cap, const char *a, size_t n)
{
	if (*o + n + 1 > *cap) {
		*cap = (*o + n + 1) * 2;
		*out = xrealloc(*out, *cap);
	}
	memcpy(*out + *o, a, n);
	*o += n;
	(*out)[*o] = '\0';
}

/* The scheme word at v ("Basic ", "Bearer "), or NULL: its length. */
static size_t scheme_len(const char *v)
{
	const char *w = v;
	while (word_char(*w))
		w++;
	if (w > v && *w == ' ' &&
	    in_list(v, (size_t)(w - v), auth_schemes, sizeof(auth_schemes) / sizeof(*auth_schemes)))
		return (size_t)(w - v) + 1;
	return 0;
}

/* v points at a value: REDACTED for it (quotes and an auth scheme kept:
 * "Authorization: Basic X"), and where to go on. */
static const char *hide_value(const char *v, char **out, size_t *o, size_t *cap)
{
	/* an escaped quote (JSON inside a Prometheus label: \"password\":
	 * \"X\") quotes the same way */
	bool esc = v[0] == '\\' && v[1] == '"';
	if (esc)
		put(out, o, cap, v++, 1);
	char q = *v == '"' || *v == '\'' ? *v : 0;
	if (q) {
		put(out, o, cap, v++, 1);
	}
	size_t sl = scheme_len(v);
	if (sl) {
		put(out, o, cap, v, sl);
		v += sl;
		while (*v == ' ')
			put(out, o, cap, v++, 1);
	}
	if (!strncmp(v, REDACTED, strlen(REDACTED))) {
		/* already redacted (a saved transcript read again) */
		put(out, o, cap, REDACTED, strlen(REDACTED));
		v += strlen(REDACTED);
		if (q && *v == q)
			put(out, o, cap, v++, 1);
		return v;
	}
	const char *e;
	if (q && esc) {
		e = strstr(v, "\\\"");
		e = e ? e : v + strlen(v);
		if (*e) {
			put(out, o, cap, REDACTED, strlen(REDACTED));
			put(out, o, cap, e, 2);
			return e + 2;
		}
	} else if (q) {
		e = strchr(v, q);
		e = e ? e : v + strlen(v);
	} else {
		e = value_end(v);
	}
	if (e == v && !q)
		return v;
	put(out, o, cap, REDACTED, strlen(REDACTED));
	if (q && *e == q)
		put(out, o, cap, e++, 1);
	return e;
}

char *redact_text(const char *s)
{
	if (!s)
		return NULL;
	size_t cap = strlen(s) + 32, o = 0;
	char *out = xmalloc(cap);
	out[0] = '\0';
	const char *p = s;
	while (*p) {
		if (!word_char(*p) || (p > s && word_char(p[-1]))) {
			put(&out, &o, &cap, p++, 1);
			continue;
		}
		const char *w = p;
		while (word_char(*w))
			w++;
		size_t n = (size_t)(w - p);
		put(&out, &o, &cap, p, n);
		const char *name = p;
		while (*name == '-') /* a flag: --password */
			name++;
		size_t nn = (size_t)(w - name);
		char key[128];
		bool secret = false, spaced = false;
		if (nn && nn < sizeof(key)) {
			memcpy(key, name, nn);
			key[nn] = '\0';
			secret = redact_is_secret_name(key);
			spaced = in_list(name, nn, space_keys,
					 sizeof(space_keys) / sizeof(*space_keys));
		}
		bool flag = nn < n;
		bool bearer = eq_ci(p, n, "BEARER");
		p = w;
		/* a closing quote of a JSON key: "password": "X" */
		const char *q = p;
		if (*q == '\\' && q[1] == '"' && name > s + 1 && name[-1] == '"' &&
		    name[-2] == '\\')
			q++; /* \"key\": an escaped JSON key */
		if ((*q == '"' || *q == '\'') && name > s && (name[-1] == '"' || name[-1] == '\''))
			q++;
		const char *sep = q;
		while (*sep == ' ')
			sep++;
		if (secret && (*sep == '=' || *sep == ':') && !(sep[0] == ':' && sep[1] == '/')) {
			const char *v = sep + 1;
			while (*v == ' ')
				v++;
			put(&out, &o, &cap, p, (size_t)(v - p));
			p = hide_value(v, &out, &o, &cap);
		} else if ((spaced || bearer || (flag && secret)) && *p == ' ' && p[1] &&
			   !isspace((unsigned char)p[1])) {
			put(&out, &o, &cap, p, 1);
			p = hide_value(p + 1, &out, &o, &cap);
		}
	}
	if (redact_has_url_credentials(out)) {
		char *u = redact_url_credentials(out);
		free(out);
		out = u;
	}
	return out;
}

static const char *const transport_prefixes[] = {
	"UCX_",
	"NIXL_",
	"NCCL_",
	"FI_",
	"MC_",
	"GLOO_SOCKET_IFNAME",
	"SGLANG_DISAGGREGATION_",
	"TRTLLM_NIXL_",
	"TRTLLM_USE_UCX_KVCACHE",
	"TRTLLM_USE_NIXL_KVCACHE",
	"DYN_KVBM_NIXL_BACKEND_",
	"VLLM_NIXL_",
	"CUDA_VISIBLE_DEVICES",
};

bool redact_is_transport_name(const char *name)
{
	if (!name)
		return false;
	for (size_t i = 0; i < sizeof(transport_prefixes) / sizeof(transport_prefixes[0]); i++)
		if (!strncmp(name, transport_prefixes[i], strlen(transport_prefixes[i])))
			return true;
	return false;
}
