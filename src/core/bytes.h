/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one way a byte count is printed (limits, /dev/shm, what moved during
 * an observation window): exact units when the value is one ("64 KiB",
 * "512 MiB": limits usually are), else one decimal in the largest binary
 * unit ("1.4 GiB"), so that a reader never counts digits; "N bytes" below
 * 1 KiB.  UINT64_MAX is RLIM_INFINITY's value, a limit that is none:
 * "unlimited".
 */
#ifndef CI_BYTES_H
#define CI_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* Enough for "18446744073709551615 bytes" and "16384.0 PiB". */
#define BYTES_STR_LEN 32

const char *bytes_str(uint64_t b, char *buf, size_t len);
/* The same for a counter read as a double (Prometheus samples): negative
 * and NaN read as 0, beyond 2^64 as the largest count. */
const char *bytes_str_d(double b, char *buf, size_t len);

#endif
