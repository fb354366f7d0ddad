/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz the IB value interpreters: any bytes must parse without a crash or a leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/sysfs_ib.h"
#include "fuzz_parse.h"

static void values(const uint8_t *data, size_t size)
{
	/* the value interpreters take NUL-terminated strings */
	char *s = malloc(size + 1);
	struct ib_rate r;
	uint32_t lid;
	uint64_t guid;
	uint8_t gid[16];

	if (!s)
		return;
	memcpy(s, data, size);
	s[size] = '\0';
	(void)ib_port_state_parse(s);
	(void)ib_phys_state_parse(s);
	(void)ib_link_layer_parse(s);
	(void)ib_gid_type_parse(s);
	(void)ib_rate_parse(s, &r);
	(void)ib_lid_parse(s, &lid);
	(void)ib_guid_parse(s, &guid);
	(void)ib_gid_parse(s, gid);
	(void)ib_gid_is_zero(s);
	(void)ib_node_type_parse(s);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	values(data, size);
	return 0;
}
