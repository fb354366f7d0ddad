/* SPDX-License-Identifier: Apache-2.0 */
#include "core/cli.h"

int cmd_all(const struct cli_opts *o)
{
	(void)o;
	return cli_usage_error("all", "not built yet");
}
