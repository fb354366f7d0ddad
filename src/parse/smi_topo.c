/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/smi_topo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

#define TOPO_MAX_DEVS  256
#define TOPO_MAX_CELLS 300

enum aff_col {
	AFF_CPU,
	AFF_NUMA,
	AFF_GPU_NUMA,
	AFF_OTHER
};

struct cellpos {
	char *s;
	size_t col; /* display column of the cell's start (tabs to 8) */
};

/*
 * Split a line into cells.  Real output separates cells with TABs (an empty
 * cell is then visible as two TABs); a paste with expanded tabs only leaves
 * runs of spaces, where a header cell ("CPU Affinity") may hold one space,
 * so `wide` splits on runs of two or more spaces.  Display columns are kept
 * to place affinity values under their header in the space form.
 */
static size_t split_cells(char *l, bool tabs, bool wide, struct cellpos *c, size_t max)
{
	size_t n = 0, col = 0;
	char *p = l;

	if (tabs) {
		char *start = p;
		size_t scol = 0;
		for (;; p++) {
			if (*p == '\t' || *p == '\0') {
				bool end = *p == '\0';
				*p = '\0';
				if (n < max) {
					c[n].s = str_trim(start);
					c[n].col = scol;
					n++;
				}
				if (end)
					break;
				col = (col / 8 + 1) * 8;
				start = p + 1;
				scol = col;
			} else {
				col++;
			}
		}
		return n;
	}
	while (*p && n < max) {
		char *start;
		while (*p == ' ') {
			p++;
			col++;
		}
		if (!*p)
			break;
		start = p;
		c[n].col = col;
		while (*p) {
			if (*p == ' ' && (!wide || p[1] == ' ' || p[1] == '\0'))
				break;
			p++;
			col++;
		}
		if (*p) {
			*p++ = '\0';
			col++;
		}
		c[n++].s = start;
	}
	return n;
}

static bool is_devname(const char *s)
{
	if (!*s || strchr(s, ' ') || str_icontains(s, "Affinity") || str_icontains(s, "NUMA"))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			return false;
	return true;
}

