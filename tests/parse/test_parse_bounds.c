/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Issue 23, item 3: every parser in src/parse/ ends within a bound on a
 * hostile input of the largest size its caller hands it.  One row per
 * parser; the test reads src/parse/ headers and fails on any *_parse or
 * *_classify function that takes (const char *, size_t len) without a row
 * here, so a new parser cannot skip it.  Each input shape is one a parser written in a hurry goes
 * quadratic (or deep) on: one line with no line break, line breaks only,
 * deep nesting of every bracket, NUL bytes between fields, and one
 * key/value line repeated until the cap.
 *
 * The bound is counted in CPU time, not wall time (the machine is shared):
 * an ITIMER_PROF of PARSE_CPU_BOUND_S per call ends the program with the
 * parser's name when it runs past it.  A linear parser takes milliseconds
 * on these inputs; the bound is generous enough for ASan.
 */
#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/yaml_limits.h"
#include "parse/efa_packages.h"
#include "parse/env_section.h"
#include "parse/fi_info.h"
#include "parse/ibv_devinfo.h"
#include "parse/kube_pods.h"
#include "parse/kubeconfig.h"
#include "parse/limits.h"
#include "parse/lines.h"
#include "parse/logscan.h"
#include "parse/modules.h"
#include "parse/mounts.h"
#include "parse/net_dev.h"
#include "parse/pip_meta.h"
#include "parse/pod_cgroup.h"
#include "parse/proc_fd.h"
#include "parse/proc_maps.h"
#include "parse/proc_net.h"
#include "parse/proc_status.h"
#include "parse/prom_text.h"
#include "parse/smi_csv.h"
#include "parse/smi_error.h"
#include "parse/smi_nvlink.h"
#include "parse/smi_p2p.h"
#include "parse/smi_query.h"
#include "parse/smi_topo.h"
#include "parse/sysfs_ib.h"
#include "parse/transcript.h"
#include "parse/ucx_info.h"
#include "rules/kubelet.h"

#define PARSE_CPU_BOUND_S 20
#define MIB               (1u << 20)
/* Tool output reaches a parser through run_command (RUN_STDOUT_CAP, 4 MiB)
 * or a probe section (at most 256 KiB); --replay files through the
 * transcript (TRANSCRIPT_MAX_BYTES); kubeconfig files under YAML_MAX_FILE_BYTES;
 * the pod list under KUBE_PODS_MAX_BYTES, tested here at 16 MiB (jansson
 * holds a string as long as the input: 64 MiB of it is memory, not a
 * bound the test learns more from). */
#define TOOL_MAX          (4 * MIB)

/* Every row parses and releases its own result type. */
#define ROW_FN(name, T, parse, rel)                     \
	static void run_##name(const char *b, size_t n) \
	{                                               \
		struct T x_;                            \
		memset(&x_, 0, sizeof(x_));             \
		(void)parse(b, n, &x_);                 \
		rel(&x_);                               \
	}

ROW_FN(env_section, env_section, env_section_parse, env_section_release)
ROW_FN(fi_info, fi_info, fi_info_parse, fi_info_release)
ROW_FN(ibv_devinfo, ibv_devinfo, ibv_devinfo_parse, ibv_devinfo_release)
ROW_FN(kubeconfig, kubeconfig, kubeconfig_parse, kubeconfig_release)
ROW_FN(limits, limits, limits_parse, limits_release)
ROW_FN(logscan, logscan, logscan_parse, logscan_release)
ROW_FN(modules, modules, modules_parse, modules_release)
ROW_FN(mounts, mounts, mounts_parse, mounts_release)
ROW_FN(df, df, df_parse, df_release)
ROW_FN(net_dev, net_devs, net_dev_parse, net_dev_release)
ROW_FN(pip_meta, pip_meta, pip_meta_parse, pip_meta_release)
ROW_FN(proc_fds, proc_fds, proc_fds_parse, proc_fds_release)
ROW_FN(proc_maps, proc_maps, proc_maps_parse, proc_maps_release)
ROW_FN(proc_route, proc_route, proc_route_parse, proc_route_release)
ROW_FN(proc_inet6, proc_inet6, proc_inet6_parse, proc_inet6_release)
ROW_FN(proc_status, proc_status, proc_status_parse, proc_status_release)
ROW_FN(prom_text, prom_text, prom_text_parse, prom_text_release)
ROW_FN(smi_csv, smi_csv, smi_csv_parse, smi_csv_release)
ROW_FN(smi_nvlink, smi_nvlink, smi_nvlink_parse, smi_nvlink_release)
ROW_FN(smi_p2p, smi_p2p, smi_p2p_parse, smi_p2p_release)
ROW_FN(smi_query, smi_query, smi_query_parse, smi_query_release)
ROW_FN(smi_topo, smi_topo, smi_topo_parse, smi_topo_release)
ROW_FN(ucx_version, ucx_version, ucx_version_parse, ucx_version_release)
ROW_FN(ucx_devices, ucx_devices, ucx_devices_parse, ucx_devices_release)

