/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The per-variable value rules (see env_varrules.h).  Each rule is written
 * for the env verb's reading first (a recipe: the fabric is a guess from
 * the pod spec, KV is assumed to cross pods on GPUs) and says, where it
 * differs, what changes when the fabric is the hardware itself (x->hw): a
 * host without an RDMA device loses nothing to a TCP-only value, so that is
 * not a finding there (node.rdma.devices reports the missing NIC).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"
#include "env/env_analyze.h"
#include "env/env_varrules.h"
#include "rules/ucx.h"

/* The id suffix of each rule; its layer and criticality are the callers'
 * descriptors' (env_desc.c, node_desc.c). */
static const struct {
	const char *suffix;
} rule_info[VR_COUNT] = {
	[VR_UCX_TLS] = {"ucx.tls"},
	[VR_UCX_NET_DEVICES] = {"ucx.net_devices"},
	[VR_UCX_IB_ADDR_TYPE] = {"ucx.ib_addr_type"},
	[VR_UCX_RNDV] = {"ucx.rndv"},
	[VR_NCCL_IB] = {"nccl.ib"},
};

const char *varrule_suffix(enum varrule_id id)
{
	return (unsigned)id < VR_COUNT ? rule_info[id].suffix : "unknown";
}

const struct var_view *var_view_find(const struct var_view *vars, size_t n, const char *name)
{
	const struct var_view *hit = NULL;
	for (size_t i = 0; vars && name && i < n; i++)
		if (vars[i].name && !strcmp(vars[i].name, name))
			hit = &vars[i];
	return hit;
}

static const char *shown(const struct var_view *v)
{
	if (v->shown)
		return v->shown;
	return v->value ? v->value : "";
}

char *var_view_evidence(const struct var_view *v)
{
	if (v->where)
		return xasprintf("%s: %s=%s", v->where, v->name, shown(v));
	return xasprintf("%s=%s", v->name, shown(v));
}

/* ---- result building ---- */

static void ev(struct varrule_res *res, const struct var_view *v)
{
	if (!v || res->n_ev >= sizeof(res->ev) / sizeof(res->ev[0]))
		return;
	for (size_t i = 0; i < res->n_ev; i++)
		if (res->ev[i] == v)
			return;
	res->ev[res->n_ev++] = v;
}

