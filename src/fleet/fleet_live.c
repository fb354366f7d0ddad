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

/* --jobs J runs at most J execs at once, and each holds its pod for the
 * whole window: with more pods than J the later ones are observed in later
 * windows.  The tool warns rather than refuses: the pod count is known only
 * after the listing, and raising --jobs on its own would open as many
 * kubectl execs as there are pods.  Pods observed at different times are
 * not compared (a pod idle in its window says nothing about its peers'). */
static bool check_window(struct ci_report *r, size_t tried, size_t observed, size_t jobs)
{
	const struct check_desc *d = &fleet_check_table[FLEET_CK_LIVE_WINDOW];
	if (tried <= jobs) {
		report_check(r, d, CI_OK, "pods",
			     "the %zu observed pods were observed in one window (their execs "
			     "started together)",
			     observed);
		return true;
	}
	size_t waves = (tried + jobs - 1) / jobs;
	struct ci_check *c = report_check(
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
	if (!check_window(r, n, observed, jobs ? jobs : 1)) {
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