static void run_kube_pods(const char *b, size_t n)
{
	struct kube_pod_list l;
	kube_pod_list_init(&l);
	(void)kube_pods_parse(b, n, &l);
	kube_pod_list_release(&l);
}

static void run_transcript(const char *b, size_t n)
{
	struct transcript t;
	transcript_init(&t);
	transcript_parse(&t, b, n);
	transcript_release(&t);
}

static void run_lines(const char *b, size_t n)
{
	struct lines it;
	lines_init(&it, b, n);
	while (lines_next(&it))
		;
	lines_release(&it);
}

static void run_pod_cgroup(const char *b, size_t n)
{
	struct pod_cgroup c;
	(void)pod_cgroup_parse(b, n, kubelet_cgroup_forms(), &c);
}

static void run_efa_packages(const char *b, size_t n)
{
	struct efa_packages p;
	(void)efa_packages_parse(b, n, &p);
}

static void run_smi_error(const char *b, size_t n)
{
	(void)smi_error_classify(b, n);
}

struct row {
	const char *fn; /* the declaration's name in src/parse/ headers */
	void (*run)(const char *b, size_t n);
	size_t max; /* the largest input its caller hands it */
};

#define ROW(name, fn, max)           \
	{                            \
#fn, run_##name, max \
	}

static const struct row rows[] = {
	ROW(efa_packages, efa_packages_parse, TOOL_MAX),
	ROW(env_section, env_section_parse, TOOL_MAX),
	ROW(fi_info, fi_info_parse, TOOL_MAX),
	ROW(ibv_devinfo, ibv_devinfo_parse, TOOL_MAX),
	ROW(kube_pods, kube_pods_parse, 16 * MIB),
	ROW(kubeconfig, kubeconfig_parse, YAML_MAX_FILE_BYTES),
	ROW(limits, limits_parse, TOOL_MAX),
	ROW(lines, lines_init, TRANSCRIPT_MAX_BYTES),
	ROW(logscan, logscan_parse, TOOL_MAX),
	ROW(modules, modules_parse, TOOL_MAX),
	ROW(mounts, mounts_parse, TOOL_MAX),
	ROW(df, df_parse, TOOL_MAX),
	ROW(net_dev, net_dev_parse, TOOL_MAX),
	ROW(pip_meta, pip_meta_parse, TOOL_MAX),
	ROW(pod_cgroup, pod_cgroup_parse, TOOL_MAX),
	ROW(proc_fds, proc_fds_parse, TOOL_MAX),
	ROW(proc_maps, proc_maps_parse, TOOL_MAX),
	ROW(proc_route, proc_route_parse, TOOL_MAX),
	ROW(proc_inet6, proc_inet6_parse, TOOL_MAX),
	ROW(proc_status, proc_status_parse, TOOL_MAX),
	ROW(prom_text, prom_text_parse, TOOL_MAX),
	ROW(smi_csv, smi_csv_parse, TOOL_MAX),
	ROW(smi_error, smi_error_classify, TOOL_MAX),
	ROW(smi_nvlink, smi_nvlink_parse, TOOL_MAX),
	ROW(smi_p2p, smi_p2p_parse, TOOL_MAX),
	ROW(smi_query, smi_query_parse, TOOL_MAX),
	ROW(smi_topo, smi_topo_parse, TOOL_MAX),
	ROW(transcript, transcript_parse, TRANSCRIPT_MAX_BYTES),
	ROW(ucx_version, ucx_version_parse, TOOL_MAX),
	ROW(ucx_devices, ucx_devices_parse, TOOL_MAX),
};
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

/* ---- the hostile shapes ---- */

/* Fill buf[0..n) by repeating unit. */
static void fill(char *buf, size_t n, const char *unit, size_t ulen)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = unit[i % ulen];
}

struct shape {
	const char *name;
	const char *unit;
	size_t ulen;
};

#define SHAPE(name, lit)                   \
	{                                  \
		name, lit, sizeof(lit) - 1 \
	}
