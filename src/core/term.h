/* SPDX-License-Identifier: Apache-2.0 */
/* The terminal the text goes to: its width, and whether colour is wanted. */
#ifndef CI_TERM_H
#define CI_TERM_H

#include <stdbool.h>

#define TERM_MIN_WIDTH     40
#define TERM_DEFAULT_WIDTH 80

/* Columns to wrap text at: $COLUMNS when it is a number, else the size of
 * the terminal on fd (TIOCGWINSZ), else 80 (a pipe, a file, a CI log).
 * Never below TERM_MIN_WIDTH: a narrower column is unreadable anyway. */
int term_width(int fd);
/* Whether "--color auto" gives colour on fd: a terminal that is not
 * TERM=dumb, and NO_COLOR not set (https://no-color.org). */
bool term_auto_color(int fd);

#endif
