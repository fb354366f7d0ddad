/* SPDX-License-Identifier: Apache-2.0 */
/*
 * node_facts_read(): one pass over the transcript's sections, each handed to
 * the pure parser for its tool (src/parse).  Nothing here judges: a reading
 * that could not be made is recorded as such, with the reason, so that the
 * checks can say `skipped` instead of guessing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/redact.h"
#include "core/xalloc.h"
#include "node/facts_internal.h"
#include "node/sections.h"
#include "parse/env_section.h"
#include "parse/ibv_devinfo.h"
#include "parse/limits.h"
#include "parse/lines.h"
#include "parse/modules.h"
#include "parse/mounts.h"
#include "parse/proc_status.h"
#include "parse/smi_csv.h"
#include "parse/smi_error.h"

void node_facts_init(struct node_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->kernel_major = f->kernel_minor = -1;
	live_facts_init(&f->live);
	f->ibverbs_abi = -1;
}

void node_facts_release(struct node_facts *f)
{
	for (size_t i = 0; i < f->n_devs; i++) {
		struct node_rdma_dev *d = &f->devs[i];
		free(d->name);
		free(d->fw_ver);
		free(d->hca_type);
		free(d->board_id);
		for (size_t j = 0; j < d->n_netdevs; j++)
			free(d->netdevs[j]);
		for (size_t j = 0; j < d->n_ports; j++)
			free(d->ports[j].gids);
	}
	for (size_t i = 0; i < f->n_ifs; i++) {
		free(f->ifs[i].name);
		free(f->ifs[i].operstate);
	}
	for (size_t i = 0; i < f->n_env; i++) {
		free(f->env[i].name);
		free(f->env[i].value);
	}
	live_facts_release(&f->live);
	free(f->kernel);
	free(f->nv_version_line);
	free(f->gpu_name);
	free(f->driver_version);
	free(f->gdrdrv_version);
	free(f->dmi_vendor);
	free(f->dmi_product);
	free(f->gdrapi_version);
	free(f->efa_installer);
	free(f->efa_pkg_libfabric);
	free(f->efa_pkg_ofi_nccl);
	free(f->nixl_pkg_version);
	free(f->ucp_system);
	free(f->ucp_wheel);
	free(f->wheel_uct_dir);
	if (f->smi_topo_t.state == TOOL_OK)
		smi_topo_release(&f->topo);
	if (f->smi_nvlink_t.state == TOOL_OK)
		smi_nvlink_release(&f->nvlink);
	if (f->smi_q_t.state == TOOL_OK)
		smi_query_release(&f->q);
	if (f->fi_t.state == TOOL_OK)
		fi_info_release(&f->fi);
	if (f->p2p_t.state == TOOL_OK)
		smi_p2p_release(&f->p2p);
	for (size_t i = 0; i < f->ibv_n; i++)
		free(f->ibv_names[i]);
	node_facts_init(f);
}

/* First non-blank line of a body, for "why" texts. */
static void first_line(const char *body, size_t len, char *out, size_t outlen)
{
	out[0] = '\0';
	struct lines it;
	lines_init(&it, body, len);
	char *l;
	while ((l = lines_next(&it))) {
		l = str_trim(l);
		if (*l) {
			snprintf(out, outlen, "%s", l);
			break;
		}
	}
	lines_release(&it);
}

void node_tool_state(const struct section *s, const char *tool, struct tool_out *out)
{
	memset(out, 0, sizeof(*out));
	if (!s) {
		out->state = TOOL_ABSENT;
		snprintf(out->why, sizeof(out->why), "the probe did not run %s", tool);
		return;
	}
	out->rc = s->rc;
	out->capped = s->capped;
	if (s->missing) {
		out->state = TOOL_MISSING;
		snprintf(out->why, sizeof(out->why), "%s is not on PATH in this image", tool);
	} else if (s->timed_out) {
		out->state = TOOL_TIMEOUT;
		snprintf(out->why, sizeof(out->why), "%s did not answer within 5 s", tool);
	} else if (s->rc != 0) {
		char l[100];
		first_line(s->body, s->len, l, sizeof(l));
		out->state = TOOL_FAILED;
		snprintf(out->why, sizeof(out->why), "%s failed (exit %d)%s%s", tool, s->rc,
			 *l ? ": " : "", l);
	} else {
		out->state = TOOL_OK;
	}
}

