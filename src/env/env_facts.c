/* SPDX-License-Identifier: Apache-2.0 */
/*
 * "Transport settings seen": every transport variable of every deployment,
 * one fact per (deployment, name, value) with the services that share it
 * and where it was set.  Values of secret-like names are redacted and a
 * valueFrom is shown as its reference, never resolved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/redact.h"
#include "core/xalloc.h"
#include "env/env_analyze.h"

struct fact_acc {
	char *name, *value;
	char svcs[512];
	char src[256];
	size_t n_src;
};

static const char *origin_word(enum env_origin o)
{
	switch (o) {
	case ENV_INLINE: return " (inline)";
	case ENV_CONFIGMAP: return " (envFrom)";
	default: return "";
	}
}

static void append(char *buf, size_t len, const char *sep, const char *s)
{
	size_t u = strlen(buf);
	if (u + 4 >= len)
		return;
	int n = snprintf(buf + u, len - u, "%s%s", u ? sep : "", s);
	if (n < 0 || (size_t)n >= len - u)
		snprintf(buf + len - 4, 4, "...");
}

static bool word_in(const char *list, const char *w)
{
	size_t wl = strlen(w);
	for (const char *p = strstr(list, w); p; p = strstr(p + 1, w))
		if ((p == list || (p[-1] == ' ' && p[-2] == ',')) &&
		    (p[wl] == '\0' || p[wl] == ','))
			return true;
	return false;
}

void env_report_facts(struct ci_report *r, const struct env_class *c)
{
	const struct deployment *d = c->dep;
	struct fact_acc *f = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < d->n_svcs; i++) {
		const struct service *s = &d->svcs[i];
		for (size_t k = 0; k < s->env.n; k++) {
			const struct env_var *v = &s->env.v[k];
			if (!v->name ||
			    (!redact_is_transport_name(v->name) && !varcat_lookup(v->name)))
				continue;
			const char *val = v->value_from
						  ? v->value_from
						  : redact_value(v->name, v->value ? v->value : "");
			struct fact_acc *hit = NULL;
			for (size_t j = 0; j < n && !hit; j++)
				if (!strcmp(f[j].name, v->name) && !strcmp(f[j].value, val))
					hit = &f[j];
			if (!hit) {
				hit = XPUSH(f, n, cap);
				memset(hit, 0, sizeof(*hit));
				hit->name = xstrdup(v->name);
				hit->value = xstrdup(val);
			}
			const char *sn = s->label ? s->label : s->name ? s->name : "(unnamed)";
			if (!word_in(hit->svcs, sn))
				append(hit->svcs, sizeof(hit->svcs), ", ", sn);
			char loc[192];
			if (v->loc.file && v->loc.line)
				snprintf(loc, sizeof(loc), "%s:%d%s", v->loc.file, v->loc.line,
					 origin_word(v->origin));
			else if (v->loc.file) /* a live object: its name is the place */
				snprintf(loc, sizeof(loc), "%s%s", v->loc.file,
					 origin_word(v->origin));
			else
				snprintf(loc, sizeof(loc), "?%s", origin_word(v->origin));
			if (!strstr(hit->src, loc)) {
				if (hit->n_src < 3)
					append(hit->src, sizeof(hit->src), ", ", loc);
				else if (hit->n_src == 3)
					append(hit->src, sizeof(hit->src), ", ", "...");
				hit->n_src++;
			}
		}
	}
	/* Values of one name together, in order of first appearance. */
	bool *done = xcalloc(n ? n : 1, sizeof(bool));
	for (size_t j = 0; j < n; j++)
		for (size_t k = j; k < n; k++) {
			if (done[k] || strcmp(f[k].name, f[j].name))
				continue;
			done[k] = true;
			char *subj = xasprintf("%s: %s", c->label, f[k].svcs);
			report_add_fact(r, f[k].name, f[k].value, subj, f[k].src);
			free(subj);
		}
	for (size_t j = 0; j < n; j++) {
		free(f[j].name);
		free(f[j].value);
	}
	free(done);
	free(f);
}
