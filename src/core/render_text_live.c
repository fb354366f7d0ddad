/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The live section in text: the path first (what the evidence shows), then
 * the evidence it rests on.  Short by default (totals, the transports by
 * name, descriptors grouped); -v lists every library, descriptor, port and
 * interface.  Everything in it comes from the worker: sanitised by
 * render_text_wrap().
 */
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/report_live.h"
#include "core/strbuf.h"
#include "core/render.h"

#define LABEL_COL 16

static void row(FILE *out, int base, const char *label, const char *text)
{
	fprintf(out, "%*s  %-*s", base, "", LABEL_COL - 1, label);
	render_text_wrap(out, text, base + 2 + LABEL_COL - 1, base + 2 + LABEL_COL - 1);
}

static void process_row(FILE *out, int base, const struct ci_live *l)
{
	struct strbuf sb = STRBUF_INIT;
	if (!l->found) {
		strbuf_addf(&sb, "none found%s%s", l->why ? ": " : "", l->why ? l->why : "");
	} else {
		strbuf_addf(&sb, "%d", l->pid);
		if (l->engine)
			strbuf_addf(&sb, " %s", l->engine);
		if (l->comm)
			strbuf_addf(&sb, " (comm %s)", l->comm);
		if (l->how)
			strbuf_addf(&sb, ", found by %s",
				    !strcmp(l->how, "nixl")   ? "the NIXL plugin it mapped"
				    : !strcmp(l->how, "pid1") ? "being pid 1"
							      : "its command line");
		if (!l->readable)
			strbuf_addf(&sb, "; not readable: %s",
				    l->why ? l->why : "permission denied");
	}
	row(out, base, "process", sb.buf);
	strbuf_release(&sb);
}

/* "libuct_cuda_gdrcopy.so.0.0.0" -> "cuda_gdrcopy"; NULL for other UCX libraries. */
static char *transport_of(const char *b)
{
	if (strncmp(b, "libuct_", 7))
		return NULL;
	const char *end = strstr(b, ".so");
	size_t n = end ? (size_t)(end - b) - 7 : strlen(b + 7);
	char *t = malloc(n + 1);
	if (t) {
		memcpy(t, b + 7, n);
		t[n] = '\0';
	}
	return t;
}

static void ucx_row(FILE *out, int base, const struct ci_live *l, bool verbose)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < l->ucx_modules.n; i++) {
		if (verbose) {
			strbuf_joinstr(&sb, ", ", l->ucx_modules.v[i]);
			continue;
		}
		char *t = transport_of(l->ucx_modules.v[i]);
		if (t)
			strbuf_joinstr(&sb, ", ", t);
		free(t);
	}
	if (!sb.len)
		strbuf_addstr(&sb, verbose || !l->ucx_modules.n ? "no UCX library mapped"
								: "no UCX transport module mapped");
	for (size_t i = 0; i < l->ucx_dirs.n; i++)
		strbuf_addf(&sb, "%s%s", i ? " and " : "; from ", l->ucx_dirs.v[i]);
	row(out, base, verbose ? "UCX" : "UCX transports", sb.buf);
	strbuf_release(&sb);
}

/* "/dev/infiniband/uverbs0".."3" -> "/dev/infiniband/uverbs* (4)". */
static void grouped(struct strbuf *sb, const struct ci_strv *sv)
{
	bool *done = calloc(sv->n ? sv->n : 1, sizeof(*done));
	if (!done)
		return;
	for (size_t i = 0; i < sv->n; i++) {
		if (done[i])
			continue;
		const char *p = sv->v[i];
		size_t stem = strlen(p);
		while (stem && p[stem - 1] >= '0' && p[stem - 1] <= '9')
			stem--;
		size_t n = 0;
		for (size_t j = i; j < sv->n; j++) {
			const char *q = sv->v[j];
			size_t qs = strlen(q);
			while (qs && q[qs - 1] >= '0' && q[qs - 1] <= '9')
				qs--;
			if (!done[j] && qs == stem && !strncmp(p, q, stem)) {
				done[j] = true;
				n++;
			}
		}
		if (n > 1)
			strbuf_joinf(sb, ", ", "%.*s* (%zu)", (int)stem, p, n);
		else
			strbuf_joinstr(sb, ", ", p);
	}
	free(done);
}

