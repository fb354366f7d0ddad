/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A main() for libFuzzer targets built without libFuzzer: it feeds every
 * file named on the command line (or every regular file inside a directory
 * named there, recursively) to LLVMFuzzerTestOneInput once.  The replay
 * tests run it over fuzz/corpus/<name>/ with gcc and under ASan/UBSan, so a
 * crash that a fuzzer once found stays fixed.
 *
 * Exit: 0 when every input ran, 77 (meson "skipped") when there was no input
 * at all, 1 on an unreadable path.  A crash is a crash.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Corpus files are small; anything bigger is a mistake, not a test. */
#define REPLAY_MAX_INPUT (64u << 20)
#define REPLAY_MAX_DEPTH 8

struct stats {
	size_t inputs, errors;
};

static void run_file(const char *path, struct stats *st)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		st->errors++;
		return;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		if (len == cap) {
			if (cap >= REPLAY_MAX_INPUT)
				break;
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t n = fread(buf + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "replay: %s: out of memory\n", path);
		st->errors++;
		return;
	}
	/* An exact-size heap copy, so that ASan catches a read past the end
	 * just as it would under libFuzzer. */
	uint8_t *exact = malloc(len ? len : 1);
	if (exact) {
		memcpy(exact, buf, len);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	free(buf);
	st->inputs++;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path, struct stats *st, int depth)
{
	struct stat sb;
	if (stat(path, &sb)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		st->errors++;
		return;
	}
	if (!S_ISDIR(sb.st_mode)) {
		if (S_ISREG(sb.st_mode))
			run_file(path, st);
		return;
	}
	if (depth >= REPLAY_MAX_DEPTH)
		return;
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		st->errors++;
		return;
	}
	/* Sorted, so that a failing run names the same input every time. */
	char **names = NULL;
	size_t n = 0, cap = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		size_t l = strlen(path) + strlen(e->d_name) + 2;
		names[n] = malloc(l);
		if (!names[n])
			break;
		snprintf(names[n], l, "%s/%s", path, e->d_name);
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		run_path(names[i], st, depth + 1);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	struct stats st = {0};
	for (int i = 1; i < argc; i++) {
		struct stat sb;
		/* A target without a corpus yet is skipped, not failed. */
		if (stat(argv[i], &sb) && errno == ENOENT && argc == 2) {
			printf("replay: no corpus at %s\n", argv[i]);
			return 77;
		}
		run_path(argv[i], &st, 0);
	}
	printf("replay: %zu inputs, %zu errors\n", st.inputs, st.errors);
	if (st.errors)
		return 1;
	return st.inputs ? 0 : 77;
}
