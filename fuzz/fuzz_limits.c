/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz ulimit, /proc/self/limits, /proc/self/status, /proc/mounts and df: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/limits.h"
#include "parse/proc_status.h"
#include "parse/mounts.h"
#include "fuzz_parse.h"

static void mnt(const uint8_t *data, size_t size)
{
	struct mounts m;
	uint64_t b;
	size_t i;

	(void)mounts_parse((const char *)data, size, &m);
	for (i = 0; i < m.n; i++)
		(void)mount_size_option(&m.v[i], &b);
	(void)mounts_find(&m, "/dev/shm");
	mounts_release(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FUZZ_PARSE(limits, limits_parse, limits_release);
	FUZZ_PARSE(proc_status, proc_status_parse, proc_status_release);
	mnt(data, size);
	FUZZ_PARSE(df, df_parse, df_release);
	return 0;
}
