/* SPDX-License-Identifier: Apache-2.0 */
/*
 * "did you mean": the closest of a list of words to a mistyped one, as git
 * does for commands (help.c, a Damerau-Levenshtein distance with a cut).
 */
#ifndef CI_SUGGEST_H
#define CI_SUGGEST_H

#include <stddef.h>

/* The word of words[0..n) closest to typed, or NULL when none is close
 * enough to be what was meant (distance at most a third of the word, at
 * least 1; a prefix of a word also counts). */
const char *suggest_closest(const char *typed, const char *const *words, size_t n);
/* The edit distance with adjacent transpositions ("evn" -> "env" is 1). */
size_t suggest_distance(const char *a, const char *b);

#endif
