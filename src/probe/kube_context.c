/* SPDX-License-Identifier: Apache-2.0 */
#include "probe/kube_context.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "core/yaml_limits.h"
#include "parse/kubeconfig.h"

/* A kubeconfig is kilobytes; the YAML readers' one size cap. */
#define KUBECONFIG_MAX YAML_MAX_FILE_BYTES

/* The file's bytes (a regular file only: never block on a FIFO), or NULL. */
static char *read_small(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > KUBECONFIG_MAX) {
		close(fd);
		return NULL;
	}
	char *buf = xmalloc((size_t)st.st_size + 1);
	size_t n = 0;
	while (n < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + n, (size_t)st.st_size - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void load(const char *path, struct kubeconfig **kc, size_t *n, size_t *cap)
{
	size_t len;
	char *buf = read_small(path, &len);
	if (!buf)
		return;
	struct kubeconfig *k = XPUSH(*kc, *n, *cap);
	(void)kubeconfig_parse(buf, len, k);
	free(buf);
}

char *kube_context_namespace(const char *kubeconfig, const char *context)
{
	struct kubeconfig *files = NULL;
	size_t n = 0, cap = 0;
	const char *env = getenv("KUBECONFIG");
	if (kubeconfig) {
		load(kubeconfig, &files, &n, &cap);
	} else if (env && *env) {
		char *list = xstrdup(env), *save = NULL;
		for (char *p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save))
			load(p, &files, &n, &cap);
		free(list);
	} else {
		const char *home = getenv("HOME");
		if (home && *home) {
			char *p = xasprintf("%s/.kube/config", home);
			load(p, &files, &n, &cap);
			free(p);
		}
	}
	const char *ctx = context;
	for (size_t i = 0; !ctx && i < n; i++)
		ctx = files[i].current_context;
	const char *ns = NULL;
	for (size_t i = 0; ctx && i < n; i++) {
		const struct kubeconfig_context *c = kubeconfig_context(&files[i], ctx);
		if (c) {
			ns = c->namespace_;
			break; /* the first file defining the context wins, namespace or not */
		}
	}
	char *out = xstrdup(ns ? ns : "default");
	for (size_t i = 0; i < n; i++)
		kubeconfig_release(&files[i]);
	free(files);
	return out;
}
