/* SPDX-License-Identifier: Apache-2.0 */
#include "redact.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* Name fragments that mark a value as secret.  Matched case-insensitively on
 * the whole name, so NIXL_ETCD_PASSWORD and aws_secret_access_key both hit.
 * KEY is matched only as a whole word (API_KEY, KEY_FILE) so that harmless
 * transport names such as UCX_KEEPALIVE_INTERVAL are not hidden. */
static const char *const secret_words[] = {
	"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL",
	"PRIVATE", "AUTH", "COOKIE", "SESSION", "APIKEY", "ACCESS_KEY", "SIGNATURE",
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
	return has_word_ci(name, "KEY") || has_word_ci(name, "PASS") ||
	       has_word_ci(name, "PWD") || has_word_ci(name, "CERT");
}

const char *redact_value(const char *name, const char *value)
{
	if (!value)
		return NULL;
	return redact_is_secret_name(name) ? REDACTED : value;
}

static const char *const transport_prefixes[] = {
	"UCX_", "NIXL_", "NCCL_", "FI_", "MC_", "GLOO_SOCKET_IFNAME",
	"SGLANG_DISAGGREGATION_", "TRTLLM_NIXL_", "TRTLLM_USE_UCX_KVCACHE",
	"TRTLLM_USE_NIXL_KVCACHE", "DYN_KVBM_NIXL_BACKEND_", "VLLM_NIXL_",
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
