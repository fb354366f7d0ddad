/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `env` on a kustomize tree: ONE read-only
 *   kubectl kustomize -- OVERLAY
 * per overlay, whose output (the rendered objects) the manifest reader
 * parses like a file.  kustomize reads the folders and writes nothing;
 * without --enable-helm, --enable-exec or --enable-alpha-plugins it runs
 * no program of the tree's (kubectl kustomize's defaults, kustomize v5).
 * A remote base (a git URL) is fetched by kustomize itself.
 */
#ifndef CI_KUBE_KUSTOMIZE_H
#define CI_KUBE_KUSTOMIZE_H

#include <stddef.h>

#include "probe/probe.h"

/* The rendering is capped as one manifest file is (YAML_MAX_FILE_BYTES). */
#define KUBE_KUSTOMIZE_ARGV_MAX 5

/* KUBECTL kustomize -- DIR.  Returns argc, or -1 when kubectl or dir is
 * empty or kubectl would read as an option: nothing must run then. */
int kube_kustomize_argv(const char *kubectl, const char *dir,
			const char *argv[KUBE_KUSTOMIZE_ARGV_MAX]);

/* Render DIR under `deadline` (run_now() clock).  PROBE_OK: *out
 * (malloc'ed, NUL-terminated) holds the objects.  Else *errmsg (one line):
 * PROBE_KUBECTL_MISSING (not found or not runnable), PROBE_TIMEOUT,
 * PROBE_EXEC_FAILED (kustomize refused the tree: what it said). */
enum probe_error kube_kustomize(const char *kubectl, const char *dir, double deadline, char **out,
				size_t *out_len, char **errmsg);

/* What kustomize said on stderr, as one line: klog's err="..." when it is
 * there, else the first "Error: "/"error: " line, else the last line;
 * at most 200 bytes.  Pure. */
char *kube_kustomize_error(const char *err, size_t len);

#endif
