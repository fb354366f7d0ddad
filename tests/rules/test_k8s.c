/* SPDX-License-Identifier: Apache-2.0 */
/* rules/k8s: the resource rows, the general rule and the network annotations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "rules/k8s.h"

static void test_rows(void **state)
{
	(void)state;
	const struct k8s_name_row *r = NULL;
	/* the shared device plugin's prefix, EFA's and GKE's names */
	assert_int_equal(k8s_resource_fabric("rdma/hca_shared_devices_a", &r), K8S_NET_RDMA);
	/* the rdma/ row says RDMA; a name that says which link layer wins */
	assert_int_equal(k8s_resource_fabric("rdma/roce_gdr", &r), K8S_NET_ROCE);
	assert_non_null(r);
	assert_int_equal(k8s_resource_fabric("rdma/ib", &r), K8S_NET_IB);
	assert_non_null(r);
	assert_int_equal(k8s_resource_fabric("vpc.amazonaws.com/efa", &r), K8S_NET_EFA);
	assert_int_equal(k8s_resource_fabric("networking.gke.io.networks/rdma-3", &r),
			 K8S_NET_ROCE);
	assert_int_equal(k8s_resource_fabric("nvidia.com/hostdev", &r), K8S_NET_RDMA);
	/* accelerators are rows, never fabrics, never "unrecognised" */
	assert_int_equal(k8s_resource_fabric("nvidia.com/gpu", &r), K8S_NET_NONE);
	assert_non_null(r);
	assert_false(k8s_resource_unrecognised("nvidia.com/gpu"));
	assert_false(k8s_resource_unrecognised("aws.amazon.com/neuron"));
	assert_false(k8s_resource_unrecognised("cpu"));
	assert_false(k8s_resource_unrecognised("hugepages-2Mi"));
}

static void test_general_rule(void **state)
{
	(void)state;
	const struct k8s_name_row *r = (const struct k8s_name_row *)&r;
	/* a cloud's own device plugin: no row, read by its words */
	assert_int_equal(k8s_resource_fabric("vke.volcengine.com/rdma", &r), K8S_NET_RDMA);
	assert_null(r);
	assert_int_equal(k8s_resource_fabric("example.cloud/roce_vf", NULL), K8S_NET_ROCE);
	assert_int_equal(k8s_resource_fabric("openshift.io/mlnx_ib_vfs", NULL), K8S_NET_IB);
	assert_int_equal(k8s_resource_fabric("intel.com/sriov_netdevice", NULL), K8S_NET_RDMA);
	assert_int_equal(k8s_resource_fabric("acme.io/efa", NULL), K8S_NET_EFA);
	/* "ib" only as a word: ibm is a vendor */
	assert_int_equal(k8s_resource_fabric("ibm.com/ssd", NULL), K8S_NET_NONE);
	assert_true(k8s_resource_unrecognised("ibm.com/ssd"));
	/* no domain: not an extended resource */
	assert_int_equal(k8s_resource_fabric("rdma", NULL), K8S_NET_NONE);
	assert_false(k8s_resource_unrecognised("vke.volcengine.com/rdma"));
}

static void test_networks_and_roles(void **state)
{
	(void)state;
	assert_non_null(k8s_network_annotation("k8s.v1.cni.cncf.io/networks"));
	assert_non_null(k8s_network_annotation("k8s.volcengine.com/pod-networks"));
	assert_null(k8s_network_annotation("prometheus.io/scrape"));
	assert_int_equal(k8s_name_fabric("[{\"name\":\"rdma-net\"}]"), K8S_NET_RDMA);
	assert_int_equal(k8s_name_fabric("{\"type\":\"ib-sriov\"}"), K8S_NET_IB);
	assert_int_equal(k8s_name_fabric("macvlan-conf"), K8S_NET_NONE);
	assert_non_null(k8s_role_label("llm-d.ai/role"));
	assert_null(k8s_role_label("app"));
	assert_true(strlen(k8s_nad_source) > 10);
	/* RBG's engineRuntimes patch an injected sidecar: not a pod spec */
	assert_true(k8s_sidecar_patch_key("engineRuntimes"));
	assert_false(k8s_sidecar_patch_key("template"));
	assert_false(k8s_sidecar_patch_key("roles"));
	assert_false(k8s_sidecar_patch_key(NULL));
	/* RBG's leader/worker group: its size is pods per engine */
	assert_non_null(k8s_group_size_key("leaderWorkerPattern"));
	assert_non_null(k8s_group_size_key("leaderWorkerSet"));
	assert_null(k8s_group_size_key("standalonePattern"));
	assert_null(k8s_group_size_key(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_general_rule),
		cmocka_unit_test(test_networks_and_roles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
