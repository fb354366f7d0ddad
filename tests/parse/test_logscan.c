/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>

#include "t.h"

#include "parse/logscan.h"

#define END LOG_SYMPTOM_COUNT

struct expect {
	const char *fixture;
	enum log_symptom present[6]; /* END-terminated */
	enum log_symptom absent[4];  /* END-terminated */
};

static const struct expect cases[] = {
	{"nccl_debug__aws_ofi_efa_selected_provider.txt",
	 {LOG_NCCL_NET_OFI, END},
	 {LOG_NCCL_NET_SOCKET, LOG_NCCL_NET_IB, END}},
	{"nccl_debug__cloudwatch_timestamped_p2p_cumem_read.txt",
	 {LOG_NCCL_P2P, END},
	 {LOG_NCCL_NET_SOCKET, END}},
	{"nccl_debug__gb200_mnnvl_fabric_cliqueid_nvls.txt",
	 {LOG_NCCL_MNNVL, END},
	 {LOG_NCCL_NET_SOCKET, END}},
	{"nccl_debug__ib_disabled_using_network_socket.txt",
	 {LOG_NCCL_IB_DISABLED, LOG_NCCL_NET_SOCKET, END},
	 {LOG_NCCL_NET_IB, END}},
	{"nccl_debug__ib_gdrdma_and_p2p_cumem_h20.txt",
	 {LOG_NCCL_GDRDMA_USED, LOG_NCCL_P2P, END},
	 {LOG_NCCL_NET_IB_NO_GDR, LOG_NCCL_GDR_DISABLED, END}},
	{"nccl_debug__ib_no_device_found_net_socket_aws.txt",
	 {LOG_NCCL_IB_NO_DEVICE, LOG_NCCL_NET_SOCKET, END},
	 {END}},
	{"nccl_debug__ibext_sharp_plugin_no_peermem.txt",
	 {LOG_NCCL_NET_IB, END},
	 {LOG_NCCL_NET_SOCKET, END}},
	{"nccl_debug__ibv_open_device_failed_container_bond.txt",
	 {LOG_NCCL_IB_OPEN_FAILED, LOG_NCCL_IB_NO_DEVICE, LOG_NCCL_NET_SOCKET, END},
	 {LOG_NCCL_IB_DISABLED, END}},
	{"nccl_debug__libibverbs_missing_falls_back_to_socket.txt",
	 {LOG_NCCL_LIBIBVERBS_MISSING, LOG_NCCL_NET_SOCKET, END},
	 {END}},
	{"nccl_debug__p2p_direct_pointer_and_net_ib_no_gdr.txt",
	 {LOG_NCCL_NET_IB_NO_GDR, LOG_NCCL_P2P, END},
	 {LOG_NCCL_GDRDMA_USED, END}},
	{"nccl_debug__p2p_ipc_read_and_net_socket_ibext_no_device.txt",
	 {LOG_NCCL_NET_SOCKET, LOG_NCCL_P2P, END},
	 {LOG_NCCL_NET_IB, END}},
	{"nccl_debug__roce_gdr_disabled_despite_peermem.txt",
	 {LOG_NCCL_NET_IB, LOG_NCCL_GDR_DISABLED, END},
	 {LOG_NCCL_NET_SOCKET, END}},
	{"nccl_debug__socket_lo_gdr_disabled_topology.txt",
	 {LOG_NCCL_IB_DISABLED, LOG_NCCL_NET_SOCKET, LOG_NCCL_GDR_DISABLED, END},
	 {END}},
	{"ucx_log__debug_ib_md_cuda_gpudirect_rdma_disabled.txt",
	 {LOG_UCX_GDR_DISABLED, END},
	 {LOG_UCX_DMABUF_SUPPORTED, END}},
	{"ucx_log__debug_no_compatible_ib_ports_port_down.txt", {LOG_UCX_NO_IB_PORTS, END}, {END}},
	{"ucx_warn__device_or_transport_not_available.txt",
	 {LOG_UCX_DEVICE_UNAVAILABLE, LOG_UCX_TRANSPORT_UNAVAILABLE, END},
	 {END}},
	{"ucx_warn__network_device_not_available_perftest.txt",
	 {LOG_UCX_DEVICE_UNAVAILABLE, END},
	 {LOG_UCX_TRANSPORT_UNAVAILABLE, END}},
	{"ucx_errors__tcp_docker0_unreachable_and_no_am_transport.txt",
	 {LOG_UCX_UNREACHABLE, LOG_UCX_NO_AM_TRANSPORT, END},
	 {END}},
	{"nixl_error__python_example_createBackend_NIXL_ERR_BACKEND.txt",
	 {LOG_NIXL_ERR_BACKEND, END},
	 {LOG_NIXL_REMOTE_DISCONNECT, END}},
	{"nixl_error__registerMem_vram_NIXL_ERR_BACKEND.txt", {LOG_NIXL_ERR_BACKEND, END}, {END}},
	{"nixl_error__ucx_version_incompatible_warn.txt",
	 {LOG_UCX_VERSION_MISMATCH, END},
	 {LOG_NIXL_ERR_BACKEND, END}},
	{"nixlbench__etcd_stale_rank_error.txt", {LOG_NIXL_ETCD_STALE, END}, {END}},
	{"nixlbench__ucx_plugin_not_found_createBackend_failed.txt",
	 {LOG_NIXL_BACKEND_NOT_FOUND, END},
	 {LOG_NIXL_ETCD_STALE, END}},
	{"gdr_probe__gb300_gke_no_peermem_ucx_dmabuf_nixl_disconnect.txt",
	 {LOG_PEERMEM_NOT_DETECTED, LOG_UCX_GDR_DISABLED, LOG_UCX_DMABUF_SUPPORTED,
	  LOG_NIXL_REMOTE_DISCONNECT, END},
	 {END}},
	{"ngc_container_banner__peermem_not_detected_shmem_64mb.txt",
	 {LOG_PEERMEM_NOT_DETECTED, LOG_SHM_DEFAULT_64MB, END},
	 {END}},
	{"modprobe_nvidia_peermem__gb300_invalid_argument_dmesg.txt",
	 {LOG_PEERMEM_LOAD_FAILED, END},
	 {END}},
	{"ib_write_bw__did_not_detect_devices.txt", {LOG_RDMA_NO_DEVICE, END}, {END}},
	{"ucx_info_-d__debug_log_libuct_cuda_missing.txt",
	 {LOG_UCX_CUDA_MODULE_MISSING, END},
	 {END}},
};

