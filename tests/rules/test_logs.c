/* SPDX-License-Identifier: Apache-2.0 */
/* rules/logs: every format string, rendered into a line as its source
 * would print it, matches its own row; real benign lines match none; the
 * real lines of tests/fixtures hold the meaning of the rows they match, and
 * every row's meaning is tallied. */
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "parse/logscan.h"
#include "rules/logs.h"

/* A value for each conversion, as a run would print one. */
static void render(const char *fmt, char *out, size_t cap)
{
	size_t n = 0;
	for (const char *f = fmt; *f && n + 32 < cap;) {
		if (f[0] == '%' && f[1] == '%') {
			out[n++] = '%';
			f += 2;
			continue;
		}
		if (f[0] != '%') {
			out[n++] = *f++;
			continue;
		}
		f++;
		while (*f && strchr("-+ #0123456789.*hlzjtLq", *f))
			f++;
		const char *v = "7";
		switch (*f) {
		case 's': v = "mlx5_0"; break;
		case 'p': v = "0x7f2a1c000000"; break;
		case 'm': v = "Invalid argument"; break;
		case 'x':
		case 'X': v = "1f"; break;
		case 'f':
		case 'g':
		case 'e': v = "0.5"; break;
		case 'c': v = "x"; break;
		default: break;
		}
		if (*f)
			f++;
		n += (size_t)snprintf(out + n, cap - n, "%s", v);
	}
	out[n] = '\0';
}

/* The mark each source's logger puts before the message, at its level. */
static const char *mark(enum log_src s, enum log_meaning m, enum log_at at)
{
	if (at == LOG_AT_INFO)
		return "h:412:500 [0] NCCL INFO ";
	switch (s) {
	case LOG_SRC_UCX:
		return m != LOG_MEAN_WARN ? "[1700000000.1] [h:1:0]   ib_iface.c:1 UCX  ERROR "
					  : "[1700000000.1] [h:1:0]   ib_iface.c:1 UCX  WARN  ";
	case LOG_SRC_NIXL:
		return m == LOG_MEAN_FAIL ? "E1201 12:00:00.000001    412 nixl_agent.cpp:1] "
					  : "W1201 12:00:00.000001    412 nixl_agent.cpp:1] ";
	case LOG_SRC_NCCL: return "h:412:500 [0] transport/net_ib.cc:1 NCCL WARN ";
	case LOG_SRC_OFI: return "h:412:500 [0] nccl_net_ofi_rdma.cpp:1 NCCL WARN NET/OFI ";
	case LOG_SRC_EFA: return "libfabric:412:1700000000::efa:ep_ctrl:efa_rdm_ep_open():1<warn> ";
	case LOG_SRC_COUNT: break;
	}
	return "";
}

static void test_every_row_matches_its_line(void **state)
{
	(void)state;
	size_t total = 0;
	for (int s = 0; s < LOG_SRC_COUNT; s++) {
		const struct log_source *ls = &log_sources_table[s];
		assert_true(ls->n > 0);
		for (size_t i = 0; i < ls->n; i++) {
			const struct log_rule *r = &ls->rows[i];
			char msg[1024], line[1400];
			render(r->fmt, msg, sizeof(msg));
			snprintf(line, sizeof(line), "%s%s",
				 mark((enum log_src)s, r->meaning, r->at), msg);
			if (!log_fmt_matches(r->fmt, line))
				fail_msg("%s row \"%s\" does not match its line \"%s\"", ls->name,
					 r->fmt, line);
			enum log_src got;
			const struct log_rule *m = log_rule_match(line, &got);
			if (!m)
				fail_msg("no row matches \"%s\"", line);
			/* the row found first means what this one means */
			if (m->meaning != r->meaning && log_sources_table[got].rows != ls->rows)
				fail_msg("\"%s\" is read as another source's %s", line, m->fmt);
			assert_true(r->versions >= 1 && r->versions < (1u << ls->n_tags));
			assert_non_null(log_rule_tag(ls, r));
			assert_non_null(r->file);
			total++;
		}
	}
	assert_true(total > 1000);
}

/* Real benign lines of the same loggers (INFO/DEBUG of NCCL, UCX, NIXL,
 * the OFI plugin; tests/fixtures/live/logs and issue threads) match no row. */
