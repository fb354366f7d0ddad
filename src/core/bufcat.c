/* SPDX-License-Identifier: Apache-2.0 */
#include "bufcat.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void bufcatf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	if (used + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}