static void fixtures(void **state)
{
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct logscan l;
		size_t len;
		char *b = fixture_body(cases[i].fixture, &len);

		if (logscan_parse(b, len, &l) != 0)
			fail_msg("%s: nothing recognised", cases[i].fixture);
		for (k = 0; cases[i].present[k] != END; k++)
			if (!logscan_get(&l, cases[i].present[k]))
				fail_msg("%s: %s missing", cases[i].fixture,
					 log_symptom_name(cases[i].present[k]));
		for (k = 0; cases[i].absent[k] != END; k++)
			if (logscan_get(&l, cases[i].absent[k]))
				fail_msg("%s: %s unexpected", cases[i].fixture,
					 log_symptom_name(cases[i].absent[k]));
		logscan_release(&l);
		free(b);
	}
}

static void evidence_and_counts(void **state)
{
	struct logscan l;
	const struct log_finding *f;

	(void)state;
	PARSE_FIXTURE(logscan_parse, l, "ucx_log__debug_no_compatible_ib_ports_port_down.txt", 0);
	f = logscan_get(&l, LOG_UCX_NO_IB_PORTS);
	assert_int_equal(f->count, 5);
	assert_int_equal(f->lineno, 1);
	assert_non_null(strstr(f->evidence, "no compatible IB ports found for flags 0xc4"));
	logscan_release(&l);
	PARSE_FIXTURE(logscan_parse, l, "nccl_debug__roce_gdr_disabled_despite_peermem.txt", 0);
	f = logscan_get(&l, LOG_NCCL_GDR_DISABLED);
	assert_int_equal(f->count, 2);
	assert_int_equal(f->lineno, 5);
	assert_non_null(strstr(f->evidence, "'mlx5_0'"));
	logscan_release(&l);
	PARSE_STR(logscan_parse, l, "all good\n", -1);
	logscan_release(&l);
	PARSE_STR(logscan_parse, l, "", -1);
	logscan_release(&l);
	assert_string_equal(log_symptom_name(LOG_NCCL_NET_SOCKET), "nccl.net_socket");
	assert_string_equal(log_symptom_name(LOG_SYMPTOM_COUNT), "unknown");
}

/* Issue 23: each known line is redacted before the 300-byte evidence cut,
 * so that a URL whose '@' lies past the cut, and the forms logs carry
 * (JSON, flag, word, header), leave nothing of the secret. */
static void redacted_before_cut(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"NIXL_ERR_REMOTE_DISCONNECT {\"user\": \"nixl\", \"password\": \"S3CR3T\"}",
		"NIXL_ERR_REMOTE_DISCONNECT etcdctl --password S3CR3T",
		"NIXL_ERR_REMOTE_DISCONNECT login password S3CR3T",
		"NIXL_ERR_REMOTE_DISCONNECT Authorization: Basic S3CR3T",
		"NIXL_ERR_REMOTE_DISCONNECT Authorization: Bearer S3CR3T",
		"NIXL_ERR_REMOTE_DISCONNECT ?token=S3CR3T&x=1",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct logscan l;
		PARSE_STR(logscan_parse, l, lines[i], 0);
		const struct log_finding *f = logscan_get(&l, LOG_NIXL_REMOTE_DISCONNECT);
		assert_non_null(f);
		if (strstr(f->evidence, "S3CR3T"))
			fail_msg("secret kept: %s", f->evidence);
		assert_non_null(strstr(f->evidence, "<redacted>"));
		logscan_release(&l);
	}
	/* the URL's user:password starts before the cut, its '@' after it */
	char line[1024];
	snprintf(line, sizeof(line),
		 "NIXL_ERR_REMOTE_DISCONNECT from http://nixl:S3CR3T%0*d@etcd:2379", 400, 0);
	struct logscan l;
	PARSE_STR(logscan_parse, l, line, 0);
	const struct log_finding *f = logscan_get(&l, LOG_NIXL_REMOTE_DISCONNECT);
	assert_non_null(f);
	assert_true(strlen(f->evidence) <= 300);
	if (strstr(f->evidence, "S3CR3T"))
		fail_msg("secret kept past the cut: %s", f->evidence);
	assert_non_null(strstr(f->evidence, "http://nixl:<redacted>"));
	logscan_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixtures),
		cmocka_unit_test(evidence_and_counts),
		cmocka_unit_test(redacted_before_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