static void test_benign_lines_match_none(void **state)
{
	(void)state;
	static const char *const benign[] = {
		"[1744331142.028115] [ccw-gpu-51:2802608:3]      ucp_worker.c:1903 UCX  INFO    "
		"ucp_context_2 inter-node cfg#3 rma(rc_mlx5/mlx5_ib2:1)",
		"[1710151844.440842] [m201:4904 :0]           ib_md.c:1815 UCX  DEBUG mlx5_0: dmabuf "
		"is supported",
		"aigc-0:1639:1915 [0] NCCL INFO Call to ibv_set_ece failed with error Operation not "
		"supported errno 95",
		"8h200-2:6831:6840 [0] NCCL INFO NET/OFI Support for DMA-BUF registrations: false",
		"I0801 15:40:05.041813    1049 nixl_plugin_manager.cpp:316] Discovered and loaded "
		"plugin: UCX",
		"ip-10-36-29-253:79:79 [0] NCCL INFO NET/Plugin: Failed to find ncclCollNetPlugin_v8 "
		"symbol.",
		"h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM",
		NULL,
	};
	for (size_t i = 0; benign[i]; i++) {
		enum log_src s;
		const struct log_rule *r = log_rule_match(benign[i], &s);
		if (r)
			fail_msg("benign \"%s\" matched %s row \"%s\"", benign[i],
				 log_sources_table[s].name, r->fmt);
	}
}

/* Fragments in order, conversions as wildcards; spaces-only fragments
 * say nothing. */
static void test_fragments(void **state)
{
	(void)state;
	assert_true(log_fmt_matches(
		"failed to register address %p (%s) length %zu",
		"x UCX  ERROR failed to register address 0x7f (host) length 4096 on md"));
	assert_false(log_fmt_matches("failed to register address %p (%s) length %zu",
				     "length 4096 failed to register address 0x7f"));
	assert_true(
		log_fmt_matches("%s%s%s %s %s not available, please use one or more of: %s",
				"UCX  WARN  transports 'cuda_ipc','cuda_copy' are not available, "
				"please use one or more of: tcp"));
	assert_true(log_fmt_matches("100%% done", "100% done"));
}

/* What a row means follows the code path after its call (tools/
 * log_formats.py): an NCCL WARN whose wrapper returns ncclSystemError is a
 * failure; a UCX error the code survives (the GID is skipped) is a warning;
 * ucx_perftest's own diagnostics are informational; NCCL's INFO line that
 * GPU Direct RDMA is off is a warning; a line with UCX's fatal prefix
 * (the process aborts) is a failure whatever its row.  The lines are
 * rendered from the rows' format strings. */
