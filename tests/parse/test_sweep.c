/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every shared real output through every parser, with and without its
 * provenance header: nothing may crash or leak, whatever the tool.  Skipped
 * (exit 77) when ../shared is not there.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "parse/fi_info.h"
#include "parse/ibv_devinfo.h"
#include "parse/limits.h"
#include "parse/logscan.h"
#include "parse/modules.h"
#include "parse/mounts.h"
#include "parse/pip_meta.h"
#include "parse/proc_status.h"
#include "parse/smi_csv.h"
#include "parse/smi_error.h"
#include "parse/smi_nvlink.h"
#include "parse/smi_query.h"
#include "parse/smi_p2p.h"
#include "parse/proc_net.h"
#include "parse/smi_topo.h"
#include "parse/sysfs_ib.h"
#include "parse/ucx_info.h"

#define SHARED_OUTPUTS "../shared/fixtures/outputs"

#define RUN(type, fn, rel)           \
	do {                         \
		struct type x_;      \
		(void)fn(b, n, &x_); \
		rel(&x_);            \
	} while (0)

static void all_parsers(const char *b, size_t n)
{
	RUN(ibv_devinfo, ibv_devinfo_parse, ibv_devinfo_release);
	RUN(smi_topo, smi_topo_parse, smi_topo_release);
	RUN(smi_p2p, smi_p2p_parse, smi_p2p_release);
	RUN(proc_route, proc_route_parse, proc_route_release);
	RUN(proc_inet6, proc_inet6_parse, proc_inet6_release);
	RUN(smi_nvlink, smi_nvlink_parse, smi_nvlink_release);
	RUN(smi_query, smi_query_parse, smi_query_release);
	RUN(smi_csv, smi_csv_parse, smi_csv_release);
	RUN(modules, modules_parse, modules_release);
	RUN(limits, limits_parse, limits_release);
	RUN(proc_status, proc_status_parse, proc_status_release);
	RUN(mounts, mounts_parse, mounts_release);
	RUN(df, df_parse, df_release);
	RUN(fi_info, fi_info_parse, fi_info_release);
	RUN(ucx_version, ucx_version_parse, ucx_version_release);
	RUN(ucx_devices, ucx_devices_parse, ucx_devices_release);
	RUN(pip_meta, pip_meta_parse, pip_meta_release);
	RUN(logscan, logscan_parse, logscan_release);
	(void)smi_error_classify(b, n);
}

int main(void)
{
	DIR *d = opendir(SHARED_OUTPUTS);
	struct dirent *e;
	size_t files = 0;

	if (!d) {
		printf("skip: %s not found\n", SHARED_OUTPUTS);
		return 77;
	}
	while ((e = readdir(d)) != NULL) {
		char path[1024];
		size_t len, blen, cut;
		char *raw, *body;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), SHARED_OUTPUTS "/%s", e->d_name);
		raw = fixture_read(path, &len);
		if (!raw)
			continue;
		body = fixture_strip(raw, len, &blen);
		all_parsers(raw, len);
		all_parsers(body, blen);
		/* every prefix of a short body: outputs get cut anywhere */
		for (cut = 0; blen < 4096 && cut < blen; cut += 7)
			all_parsers(body, cut);
		free(body);
		free(raw);
		files++;
	}
	closedir(d);
	printf("swept %zu files through every parser\n", files);
	return files ? 0 : 1;
}
