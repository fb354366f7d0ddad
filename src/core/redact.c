/* SPDX-License-Identifier: Apache-2.0 */
#include "core/redact.h"

#include <ctype.h>
#include <pthread.h>
#include <stddef.h>
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

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (const char *p = hay; *p; p++) {
		size_t i = 0;
		while (i < n && p[i] && toupper((unsigned char)p[i]) == needle[i])
			i++;
		if (i == n)
			return true;
	}
	return false;
}

static bool has_word_ci(const char *name, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = name; *p; p++) {
		if (p != name && isalnum((unsigned char)p[-1]))
			continue;
		size_t i = 0;
		while (i < n && p[i] && toupper((unsigned char)p[i]) == word[i])
			i++;
		if (i == n && !isalnum((unsigned char)p[n]))
			return true;
	}
	return false;
}

bool redact_is_secret_name(const char *name)
{
	if (!name)
		return false;
	for (size_t i = 0; i < sizeof(secret_words) / sizeof(secret_words[0]); i++)
		if (contains_ci(name, secret_words[i]))
			return true;
	for (size_t i = 0; i < sizeof(secret_tokens) / sizeof(secret_tokens[0]); i++)
		if (has_word_ci(name, secret_tokens[i]))
			return true;
	return false;
}

/* Value fragments that carry a secret whatever the variable is called:
 * "user=x password=y", "?token=...", "Authorization: Bearer ...". */
static const char *const secret_value_marks[] = {
	"PASSWORD=", "PASSWD=",     "PWD=",    "TOKEN=",    "SECRET=", "APIKEY=",
	"API_KEY=",  "ACCESS_KEY=", "BEARER ", "PASSWORD:", "TOKEN:",
};

bool redact_is_secret_value(const char *value)
{
	if (!value)
		return false;
	for (size_t i = 0; i < sizeof(secret_value_marks) / sizeof(secret_value_marks[0]); i++)
		if (contains_ci(value, secret_value_marks[i]))
			return true;
	return false;
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
