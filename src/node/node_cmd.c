/* SPDX-License-Identifier: Apache-2.0 */
#include "core/cli.h"

int cmd_node(const struct cli_opts *o)
{
	(void)o;
	return cli_usage_error("node", "not built yet");
}