/* A tool section the probe cut at its cap: what is missing cannot be
 * told, so every check that reads it says so and judges nothing from the
 * part it has (a cut listing is never evidence of absence).  nixl reads
 * ucx_info's cut listing itself (nixl.ucx.*: a critical skip). */
static bool whole(struct tool_out *o, const char *tool)
{
	if (o->state != TOOL_OK || !o->capped)
		return true;
	o->state = TOOL_FAILED;
	snprintf(o->why, sizeof(o->why),
		 "the probe cut the output of %s at its cap: what is missing cannot be told", tool);
	return false;
}

void node_note_module(struct node_facts *f, const char *name)
{
	if (!strcmp(name, "nvidia_peermem"))
		f->mod_nvidia_peermem = true;
	else if (!strcmp(name, "nv_peer_mem"))
		f->mod_nv_peer_mem = true;
	else if (!strcmp(name, "efa_nv_peermem"))
		f->mod_efa_peermem = true;
	else if (!strcmp(name, "gdrdrv"))
		f->mod_gdrdrv = true;
	else if (!strcmp(name, "nvidia"))
		f->mod_nvidia = true;
	else if (!strcmp(name, "ib_uverbs"))
		f->mod_ib_uverbs = true;
	else if (!strcmp(name, "efa"))
		f->mod_efa = true;
}

static void read_meta(struct node_facts *f, const struct section *s)
{
	if (!s)
		return;
	struct lines it;
	lines_init(&it, s->body, s->len);
	char *l;
	while ((l = lines_next(&it))) {
		char *k, *v;
		if (!str_kv(l, '=', &k, &v))
			continue;
		if (!strcmp(k, "root")) {
			f->sysroot = !strcmp(v, "sysroot");
		} else if (!strcmp(k, "gids")) {
			f->gids_all = !strcmp(v, "all");
		} else if (!strcmp(k, "kernel") && *v && !f->kernel) {
			f->kernel = xstrdup(v);
			int ma, mi;
			if (sscanf(v, "%d.%d", &ma, &mi) == 2 && ma >= 0 && ma < 1000 && mi >= 0 &&
			    mi < 1000) {
				f->kernel_major = ma;
				f->kernel_minor = mi;
			}
		}
	}
	lines_release(&it);
}

static void read_modules(struct node_facts *f, const struct section *s)
{
	if (!s || s->missing)
		return;
	struct modules m;
	memset(&m, 0, sizeof(m));
	if (modules_parse(s->body, s->len, &m) == 0) {
		f->have_modules = true;
		for (size_t i = 0; i < m.n; i++)
			node_note_module(f, m.v[i].name);
	}
	modules_release(&m);
}

static void read_nv_version(struct node_facts *f, const struct section *s)
{
	if (!s || s->missing || !s->len)
		return;
	char l[200];
	first_line(s->body, s->len, l, sizeof(l));
	if (!*l)
		return;
	f->have_nv_version = true;
	f->nv_version_line = xstrdup(l);
	/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.133.20 ..." */
	f->open_module = str_icontains(s->body, "Open Kernel Module") != NULL;
}

/* The worker's limit is pid 1's (the container's main process, what the
 * engine runs as or under); the exec shell's is only the fallback, since a
 * runtime or an entrypoint may have changed pid 1's with `ulimit -l`. */
static bool read_proc_limits(struct node_facts *f, const struct section *s, const char *src)
{
	struct limits l;
	bool ok = false;
	if (!s || s->missing)
		return false;
	memset(&l, 0, sizeof(l));
	if (limits_parse(s->body, s->len, &l) == 0 && l.have_proc) {
		f->have_memlock = f->have_memlock_hard = true;
		f->memlock_soft = l.memlock_soft;
		f->memlock_hard = l.memlock_hard;
		snprintf(f->memlock_source, sizeof(f->memlock_source), "%s", src);
		ok = true;
	}
	limits_release(&l);
	return ok;
}

