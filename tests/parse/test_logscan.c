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

/*
 * Each alternative of each pattern, alone: a real line that holds that one
 * needle and no other of its pattern finds its symptom, so that dropping an
 * alternative from logscan.c's table turns this red even where a fixture
 * also holds a sibling alternative (NCCL prints "NET/Socket : Using" next to
 * "Using network Socket").  The lines are copied from the fixtures named
 * beside them (tests/fixtures/parse, tests/fixtures/live/logs,
 * tests/fixtures/nixl/outputs), or, where none holds the needle, from the
 * thread or the format string named.
 */
static void each_alternative_alone(void **state)
{
	static const struct {
		enum log_symptom sym;
		const char *line;
	} alone[] = {
		/* nccl_debug__ib_disabled_using_network_socket.txt */
		{LOG_NCCL_NET_SOCKET, "user:852750:852802 [0] NCCL INFO Using network Socket"},
		{LOG_NCCL_NET_SOCKET,
		 "user:852750:852802 [0] NCCL INFO NET/Socket : Using [0]ibs85f0:192.168.1.14<0>"},
		/* nccl_debug__p2p_ipc_read_and_net_socket_ibext_no_device.txt */
		{LOG_NCCL_NET_SOCKET,
		 "x:926:1151 [7] NCCL INFO Channel 03/0 : 15[7] -> 6[6] [send] via NET/Socket/3"},
		/* nccl_debug__ibext_sharp_plugin_no_peermem.txt */
		{LOG_NCCL_NET_IB, "ad5b8ae33076:28331:28331 [0] NCCL INFO Using network IBext"},
		{LOG_NCCL_NET_IB,
		 "ad5b8ae33076:28331:28331 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB/SHARP"},
		/* nccl_debug__aws_ofi_efa_selected_provider.txt */
		{LOG_NCCL_NET_OFI,
		 "test-nccl-efa-worker-0:21:21 [0] NCCL INFO Using network AWS Libfabric"},
		{LOG_NCCL_NET_OFI,
		 "test-nccl-efa-worker-0:21:21 [0] NCCL INFO NET/OFI Selected Provider is efa (found 1 nics)"},
		/* nccl_debug__ibv_open_device_failed_container_bond.txt */
		{LOG_NCCL_IB_OPEN_FAILED,
		 "misc/ibvwrap.cc:212 NCCL WARN Call to ibv_open_device failed"},
		{LOG_NCCL_IB_OPEN_FAILED,
		 "transport/net_ib.cc:148 NCCL WARN NET/IB : Unable to open device mlx5_bond_0"},
		/* nccl_debug__ib_gdrdma_and_p2p_cumem_h20.txt */
		{LOG_NCCL_NET_IB_NO_GDR,
		 "H20-GPU-06:4015539:4015652 [0] NCCL INFO Channel 07/0 : 0[0] -> 2[0] [receive] via NET/IB/3"},
		/* NCCL transport/net.cc's "... via NET/%s/%d%s%s" with the IBext plugin */
		{LOG_NCCL_NET_IB_NO_GDR,
		 "g1:11:12 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IBext/0"},
		/* ucx_log__debug_ib_md_cuda_gpudirect_rdma_disabled.txt */
		{LOG_UCX_GDR_DISABLED,
		 "[1716918990.461294] [gpu1:2588768:0]           ib_md.c:1128 UCX  DEBUG mlx5_0: "
		 "cuda GPUDirect RDMA is disabled"},
		/* gdr_probe__gb300_gke_no_peermem_ucx_dmabuf_nixl_disconnect.txt */
		{LOG_UCX_GDR_DISABLED,
		 "ib_md.c: mlx5_0: cuda GPUDirect RDMA is not detected by checking "
		 "/sys/kernel/mm/memory_peers/nv_mem/version"},
		/* ucx_errors__tcp_docker0_unreachable_and_no_am_transport.txt */
		{LOG_UCX_UNREACHABLE,
		 "[gpu1:1581048] pml_ucx.c:419 Error: ucp_ep_create(proc=9) failed: Destination is "
		 "unreachable"},
		{LOG_UCX_UNREACHABLE,
		 "[1716594409.541480] [gpu1:1581047:0] sock.c:323 UCX ERROR connect(fd=87, "
		 "dest_addr=172.17.0.1:47133) failed: Connection refused"},
		/* nixlbench__ucx_plugin_not_found_createBackend_failed.txt */
		{LOG_NIXL_BACKEND_NOT_FOUND,
		 "E0421 11:56:59.774282  709103 nixl_agent.cpp:259] getPluginParams: backend 'UCX' not "
		 "found"},
		{LOG_NIXL_BACKEND_NOT_FOUND,
		 "E0421 11:56:59.775353  709103 nixl_agent.cpp:322] createBackend: unsupported backend "
		 "'UCX'"},
		{LOG_NIXL_BACKEND_NOT_FOUND, "NIXL: createBackend failed! (Error code: -1)"},
		/* nixlbench__etcd_stale_rank_error.txt */
		{LOG_NIXL_ETCD_STALE, "Rank 1 is greater than or equal to global size 1"},
		{LOG_NIXL_ETCD_STALE, "Failed to setup ETCD runtime"},
		/* ngc_container_banner__peermem_not_detected_shmem_64mb.txt */
		{LOG_PEERMEM_NOT_DETECTED,
		 "NOTE: Mellanox network driver detected, but NVIDIA peer memory driver not"},
		/* gdr_probe__gb300_gke_no_peermem_ucx_dmabuf_nixl_disconnect.txt */
		{LOG_PEERMEM_NOT_DETECTED,
		 "modprobe: FATAL: Module nvidia_peermem not found in directory /lib/modules/6.12.85+"},
		/* modprobe_nvidia_peermem__gb300_invalid_argument_dmesg.txt */
		{LOG_PEERMEM_LOAD_FAILED,
		 "modprobe: ERROR: could not insert 'nvidia_peermem': Invalid argument"},
		{LOG_PEERMEM_LOAD_FAILED,
		 "[Tue Sep  8 17:16:02 2026] nvidia_peermem: Unknown symbol "
		 "ib_register_peer_memory_client (err -22)"},
		/* ib_write_bw__did_not_detect_devices.txt */
		{LOG_RDMA_NO_DEVICE, "Did not detect devices"},
		{LOG_RDMA_NO_DEVICE, "Unable to find the Infiniband/RoCE device"},
		/* UCX uct/ib/base/ib_iface.c's ibv_create_cq error with the memlock
		 * hint (ib_log.c), as posted in an MPICH run on a 64 KiB limit */
		{LOG_UCX_MEMLOCK,
		 "[1736959004.001121] [bernie:29714:0]        ib_iface.c:1060 UCX  ERROR "
		 "ibv_create_cq(cqe=4096) failed: Cannot allocate memory : Please set max locked "
		 "memory (ulimit -l) to 'unlimited' (current: 64 kbytes)"},
		/* Mooncake rpc_communicator.cpp's LOG(WARNING) << "Falling back to
		 * TCP mode", with glog's prefix */
		{LOG_TCP_FALLBACK,
		 "W1209 10:31:02.114208  4121 rpc_communicator.cpp:93] Falling back to TCP mode"},
		/* UCX ucp_worker.c "no usable transports/devices (asked %s)" */
		{LOG_UCX_NO_USABLE_TRANSPORT,
		 "[1700000000.000000] [h:1:0]  ucp_worker.c:1 UCX  ERROR no usable transports/devices "
		 "(asked tcp on network:ib0)"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(alone) / sizeof(alone[0]); i++) {
		struct logscan l;
		if (logscan_parse(alone[i].line, strlen(alone[i].line), &l) != 0 ||
		    !logscan_get(&l, alone[i].sym))
			fail_msg("%s not found in: %s", log_symptom_name(alone[i].sym),
				 alone[i].line);
		logscan_release(&l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixtures),
		cmocka_unit_test(evidence_and_counts),
		cmocka_unit_test(redacted_before_cut),
		cmocka_unit_test(each_alternative_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
