/* SPDX-License-Identifier: Apache-2.0 */
/* The pod a process runs in, from /proc/PID/cgroup and the kubelet's log
 * folder names.  The inputs are the shapes of the forms src/rules/kubelet.c
 * cites (written here, ids made up): every driver and runtime the kubelet
 * supports, cgroup v1 and v2. */
#include "t.h"

#include "parse/pod_cgroup.h"
#include "rules/kubelet.h"

#define CID "4c0ffee0d15ea5e5dead0beef0cafef00d4b1d5eed5a1a1a2b3c4d5e6f708192"

static void cg(const char *text, struct pod_cgroup *out, int rc)
{
	assert_int_equal(pod_cgroup_parse(text, strlen(text), kubelet_cgroup_forms(), out), rc);
}

static void systemd_forms(void **state)
{
	struct pod_cgroup c;
	(void)state;
	/* cgroup v2, systemd driver, containerd: '-' in the UID escaped '_' */
	cg("0::/kubepods.slice/kubepods-burstable.slice/"
	   "kubepods-burstable-pod6f1c2e3a_1b2c_4d5e_8f90_0a1b2c3d4e5f.slice/"
	   "cri-containerd-" CID ".scope\n",
	   &c, 0);
	assert_true(c.pod);
	assert_string_equal(c.uid, "6f1c2e3a-1b2c-4d5e-8f90-0a1b2c3d4e5f");
	assert_true(c.container);
	assert_string_equal(c.cid, CID);
	assert_string_equal(c.runtime, "containerd");
	/* Guaranteed QoS: the pod slice right under kubepods.slice; cri-o */
	cg("0::/kubepods.slice/kubepods-pod0a1b2c3d_4e5f_6a7b_8c9d_0e1f2a3b4c5d.slice/crio-" CID
	   ".scope\n",
	   &c, 0);
	assert_string_equal(c.uid, "0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d");
	assert_string_equal(c.runtime, "cri-o");
	/* conmon's scope is no container */
	cg("0::/kubepods.slice/kubepods-pod0a1b2c3d_4e5f_6a7b_8c9d_0e1f2a3b4c5d.slice/"
	   "crio-conmon-" CID ".scope\n",
	   &c, 0);
	assert_true(c.pod);
	assert_false(c.container);
	/* cri-dockerd */
	cg("0::/kubepods.slice/kubepods-besteffort.slice/"
	   "kubepods-besteffort-pod0a1b2c3d_4e5f_6a7b_8c9d_0e1f2a3b4c5d.slice/docker-" CID
	   ".scope\n",
	   &c, 0);
	assert_string_equal(c.runtime, "docker");
}

static void cgroupfs_forms(void **state)
{
	struct pod_cgroup c;
	(void)state;
	cg("0::/kubepods/besteffort/pod7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d/" CID "\n", &c, 0);
	assert_string_equal(c.uid, "7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d");
	assert_string_equal(c.cid, CID);
	assert_string_equal(c.runtime, "cgroupfs");
	/* cgroup v1: several hierarchies, the first that names the pod */
	cg("12:memory:/kubepods/burstable/pod7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d/" CID "\n"
	   "1:name=systemd:/kubepods/burstable/pod7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d/" CID "\n",
	   &c, 0);
	assert_true(c.pod && c.container);
	/* Guaranteed, cgroupfs cri-o; a static pod's UID is its config hash */
	cg("0::/kubepods/pod33d556edd3ae8ef21980288cef77ae8b/crio-" CID "\n", &c, 0);
	assert_string_equal(c.uid, "33d556edd3ae8ef21980288cef77ae8b");
	assert_string_equal(c.runtime, "cri-o");
	/* kind's nested kubelet */
	cg("0::/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/"
	   "kubelet-kubepods-besteffort-pod7a2b3c4d_5e6f_4a1b_9c2d_3e4f5a6b7c8d.slice/"
	   "cri-containerd-" CID ".scope\n",
	   &c, 0);
	assert_string_equal(c.uid, "7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d");
}

static void not_a_pod(void **state)
{
	struct pod_cgroup c;
	(void)state;
	cg("0::/system.slice/vllm.service\n", &c, 0);
	assert_false(c.pod);
	assert_false(c.container);
	assert_string_equal(c.path, "/system.slice/vllm.service");
	/* "pod" outside a kubepods ancestor names nothing */
	cg("0::/user.slice/pod0a1b2c3d/x\n", &c, 0);
	assert_false(c.pod);
	/* a UID that is not hex */
	cg("0::/kubepods/burstable/podxyz-not-a-uid/" CID "\n", &c, 0);
	assert_false(c.pod);
	/* a container id too short or not hex */
	cg("0::/kubepods/burstable/pod7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d/abc\n", &c, 0);
	assert_true(c.pod);
	assert_false(c.container);
	cg("", &c, -1);
	cg("garbage\nmore garbage\n", &c, -1);
}

static void log_names(void **state)
{
	struct pod_ref r;
	(void)state;
	assert_true(pod_logdir_parse("dynamo_decode-0_6f1c2e3a-1b2c-4d5e-8f90-0a1b2c3d4e5f", &r));
	assert_string_equal(r.ns, "dynamo");
	assert_string_equal(r.pod, "decode-0");
	assert_string_equal(r.uid, "6f1c2e3a-1b2c-4d5e-8f90-0a1b2c3d4e5f");
	assert_true(pod_logdir_parse("kube-system_kube-apiserver-cp.example.com_"
				     "33d556edd3ae8ef21980288cef77ae8b",
				     &r));
	assert_string_equal(r.pod, "kube-apiserver-cp.example.com");
	assert_false(pod_logdir_parse("dynamo_decode-0", &r));
	assert_false(pod_logdir_parse("a_b_c_d", &r));
	assert_false(pod_logdir_parse("Dynamo_decode-0_6f1c2e3a-1b2c", &r));

	assert_true(pod_container_log_parse("decode-0_dynamo_main-" CID ".log", &r));
	assert_string_equal(r.pod, "decode-0");
	assert_string_equal(r.ns, "dynamo");
	assert_string_equal(r.container, "main");
	assert_string_equal(r.cid, CID);
	/* a container name with dashes: the id is after the last one */
	assert_true(pod_container_log_parse("p_ns_vllm-worker-2-" CID ".log", &r));
	assert_string_equal(r.container, "vllm-worker-2");
	assert_false(pod_container_log_parse("p_ns_main-" CID ".txt", &r));
	assert_false(pod_container_log_parse("p_ns_main.log", &r));
	assert_false(pod_container_log_parse("p_ns_main-xyz.log", &r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(systemd_forms),
		cmocka_unit_test(cgroupfs_forms),
		cmocka_unit_test(not_a_pod),
		cmocka_unit_test(log_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