static void read_limits(struct node_facts *f, const struct transcript *t)
{
	if (read_proc_limits(f, transcript_get(t, SEC_PID1_LIMITS), "/proc/1/limits")) {
		f->memlock_pid1 = true;
		return;
	}
	const struct section *s = transcript_get(t, SEC_LIMITS);
	struct limits l;
	if (s && !s->missing) {
		memset(&l, 0, sizeof(l));
		if (limits_parse(s->body, s->len, &l) == 0 && l.have_proc) {
			f->have_memlock = f->have_memlock_hard = true;
			f->memlock_soft = l.memlock_soft;
			f->memlock_hard = l.memlock_hard;
			snprintf(f->memlock_source, sizeof(f->memlock_source), "/proc/self/limits");
		}
		limits_release(&l);
		if (f->have_memlock)
			return;
	}
	s = transcript_get(t, SEC_ULIMIT_L);
	if (s) {
		memset(&l, 0, sizeof(l));
		if (limits_parse(s->body, s->len, &l) == 0 && l.have_memlock) {
			f->have_memlock = true;
			f->memlock_soft = l.memlock;
			snprintf(f->memlock_source, sizeof(f->memlock_source), "ulimit -l");
		}
		limits_release(&l);
	}
	s = transcript_get(t, SEC_ULIMIT_HL);
	if (s && f->have_memlock) {
		memset(&l, 0, sizeof(l));
		if (limits_parse(s->body, s->len, &l) == 0 && l.have_memlock) {
			f->have_memlock_hard = true;
			f->memlock_hard = l.memlock;
		}
		limits_release(&l);
	}
}

static bool read_caps(struct node_facts *f, const struct section *s, const char *src)
{
	bool ok = false;
	if (!s || s->missing)
		return false;
	struct proc_status ps;
	memset(&ps, 0, sizeof(ps));
	if (proc_status_parse(s->body, s->len, &ps) == 0 && ps.have_caps) {
		f->have_caps = true;
		f->cap_eff = ps.cap_eff;
		snprintf(f->caps_source, sizeof(f->caps_source), "%s", src);
		ok = true;
	}
	proc_status_release(&ps);
	return ok;
}

static void read_shm(struct node_facts *f, const struct transcript *t)
{
	const struct section *s = transcript_get(t, SEC_MOUNTS);
	if (s && !s->missing) {
		struct mounts m;
		memset(&m, 0, sizeof(m));
		if (mounts_parse(s->body, s->len, &m) == 0) {
			const struct mount_entry *e = mounts_find(&m, "/dev/shm");
			if (e) {
				f->have_shm = true;
				if (mount_size_option(e, &f->shm_bytes)) {
					f->shm_size_known = true;
					snprintf(f->shm_how, sizeof(f->shm_how),
						 "%s size option in /proc/mounts",
						 e->fstype ? e->fstype : "mount");
				} else {
					snprintf(f->shm_how, sizeof(f->shm_how),
						 "%s without a size option",
						 e->fstype ? e->fstype : "mount");
				}
			}
		}
		mounts_release(&m);
	}
	if (f->shm_size_known)
		return;
	s = transcript_get(t, SEC_DF_SHM);
	if (s && !s->missing && s->rc == 0) {
		struct df d;
		memset(&d, 0, sizeof(d));
		if (df_parse(s->body, s->len, &d) == 0) {
			const struct df_entry *e = df_find(&d, "/dev/shm");
			if (e && e->size_bytes) {
				f->have_shm = f->shm_size_known = true;
				f->shm_bytes = e->size_bytes;
				snprintf(f->shm_how, sizeof(f->shm_how), "df -k /dev/shm");
			}
		}
		df_release(&d);
	}
}

/* One variable per transcript line, and nothing else splits one
 * (parse/env_section.h splits at LF only): a CR, ESC or any other byte
 * inside a value stays inside it, escaped \xHH as the script writes it, and
 * can never start a variable of its own.  The pod-side filter is applied
 * again here, so a hand-edited transcript (--replay) shows no more than a
 * pod would: transport names only, secrets and URL credentials redacted
 * (core/redact.h). */