static int trailing_num(const char *s)
{
	size_t n = strlen(s), i = n;
	long v = 0;

	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	if (i == n || n - i > 6)
		return -1;
	for (; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return (int)v;
}

static bool prefix_num(const char *s, const char *prefix)
{
	size_t pl = strlen(prefix);
	const char *p;

	if (strncmp(s, prefix, pl) != 0 || !s[pl])
		return false;
	for (p = s + pl; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

struct topo_cell topo_cell_parse(const char *s)
{
	struct topo_cell c = {TOPO_UNKNOWN, 0};
	static const struct {
		const char *n;
		enum topo_link k;
	} map[] = {
		{"X", TOPO_SELF},    {"PIX", TOPO_PIX}, {"PXB", TOPO_PXB}, {"PHB", TOPO_PHB},
		{"NODE", TOPO_NODE}, {"SYS", TOPO_SYS}, {"SOC", TOPO_SOC},
	};
	size_t i;

	if (!s)
		return c;
	s = str_skip_ws(s);
	if (s[0] == 'N' && s[1] == 'V' && isdigit((unsigned char)s[2])) {
		int n = trailing_num(s);
		if (n > 0 && prefix_num(s, "NV")) {
			c.kind = TOPO_NV;
			c.nvlinks = (unsigned)n;
		}
		return c;
	}
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(s, map[i].n) == 0)
			c.kind = map[i].k;
	return c;
}

const char *topo_link_name(enum topo_link k)
{
	static const char *const n[] = {
		"unknown", "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS", "SOC",
	};
	return (unsigned)k < sizeof(n) / sizeof(n[0]) ? n[k] : "unknown";
}

static enum aff_col aff_kind(const char *h)
{
	if (str_icontains(h, "CPU"))
		return AFF_CPU;
	if (str_icontains(h, "GPU NUMA"))
		return AFF_GPU_NUMA;
	if (str_icontains(h, "NUMA"))
		return AFF_NUMA;
	return AFF_OTHER;
}

static void set_aff(struct topo_dev *d, enum aff_col k, const char *v)
{
	char **dst = k == AFF_CPU        ? &d->cpu_affinity
		     : k == AFF_NUMA     ? &d->numa_affinity
		     : k == AFF_GPU_NUMA ? &d->gpu_numa_id
					 : NULL;

	if (!dst || !v || !*v || *dst)
		return;
	*dst = xstrdup(v);
}

struct hdr {
	enum aff_col kind[8];
	size_t col[8];
	size_t n;
};

static void add_dev(struct smi_topo *t, const char *name)
{
	struct topo_dev *d = XPUSH(t->devs, t->ndevs, t->cap);

	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	d->index = trailing_num(name);
	if (prefix_num(name, "GPU")) {
		d->type = TOPO_DEV_GPU;
		t->ngpus++;
	} else if (prefix_num(name, "NIC")) {
		d->type = TOPO_DEV_NIC;
		t->nnics++;
	} else {
		/* old drivers label NIC columns with the device name itself */
		d->type = TOPO_DEV_NIC;
		d->nic_device = xstrdup(name);
		t->nnics++;
	}
}

static bool parse_header(struct smi_topo *t, struct hdr *h, char *l)
{
	struct cellpos c[TOPO_MAX_CELLS];
	bool tabs = strchr(l, '\t') != NULL;
	size_t n, i = 0;

	/* The header's first cell is blank: a line starting with a name is a
	 * row, unless the paste lost all indentation, where the header is the
	 * line whose first two cells are both device labels. */
	bool indented = *l == ' ' || *l == '\t';

	n = split_cells(l, tabs, indented, c, TOPO_MAX_CELLS);
	while (i < n && !*c[i].s)
		i++;
	if (i == n || !(prefix_num(c[i].s, "GPU") || prefix_num(c[i].s, "NIC")))
		return false;
	if (!indented &&
	    !(i + 1 < n && (prefix_num(c[i + 1].s, "GPU") || prefix_num(c[i + 1].s, "NIC") ||
			    aff_kind(c[i + 1].s) != AFF_OTHER)))
		return false;
	for (; i < n && is_devname(c[i].s) && t->ndevs < TOPO_MAX_DEVS; i++)
		add_dev(t, c[i].s);
	for (; i < n && h->n < 8; i++) {
		if (!*c[i].s)
			continue;
		h->kind[h->n] = aff_kind(c[i].s);
		h->col[h->n] = c[i].col;
		h->n++;
	}
	t->cells = xcalloc(t->ndevs * t->ndevs, sizeof(*t->cells));
	return true;
}

static int find_label(const struct smi_topo *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ndevs; i++)
		if (strcmp(t->devs[i].name, name) == 0)
			return (int)i;
	return -1;
}

static bool parse_row(struct smi_topo *t, const struct hdr *h, char *l)
{
	struct cellpos c[TOPO_MAX_CELLS];
	bool tabs = strchr(l, '\t') != NULL;
	size_t n, i, nd = t->ndevs;
	int row;
	struct topo_dev *d;

	n = split_cells(l, tabs, false, c, TOPO_MAX_CELLS);
	if (n == 0 || (row = find_label(t, c[0].s)) < 0)
		return false;
	d = &t->devs[row];
	t->nrows++;
	for (i = 0; i < nd && i + 1 < n; i++)
		t->cells[(size_t)row * nd + i] = topo_cell_parse(c[i + 1].s);
	if (n <= nd + 1)
		return true;
	if (tabs) {
		/* CPU, NUMA, then GPU NUMA ID after a padding cell */
		size_t k, rest = n - nd - 1;
		struct cellpos *r = c + nd + 1;
		for (k = 0; k < rest && k < h->n; k++) {
			if (h->kind[k] == AFF_GPU_NUMA) {
				size_t j;
				for (j = rest; j > k; j--)
					if (*r[j - 1].s) {
						set_aff(d, AFF_GPU_NUMA, r[j - 1].s);
						break;
					}
				break;
			}
			set_aff(d, h->kind[k], r[k].s);
		}
		return true;
	}
	/* spaces: the value belongs to the header column nearest to it */
	for (i = nd + 1; i < n; i++) {
		size_t k, best = 0, bestd = (size_t)-1;
		for (k = 0; k < h->n; k++) {
			size_t dd =
				c[i].col > h->col[k] ? c[i].col - h->col[k] : h->col[k] - c[i].col;
			if (dd < bestd) {
				bestd = dd;
				best = k;
			}
		}
		if (h->n)
			set_aff(d, h->kind[best], c[i].s);
	}
	return true;
}

/* "NIC0: mlx5_0" from the NIC Legend */
static void legend_line(struct smi_topo *t, char *l)
{
	char *k, *v, *tok[2];
	int i;

	if (!str_kv(l, ':', &k, &v) || !prefix_num(k, "NIC"))
		return;
	if (str_split_ws(v, tok, 2) != 1)
		return;
	i = find_label(t, k);
	if (i >= 0 && t->devs[i].type == TOPO_DEV_NIC) {
		free(t->devs[i].nic_device);
		t->devs[i].nic_device = xstrdup(tok[0]);
	}
}

int smi_topo_parse(const char *buf, size_t len, struct smi_topo *out)
{
	struct lines it;
	struct hdr h;
	char *l;
	enum {
		BEFORE,
		ROWS,
		AFTER
	} st = BEFORE;

	memset(out, 0, sizeof(*out));
	memset(&h, 0, sizeof(h));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		switch (st) {
		case BEFORE:
			if (parse_header(out, &h, l))
				st = ROWS;
			break;
		case ROWS:
			if (parse_row(out, &h, l))
				break;
			st = AFTER;
			/* fall through */
		case AFTER: legend_line(out, l); break;
		}
	}
	lines_release(&it);
	return st == BEFORE ? -1 : 0;
}

