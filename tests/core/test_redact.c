/* SPDX-License-Identifier: Apache-2.0 */
/* No secret leaves the tool: which names are secret, which are transport. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include <stdlib.h>

#include "core/redact.h"
#include "core/varcat.h"

static void test_secret_names(void **state)
{
	(void)state;
	static const char *const secret[] = {
		"HF_TOKEN",
		"AWS_SECRET_ACCESS_KEY",
		"AWS_ACCESS_KEY_ID",
		"NIXL_ETCD_PASSWORD",
		"API_KEY",
		"MY_PASSWD",
		"GOOGLE_APPLICATION_CREDENTIALS",
		"AZURE_CREDENTIAL",
		"aws_secret_access_key",
		"hf_token",
		"KEY",
		"SSH_PRIVATE_KEY",
		"DB_PASS",
		"MYSQL_PWD",
		"TLS_CERT",
		"NGC_API_KEY",
		"OPENAI_APIKEY",
		"ETCD_AUTH",
		"HUGGING_FACE_HUB_TOKEN",
		"SESSION_COOKIE",
		"KEY_FILE",
		"X-Api-Key",
		"REQUEST_SIGNATURE",
		"SSH_PASSPHRASE",
		/* issue 11: the gaps */
		"DB_CREDS",
		"AUTH_BEARER",
		"BEARER",
		"GITHUB_JWT",
		"SSH_PRIVKEY",
		"MY_PASSWD",
		"CLIENT_CERT",
		"TLS_PEM",
		"AZURE_STORAGE_SAS",
		"SAS_URL",
		"ETCD_CERT_FILE",
	};
	for (size_t i = 0; i < sizeof(secret) / sizeof(secret[0]); i++)
		if (!redact_is_secret_name(secret[i]))
			fail_msg("%s should be secret", secret[i]);
}

static void test_not_secret_names(void **state)
{
	(void)state;
	/* KEY only as a whole word: these are harmless transport or other names.
	 * Decided: MONKEY and PKEY are not secrets (KEY inside a word). */
	static const char *const plain[] = {
		"UCX_TLS",
		"UCX_KEEPALIVE_INTERVAL",
		"NCCL_IB_HCA",
		"MONKEY",
		"NCCL_IB_PKEY",
		"UCX_IB_PKEY",
		"UCX_NET_DEVICES",
		"NIXL_ETCD_ENDPOINTS",
		"FI_PROVIDER",
		"PASSTHROUGH_MODE",
		"KEYBOARD",
		"CUDA_VISIBLE_DEVICES",
		"PATH",
		"",
		/* whole words only: these hold the letters, not the word */
		"UCX_IB_SL",
		"SASL_MECH",
		"PEMBROKE",
		"CERTAINLY",
		"UCX_RNDV_THRESH",
	};
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (redact_is_secret_name(plain[i]))
			fail_msg("%s should not be secret", plain[i]);
	assert_false(redact_is_secret_name(NULL));
}

static void test_redact_value(void **state)
{
	(void)state;
	assert_string_equal(redact_value("HF_TOKEN", "hf_abcdef"), REDACTED);
	assert_string_equal(redact_value("NIXL_ETCD_PASSWORD", "hunter2"), "<redacted>");
	assert_string_equal(redact_value("UCX_TLS", "rc,cuda_copy"), "rc,cuda_copy");
	assert_null(redact_value("HF_TOKEN", NULL));
	assert_string_equal(redact_value(NULL, "v"), "v");
}

static void test_secret_values(void **state)
{
	(void)state;
	assert_string_equal(redact_value("UCX_X", "host=a password=hunter2"), REDACTED);
	assert_string_equal(redact_value("NIXL_X", "https://h/?token=abc"), REDACTED);
	assert_string_equal(redact_value("NIXL_X", "Authorization: Bearer abc"), REDACTED);
	assert_string_equal(redact_value("NIXL_ETCD_ENDPOINTS", "http://user:pw@etcd:2379"),
			    "http://user:<redacted>@etcd:2379");
	assert_string_equal(
		redact_value("NIXL_ETCD_ENDPOINTS", "http://a:x@e1:2379,https://TOKEN@e2:2379/p@q"),
		"http://a:<redacted>@e1:2379,https://<redacted>@e2:2379/p@q");
	/* the same rewritten value twice is the same string */
	assert_ptr_equal(redact_value("NIXL_X", "http://u:p@h"),
			 redact_value("NIXL_Y", "http://u:p@h"));
	assert_string_equal(redact_value("UCX_TLS", "rc,cuda_copy"), "rc,cuda_copy");
	assert_string_equal(redact_value("NIXL_ETCD_ENDPOINTS", "http://etcd:2379"),
			    "http://etcd:2379");
	assert_string_equal(redact_value("X", "mail me@host"), "mail me@host");
	char *d = redact_value_dup("NIXL_ETCD_PASSWORD", "x");
	assert_string_equal(d, REDACTED);
	free(d);
	assert_null(redact_value_dup("X", NULL));
}

/* No catalogued transport variable is taken for a secret. */
static void test_catalogue_not_secret(void **state)
{
	(void)state;
	for (size_t i = 0; i < varcat_len; i++) {
		const char *n = varcat[i].name;
		if (redact_is_secret_name(n))
			fail_msg("catalogued variable %s would be redacted", n);
	}
}