static void env_add(struct node_facts *f, const struct section *s, const char *source)
{
	if (!s || s->missing)
		return;
	f->have_env = true;
	struct env_section e;
	env_section_parse(s->body, s->len, &e);
	for (size_t i = 0; i < e.n && f->n_env < NODE_MAX_ENV; i++) {
		const char *name = e.v[i].name;
		if (!redact_is_transport_name(name) || node_env_get(f, name))
			continue; /* pid 1 first: it is what the worker really runs with */
		struct node_env_var *v = &f->env[f->n_env++];
		v->name = e.v[i].name;
		v->value = redact_value_dup(name, e.v[i].value);
		v->source = source;
		e.v[i].name = NULL;
	}
	env_section_release(&e);
}

/* nvidia-smi: a zero exit with an error text still means no answer. */
static void smi_state(const struct section *s, const char *what, struct tool_out *o)
{
	node_tool_state(s, what, o);
	if (o->state == TOOL_OK || o->state == TOOL_FAILED) {
		enum smi_error e = smi_error_classify(s->body, s->len);
		if (e != SMI_OK) {
			o->state = e == SMI_MISSING_TOOL ? TOOL_MISSING : TOOL_FAILED;
			char l[100];
			first_line(s->body, s->len, l, sizeof(l));
			snprintf(o->why, sizeof(o->why), "nvidia-smi: %s (%s)", smi_error_name(e),
				 l);
		}
	}
}

static void read_gpus(struct node_facts *f, const struct transcript *t)
{
	/* Transcripts of earlier scripts have a --query-gpu section; the
	 * script now takes the same answers (count, name, driver) from -q. */
	const struct section *s = transcript_get(t, SEC_SMI_QUERY);
	bool query_from_q = !s;
	smi_state(s, "nvidia-smi", &f->smi_query_t);
	if (f->smi_query_t.state == TOOL_OK) {
		struct smi_csv c;
		memset(&c, 0, sizeof(c));
		if (smi_csv_parse(s->body, s->len, &c) == 0) {
			f->n_gpus = c.nrows;
			f->gpus_known = true;
			const char *name = smi_csv_field(&c, 0, 1);
			const char *drv = smi_csv_field(&c, 0, 3);
			if (name && *name)
				f->gpu_name = xstrdup(name);
			if (drv && *drv && !smi_is_na(drv))
				f->driver_version = xstrdup(drv);
		} else {
			f->smi_query_t.state = TOOL_FAILED;
			snprintf(f->smi_query_t.why, sizeof(f->smi_query_t.why),
				 "nvidia-smi --query-gpu printed nothing readable");
		}
		smi_csv_release(&c);
	}

	s = transcript_get(t, SEC_SMI_TOPO);
	smi_state(s, "nvidia-smi", &f->smi_topo_t);
	if (f->smi_topo_t.state == TOOL_OK) {
		memset(&f->topo, 0, sizeof(f->topo));
		if (smi_topo_parse(s->body, s->len, &f->topo) != 0) {
			smi_topo_release(&f->topo);
			f->smi_topo_t.state = TOOL_FAILED;
			snprintf(f->smi_topo_t.why, sizeof(f->smi_topo_t.why),
				 "nvidia-smi topo -m printed no matrix");
		} else if (!f->gpus_known && f->topo.ngpus) {
			f->n_gpus = f->topo.ngpus;
			f->gpus_known = true;
		}
	}

	s = transcript_get(t, SEC_SMI_NVLINK);
	smi_state(s, "nvidia-smi", &f->smi_nvlink_t);
	if (f->smi_nvlink_t.state == TOOL_OK) {
		memset(&f->nvlink, 0, sizeof(f->nvlink));
		if (smi_nvlink_parse(s->body, s->len, &f->nvlink) != 0) {
			smi_nvlink_release(&f->nvlink);
			f->smi_nvlink_t.state = TOOL_FAILED;
			snprintf(f->smi_nvlink_t.why, sizeof(f->smi_nvlink_t.why),
				 "nvidia-smi nvlink -s printed nothing readable");
		}
	}

	s = transcript_get(t, SEC_SMI_Q);
	smi_state(s, "nvidia-smi", &f->smi_q_t);
	if (f->smi_q_t.state == TOOL_OK) {
		memset(&f->q, 0, sizeof(f->q));
		if (smi_query_parse(s->body, s->len, &f->q) != 0) {
			smi_query_release(&f->q);
			f->smi_q_t.state = TOOL_FAILED;
			snprintf(f->smi_q_t.why, sizeof(f->smi_q_t.why),
				 "nvidia-smi -q printed nothing readable");
		} else {
			if (!f->driver_version && f->q.driver_version &&
			    !smi_is_na(f->q.driver_version))
				f->driver_version = xstrdup(f->q.driver_version);
			if (!f->gpus_known && f->q.attached_gpus > 0) {
				f->n_gpus = (size_t)f->q.attached_gpus;
				f->gpus_known = true;
			}
			if (!f->gpu_name && f->q.ngpus && f->q.gpus[0].product_name)
				f->gpu_name = xstrdup(f->q.gpus[0].product_name);
		}
	}
	if (query_from_q)
		f->smi_query_t = f->smi_q_t;
	if (!f->gpus_known)
		f->n_gpus = f->n_dev_gpus;
}

