/* SPDX-License-Identifier: Apache-2.0 */
#include "core/suggest.h"

#include <stdlib.h>
#include <string.h>

#define MAXW 64

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la >= MAXW || lb >= MAXW)
		return la > lb ? la : lb;
	/* d[i][j]: distance between a[0..i) and b[0..j) */
	size_t d[MAXW + 1][MAXW + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

const char *suggest_closest(const char *typed, const char *const *words, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	size_t tl = strlen(typed);
	for (size_t i = 0; i < n; i++) {
		size_t d = suggest_distance(typed, words[i]);
		/* "--name" for "--namespace": a clear prefix is as good as a
		 * typo (getopt would have taken it if it were unambiguous). */
		if (tl >= 3 && strlen(words[i]) > tl && !strncmp(words[i], typed, tl))
			d = 1;
		if (d < best_d) {
			best_d = d;
			best = words[i];
		}
	}
	size_t limit = tl / 3 > 1 ? tl / 3 : 1;
	if (tl >= 5)
		limit = 2;
	return best && best_d <= limit && best_d > 0 ? best : NULL;
}
