/* SPDX-License-Identifier: Apache-2.0 */
#include "core/term.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int term_width(int fd)
{
	const char *c = getenv("COLUMNS");
	int w = 0;
	if (c && *c) {
		char *end;
		long v = strtol(c, &end, 10);
		if (!*end && v > 0 && v < 10000)
			w = (int)v;
	}
	struct winsize ws;
	if (!w && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		w = ws.ws_col;
	if (!w)
		w = TERM_DEFAULT_WIDTH;
	return w < TERM_MIN_WIDTH ? TERM_MIN_WIDTH : w;
}

bool term_auto_color(int fd)
{
	const char *no_color = getenv("NO_COLOR");
	if (no_color && *no_color)
		return false;
	const char *term = getenv("TERM");
	if (term && !strcmp(term, "dumb"))
		return false;
	return isatty(fd);
}