static void window_rows(FILE *out, int base, const struct ci_live *l, bool verbose)
{
	char a[BYTES_STR_LEN], b[BYTES_STR_LEN];
	struct strbuf sb = STRBUF_INIT;
	if (!l->observed) {
		row(out, base, "window",
		    "not observed (run with --observe SECONDS while requests flow)");
		return;
	}
	uint64_t tx = 0, rx = 0;
	for (size_t i = 0; i < l->n_ports; i++) {
		tx += l->ports[i].tx;
		rx += l->ports[i].rx;
	}
	strbuf_addf(&sb, "%.0f ms (%s)", l->seconds * 1000,
		    l->measured ? "first sample to last" : "as asked: the samples carry no clock");
	row(out, base, "window", sb.buf);
	if (l->spoiled)
		row(out, base, "left out", l->spoiled);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "sent %s, received %s", bytes_str(tx, a, sizeof(a)),
		    bytes_str(rx, b, sizeof(b)));
	if (!l->n_ports)
		strbuf_addstr(&sb, " (no RDMA port counters read)");
	row(out, base, "RDMA ports", sb.buf);
	if (verbose)
		for (size_t i = 0; i < l->n_ports; i++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s/%u: sent %s, received %s", l->ports[i].name,
				    l->ports[i].port, bytes_str(l->ports[i].tx, a, sizeof(a)),
				    bytes_str(l->ports[i].rx, b, sizeof(b)));
			row(out, base, "", sb.buf);
		}
	tx = rx = 0;
	for (size_t i = 0; i < l->n_ifs; i++) {
		tx += l->ifs[i].tx;
		rx += l->ifs[i].rx;
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "sent %s, received %s (kernel TCP/IP, loopback excluded)",
		    bytes_str(tx, a, sizeof(a)), bytes_str(rx, b, sizeof(b)));
	row(out, base, "interfaces", sb.buf);
	if (verbose)
		for (size_t i = 0; i < l->n_ifs; i++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s: sent %s, received %s", l->ifs[i].name,
				    bytes_str(l->ifs[i].tx, a, sizeof(a)),
				    bytes_str(l->ifs[i].rx, b, sizeof(b)));
			row(out, base, "", sb.buf);
		}
	if (l->have_lo) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "sent %s, received %s (TCP within the pod)",
			    bytes_str(l->lo_tx, a, sizeof(a)), bytes_str(l->lo_rx, b, sizeof(b)));
		row(out, base, "loopback", sb.buf);
	}
	strbuf_reset(&sb);
	if (l->nixl) {
		strbuf_addf(&sb, "sent %s, received %s, errors +%.0f",
			    bytes_str_d(l->nixl_tx, a, sizeof(a)),
			    bytes_str_d(l->nixl_rx, b, sizeof(b)), l->nixl_errors);
		for (size_t i = 0; i < l->n_errors; i++)
			strbuf_addf(&sb, "%s%s +%.0f", i ? ", " : " (", l->errors[i].status,
				    l->errors[i].delta);
		if (l->n_errors)
			strbuf_addch(&sb, ')');
	} else {
		strbuf_addf(&sb, "no telemetry: %s", l->nixl_why ? l->nixl_why : "not read");
	}
	row(out, base, "NIXL counters", sb.buf);
	strbuf_release(&sb);
}

void render_text_live(FILE *out, const struct ci_report *r, const struct render_opts *o, int base)
{
	const struct ci_live *l = r->live;
	if (!l)
		return;
	fprintf(out, "\n%*sLive evidence (what the serving process did):\n", base, "");
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s: %s", ci_live_path_name(l->path), l->conclusion);
	row(out, base, "path", sb.buf);
	process_row(out, base, l);
	if (l->found && l->readable) {
		strbuf_reset(&sb);
		for (size_t i = 0; i < l->plugins.n; i++)
			strbuf_joinstr(&sb, ", ", l->plugins.v[i]);
		row(out, base, "NIXL plugins", sb.len ? sb.buf : "none mapped");
		ucx_row(out, base, l, o->verbose);
		if (l->libfabric || o->verbose)
			row(out, base, "libfabric", l->libfabric ? l->libfabric : "not mapped");
		strbuf_reset(&sb);
		for (size_t i = 0; i < l->providers.n; i++)
			strbuf_joinstr(&sb, ", ", l->providers.v[i]);
		row(out, base, "providers", sb.len ? sb.buf : "none mapped");
		strbuf_reset(&sb);
		if (o->verbose)
			for (size_t i = 0; i < l->descriptors.n; i++)
				strbuf_joinstr(&sb, ", ", l->descriptors.v[i]);
		else
			grouped(&sb, &l->descriptors);
		row(out, base, "descriptors",
		    sb.len ? sb.buf : "no RDMA, GDRCopy, IMEX or GPU device open");
	}
	strbuf_release(&sb);
	window_rows(out, base, l, o->verbose);
}
