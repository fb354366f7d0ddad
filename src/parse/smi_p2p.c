/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/smi_p2p.h"

#include <string.h>

#include "parse/lines.h"

static const char *const names[] = {
	[P2P_UNKNOWN] = "U", [P2P_SELF] = "X",  [P2P_OK] = "OK", [P2P_CNS] = "CNS",
	[P2P_GNS] = "GNS",   [P2P_TNS] = "TNS", [P2P_NS] = "NS", [P2P_DR] = "DR",
};

enum p2p_status p2p_status_parse(const char *w)
{
	for (size_t i = 1; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(w, names[i]))
			return (enum p2p_status)i;
	return P2P_UNKNOWN;
}

const char *p2p_status_name(enum p2p_status s)
{
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "U";
}

bool p2p_status_blocked(enum p2p_status s)
{
	return s != P2P_OK && s != P2P_SELF;
}

/* "GPU12" -> 12; -1 for anything else. */
static int gpu_index(const char *w)
{
	uint32_t n;
	if (strncmp(w, "GPU", 3) || !str_to_u32(w + 3, 10, &n) || n > 4096)
		return -1;
	return (int)n;
}

/* Split on blanks and TABs into at most max words (in place). */
static size_t words(char *s, char **w, size_t max)
{
	size_t n = 0;
	char *p = s;
	while (*p && n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		w[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

int smi_p2p_parse(const char *buf, size_t len, struct smi_p2p *out)
{
	struct lines it;
	char *l, *w[SMI_P2P_MAX + 2];
	size_t rows = 0;
	bool header = false;

	memset(out, 0, sizeof(*out));
	lines_init(&it, buf, len);
	while ((l = lines_next(&it))) {
		size_t n = words(l, w, SMI_P2P_MAX + 2);
		if (!n)
			continue;
		if (!strcmp(w[0], "Legend:"))
			break;
		if (!header) {
			/* the header: GPU names only */
			size_t k = 0;
			for (size_t i = 0; i < n && k < SMI_P2P_MAX; i++) {
				int g = gpu_index(w[i]);
				if (g < 0)
					break;
				out->index[k++] = g;
			}
			if (k && k == n) {
				out->ngpus = k;
				header = true;
			}
			continue;
		}
		int g = gpu_index(w[0]);
		if (g < 0)
			continue;
		size_t r;
		for (r = 0; r < out->ngpus && out->index[r] != g; r++)
			;
		if (r == out->ngpus)
			continue;
		for (size_t c = 0; c < out->ngpus && c + 1 < n; c++)
			out->cell[r][c] = (unsigned char)p2p_status_parse(w[c + 1]);
		rows++;
	}
	lines_release(&it);
	return rows ? 0 : -1;
}

void smi_p2p_release(struct smi_p2p *p)
{
	memset(p, 0, sizeof(*p));
}