static void test_meaning_from_the_code_path(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		enum log_src src;
		enum log_meaning mean;
	} cases[] = {
		{"gpu-7:4100:4180 [3] misc/ibvwrap.cc:185 NCCL WARN Call to ibv_create_qp failed with "
		 "error Cannot allocate memory",
		 LOG_SRC_NCCL, LOG_MEAN_FAIL},
		{"[1700000000.123456] [gpu-7:4100:0]       ib_device.c:1097 UCX  ERROR failed to "
		 "convert GID 3 to sockaddr",
		 LOG_SRC_UCX, LOG_MEAN_WARN},
		{"[1700000000.123456] [gpu-7:4100:0]     cuda_alloc.c:61   UCX  ERROR Illegal cuda "
		 "device 9 number of devices 8",
		 LOG_SRC_UCX, LOG_MEAN_INFO},
		{"gpu-7:4100:4180 [3] NCCL INFO GPU Direct RDMA Disabled for GPU 1b000 / HCA 3 "
		 "(distance 5 > 4)",
		 LOG_SRC_NCCL, LOG_MEAN_WARN},
		{"[gpu-7:4100 :0:4180] ib_mlx5_log.c:179  Remote access error on mlx5_2:1/IB (synd "
		 "0x13 vend 0x88 hw_synd 0/0)",
		 LOG_SRC_UCX, LOG_MEAN_FAIL},
		{"[gpu-7:4100 :0:4180] ib_device.c:1097  failed to convert GID 3 to sockaddr",
		 LOG_SRC_UCX, LOG_MEAN_FAIL},
		/* aws-ofi-nccl 1.7 find_ofi_provider(): the warning sits in
		 * `else if (rc == -FI_ENODATA)`, and the function then returns rc:
		 * the plugin has no provider, so NCCL falls back or aborts */
		{"ip-10-1-2-3:4100:4100 [0] nccl_net_ofi_net.c:549 NCCL WARN NET/OFI Couldn't find "
		 "any optimal provider",
		 LOG_SRC_OFI, LOG_MEAN_FAIL},
		/* UCX's TCP transport (src/uct/tcp/tcp_ep.c uct_tcp_ep_handle_io_err:
		 * ucs_log then `return io_status`): the endpoint carrying KV failed
		 * (a real line, LMCache issue 725, the host replaced) */
		{"[1749803291.555759] [vllm-0:7053 :0]          tcp_ep.c:1260 UCX  ERROR tcp_ep "
		 "0x3c502370 (state=CONNECTED): send(110) failed: Input/output error",
		 LOG_SRC_UCX, LOG_MEAN_FAIL},
		/* libfabric 1.17 and older (prov/efa/src/efa_user_info.c, RxR's
		 * rxr_info_to_rxr before it): FI_HMEM needs RDMA read, the call
		 * returns -FI_ENODATA, no EFA provider for GPU memory (a real
		 * line, aws-ofi-nccl issue 161) */
		{"libfabric:462:1673041636:efa:core:rxr_info_to_rxr():506<warn> FI_HMEM capability "
		 "requires RDMA, which this device does not support.",
		 LOG_SRC_EFA, LOG_MEAN_FAIL},
		/* NIXL v1.1/v1.2 (src/plugins/ucx/ucx_utils.cpp): the wording before
		 * "CUDA/ROCm" */
		{"E1201 12:00:00.000001    412 ucx_utils.cpp:571] VRAM memory is detected as host by "
		 "UCX. UCX is likely not configured with CUDA support. VRAM registration cannot "
		 "proceed.",
		 LOG_SRC_NIXL, LOG_MEAN_FAIL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum log_src s;
		const struct log_rule *r = log_rule_match(cases[i].line, &s);
		if (!r)
			fail_msg("no row matches \"%s\"", cases[i].line);
		assert_int_equal(s, cases[i].src);
		if (log_line_meaning(r, s, cases[i].line) != cases[i].mean)
			fail_msg("\"%s\" (row \"%s\") means %d, not %d", cases[i].line, r->fmt,
				 (int)log_line_meaning(r, s, cases[i].line), (int)cases[i].mean);
	}
	/* UCX's ordinary prefix is not the fatal one */
	assert_false(log_line_ucx_fatal(
		"[1700000000.1] [h:1:0]   ib_iface.c:1 UCX  ERROR failed to create UD QP"));
	assert_true(log_line_ucx_fatal("[h-1:77   :0:78]  ib_mlx5.c:10  x"));
	/* the NCCL INFO mark is needed for an info row, the WARN mark is not it */
	assert_null(log_rule_match("gpu-7:4100:4180 [3] NCCL WARN GPU Direct RDMA Disabled for "
				   "GPU 1b000 / HCA 3 (distance 5 > 4)",
				   &(enum log_src){LOG_SRC_COUNT}));
}

/* UCX warnings printed by functions that tear down are shown, never
 * counted: uct_ib_mlx5_devx_obj_destroy (src/uct/ib/mlx5/ib_mlx5.h),
 * uct_ib_device_cleanup_async_events (ib_device.c) and
 * UCS_CLASS_CLEANUP_FUNC(uct_rc_iface_t) (rc_iface.c) run on shutdown and
 * change no transfer.  Real lines (sglang PR 27894, dynamo issue 814),
 * the host names replaced. */
static void test_teardown_is_informational(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"[1784273407.704659] [gpu-node-3:994396:0]         ib_mlx5.h:1018 UCX  WARN  "
		"mlx5dv_devx_obj_destroy(CQ) failed: Invalid argument",
		"[1784273408.550176] [gpu-node-3:994396:0]       ib_device.c:618  UCX  WARN  "
		"async_events_hash not empty",
		"[1745499308.859717] [9fd0c21b0f7c:760  :0]        rc_iface.c:796  UCX  WARN  "
		"some eps were not destroyed",
		NULL,
	};
	for (size_t i = 0; lines[i]; i++) {
		enum log_src s;
		const struct log_rule *r = log_rule_match(lines[i], &s);
		if (!r)
			fail_msg("no row matches \"%s\"", lines[i]);
		assert_int_equal(s, LOG_SRC_UCX);
		if (log_line_meaning(r, s, lines[i]) != LOG_MEAN_INFO)
			fail_msg("\"%s\" (row \"%s\", %s) means %d, not informational", lines[i],
				 r->fmt, r->file, (int)log_line_meaning(r, s, lines[i]));
	}
	/* an error of a setup path in the same files still fails */
	enum log_src s;
	const struct log_rule *r = log_rule_match(
		"[1700000000.1] [h:1:0]   ib_mlx5.c:1 UCX  ERROR mlx5dv_devx_obj_create(CQ) failed on "
		"mlx5_0, syndrome 0x1f: Invalid argument",
		&s);
	assert_non_null(r);
	assert_int_equal(log_line_meaning(r, s, "x"), LOG_MEAN_FAIL);
}

