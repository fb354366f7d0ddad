/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz the pod naming parsers (/proc/PID/cgroup, the kubelet's log folder
 * names) and the HTTP answer splitter: any bytes, no crash, no leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/http_resp.h"
#include "parse/pod_cgroup.h"
#include "rules/kubelet.h"
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pod_cgroup c;
	(void)pod_cgroup_parse((const char *)data, size, kubelet_cgroup_forms(), &c);
	const char *body;
	size_t blen;
	(void)http_resp_split((const char *)data, size, &body, &blen);
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	struct pod_ref r;
	(void)pod_logdir_parse(s, &r);
	(void)pod_container_log_parse(s, &r);
	free(s);
	return 0;
}