static void read_efa(struct node_facts *f, const struct section *s)
{
	node_tool_state(s, "fi_info", &f->fi_t);
	/* fi_info exits non-zero with "fi_getinfo: -61" when no EFA: that is an
	 * answer, not a failure. */
	if (f->fi_t.state != TOOL_OK && f->fi_t.state != TOOL_FAILED)
		return;
	memset(&f->fi, 0, sizeof(f->fi));
	if (fi_info_parse(s->body, s->len, &f->fi) == 0) {
		f->fi_t.state = TOOL_OK;
	} else {
		fi_info_release(&f->fi);
		if (f->fi_t.state == TOOL_OK) {
			f->fi_t.state = TOOL_FAILED;
			snprintf(f->fi_t.why, sizeof(f->fi_t.why),
				 "fi_info printed nothing readable");
		}
	}
}

static void read_ibv(struct node_facts *f, const struct section *s)
{
	node_tool_state(s, "ibv_devinfo", &f->ibv_t);
	/* It exits non-zero after "No IB devices found": an answer. */
	if (f->ibv_t.state != TOOL_OK && f->ibv_t.state != TOOL_FAILED)
		return;
	struct ibv_devinfo d;
	if (ibv_devinfo_parse(s->body, s->len, &d) == 0) {
		f->ibv_t.state = TOOL_OK;
		for (size_t i = 0; i < d.ndevs && f->ibv_n < NODE_MAX_DEVS; i++) {
			const struct ibv_device *dv = &d.devs[i];
			if (!dv->hca_id)
				continue;
			f->ibv_names[f->ibv_n++] = xstrdup(dv->hca_id);
			/* libibverbs' MTU per port: sysfs has no active_mtu file */
			struct node_rdma_dev *nd = NULL;
			for (size_t k = 0; k < f->n_devs && !nd; k++)
				if (!strcmp(f->devs[k].name, dv->hca_id))
					nd = &f->devs[k];
			for (size_t p = 0; nd && p < dv->nports; p++)
				for (size_t q = 0; q < nd->n_ports; q++)
					if (nd->ports[q].num == dv->ports[p].num) {
						nd->ports[q].active_mtu = dv->ports[p].active_mtu;
						nd->ports[q].max_mtu = dv->ports[p].max_mtu;
					}
		}
		f->ibv_no_driver = d.no_driver_warnings;
	} else if (f->ibv_t.state == TOOL_OK) {
		f->ibv_t.state = TOOL_FAILED;
		snprintf(f->ibv_t.why, sizeof(f->ibv_t.why),
			 "ibv_devinfo printed nothing readable");
	}
	ibv_devinfo_release(&d);
}

