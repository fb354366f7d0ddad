/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/nixl.h"

#include <string.h>

/* The wheel directories: auditwheel's "{pkg}.libs/" (pkg nixl, nixl_cu12,
 * nixl_cu13), meson-python's ".{pkg}.mesonpy.libs/" and the older
 * ".nixl*.libs/" (ai-dynamo/nixl packaging; see rules/nixl.h). */
size_t nixl_layout_wheel_dir(const char *path)
{
	for (const char *p = path; p && (p = strstr(p, "nixl")); p++) {
		bool start = p == path || p[-1] == '/' ||
			     (p[-1] == '.' && (p - 1 == path || p[-2] == '/'));
		if (!start)
			continue;
		const char *slash = strchr(p, '/');
		if (!slash)
			return 0;
		size_t n = (size_t)(slash - p);
		if (n >= 5 && !strncmp(slash - 5, ".libs", 5))
			return (size_t)(slash - path) + 1;
	}
	return 0;
}

static const char *const uct_names[NIXL_UCT_COUNT] = {
	[NIXL_UCT_IB] = "libuct_ib",
	[NIXL_UCT_CUDA] = "libuct_cuda",
	[NIXL_UCT_CUDA_GDR] = "libuct_cuda_gdr",
};

const char *nixl_ucx_module_name(enum nixl_ucx_module m)
{
	return m < NIXL_UCT_COUNT ? uct_names[m] : "?";
}

size_t nixl_layout_strip_hash(const char *name, size_t len)
{
	/* "UCX-7b6a5c4d" -> "UCX": auditwheel appends -<8 hex> */
	for (size_t i = len; i > 0; i--)
		if (name[i - 1] == '-') {
			size_t h = len - i;
			bool hex = h >= 6;
			for (size_t k = i; k < len && hex; k++)
				hex = strchr("0123456789abcdef", name[k]) != NULL;
			return hex ? i - 1 : len;
		}
	return len;
}

enum nixl_ucx_module nixl_layout_ucx_module(const char *path)
{
	size_t w = nixl_layout_wheel_dir(path);
	if (!w || strncmp(path + w, "ucx/", 4))
		return NIXL_UCT_COUNT;
	const char *base = path + w + 4;
	/* the name ends at the hash ("-"), or at ".so" */
	size_t n = strcspn(base, "-.");
	for (int m = 0; m < NIXL_UCT_COUNT; m++)
		if (strlen(uct_names[m]) == n && !strncmp(base, uct_names[m], n))
			return (enum nixl_ucx_module)m;
	return NIXL_UCT_COUNT;
}
