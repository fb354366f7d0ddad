/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/smi_query.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

#define MAX_DEPTH 16

struct sect {
	size_t indent;
	char name[48];
};

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

/* "Key      : Value" -> key, value (value may be ""); false for a section
 * header or any line without the " : " separator. */
static bool smi_kv(char *s, char **k, char **v)
{
	char *p = strstr(s, " : ");
	size_t n;

	if (!p) {
		n = strlen(s);
		if (n >= 2 && s[n - 1] == ':' && s[n - 2] == ' ')
			p = s + n - 2;
		else
			return false;
	}
	*p = '\0';
	*k = str_trim(s);
	*v = p[1] && p[2] ? str_trim(p + 2) : p + 1 + (p[1] != '\0');
	return **k != '\0';
}

static struct smi_query_gpu *new_gpu(struct smi_query *q, const char *bus)
{
	struct smi_query_gpu *g = XPUSH(q->gpus, q->ngpus, q->cap);

	memset(g, 0, sizeof(*g));
	g->bus_id = bus ? xstrdup(bus) : NULL;
	return g;
}

static void fabric_field(struct smi_fabric *f, const char *parent, const char *k, const char *v)
{
	if (str_ieq(parent, "Health")) {
		if (str_ieq(k, "Summary"))
			set_str(&f->health_summary, v);
		else if (str_ieq(k, "Bandwidth"))
			set_str(&f->health_bandwidth, v);
		return;
	}
	if (str_ieq(k, "State"))
		set_str(&f->state, v);
	else if (str_ieq(k, "Status"))
		set_str(&f->status, v);
	else if (str_ieq(k, "CliqueId") || str_ieq(k, "Clique ID"))
		set_str(&f->clique_id, v);
	else if (str_ieq(k, "ClusterUUID") || str_ieq(k, "Cluster UUID"))
		set_str(&f->cluster_uuid, v);
	else if (str_ieq(k, "Health")) /* older one-line form */
		set_str(&f->health_summary, v);
}

int smi_query_parse(const char *buf, size_t len, struct smi_query *out)
{
	struct lines it;
	struct sect st[MAX_DEPTH];
	size_t depth = 0;
	char *l;
	struct smi_query_gpu *g = NULL;
	bool any = false;

	memset(out, 0, sizeof(*out));
	out->attached_gpus = -1;
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		size_t ind = str_indent(l);
		char *s = str_lstrip(l), *k, *v;
		size_t i;
		bool in_fabric = false;
		const char *parent;

		if (!*s || strcmp(s, "--") == 0)
			continue;
		if (strstr(s, "NVSMI LOG")) {
			any = true;
			continue;
		}
		while (depth && st[depth - 1].indent >= ind)
			depth--;
		if (!smi_kv(s, &k, &v)) {
			/* a section header, or "GPU 00000000:53:00.0" at the top */
			if (ind == 0 && str_starts(s, "GPU ") && strchr(s, ':')) {
				depth = 0;
				if (out->ngpus >= PARSE_MAX_ITEMS) {
					g = NULL;
					continue;
				}
				g = new_gpu(out, str_skip_ws(s + 4));
				any = true;
				continue;
			}
			if (depth < MAX_DEPTH) {
				st[depth].indent = ind;
				snprintf(st[depth].name, sizeof(st[depth].name), "%s", s);
				depth++;
			}
			if (str_ieq(s, "Fabric")) {
				if (!g && out->ngpus < PARSE_MAX_ITEMS)
					g = new_gpu(out, NULL); /* a grep excerpt */
				if (g)
					g->fabric.present = true;
				any = true;
			}
			continue;
		}
		for (i = 0; i < depth; i++)
			if (str_ieq(st[i].name, "Fabric"))
				in_fabric = true;
		parent = depth ? st[depth - 1].name : "";
		if (in_fabric && g) {
			fabric_field(&g->fabric, parent, k, v);
			continue;
		}
		if (g && depth && str_ieq(parent, "MIG Mode") && str_ieq(k, "Current")) {
			set_str(&g->mig_current, v);
			continue;
		}
		if (g && depth >= 2 && str_ieq(parent, "Link Width") &&
		    str_ieq(st[depth - 2].name, "GPU Link Info")) {
			uint32_t w;
			char *x = v + strcspn(v, "xX");
			*x = '\0';
			if (str_to_u32(str_trim(v), 10, &w) && w <= 64) {
				if (str_ieq(k, "Max"))
					g->link_width_max = w;
				else if (str_ieq(k, "Current"))
					g->link_width_cur = w;
			}
			continue;
		}
		if (depth == 0 && !g) {
			if (str_ieq(k, "Driver Version")) {
				set_str(&out->driver_version, v);
				any = true;
			} else if (str_ieq(k, "CUDA Version")) {
				set_str(&out->cuda_version, v);
			} else if (str_ieq(k, "Attached GPUs")) {
				uint32_t n;
				if (str_to_u32(v, 10, &n) && n < 100000)
					out->attached_gpus = (int)n;
			}
			continue;
		}
		if (depth == 0 && g) {
			if (str_ieq(k, "Product Name"))
				set_str(&g->product_name, v);
			else if (str_ieq(k, "GPU UUID"))
				set_str(&g->uuid, v);
		}
	}
	lines_release(&it);
	return any ? 0 : -1;
}

static void fabric_release(struct smi_fabric *f)
{
	free(f->state);
	free(f->status);
	free(f->clique_id);
	free(f->cluster_uuid);
	free(f->health_summary);
	free(f->health_bandwidth);
}

void smi_query_release(struct smi_query *q)
{
	size_t i;

	for (i = 0; i < q->ngpus; i++) {
		free(q->gpus[i].bus_id);
		free(q->gpus[i].product_name);
		free(q->gpus[i].uuid);
		free(q->gpus[i].mig_current);
		fabric_release(&q->gpus[i].fabric);
	}
	free(q->gpus);
	free(q->driver_version);
	free(q->cuda_version);
	memset(q, 0, sizeof(*q));
}

bool smi_is_na(const char *v)
{
	if (!v)
		return true;
	v = str_skip_ws(v);
	if (*v == '[')
		v++;
	return !*v || str_istarts(v, "N/A") || str_istarts(v, "Not Supported") ||
	       str_istarts(v, "Unknown Error");
}

bool smi_fabric_completed(const struct smi_fabric *f)
{
	return f && f->state && f->status && str_ieq(f->state, "Completed") &&
	       str_ieq(f->status, "Success");
}

bool smi_fabric_no_cluster(const struct smi_fabric *f)
{
	const char *p;

	if (!f || smi_is_na(f->cluster_uuid))
		return true;
	for (p = f->cluster_uuid; *p; p++)
		if (*p != '0' && *p != '-' && !isspace((unsigned char)*p))
			return false;
	return true;
}

bool smi_gpu_mig_enabled(const struct smi_query_gpu *g)
{
	return g && g->mig_current && str_ieq(str_skip_ws(g->mig_current), "Enabled");
}
