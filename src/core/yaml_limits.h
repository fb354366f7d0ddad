/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one set of caps for every YAML reader (the recipe tree in
 * manifest/ytree.c, the kubeconfig reader in parse/kubeconfig.c): bytes
 * read, nesting depth, and nodes (events) as written, which bounds the
 * work, and so the time, of a file before --deadline could matter.
 */
#ifndef CI_CORE_YAML_LIMITS_H
#define CI_CORE_YAML_LIMITS_H

#define YAML_MAX_FILE_BYTES (8u << 20)
#define YAML_MAX_DEPTH      64
#define YAML_MAX_NODES      200000u /* per file, as written */

#endif
