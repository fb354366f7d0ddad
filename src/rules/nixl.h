/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NIXL's installation layouts, as its packaging makes them (the probe's
 * globs in src/probe/probe.sh look where these rows say; this module
 * classifies what it lists).  Sources: ai-dynamo/nixl pyproject.toml +
 * meson.build (meson-python: .{pkg}.mesonpy.libs/ and its plugins/),
 * contrib/wheel build (auditwheel repair: {pkg}.libs/ with the bundled
 * UCX libucp-<hash>.so, its transport modules ucx/libuct_*, and the
 * plugins nixl/libplugin_*), and the wheels' file lists (nixl-cu12,
 * nixl-cu13).
 */
#ifndef CI_RULES_NIXL_H
#define CI_RULES_NIXL_H

#include <stdbool.h>
#include <stddef.h>

enum nixl_ucx_module {
	NIXL_UCT_IB = 0,   /* libuct_ib: verbs, rc/dc/ud mlx5 */
	NIXL_UCT_CUDA,     /* libuct_cuda: cuda_copy, cuda_ipc (detects VRAM) */
	NIXL_UCT_CUDA_GDR, /* libuct_cuda_gdr: gdr_copy */
	NIXL_UCT_COUNT,
};

/* The directory of a NIXL wheel's bundled libraries in `path`
 * ("nixl_cu12.libs/", ".nixl_cu13.mesonpy.libs/", ".nixl.libs/"): its
 * length up to and including the '/', or 0 when the path is not inside one. */
size_t nixl_layout_wheel_dir(const char *path);
/* A bundled UCX transport module ("<wheel>/ucx/libuct_cuda-1a2b.so.0"):
 * which one, or NIXL_UCT_COUNT when it is another module or not one. */
enum nixl_ucx_module nixl_layout_ucx_module(const char *path);
const char *nixl_ucx_module_name(enum nixl_ucx_module m);
/* The length of a library's name without auditwheel's "-<hash>" suffix. */
size_t nixl_layout_strip_hash(const char *name, size_t len);

#endif