void node_facts_read(struct node_facts *f, const struct transcript *t)
{
	f->valid = t->valid;
	f->complete = t->complete;
	read_meta(f, transcript_get(t, SEC_META));
	node_read_sys(f, transcript_get(t, SEC_SYS));
	node_read_second_sample(f, transcript_get(t, SEC_COUNTERS2));
	node_read_dev(f, transcript_get(t, SEC_DEV));
	read_modules(f, transcript_get(t, SEC_MODULES));
	read_nv_version(f, transcript_get(t, SEC_NV_VERSION));
	read_limits(f, t);
	if (!read_caps(f, transcript_get(t, SEC_PID1_STATUS), "/proc/1/status"))
		(void)read_caps(f, transcript_get(t, SEC_STATUS), "/proc/self/status");
	read_shm(f, t);
	env_add(f, transcript_get(t, SEC_ENV_PID1), "pid 1 environment");
	env_add(f, transcript_get(t, SEC_ENV_EXEC), "exec shell environment");
	read_gpus(f, t);
	read_ibv(f, transcript_get(t, SEC_IBV_DEVINFO));
	read_efa(f, transcript_get(t, SEC_FI_INFO_EFA));
	live_facts_read(&f->live, t);
	node_read_stack(f, t);
	/* what a cut section was parsed into goes with it (node_facts_release
	 * frees only what an OK section holds) */
	(void)whole(&f->smi_query_t, "nvidia-smi --query-gpu");
	(void)whole(&f->ibv_t, "ibv_devinfo");
	if (!whole(&f->smi_q_t, "nvidia-smi -q")) {
		smi_query_release(&f->q);
		memset(&f->q, 0, sizeof(f->q));
	}
	if (!whole(&f->smi_topo_t, "nvidia-smi topo -m")) {
		smi_topo_release(&f->topo);
		memset(&f->topo, 0, sizeof(f->topo));
	}
	if (!whole(&f->smi_nvlink_t, "nvidia-smi nvlink -s")) {
		smi_nvlink_release(&f->nvlink);
		memset(&f->nvlink, 0, sizeof(f->nvlink));
	}
	if (!whole(&f->p2p_t, "nvidia-smi topo -p2p r")) {
		smi_p2p_release(&f->p2p);
		memset(&f->p2p, 0, sizeof(f->p2p));
	}
	if (!whole(&f->fi_t, "fi_info -p efa")) {
		fi_info_release(&f->fi);
		memset(&f->fi, 0, sizeof(f->fi));
	}
}

/* ---- lookups ---- */

const struct node_rdma_dev *node_find_dev(const struct node_facts *f, const char *name)
{
	for (size_t i = 0; i < f->n_devs; i++)
		if (!strcmp(f->devs[i].name, name))
			return &f->devs[i];
	return NULL;
}

const struct node_netif *node_find_if(const struct node_facts *f, const char *name)
{
	for (size_t i = 0; i < f->n_ifs; i++)
		if (!strcmp(f->ifs[i].name, name))
			return &f->ifs[i];
	return NULL;
}

const char *node_env_get(const struct node_facts *f, const char *name)
{
	for (size_t i = 0; i < f->n_env; i++)
		if (!strcmp(f->env[i].name, name))
			return f->env[i].value;
	return NULL;
}

bool node_port_active(const struct node_port *p)
{
	return (p->state == IB_STATE_ACTIVE || p->state == IB_STATE_ACTIVE_DEFER) &&
	       (p->phys == IB_PHYS_LINKUP || p->phys == IB_PHYS_UNKNOWN);
}

size_t node_count_verbs_devs(const struct node_facts *f)
{
	size_t n = 0;
	for (size_t i = 0; i < f->n_devs; i++)
		n += !f->devs[i].efa;
	return n;
}

size_t node_count_efa_devs(const struct node_facts *f)
{
	return f->n_devs - node_count_verbs_devs(f);
}

bool node_has_gpu(const struct node_facts *f)
{
	return f->n_gpus > 0 || f->n_dev_gpus > 0;
}

bool node_ipc_lock(const struct node_facts *f)
{
	return f->have_caps && proc_status_has_cap(f->cap_eff, CI_CAP_IPC_LOCK);
}

bool node_grace(const struct node_facts *f)
{
	static const char *const grace[] = {"GB200", "GB300", "GH200", "GB10", NULL};
	const char *names[2] = {f->gpu_name, NULL};
	if (f->smi_q_t.state == TOOL_OK && f->q.ngpus)
		names[1] = f->q.gpus[0].product_name;
	for (size_t i = 0; i < 2; i++)
		for (size_t k = 0; names[i] && grace[k]; k++)
			if (str_icontains(names[i], grace[k]))
				return true;
	return false;
}

bool node_mnnvl(const struct node_facts *f)
{
	if (f->smi_q_t.state != TOOL_OK)
		return false;
	for (size_t i = 0; i < f->q.ngpus; i++)
		if (f->q.gpus[i].fabric.present && !smi_fabric_no_cluster(&f->q.gpus[i].fabric))
			return true;
	return false;
}
