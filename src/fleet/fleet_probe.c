/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The worker pool: up to --jobs threads take the next pod from a shared
 * index and run its one probe_collect().  Every call gets the time left to
 * the ONE global deadline as its --timeout, so that a pod that starts late
 * (it waited for a free slot) cannot extend the run: the whole command ends
 * by the deadline plus run_command's kill grace.  A pod whose turn comes
 * after the deadline is not started at all.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "fleet/fleet.h"
#include "probe/run_command.h"

/* Below this much time left a probe is not started: it could not finish. */
#define FLEET_MIN_SLICE_S 0.05

struct pool {
	const struct fleet_target *ft;
	struct fleet_job *jobs;
	size_t n, next, done;
	double deadline;
	bool progress;
	pthread_mutex_t mu;
};

static void *worker(void *arg)
{
	struct pool *pl = arg;
	for (;;) {
		pthread_mutex_lock(&pl->mu);
		size_t i = pl->next < pl->n ? pl->next++ : pl->n;
		pthread_mutex_unlock(&pl->mu);
		if (i == pl->n)
			return NULL;

		struct fleet_job *j = &pl->jobs[i];
		double left = pl->deadline - run_now();
		if (left >= FLEET_MIN_SLICE_S) {
			/* A private copy: only this call's time budget differs. */
			struct probe_target mine = pl->ft->probe;
			mine.timeout_s = left;
			mine.save_probe = NULL;
			mine.replay = NULL;
			mine.sysroot = NULL;
			j->started = true;
			probe_collect(&mine, j->pod, &j->out);
		}
		pthread_mutex_lock(&pl->mu);
		pl->done++;
		if (pl->progress) {
			/* One short write per update: no interleaving. */
			char line[64];
			int len = snprintf(line, sizeof(line), "\rprobed %zu/%zu pods", pl->done, pl->n);
			if (len > 0 && write(STDERR_FILENO, line, (size_t)len) < 0) {
				/* progress is best effort */
			}
		}
		pthread_mutex_unlock(&pl->mu);
	}
}

void fleet_probe_all(const struct fleet_target *ft, struct fleet_job *jobs, size_t n,
		     double deadline)
{
	bool progress = ft->progress;
	struct pool pl = {.ft = ft, .jobs = jobs, .n = n, .deadline = deadline, .progress = progress};
	pthread_mutex_init(&pl.mu, NULL);
	size_t want = ft->jobs > 0 ? (size_t)ft->jobs : 1;
	if (want > n)
		want = n;
	pthread_t *th = xcalloc(want ? want : 1, sizeof(*th));
	size_t started = 0;
	for (size_t i = 0; i < want; i++) {
		if (pthread_create(&th[i], NULL, worker, &pl))
			break;
		started++;
	}
	if (!started && n)
		worker(&pl);   /* no thread at all: still probe, one by one */
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
	pthread_mutex_destroy(&pl.mu);
	if (progress && n) {
		static const char eol[] = "\n";
		if (write(STDERR_FILENO, eol, 1) < 0) {
			/* best effort */
		}
	}
}