static void test_transport_names(void **state)
{
	(void)state;
	static const char *const yes[] = {
		"UCX_TLS",
		"NIXL_ETCD_ENDPOINTS",
		"NCCL_IB_HCA",
		"FI_PROVIDER",
		"MC_TE_METRIC",
		"SGLANG_DISAGGREGATION_TRANSFER_BACKEND",
		"GLOO_SOCKET_IFNAME",
		"TRTLLM_USE_UCX_KVCACHE",
		"TRTLLM_USE_NIXL_KVCACHE",
		"DYN_KVBM_NIXL_BACKEND_UCX",
		"CUDA_VISIBLE_DEVICES",
	};
	static const char *const no[] = {"HF_TOKEN", "PATH", "ucx_tls", "XUCX_TLS", "UCX", ""};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!redact_is_transport_name(yes[i]))
			fail_msg("%s should be a transport name", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (redact_is_transport_name(no[i]))
			fail_msg("%s should not be a transport name", no[i]);
	assert_false(redact_is_transport_name(NULL));
	/* a transport name can still be secret: its value is hidden */
	assert_true(redact_is_transport_name("NIXL_ETCD_PASSWORD"));
	assert_true(redact_is_secret_name("NIXL_ETCD_PASSWORD"));
}

/* Issue 23: free text (log lines, telemetry labels, transcript lines) is
 * redacted in place, the forms of secrets that logs really carry. */
static void test_redact_text_table(void **state)
{
	(void)state;
	static const struct {
		const char *in, *want;
	} cases[] = {
		/* key=value and key: value */
		{"connect token=S3CR3T ok", "connect token=<redacted> ok"},
		{"NIXL_ETCD_PASSWORD=S3CR3T next", "NIXL_ETCD_PASSWORD=<redacted> next"},
		{"password: S3CR3T", "password: <redacted>"},
		{"user=admin&password=S3CR3T&x=1", "user=admin&password=<redacted>&x=1"},
		{"api_key='S3CR3T'", "api_key='<redacted>'"},
		/* JSON */
		{"{\"user\": \"a\", \"password\": \"S3CR3T\"}",
		 "{\"user\": \"a\", \"password\": \"<redacted>\"}"},
		{"{\"password\":\"S3 CR3T\",\"x\":1}", "{\"password\":\"<redacted>\",\"x\":1}"},
		{"{\"client_secret\": \"S3CR3T\"}", "{\"client_secret\": \"<redacted>\"}"},
		{"detail=\"{\\\"password\\\": \\\"S3CR3T\\\"}\"",
		 "detail=\"{\\\"password\\\": \\\"<redacted>\\\"}\""},
		/* flags and words */
		{"etcdctl --password S3CR3T get", "etcdctl --password <redacted> get"},
		{"etcdctl --password=S3CR3T get", "etcdctl --password=<redacted> get"},
		{"login with password S3CR3T now", "login with password <redacted> now"},
		{"--api-key S3CR3T", "--api-key <redacted>"},
		{"using token S3CR3T", "using token <redacted>"},
		/* headers */
		{"Authorization: Basic dXNlcjpTM0NSM1Q=", "Authorization: Basic <redacted>"},
		{"authorization: Bearer S3CR3T.x.y", "authorization: Bearer <redacted>"},
		{"header \"Authorization\": \"Bearer S3CR3T\"",
		 "header \"Authorization\": \"Bearer <redacted>\""},
		{"sent Bearer S3CR3T upstream", "sent Bearer <redacted> upstream"},
		{"X-Auth-Token: S3CR3T", "X-Auth-Token: <redacted>"},
		/* URLs */
		{"etcd http://root:S3CR3T@etcd:2379 down",
		 "etcd http://root:<redacted>@etcd:2379 down"},
		{"https://S3CR3T@host/x", "https://<redacted>@host/x"},
		/* what must stay */
		{"UCX  WARN  transport 'rc' is not available",
		 "UCX  WARN  transport 'rc' is not available"},
		{"NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>",
		 "NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>"},
		{"Authentication failed for user bob", "Authentication failed for user bob"},
		{"NCCL_IB_PKEY=0x7fff UCX_KEEPALIVE_INTERVAL=1s",
		 "NCCL_IB_PKEY=0x7fff UCX_KEEPALIVE_INTERVAL=1s"},
		{"token", "token"},
		{"password=", "password="},
		{"", ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = redact_text(cases[i].in);
		if (strcmp(got, cases[i].want))
			fail_msg("redact_text(%s) = %s, want %s", cases[i].in, got, cases[i].want);
		assert_null(strstr(got, "S3CR3T"));
		/* idempotent: a transcript redacted once reads the same again */
		char *again = redact_text(got);
		assert_string_equal(again, got);
		free(again);
		free(got);
	}
	assert_null(redact_text(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_redact_text_table),    cmocka_unit_test(test_secret_names),
		cmocka_unit_test(test_not_secret_names),     cmocka_unit_test(test_secret_values),
		cmocka_unit_test(test_catalogue_not_secret), cmocka_unit_test(test_redact_value),
		cmocka_unit_test(test_transport_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
