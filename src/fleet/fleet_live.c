/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fleet.live.*: the pods of one deployment observed in one window
 * (--observe: the execs start together, so the windows overlap).
 *
 *   fleet.live.flat     a pod whose counters stayed flat while its peers
 *                       moved KV: it takes no transfers (not routed to, or
 *                       its transport is broken)
 *   fleet.live.balance  what the prefill side sent against what the decode
 *                       side received: both ends of a KV transfer see it, so
 *                       the two totals should be comparable
 *   fleet.live.window   whether the pods shared one window (--jobs)
 *
 * What a pod "moved" is NIXL's byte counters where its telemetry was read,
 * else its RDMA and TCP bytes.  Pure: reads only struct fleet_pod.
 */
#include <stdio.h>
#include <string.h>

#include "core/bytes.h"
#include "core/strbuf.h"
#include "fleet/fleet.h"
#include "fleet/fleet_desc.h"
#include "live/live.h"

/* Below this a pod "stayed flat": a few scrapes and keepalives, no KV. */
#define LIVE_FLAT_BYTES (1 << 20)

static double moved(const struct fleet_pod *p)
{
	return p->live_nixl ? p->live_kv_tx + p->live_kv_rx : p->live_rdma + p->live_tcp;
}

static void check_flat(struct ci_report *r, const struct fleet_pod *p, size_t n, size_t observed)
{
	struct strbuf flat = STRBUF_INIT;
	size_t n_flat = 0, n_moved = 0;
	for (size_t i = 0; i < n; i++) {
		if (!p[i].probed || !p[i].live_observed)
			continue;
		if (moved(&p[i]) < LIVE_FLAT_BYTES) {
			n_flat++;
			strbuf_joinf(&flat, ", ", "%s%s%s%s", p[i].name, *p[i].role ? " (" : "",
				     p[i].role, *p[i].role ? ")" : "");
		} else {
			n_moved++;
		}
	}
	const struct check_desc *d = &fleet_check_table[FLEET_CK_LIVE_FLAT];
	if (!n_moved) {
		report_na(r, d, "pods", "no pod moved KV during the window (%zu observed)",
			  observed);
		report_add_step(r, LIVE_TRAFFIC_STEP, LIVE_TRAFFIC_COMMAND);
	} else if (!n_flat)
		report_check(r, d, CI_OK, "pods",
			     "all %zu observed pods moved KV during the window", observed);
	else {
		struct ci_check *c = report_check(
			r, d, CI_WARN, "pods",
			"%zu of %zu observed pods stayed flat while their peers moved KV: %s",
			n_flat, observed, flat.buf);
		check_set_fix(c, "check that the router sends work to those pods, then read their "
				 "node.live.* checks and worker logs (--logs)");
	}
	strbuf_release(&flat);
}

static void check_balance(struct ci_report *r, const struct fleet_pod *p, size_t n)
{
	double sent = 0, recv = 0;
	size_t np = 0, nd = 0;
	for (size_t i = 0; i < n; i++) {
		if (!p[i].probed || !p[i].live_observed || !p[i].live_nixl)
			continue;
		/* Either side can post the transfer (decode READs from prefill
		 * in vLLM's NIXL connector): count both directions per side. */
		double b = p[i].live_kv_tx + p[i].live_kv_rx;
		if (!strcmp(p[i].role, "prefill")) {
			sent += b;
			np++;
		} else if (!strcmp(p[i].role, "decode")) {
			recv += b;
			nd++;
		}
	}
	if (!np || !nd)
		return; /* no pair with telemetry: nothing to compare */
	const struct check_desc *d = &fleet_check_table[FLEET_CK_LIVE_BALANCE];
	char a[BYTES_STR_LEN], b[BYTES_STR_LEN];
	if (sent < LIVE_FLAT_BYTES && recv < LIVE_FLAT_BYTES) {
		report_na(r, d, "prefill/decode", "no KV moved between prefill and decode");
		return;
	}
	double lo = sent < recv ? sent : recv, hi = sent < recv ? recv : sent;
	if (lo >= hi / 2) {
		report_check(r, d, CI_OK, "prefill/decode",
			     "prefill moved %s, decode %s during the window (NIXL counters)",
			     bytes_str_d(sent, a, sizeof(a)), bytes_str_d(recv, b, sizeof(b)));
		return;
	}
	struct ci_check *c = report_check(
		r, d, CI_WARN, "prefill/decode",
		"prefill moved %s but decode %s during the window: one side's transfers do "
		"not reach the other (or go to pods outside this deployment)",
		bytes_str_d(sent, a, sizeof(a)), bytes_str_d(recv, b, sizeof(b)));
	check_set_fix(c, "compare the pods' node.live.traffic; a side that moved little may be "
			 "talking to another deployment's pods or failing (NIXL errors)");
}

/* Pods share one window when their windows overlap for at least half of
 * the shortest one (on this machine's clock, around each kubectl exec,
 * fleet_probe.c), or when their execs started, and ended, within about one
 * round trip of kubectl exec of each other, whatever the window. */
#define LIVE_WINDOW_SLACK_MIN_S 1.0

