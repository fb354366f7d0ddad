/* SPDX-License-Identifier: Apache-2.0 */
#include <inttypes.h>
#include <stdio.h>

#include "core/bytes.h"

const char *bytes_str(uint64_t b, char *buf, size_t len)
{
	static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
	if (b == UINT64_MAX) {
		snprintf(buf, len, "unlimited");
		return buf;
	}
	if (b < 1024) {
		snprintf(buf, len, "%" PRIu64 " bytes", b);
		return buf;
	}
	/* The largest unit the value reaches: u = 0 is KiB (shift 10). */
	int u = 0;
	while (u < 4 && b >= (1ull << (10 * (u + 2))))
		u++;
	unsigned shift = 10u * (unsigned)(u + 1);
	double v = (double)b / (double)(1ull << shift);
	/* 1023.96 MiB would print as "1024.0 MiB": say "1.0 GiB". */
	if (v >= 1023.95 && u < 4) {
		u++;
		shift += 10;
		v /= 1024;
	}
	if (!(b & ((1ull << shift) - 1)))
		snprintf(buf, len, "%" PRIu64 " %s", b >> shift, unit[u]);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
	return buf;
}

const char *bytes_str_d(double b, char *buf, size_t len)
{
	/* !(b > 0) also catches NaN. */
	uint64_t v = !(b > 0) ? 0 : b >= 18446744073709549568.0 ? UINT64_MAX - 1 : (uint64_t)b;
	return bytes_str(v, buf, len);
}