/* Real lines pin their rows: every line of a real output under tests/fixtures
 * (a file whose header names its "# source:") that a row matches must mean
 * what that row's call means, as the code after the call decides
 * (tools/log_formats.py), so that changing what one of these rows means goes
 * red here.  A fixture line a row matches and no pin names fails too: add
 * its pin, with the code path that decides it. */
static const struct pin {
	const char *file; /* under tests/fixtures */
	const char *fmt;  /* the row the line matches */
	enum log_meaning mean;
} pins[] = {
	/* UCX ucp_context.c: ucs_warn, then the device or transport is left
	 * out and UCX goes on with the others (a warning call is never
	 * promoted) */
	{"live/logs/ucx_warn__device_or_transport_not_available.txt",
	 "%s%s%s %s %s not available, please use one or more of: %s", LOG_MEAN_WARN},
	{"parse/ucx_warn__device_or_transport_not_available.txt",
	 "%s%s%s %s %s not available, please use one or more of: %s", LOG_MEAN_WARN},
	{"parse/ucx_warn__network_device_not_available_perftest.txt",
	 "%s%s%s %s %s not available, please use one or more of: %s", LOG_MEAN_WARN},
	/* UCX ucp_context.c (1.12): a warning, and ucp_init carries on */
	{"parse/nixl_error__ucx_version_incompatible_warn.txt",
	 "UCP version is incompatible, required: %d.%d, actual: %d.%d (release %d)", LOG_MEAN_WARN},
	/* UCX src/ucp/wireup/select.c: ucs_error, then return
	 * UCS_ERR_UNREACHABLE: no endpoint to the peer */
	{"parse/ucx_errors__tcp_docker0_unreachable_and_no_am_transport.txt",
	 "no %s transport to %s: %s", LOG_MEAN_FAIL},
	/* UCX src/tools/perf/perftest.c: ucx_perftest's own diagnostic */
	{"parse/ucx_errors__tcp_docker0_unreachable_and_no_am_transport.txt",
	 "failed to setup RTE transport: %s", LOG_MEAN_INFO},
	/* NCCL net_ib: an INFO line, NCCL goes on over sockets */
	{"parse/nccl_debug__ib_no_device_found_net_socket_aws.txt", "NET/IB : No device found.",
	 LOG_MEAN_WARN},
	{"parse/nccl_debug__ibv_open_device_failed_container_bond.txt", "NET/IB : No device found.",
	 LOG_MEAN_WARN},
	/* NCCL src/misc/ibvwrap.cc IBV_PTR_CHECK: WARN, then return
	 * ncclSystemError */
	{"parse/nccl_debug__ibv_open_device_failed_container_bond.txt",
	 "Call to ibv_open_device failed", LOG_MEAN_FAIL},
	/* NCCL net_ib ncclIbInit: WARN, then `continue` to the next device */
	{"parse/nccl_debug__ibv_open_device_failed_container_bond.txt",
	 "NET/IB : Unable to open device %s", LOG_MEAN_WARN},
	/* NCCL src/misc/gdrwrap.cc's row (WARN, then return ncclSystemError);
	 * the real line is older NCCL's ibvwrap.cc "Failed to open
	 * libibverbs.so[.1]", whose path fails too (goto teardown) */
	{"parse/nccl_debug__libibverbs_missing_falls_back_to_socket.txt", "Failed to open %s",
	 LOG_MEAN_FAIL},
	/* NIXL src/core/nixl_agent.cpp getPluginParams and createBackend:
	 * NIXL_ERROR, then return NIXL_ERR_NOT_FOUND: no backend */
	{"parse/nixlbench__ucx_plugin_not_found_createBackend_failed.txt", "backend '%s' not found",
	 LOG_MEAN_FAIL},
	{"parse/nixlbench__ucx_plugin_not_found_createBackend_failed.txt",
	 "unsupported backend '%s'", LOG_MEAN_FAIL},
};
#define N_PINS (sizeof(pins) / sizeof(pins[0]))