struct window_spread {
	double start, end; /* seconds between the first and the last */
	double shortest;   /* the shortest exec, seconds */
	double overlap;    /* the last start to the first end (< 0: none) */
	size_t timed;      /* observed pods with both times */
};

static void window_spread(const struct fleet_pod *p, size_t n, struct window_spread *w)
{
	double s0 = 0, s1 = 0, e0 = 0, e1 = 0;
	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < n; i++) {
		if (!p[i].probed || !p[i].live_observed || p[i].exec_start <= 0 ||
		    p[i].exec_end < p[i].exec_start)
			continue;
		double len = p[i].exec_end - p[i].exec_start;
		if (!w->timed++) {
			s0 = s1 = p[i].exec_start;
			e0 = e1 = p[i].exec_end;
			w->shortest = len;
			continue;
		}
		s0 = p[i].exec_start < s0 ? p[i].exec_start : s0;
		s1 = p[i].exec_start > s1 ? p[i].exec_start : s1;
		e0 = p[i].exec_end < e0 ? p[i].exec_end : e0;
		e1 = p[i].exec_end > e1 ? p[i].exec_end : e1;
		w->shortest = len < w->shortest ? len : w->shortest;
	}
	w->start = s1 - s0;
	w->end = e1 - e0;
	w->overlap = e0 - s1;
}

/* "less than 1 s", else whole seconds: what a report may say of a measured
 * spread without changing from run to run. */
static const char *spread_words(double s, char *buf, size_t len)
{
	if (s < LIVE_WINDOW_SLACK_MIN_S)
		snprintf(buf, len, "less than 1 s");
	else
		snprintf(buf, len, "%.0f s", s);
	return buf;
}

/* --jobs J runs at most J execs at once, and each holds its pod for the
 * whole window: with more pods than J the later ones are observed in later
 * windows.  The tool warns rather than refuses: the pod count is known only
 * after the listing, and raising --jobs on its own would open as many
 * kubectl execs as there are pods.  Pods observed at different times are
 * not compared (a pod idle in its window says nothing about its peers').
 * With --jobs enough, the measured start and end times decide: a slow API
 * server or node can still start one exec a window late. */
static bool check_window(struct ci_report *r, const struct fleet_pod *p, size_t tried,
			 size_t observed, size_t jobs)
{
	const struct check_desc *d = &fleet_check_table[FLEET_CK_LIVE_WINDOW];
	struct window_spread w;
	window_spread(p, tried, &w);
	bool together = w.start <= LIVE_WINDOW_SLACK_MIN_S && w.end <= LIVE_WINDOW_SLACK_MIN_S;
	bool apart = w.timed >= 2 && !together && w.overlap < w.shortest / 2;
	if (tried <= jobs && !apart) {
		char a[32], b[32];
		report_check(r, d, CI_OK, "pods",
			     "the %zu observed pods were observed in one window: their execs "
			     "started %s apart and ended %s apart (measured)%s",
			     observed, spread_words(w.start, a, sizeof(a)),
			     spread_words(w.end, b, sizeof(b)),
			     together ? "" : ", overlapping for more than half of the shortest");
		return true;
	}
	struct ci_check *c;
	if (tried <= jobs) {
		c = report_check(r, d, CI_WARN, "pods",
				 "the %zu observed pods' execs started up to %.1f s apart and "
				 "ended up to %.1f s apart (measured; the shortest took %.1f s, "
				 "the windows overlap %.1f s): they were not observed in one "
				 "window, so fleet.live.flat and fleet.live.balance are not "
				 "judged",
				 observed, w.start, w.end, w.shortest,
				 w.overlap > 0 ? w.overlap : 0);
		check_set_fix(c, "run again (a slow API server or node started some execs "
				 "late), or narrow --selector to the pods to compare");
		return false;
	}
	size_t waves = (tried + jobs - 1) / jobs;
	c = report_check(
		r, d, CI_WARN, "pods",
		"%zu pods but --jobs %zu: at most %zu execs run at once, so the pods were "
		"observed in about %zu successive windows, not one; the run took about %zu "
		"windows, and fleet.live.flat and fleet.live.balance are not compared",
		tried, jobs, jobs, waves, waves);
	check_set_fix(c,
		      "observe with --jobs %zu (at least the number of pods), or narrow "
		      "--selector to the pods to compare",
		      tried);
	return false;
}

void fleet_check_live(struct ci_report *r, const struct fleet_pod *p, size_t n, size_t jobs)
{
	size_t observed = 0;
	for (size_t i = 0; i < n; i++)
		observed += p[i].probed && p[i].live_observed;
	if (observed < 2)
		return;
	if (!check_window(r, p, n, observed, jobs ? jobs : 1)) {
		const char *why =
			"the pods were observed in successive windows (fleet.live.window)";
		report_na(r, &fleet_check_table[FLEET_CK_LIVE_FLAT], "pods", "%s", why);
		report_na(r, &fleet_check_table[FLEET_CK_LIVE_BALANCE], "prefill/decode", "%s",
			  why);
		return;
	}
	check_flat(r, p, n, observed);
	check_balance(r, p, n);
}