static const struct shape shapes[] = {
	/* one line, no line break: fields, keys, values, ports, quotes */
	SHAPE("one long line", "mlx5_0 port 1 ==> ib0 (Up) Name: x=\"y\" GPU0 NV18 a{b=\"c\"} 1 "),
	SHAPE("line breaks only", "\n"),
	SHAPE("deep nesting", "{[(<{\"a\":[{'b': ["),
	SHAPE("NUL between fields", "key\0=\0value\0:\0\n\0|\0@@begin x\0"),
	SHAPE("one record repeated",
	      "@@begin live:nixl:0\n|agent_tx_bytes_total{hostname=\"h\",agent_name=\"a\"} 1\n"
	      "  Port 1:\n\t\tState: Active\nHCA mlx5_0\n  - name: c\n    context: {cluster: c}\n"
	      "GPU0\tX \tNV18\tSYS\n/sys/class/infiniband/mlx5_0/ports/1/state=4: ACTIVE\n"
	      "7f00-7f01 r-xp 0 00:00 1 /opt/libplugin_UCX.so\n"),
	SHAPE("an open quote", "\"\\\"\\\\\\"),
};
#define N_SHAPES (sizeof(shapes) / sizeof(shapes[0]))

/* ---- the CPU bound ---- */

static const char *volatile cur_fn;
static const char *volatile cur_shape;

static void on_prof(int sig)
{
	(void)sig;
	char msg[256];
	int n = snprintf(msg, sizeof(msg), "FAIL: %s on \"%s\" ran past %d s of CPU\n",
			 cur_fn ? cur_fn : "?", cur_shape ? cur_shape : "?", PARSE_CPU_BOUND_S);
	if (n > 0)
		(void)!write(2, msg, (size_t)n);
	_exit(1);
}

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_every_parser_bounded(void **state)
{
	(void)state;
	signal(SIGPROF, on_prof);
	size_t biggest = 0;
	for (size_t i = 0; i < N_ROWS; i++)
		if (rows[i].max > biggest)
			biggest = rows[i].max;
	char *buf = malloc(biggest);
	assert_non_null(buf);
	for (size_t s = 0; s < N_SHAPES; s++) {
		fill(buf, biggest, shapes[s].unit, shapes[s].ulen);
		cur_shape = shapes[s].name;
		for (size_t i = 0; i < N_ROWS; i++) {
			cur_fn = rows[i].fn;
			struct itimerval it = {.it_value = {.tv_sec = PARSE_CPU_BOUND_S}};
			setitimer(ITIMER_PROF, &it, NULL);
			double t0 = cpu_now();
			rows[i].run(buf, rows[i].max);
			double took = cpu_now() - t0;
			struct itimerval off = {0};
			setitimer(ITIMER_PROF, &off, NULL);
			if (took > 1.0)
				printf("note: %s on \"%s\" (%zu bytes): %.2f s of CPU\n",
				       rows[i].fn, shapes[s].name, rows[i].max, took);
		}
	}
	free(buf);
}

/* The table covers src/parse/: every parser declared there (a name ending in
 * _parse or _classify that takes a buffer and its length) has a row, and
 * every row names one. */
static void test_every_parser_has_a_row(void **state)
{
	(void)state;
	DIR *d = opendir("src/parse");
	assert_non_null(d);
	struct dirent *e;
	unsigned missing = 0, seen = 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 3 || strcmp(e->d_name + l - 2, ".h"))
			continue;
		char path[512];
		snprintf(path, sizeof(path), "src/parse/%s", e->d_name);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		char line[1024];
		while (fgets(line, sizeof(line), f)) {
			/* a declaration at the start of a line: "type name(...const char *x, size_t len" */
			if (line[0] == ' ' || line[0] == '\t' || line[0] == '*' || line[0] == '/' ||
			    line[0] == '#')
				continue;
			const char *buf_arg = strstr(line, "const char *");
			const char *len_arg = strstr(line, "size_t len");
			char *paren = strchr(line, '(');
			if (!buf_arg || !len_arg || !paren || buf_arg < paren || len_arg < buf_arg)
				continue;
			char *name = paren;
			while (name > line &&
			       (name[-1] == '_' || (name[-1] >= 'a' && name[-1] <= 'z') ||
				(name[-1] >= '0' && name[-1] <= '9')))
				name--;
			*paren = '\0';
			size_t nl = strlen(name);
			bool parser = (nl > 6 && !strcmp(name + nl - 6, "_parse")) ||
				      (nl > 9 && !strcmp(name + nl - 9, "_classify"));
			if (!parser)
				continue;
			seen++;
			bool found = false;
			for (size_t i = 0; i < N_ROWS && !found; i++)
				found = !strcmp(rows[i].fn, name);
			if (!found) {
				printf("FAIL: %s (%s) has no row in tests/parse/test_parse_bounds.c\n",
				       name, path);
				missing++;
			}
		}
		fclose(f);
	}
	closedir(d);
	/* every row but lines_init (the line splitter they share) names one */
	assert_int_equal(seen, N_ROWS - 1);
	assert_int_equal(missing, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_parser_has_a_row),
		cmocka_unit_test(test_every_parser_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
