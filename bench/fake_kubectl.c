/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench/fake_kubectl.c: the cheapest stand-in for kubectl that replays a
 * saved transcript, for the fleet bench (tests/fakes/kubectl is a shell
 * script: a few ms of CPU per call, which 10,000 pods on two cores turn
 * into the bottleneck).  Compiled by bench/fleet.sh into a temporary
 * folder; never installed, never used by the tests.
 *
 *   get ...      print $FAKE_PODS_JSON
 *   exec ...     sleep $FAKE_LATENCY_MS, then print $FAKE_TRANSCRIPT
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int copy_file(const char *path)
{
	int fd = path ? open(path, O_RDONLY) : -1;
	if (fd < 0)
		return 1;
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(STDOUT_FILENO, buf + off, (size_t)(n - off));
			if (w <= 0)
				return 1;
			off += w;
		}
	close(fd);
	return n < 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "get"))
			return copy_file(getenv("FAKE_PODS_JSON"));
		if (!strcmp(argv[i], "exec")) {
			const char *l = getenv("FAKE_LATENCY_MS");
			long ms = l ? strtol(l, NULL, 10) : 0;
			struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
			while (ms > 0 && nanosleep(&ts, &ts) != 0) {
			}
			return copy_file(getenv("FAKE_TRANSCRIPT"));
		}
	}
	return 1;
}