void smi_topo_release(struct smi_topo *t)
{
	size_t i;

	for (i = 0; i < t->ndevs; i++) {
		free(t->devs[i].name);
		free(t->devs[i].nic_device);
		free(t->devs[i].cpu_affinity);
		free(t->devs[i].numa_affinity);
		free(t->devs[i].gpu_numa_id);
	}
	free(t->devs);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

int smi_topo_find(const struct smi_topo *t, const char *name)
{
	size_t i;
	int r;

	if (!name)
		return -1;
	if ((r = find_label(t, name)) >= 0)
		return r;
	for (i = 0; i < t->ndevs; i++)
		if (t->devs[i].nic_device && strcmp(t->devs[i].nic_device, name) == 0)
			return (int)i;
	return -1;
}

int smi_topo_gpu(const struct smi_topo *t, int gpu)
{
	size_t i;

	for (i = 0; i < t->ndevs; i++)
		if (t->devs[i].type == TOPO_DEV_GPU && t->devs[i].index == gpu)
			return (int)i;
	return -1;
}

struct topo_cell smi_topo_cell(const struct smi_topo *t, size_t row, size_t col)
{
	struct topo_cell none = {TOPO_UNKNOWN, 0};

	if (!t->cells || row >= t->ndevs || col >= t->ndevs)
		return none;
	return t->cells[row * t->ndevs + col];
}

/* A cell, or its mirror when that row was not printed. */
static struct topo_cell sym_cell(const struct smi_topo *t, size_t a, size_t b)
{
	struct topo_cell c = smi_topo_cell(t, a, b);

	if (c.kind == TOPO_UNKNOWN)
		c = smi_topo_cell(t, b, a);
	return c;
}

unsigned smi_topo_nvlinks(const struct smi_topo *t, int gpu_a, int gpu_b)
{
	int a = smi_topo_gpu(t, gpu_a), b = smi_topo_gpu(t, gpu_b);
	struct topo_cell c;

	if (a < 0 || b < 0 || a == b)
		return 0;
	c = sym_cell(t, (size_t)a, (size_t)b);
	return c.kind == TOPO_NV ? c.nvlinks : 0;
}

unsigned smi_topo_min_nvlinks(const struct smi_topo *t)
{
	size_t i, j;
	unsigned best = 0;
	bool any = false;

	for (i = 0; i < t->ndevs; i++) {
		if (t->devs[i].type != TOPO_DEV_GPU)
			continue;
		for (j = i + 1; j < t->ndevs; j++) {
			struct topo_cell c;
			if (t->devs[j].type != TOPO_DEV_GPU)
				continue;
			c = sym_cell(t, i, j);
			if (c.kind != TOPO_NV)
				return 0;
			if (!any || c.nvlinks < best)
				best = c.nvlinks;
			any = true;
		}
	}
	return any ? best : 0;
}

int smi_topo_best_nic(const struct smi_topo *t, int gpu, enum topo_link *kind)
{
	int g = smi_topo_gpu(t, gpu), best = -1;
	enum topo_link bk = TOPO_UNKNOWN;
	size_t i;

	if (g < 0)
		return -1;
	for (i = 0; i < t->ndevs; i++) {
		struct topo_cell c;
		if (t->devs[i].type != TOPO_DEV_NIC)
			continue;
		c = sym_cell(t, (size_t)g, i);
		if (c.kind == TOPO_UNKNOWN || c.kind == TOPO_SELF)
			continue;
		/* SOC is the old name of SYS: equally far */
		if (best < 0 ||
		    (c.kind == TOPO_SOC ? TOPO_SYS : c.kind) < (bk == TOPO_SOC ? TOPO_SYS : bk)) {
			best = (int)i;
			bk = c.kind;
		}
	}
	if (kind)
		*kind = bk;
	return best;
}
