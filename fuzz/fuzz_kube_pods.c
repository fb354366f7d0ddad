/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the `kubectl get pods -o json` parser on arbitrary
 * bytes, plus the invariants the nixl verb and the fan-out rely on (caps
 * held, every pod named, strings free of control bytes), and the selector
 * validator on the same bytes read as a string. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/kube_pods.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void clean(const char *s)
{
	if (!s)
		return;
	if (strlen(s) > KUBE_POD_MAX_STR)
		abort();
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kube_pod_list l;
	kube_pod_list_init(&l);
	(void)kube_pods_parse((const char *)data, size, &l);
	if (l.n > KUBE_PODS_MAX)
		abort();
	for (size_t i = 0; i < l.n; i++) {
		const struct kube_pod *p = &l.pods[i];
		if (!p->name)
			abort();
		clean(p->name);
		clean(p->namespace_);
		clean(p->phase);
		clean(p->node_name);
		clean(p->pod_ip);
		clean(p->dgd);
		clean(p->sub_component_type);
		if (p->n_containers > 2 * KUBE_POD_MAX_CONTAINERS)
			abort();
		for (size_t j = 0; j < p->n_containers; j++)
			if (!p->containers[j].name)
				abort();
		if (kube_pods_find(&l, p->name) == NULL)
			abort();
		(void)kube_pod_ready(p);
	}
	kube_pod_list_release(&l);

	if (size < 2048) {
		char *s = malloc(size + 1);
		if (!s)
			return 0;
		memcpy(s, data, size);
		s[size] = '\0';
		if (kube_selector_valid(s) && (s[0] == '-' || strchr(s, '\n')))
			abort();
		free(s);
	}
	return 0;
}