static unsigned pin_hits[N_PINS];
static unsigned real_lines;

/* One file: its lines after the header's "# ---", if it has a source. */
static int scan_fixture(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (type == FTW_D && !strncmp(path + ftw->base, "trees", 5))
		return FTW_SKIP_SUBTREE; /* generated at test time (tests/fixtures/trees.py) */
	if (type != FTW_F)
		return FTW_CONTINUE;
	FILE *f = fopen(path, "r");
	if (!f)
		return FTW_CONTINUE;
	char line[4096];
	bool body = false;
	const char *rel = path + strlen("tests/fixtures/");
	if (!fgets(line, sizeof(line), f) || strncmp(line, "# source:", 9)) {
		fclose(f);
		return FTW_CONTINUE;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!body) {
			body = !strcmp(line, "# ---");
			continue;
		}
		enum log_src s;
		const struct log_rule *r = log_rule_match(line, &s);
		if (!r)
			continue;
		size_t k = 0;
		while (k < N_PINS && (strcmp(pins[k].file, rel) || strcmp(pins[k].fmt, r->fmt)))
			k++;
		if (k == N_PINS)
			fail_msg("%s: \"%s\" matches %s row \"%s\" (%s), which no pin names", rel,
				 line, log_sources_table[s].name, r->fmt, r->file);
		if (log_line_meaning(r, s, line) != pins[k].mean)
			fail_msg("%s: \"%s\" (row \"%s\", %s) means %d, its pin %d", rel, line,
				 r->fmt, r->file, (int)log_line_meaning(r, s, line),
				 (int)pins[k].mean);
		pin_hits[k]++;
		real_lines++;
	}
	fclose(f);
	return FTW_CONTINUE;
}

static void test_real_lines_pin_their_rows(void **state)
{
	(void)state;
	assert_int_equal(nftw("tests/fixtures", scan_fixture, 16, FTW_PHYS | FTW_ACTIONRETVAL), 0);
	for (size_t k = 0; k < N_PINS; k++)
		if (!pin_hits[k])
			fail_msg("pin %s \"%s\": no line of that fixture matches it", pins[k].file,
				 pins[k].fmt);
	assert_true(real_lines >= N_PINS);
}

/* What every row means, counted per source: the generator's tally
 * (tools/log_formats.py at the tags in each section's header of
 * rules/logs_table.c).  A row whose meaning changes, by hand or by a
 * regeneration, moves one from one count to another; a regeneration
 * updates these counts in its commit, which then says which rows moved. */
static void test_meaning_tally(void **state)
{
	(void)state;
	static const unsigned want[LOG_SRC_COUNT][3] = {
		[LOG_SRC_UCX] = {583, 148, 212}, [LOG_SRC_NIXL] = {433, 117, 10},
		[LOG_SRC_NCCL] = {151, 35, 4},   [LOG_SRC_OFI] = {701, 88, 10},
		[LOG_SRC_EFA] = {306, 199, 5},
	};
	for (int s = 0; s < LOG_SRC_COUNT; s++) {
		const struct log_source *ls = &log_sources_table[s];
		unsigned got[3] = {0, 0, 0};
		for (size_t i = 0; i < ls->n; i++)
			got[ls->rows[i].meaning]++;
		for (int m = 0; m < 3; m++)
			if (got[m] != want[s][m])
				fail_msg("%s: %u rows mean %s, the tally says %u", ls->name, got[m],
					 m == LOG_MEAN_FAIL   ? "fail"
					 : m == LOG_MEAN_WARN ? "warn"
							      : "info",
					 want[s][m]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row_matches_its_line),
		cmocka_unit_test(test_benign_lines_match_none),
		cmocka_unit_test(test_fragments),
		cmocka_unit_test(test_meaning_from_the_code_path),
		cmocka_unit_test(test_teardown_is_informational),
		cmocka_unit_test(test_real_lines_pin_their_rows),
		cmocka_unit_test(test_meaning_tally),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
