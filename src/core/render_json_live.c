/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The live section as JSON ("live" in a report; schema $defs/live): every
 * list is there, empty when nothing was seen, and "window" is null when
 * nothing was observed, so that a reader never guesses from absence.
 */
#include <jansson.h>

#include "core/report_live.h"
#include "core/render_json.h"

static json_t *strv_json(const struct ci_strv *sv)
{
	json_t *a = json_array();
	for (size_t i = 0; i < sv->n; i++)
		json_array_append_new(a, render_json_string(sv->v[i]));
	return a;
}

static json_t *opt_string(const char *s)
{
	return s ? render_json_string(s) : json_null();
}

static json_t *bytes_json(const struct ci_live_bytes *v, size_t n, bool ports)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, ports ? "device" : "name", render_json_string(v[i].name));
		if (ports)
			json_object_set_new(o, "port", json_integer((json_int_t)v[i].port));
		/* json_int_t is signed 64-bit: a counter delta beyond 2^63 is not
		 * a real window's; clamp rather than wrap. */
		json_object_set_new(
			o, "tx_bytes",
			json_integer(v[i].tx > INT64_MAX ? INT64_MAX : (json_int_t)v[i].tx));
		json_object_set_new(
			o, "rx_bytes",
			json_integer(v[i].rx > INT64_MAX ? INT64_MAX : (json_int_t)v[i].rx));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *window_json(const struct ci_live *l)
{
	if (!l->observed)
		return json_null();
	json_t *w = json_object();
	json_object_set_new(w, "seconds", json_real(l->seconds));
	json_object_set_new(w, "milliseconds", json_integer((json_int_t)(l->seconds * 1000 + 0.5)));
	json_object_set_new(w, "measured", json_boolean(l->measured));
	if (l->have_lo)
		json_object_set_new(
			w, "loopback",
			json_pack("{s:I,s:I}", "tx_bytes",
				  (json_int_t)(l->lo_tx > INT64_MAX ? INT64_MAX : l->lo_tx),
				  "rx_bytes",
				  (json_int_t)(l->lo_rx > INT64_MAX ? INT64_MAX : l->lo_rx)));
	else
		json_object_set_new(w, "loopback", json_null());
	json_object_set_new(w, "spoiled", opt_string(l->spoiled));
	json_object_set_new(w, "rdma_ports", bytes_json(l->ports, l->n_ports, true));
	json_object_set_new(w, "interfaces", bytes_json(l->ifs, l->n_ifs, false));
	if (l->nixl) {
		json_t *errs = json_array();
		for (size_t i = 0; i < l->n_errors; i++)
			json_array_append_new(errs,
					      json_pack("{s:o,s:f}", "status",
							render_json_string(l->errors[i].status),
							"delta", l->errors[i].delta));
		json_object_set_new(w, "nixl",
				    json_pack("{s:f,s:f,s:f,s:o}", "tx_bytes", l->nixl_tx,
					      "rx_bytes", l->nixl_rx, "errors_total",
					      l->nixl_errors, "errors", errs));
	} else {
		json_object_set_new(w, "nixl", json_null());
	}
	json_object_set_new(w, "nixl_why", opt_string(l->nixl_why));
	return w;
}

json_t *render_json_live(const struct ci_live *l)
{
	json_t *j = json_object();
	json_t *p = json_object();
	json_object_set_new(p, "found", json_boolean(l->found));
	json_object_set_new(p, "readable", json_boolean(l->readable));
	json_object_set_new(p, "pid", l->found ? json_integer(l->pid) : json_null());
	json_object_set_new(p, "engine", opt_string(l->engine));
	json_object_set_new(p, "comm", opt_string(l->comm));
	json_object_set_new(p, "found_by", opt_string(l->how));
	json_object_set_new(p, "why", opt_string(l->why));
	json_object_set_new(j, "process", p);
	json_object_set_new(j, "nixl_plugins", strv_json(&l->plugins));
	json_object_set_new(j, "ucx",
			    json_pack("{s:o,s:o}", "modules", strv_json(&l->ucx_modules), "paths",
				      strv_json(&l->ucx_dirs)));
	json_object_set_new(j, "libfabric", opt_string(l->libfabric));
	json_object_set_new(j, "providers", strv_json(&l->providers));
	json_object_set_new(j, "descriptors", strv_json(&l->descriptors));
	json_object_set_new(j, "window", window_json(l));
	json_object_set_new(j, "path", json_string(ci_live_path_name(l->path)));
	json_object_set_new(j, "conclusion", render_json_string(l->conclusion));
	return j;
}
