/* SPDX-License-Identifier: Apache-2.0 */
/* The one byte formatter: exact units, one decimal otherwise, edges. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/bytes.h"

static const char *s(uint64_t b)
{
	static char buf[BYTES_STR_LEN];
	return bytes_str(b, buf, sizeof(buf));
}

static const char *d(double b)
{
	static char buf[BYTES_STR_LEN];
	return bytes_str_d(b, buf, sizeof(buf));
}

static void test_exact_units(void **state)
{
	(void)state;
	assert_string_equal(s(0), "0 bytes");
	assert_string_equal(s(1023), "1023 bytes");
	assert_string_equal(s(1024), "1 KiB");
	assert_string_equal(s(65536), "64 KiB");
	assert_string_equal(s(8ull << 20), "8 MiB");
	assert_string_equal(s(512ull << 20), "512 MiB");
	assert_string_equal(s(1ull << 30), "1 GiB");
	assert_string_equal(s(3ull << 40), "3 TiB");
	assert_string_equal(s(5ull << 50), "5 PiB");
}

static void test_one_decimal(void **state)
{
	(void)state;
	assert_string_equal(s(1536), "1.5 KiB");
	assert_string_equal(s((1ull << 30) + (1ull << 29)), "1.5 GiB");
	assert_string_equal(s(1000000), "976.6 KiB");
	/* never "1024.0 MiB" */
	assert_string_equal(s((1ull << 30) - 1000), "1.0 GiB");
	assert_string_equal(s(UINT64_MAX), "unlimited");
	assert_string_equal(s(UINT64_MAX - 1), "16384.0 PiB");
}

static void test_doubles(void **state)
{
	(void)state;
	assert_string_equal(d(-5), "0 bytes");
	assert_string_equal(d(NAN), "0 bytes");
	assert_string_equal(d(1e30), "16384.0 PiB");
	assert_string_equal(d(2.0 * (1ull << 30)), "2 GiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_units),
		cmocka_unit_test(test_one_decimal),
		cmocka_unit_test(test_doubles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