static void note(struct varrule_res *res, enum ci_status st, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void note(struct varrule_res *res, enum ci_status st, const char *fix, const char *fmt, ...)
{
	if (res->n_note >= sizeof(res->note) / sizeof(res->note[0]))
		return;
	struct varrule_note *n = &res->note[res->n_note++];
	n->st = st;
	va_list ap;
	va_start(ap, fmt);
	n->msg = xvasprintf(fmt, ap);
	va_end(ap);
	n->fix = fix ? xstrdup(fix) : NULL;
}

void varrule_res_release(struct varrule_res *res)
{
	for (size_t i = 0; i < res->n_note; i++) {
		free(res->note[i].msg);
		free(res->note[i].fix);
	}
	memset(res, 0, sizeof(*res));
}

static bool nic(const struct varrule_ctx *x)
{
	return x->fabric & (FAB_IB | FAB_ROCE | FAB_EFA);
}

/* The host has no RDMA device, so a value that leaves RDMA out costs
 * nothing there. */
static bool no_nic_here(const struct varrule_ctx *x)
{
	return x->hw && !nic(x);
}

/* ---- UCX_TLS ---- */

/*
 * UCX_CUDA_IPC_ENABLE_MNNVL is a UCX ternary (openucx/ucx
 * src/uct/cuda/cuda_ipc/cuda_ipc_md.c: {"ENABLE_MNNVL", "try", "Enable
 * multi-node NVLINK capabilities.", ... UCS_CONFIG_TYPE_TERNARY}): y/yes/on/1,
 * n/no/off/0, or try/maybe/auto.  Only an explicit "no" turns fabric-handle
 * cuda_ipc off; "try" (the default since UCX 1.18) is not off.
 */
static bool ternary_off(const char *v)
{
	static const char *const no[] = {"n", "no", "off", "0", "false", NULL};
	return v && str_in_ci(v, no);
}

/* UCX_CUDA_IPC_ENABLE_MNNVL=n on MNNVL: cuda_ipc then stays inside one node,
 * so KV between the nodes of the NVLink domain leaves NVLink. */
static void mnnvl_off(const struct var_view *mn, const struct var_view *tls, bool nic_lane,
		      struct varrule_res *res)
{
	ev(res, mn);
	note(res, CI_FAIL,
	     "remove UCX_CUDA_IPC_ENABLE_MNNVL (UCX's default `try` uses MNNVL where the "
	     "ComputeDomain gives it) or set it to y",
	     "UCX_CUDA_IPC_ENABLE_MNNVL=%s turns off multi-node NVLink in UCX's cuda_ipc%s%s%s: "
	     "%s",
	     mn->value, tls ? " (UCX_TLS=" : "", tls && tls->value ? tls->value : "",
	     tls ? " keeps cuda_ipc, but only inside one node)" : "",
	     nic_lane ? "KV between the nodes of the NVLink domain takes the NIC instead of "
			"NVLink"
		      : "KV between the nodes of the NVLink domain leaves NVLink for TCP, or finds "
			"no lane at all");
}

static void rule_ucx_tls(const struct var_view *vars, size_t n, const struct varrule_ctx *x,
			 struct varrule_res *res)
{
	const struct var_view *v = var_view_find(vars, n, "UCX_TLS");
	const struct var_view *mn = var_view_find(vars, n, "UCX_CUDA_IPC_ENABLE_MNNVL");
	bool mn_off = mn && !mn->ref && ternary_off(mn->value);
	bool mnnvl = x->fabric & FAB_MNNVL;
	if ((!v || !v->value) && mnnvl && mn_off) {
		/* UCX_TLS unset keeps cuda_ipc: the knob alone decides */
		mnnvl_off(mn, NULL, nic(x), res);
		return;
	}
	if (!v || !v->value)
		return;
	ev(res, v);
	struct tls_info t;
	ucx_tls_parse(v->value, &t);
	if (t.empty) {
		note(res, CI_WARN, "remove the empty UCX_TLS or list the transports",
		     "UCX_TLS is empty");
	} else if (mnnvl && t.cuda_ipc) {
		if (mn_off) {
			mnnvl_off(mn, v, t.rdma && nic(x), res);
		} else {
			note(res, CI_OK, NULL, "UCX_TLS=%s: cuda_ipc over MNNVL is the fast path",
			     v->value);
		}
	} else if (mnnvl && !t.cuda_ipc) {
		/* With an RDMA NIC UCX still finds a lane (KV over the NIC);
		 * without one GB200 fails with "failed to select lane". */
		enum ci_status st = t.rdma && nic(x) ? CI_WARN : CI_FAIL;
		bool contra = mn && !ternary_off(mn->value) && env_truthy(mn->value);
		if (contra)
			ev(res, mn);
		note(res, st,
		     "on MNNVL use UCX_TLS=cuda_copy,cuda_ipc,tcp with "
		     "UCX_CUDA_IPC_ENABLE_MNNVL=y (or leave UCX_TLS unset)",
		     "UCX_TLS=%s %s cuda_ipc, the MNNVL path%s%s", v->value,
		     t.exclude ? "excludes" : "omits",
		     contra ? " (while UCX_CUDA_IPC_ENABLE_MNNVL=y asks for it)" : "",
		     st == CI_WARN ? ": KV takes the NIC instead of NVLink"
				   : " (GB200 \"failed to select lane\", ai-dynamo/nixl#1110)");
	} else if (!t.rdma && !no_nic_here(x)) {
		note(res, CI_FAIL,
		     "include the RDMA transports, e.g. UCX_TLS=rc_x,rc,cuda_copy,cuda_ipc, "
		     "or leave UCX_TLS unset",
		     "UCX_TLS=%s leaves no RDMA transport (rc, dc, ud, ib): KV between pods goes "
		     "over TCP",
		     v->value);
	} else if (!t.cuda_copy && x->gpu) {
		/* rules/ucx.c: NIXL's memReg refuses VRAM seen as host (one
		 * status with nixl.ucx.filters) */
		const struct ucx_value_rule *vr = ucx_value_rule(UCX_VR_TLS_NO_CUDA_COPY);
		note(res, (enum ci_status)vr->status, vr->fix,
		     "UCX_TLS=%s leaves out cuda_copy: %s", v->value, vr->what);
	} else if (!t.rdma) {
		note(res, CI_OK, NULL,
		     "UCX_TLS=%s leaves out the RDMA transports, and this host "
		     "has no RDMA device for them",
		     v->value);
	} else if (!t.cuda) {
		note(res, CI_OK, NULL, "UCX_TLS=%s keeps RDMA transports (no GPU here)", v->value);
	} else {
		note(res, CI_OK, NULL, "UCX_TLS=%s keeps RDMA and CUDA transports", v->value);
	}
}

/* ---- UCX_NET_DEVICES (form only; the node verb checks each entry exists) ---- */

static void rule_ucx_net_devices(const struct var_view *vars, size_t n, const struct varrule_ctx *x,
				 struct varrule_res *res)
{
	const struct var_view *v = var_view_find(vars, n, "UCX_NET_DEVICES");
	if (!v || !v->value)
		return;
	ev(res, v);
	bool mnnvl = x->fabric & FAB_MNNVL;
	char bad[80];
	unsigned bits = ucx_net_devices_check(v->value, bad, sizeof(bad));
	if ((bits & NETDEV_DYNAMIC) && x->hw) {
		/* In a running pod the shell has already expanded it. */
		note(res, CI_WARN,
		     "expand the value before the engine starts, or list the devices "
		     "(mlx5_0:1,...)",
		     "UCX_NET_DEVICES=%s holds an unexpanded `$` reference: UCX "
		     "takes it as a device name",
		     v->value);
	} else if (bits & NETDEV_DYNAMIC) {
		note(res, CI_OK, NULL,
		     "UCX_NET_DEVICES is computed when the pod starts (%s); "
		     "`check_interconnect node` reads the real value",
		     v->value);
	} else if (bits & NETDEV_EMPTY) {
		note(res, CI_WARN, "list the RDMA devices (mlx5_0:1,...) or remove the variable",
		     "UCX_NET_DEVICES is empty");
	} else if ((bits & NETDEV_TCP_ONLY) && !mnnvl && !no_nic_here(x)) {
		note(res, CI_FAIL, "list the RDMA devices with their port (mlx5_0:1,...)",
		     "UCX_NET_DEVICES=%s names only network interfaces, no RDMA device: KV between "
		     "pods goes over TCP",
		     v->value);
	} else if ((bits & NETDEV_BONDED) && !(bits & NETDEV_MALFORMED) && !x->hw) {
		/* mlx5_bond_* is RoCE LAG: LID 0 on Ethernet by design, addressed
		 * by GID, and the member devices do not exist under LAG.
		 * `node` judges the link layer the bond really has. */
		note(res, CI_OK, NULL,
		     "UCX_NET_DEVICES=%s names a RoCE LAG bond (%s): a valid "
		     "device (UCX addresses it by GID); `check_interconnect node` checks its link "
		     "layer",
		     v->value, bad);
	} else if (bits & NETDEV_MALFORMED) {
		note(res, CI_WARN, "write each RDMA device as dev:port (mlx5_0:1), comma-separated",
		     "UCX_NET_DEVICES=%s has a malformed entry (%s): expected dev:port such as "
		     "mlx5_0:1",
		     v->value, bad);
	} else if (x->hw) {
		note(res, CI_OK, NULL, "UCX_NET_DEVICES=%s is well-formed", v->value);
	} else {
		note(res, CI_OK, NULL,
		     "UCX_NET_DEVICES=%s is well-formed; `check_interconnect "
		     "node` checks each device exists",
		     v->value);
	}
}

/* ---- UCX_IB_ADDR_TYPE ---- */

/*
 * UCX's option help says ADDR_TYPE is "Deprecated. To force use of global
 * routing use IS_GLOBAL" (openucx/ucx src/uct/ib/base/ib_iface.c), its
 * default `auto` picks the type from the link layer and subnet prefix, and
 * RoCE always addresses globally.  So an unset value is not a finding and
 * `eth` is never the fix (Dynamo's guide recommends it; the source wins):
 * only a value that forces local addressing is, and UCX_IB_IS_GLOBAL=y is
 * the knob for routed InfiniBand.
 */
static void rule_ucx_ib_addr_type(const struct var_view *vars, size_t n,
				  const struct varrule_ctx *x, struct varrule_res *res)
{
	(void)x;
	const struct var_view *v = var_view_find(vars, n, "UCX_IB_ADDR_TYPE");
	const struct var_view *g = var_view_find(vars, n, "UCX_IB_IS_GLOBAL");
	if (!v && !g)
		return;
	ev(res, v);
	ev(res, g);
	static const char fix[] = "remove UCX_IB_ADDR_TYPE (UCX's auto picks the address type) and "
				  "set UCX_IB_IS_GLOBAL=y for routed or multi-subnet InfiniBand";
	const char *val = v && v->value ? v->value : "";
	bool global = g && env_truthy(g->value);
	if (v && !v->ref && !strchr(val, '$') &&
	    (!strcasecmp(val, "ib_local") || !strcasecmp(val, "ib_site_local")) && !global)
		note(res, CI_WARN, fix,
		     "UCX_IB_ADDR_TYPE=%s forces a local InfiniBand address that "
		     "a pod on another subnet cannot reach (NIXL_ERR_REMOTE_DISCONNECT on a routed "
		     "fabric)",
		     val);
	else if (v)
		note(res, CI_OK, NULL,
		     "UCX_IB_ADDR_TYPE=%s%s (deprecated in UCX: \"To force use of "
		     "global routing use IS_GLOBAL\")",
		     shown(v), global ? ", UCX_IB_IS_GLOBAL=y" : "");
	else
		note(res, CI_OK, NULL, "UCX_IB_IS_GLOBAL=%s%s", shown(g),
		     global ? ": global routing forced (routed InfiniBand)" : "");
}

/* ---- UCX_RNDV_THRESH / UCX_RNDV_SCHEME ---- */

static void rule_ucx_rndv(const struct var_view *vars, size_t n, const struct varrule_ctx *x,
			  struct varrule_res *res)
{
	const struct var_view *th = var_view_find(vars, n, "UCX_RNDV_THRESH");
	const struct var_view *sc = var_view_find(vars, n, "UCX_RNDV_SCHEME");
	if (!th && !sc)
		return;
	ev(res, th);
	ev(res, sc);
	bool bad = false;
	/* UCX_RNDV_THRESH=inf is not a finding for NIXL: its UCX plugin sets
	 * exactly that unless the environment does (ai-dynamo/nixl
	 * src/plugins/ucx/ucx_utils.cpp), and NIXL moves KV with RMA put/get,
	 * which the rendezvous threshold does not govern. */
	if (sc && sc->value && !strcasecmp(sc->value, "get_zcopy") && (x->fabric & FAB_EFA)) {
		bad = true;
		note(res, CI_WARN, "use UCX_RNDV_SCHEME=auto on EFA (or NIXL's LIBFABRIC backend)",
		     "UCX_RNDV_SCHEME=get_zcopy with UCX on EFA crashes on kernel >= 6.8");
	}
	if (!bad)
		note(res, CI_OK, NULL, "%s%s%s%s%s%s", th ? "UCX_RNDV_THRESH=" : "",
		     th ? shown(th) : "", th && sc ? ", " : "", sc ? "UCX_RNDV_SCHEME=" : "",
		     sc ? shown(sc) : "",
		     th && th->value &&
				     (!strcasecmp(th->value, "inf") ||
				      !strcasecmp(th->value, "infinity"))
			     ? " (what NIXL's UCX plugin sets itself; NIXL's RMA transfers are not "
			       "governed by it)"
			     : "");
}

/* ---- NCCL_IB_DISABLE / NCCL_NET / NCCL_P2P_DISABLE ---- */

static void rule_nccl_ib(const struct var_view *vars, size_t n, const struct varrule_ctx *x,
			 struct varrule_res *res)
{
	const struct var_view *dis = var_view_find(vars, n, "NCCL_IB_DISABLE");
	const struct var_view *net = var_view_find(vars, n, "NCCL_NET");
	const struct var_view *p2p = var_view_find(vars, n, "NCCL_P2P_DISABLE");
	bool ib_off = dis && env_truthy(dis->value);
	bool sock = net && net->value && !strcasecmp(net->value, "Socket");
	bool p2p_off = p2p && env_truthy(p2p->value) && x->gpu;
	bool mnnvl = x->fabric & FAB_MNNVL;
	ev(res, dis);
	ev(res, net);
	ev(res, p2p);
	if ((ib_off || sock) && !mnnvl && !no_nic_here(x)) {
		char where[96];
		if (x->nodes > 1)
			snprintf(where, sizeof(where),
				 " on a worker that spans %ld nodes: NCCL traffic "
				 "between its nodes",
				 x->nodes);
		else
			snprintf(where, sizeof(where), ": NCCL traffic between nodes");
		/* A worker that spans nodes has its collectives between the
		 * nodes forced onto TCP: as UCX_TLS without RDMA is for KV. */
		note(res, x->nodes > 1 && !x->hw ? CI_FAIL : CI_WARN,
		     "remove NCCL_IB_DISABLE=1 / NCCL_NET=Socket and give the pods the "
		     "RDMA NICs, so that NCCL uses NET/IB between nodes",
		     "%s%s%s%s goes over TCP sockets%s%s", ib_off ? "NCCL_IB_DISABLE=" : "",
		     ib_off ? dis->value : "",
		     ib_off && sock ? " and NCCL_NET=Socket"
		     : sock         ? "NCCL_NET=Socket"
				    : "",
		     where, x->hw ? " although this host has RDMA devices" : "",
		     p2p_off ? " (and NCCL_P2P_DISABLE=1 turns off NVLink inside each node)" : "");
	} else if (p2p_off) {
		note(res, CI_WARN, "remove NCCL_P2P_DISABLE",
		     "NCCL_P2P_DISABLE=%s turns off "
		     "NVLink/PCIe peer access inside each node",
		     p2p->value);
	} else if ((ib_off || sock) && mnnvl) {
		note(res, CI_OK, NULL,
		     "NCCL's network transport is off, but the nodes share MNNVL "
		     "(NVLink across nodes)");
	} else if (ib_off || sock) {
		note(res, CI_OK, NULL,
		     "NCCL's network transport is off, and this host has no RDMA "
		     "device for it");
	} else if (x->nodes > 1) {
		note(res, CI_OK, NULL, "nothing forces NCCL off RDMA between the %ld nodes",
		     x->nodes);
	} else {
		note(res, CI_OK, NULL, "nothing forces NCCL off RDMA");
	}
}

/* ---- entry points ---- */

bool varrule_eval(enum varrule_id id, const struct var_view *vars, size_t n,
		  const struct varrule_ctx *x, struct varrule_res *res)
{
	memset(res, 0, sizeof(*res));
	switch (id) {
	case VR_UCX_TLS: rule_ucx_tls(vars, n, x, res); break;
	case VR_UCX_NET_DEVICES: rule_ucx_net_devices(vars, n, x, res); break;
	case VR_UCX_IB_ADDR_TYPE: rule_ucx_ib_addr_type(vars, n, x, res); break;
	case VR_UCX_RNDV: rule_ucx_rndv(vars, n, x, res); break;
	case VR_NCCL_IB: rule_nccl_ib(vars, n, x, res); break;
	default: break;
	}
	return res->n_note > 0;
}

static int sev(enum ci_status st)
{
	return st == CI_FAIL ? 3 : st == CI_WARN ? 2 : st == CI_OK ? 1 : 0;
}

void env_check_pod_vars(struct ci_report *r, const char *subject, const struct var_view *vars,
			size_t n, const struct varrule_ctx *x, const struct check_desc *checks)
{
	for (int id = 0; id < VR_COUNT; id++) {
		struct varrule_res res;
		if (!varrule_eval((enum varrule_id)id, vars, n, x, &res))
			continue;
		if (!res.n_ev) {
			/* only "X is not set": no statement about a real pod */
			varrule_res_release(&res);
			continue;
		}
		/* one check per rule: the worst finding decides, the rest follow */
		size_t worst = 0;
		for (size_t i = 1; i < res.n_note; i++)
			if (sev(res.note[i].st) > sev(res.note[worst].st))
				worst = i;
		enum ci_status st = res.note[worst].st;
		char *detail = xstrdup(res.note[worst].msg);
		for (size_t i = 0; i < res.n_note; i++) {
			if (i == worst || res.note[i].st != st)
				continue;
			char *more = xasprintf("%s; %s", detail, res.note[i].msg);
			free(detail);
			detail = more;
		}
		struct ci_check *c = report_check(
			r, &checks[id], st, subject ? subject : res.ev[0]->name, "%s", detail);
		if (res.note[worst].fix && (st == CI_WARN || st == CI_FAIL))
			check_set_fix(c, "%s", res.note[worst].fix);
		for (size_t i = 0; i < res.n_ev; i++) {
			char *e = var_view_evidence(res.ev[i]);
			check_add_evidence(c, "%s", e);
			free(e);
		}
		free(detail);
		varrule_res_release(&res);
	}
}
