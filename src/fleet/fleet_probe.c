/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The worker pool: up to --jobs threads take the next pod from a shared
 * index and run its one probe_collect(), each bounded by --timeout (one
 * pod's round trip) and by the optional --deadline of the whole run, which
 * ever comes first.  A pod whose turn comes after the --deadline is not
 * started at all.
 *
 * Results stream: a worker hands each finished pod to the calling thread,
 * which judges it (fleet_run's callback: parse, checks, free the
 * transcript) while the other pods are still being probed.  Judging stays
 * on one thread, so the checks need not be thread-safe, and memory holds
 * the transcripts of the pods in flight or waiting to be judged, not of the
 * whole fleet.
 *
 * Waiting to be judged is bounded too: a worker starts its next pod only
 * while fewer than --jobs answers wait.  Without that bound a judge that
 * gets too little CPU (the kubectl processes and the workers compete for
 * it: a loaded machine, or execs that answer at once) falls behind, and
 * every finished transcript waits in memory (about 90 KiB each: 94 MB at
 * 1,024 pods, --jobs 64, answers without latency).  With it, at most
 * 2 x --jobs transcripts are held, and the probing slows to the judge's
 * pace only when the judge is the slower of the two anyway.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "fleet/fleet_run.h"
#include "probe/run_command.h"

/* Below this much time left a probe is not started: it could not finish. */
#define FLEET_MIN_SLICE_S 0.05

struct pool {
	const struct fleet_target *ft;
	struct fleet_job *jobs;
	size_t n, next;
	double deadline;
	size_t *ready; /* finished, not yet judged: a FIFO of indices */
	size_t ready_head, ready_tail;
	size_t max_ready; /* a worker waits while this many are not judged */
	pthread_mutex_t mu;
	pthread_cond_t cv;   /* an answer is ready (the judge waits) */
	pthread_cond_t room; /* the judge took one (a worker may wait) */
};

/* Probe job i (no lock held). */
static void probe_one(struct pool *pl, size_t i)
{
	struct fleet_job *j = &pl->jobs[i];
	double budget = probe_target_timeout(&pl->ft->probe);
	if (pl->deadline > 0) {
		double left = pl->deadline - run_now();
		if (left < FLEET_MIN_SLICE_S)
			return; /* not started: the --deadline passed first */
		if (left < budget) {
			budget = left;
			j->deadline_bound = true;
		}
	}
	/* A private copy: only this call's time budget differs. */
	struct probe_target mine = pl->ft->probe;
	mine.timeout_s = budget;
	if (j->namespace_) /* -A: the pod's own namespace */
		mine.namespace_ = j->namespace_;
	mine.save_probe = NULL;
	mine.replay = NULL;
	mine.sysroot = NULL;
	j->started = true;
	j->t_start = run_now();
	probe_collect(&mine, j->pod, &j->out);
	j->t_end = run_now();
}

static void *worker(void *arg)
{
	struct pool *pl = arg;
	for (;;) {
		pthread_mutex_lock(&pl->mu);
		while (pl->next < pl->n && pl->ready_tail - pl->ready_head >= pl->max_ready)
			pthread_cond_wait(&pl->room, &pl->mu);
		size_t i = pl->next < pl->n ? pl->next++ : pl->n;
		pthread_mutex_unlock(&pl->mu);
		if (i == pl->n)
			return NULL;
		probe_one(pl, i);
		pthread_mutex_lock(&pl->mu);
		pl->ready[pl->ready_tail++] = i;
		pthread_cond_signal(&pl->cv);
		pthread_mutex_unlock(&pl->mu);
	}
}

static void progress_line(size_t done, size_t n)
{
	/* One short write per update: no interleaving. */
	char line[64];
	int len = snprintf(line, sizeof(line), "\rprobed %zu/%zu pods", done, n);
	if (len > 0 && write(STDERR_FILENO, line, (size_t)len) < 0) {
		/* progress is best effort */
	}
}

void fleet_probe_all(const struct fleet_target *ft, struct fleet_job *jobs, size_t n,
		     double deadline, fleet_judge_fn judge, void *ctx)
{
	bool progress = ft->progress;
	struct pool pl = {.ft = ft, .jobs = jobs, .n = n, .deadline = deadline};
	pl.ready = xcalloc(n ? n : 1, sizeof(*pl.ready));
	pthread_mutex_init(&pl.mu, NULL);
	pthread_cond_init(&pl.cv, NULL);
	pthread_cond_init(&pl.room, NULL);
	size_t want = ft->jobs > 0 ? (size_t)ft->jobs : 1;
	if (want > n)
		want = n;
	pl.max_ready = want ? want : 1;
	pthread_t *th = xcalloc(want ? want : 1, sizeof(*th));
	size_t started = 0;
	for (size_t i = 0; i < want; i++) {
		if (pthread_create(&th[i], NULL, worker, &pl))
			break;
		started++;
	}
	size_t judged = 0;
	if (!started) {
		/* No thread at all: still probe, one by one, judging each. */
		for (size_t i = 0; i < n; i++) {
			probe_one(&pl, i);
			judge(ctx, i, &jobs[i]);
			if (progress)
				progress_line(++judged, n);
		}
	}
	pthread_mutex_lock(&pl.mu);
	while (judged < n && started) {
		while (pl.ready_head == pl.ready_tail)
			pthread_cond_wait(&pl.cv, &pl.mu);
		size_t i = pl.ready[pl.ready_head++];
		pthread_cond_signal(&pl.room);
		pthread_mutex_unlock(&pl.mu);
		judge(ctx, i, &jobs[i]);
		judged++;
		if (progress)
			progress_line(judged, n);
		pthread_mutex_lock(&pl.mu);
	}
	pthread_mutex_unlock(&pl.mu);
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
	free(pl.ready);
	pthread_cond_destroy(&pl.cv);
	pthread_cond_destroy(&pl.room);
	pthread_mutex_destroy(&pl.mu);
	if (progress && n) {
		static const char eol[] = "\n";
		if (write(STDERR_FILENO, eol, 1) < 0) {
			/* best effort */
		}
	}
}
