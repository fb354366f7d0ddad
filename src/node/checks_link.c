/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How well the links trained and how they behave: the RoCE MTU, ports below
 * the speed or width their card supports, PCIe links below their maximum
 * width, and the error counters read twice about a second apart.  Only the
 * data ports count (node_data_port: given to the pod, not a management NIC).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"
#include "node/node_checks.h"
#include "node/node_desc.h"

#define ROCE_MTU_GOOD 4096

void node_check_mtu(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(RDMA_MTU);
	const char *subj = "ibv_devinfo active_mtu";
	struct strbuf low = STRBUF_INIT, ev = STRBUF_INIT;
	size_t n = 0, nlow = 0;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (d->efa || !node_data_dev(f, d))
			continue;
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct node_port *p = &d->ports[j];
			if (p->ll != IB_LL_ETHERNET || !node_port_active(p) || !p->active_mtu)
				continue;
			n++;
			strbuf_joinf_capped(&ev, 400, ", ", "%s/%u %u", d->name, p->num,
					    p->active_mtu);
			if (p->active_mtu < ROCE_MTU_GOOD) {
				nlow++;
				strbuf_joinf_capped(&low, 300, ", ", "%s/%u at %u (max %u)",
						    d->name, p->num, p->active_mtu, p->max_mtu);
			}
		}
	}
	struct ci_check *c;
	if (!n) {
		report_na(r, ck, subj, "%s",
			  f->ibv_t.state != TOOL_OK ? "no active RoCE data port with an MTU from "
						      "ibv_devinfo (it did not run)"
						    : "no active RoCE data port");
	} else if (nlow) {
		c = report_check(
			r, ck, CI_WARN, subj,
			"%zu of %zu RoCE data port%s below the 4096-byte RDMA MTU: %s (more "
			"packets per message, lower bandwidth)",
			nlow, n, n == 1 ? "" : "s", low.buf);
		check_set_fix(
			c, "raise the netdev MTU of those ports to 4200 or more (9000 with jumbo "
			   "frames on the switch): RoCE's active_mtu follows the netdev MTU");
		check_add_evidence(c, "active_mtu: %s", ev.buf);
	} else {
		c = report_check(r, ck, CI_OK, subj,
				 "every RoCE data port runs the 4096-byte RDMA MTU (%zu port%s)", n,
				 n == 1 ? "" : "s");
		check_add_evidence(c, "active_mtu: %s", ev.buf);
	}
	strbuf_release(&low);
	strbuf_release(&ev);
}

/* The InfiniBand speed a card supports, from its hca_type (mlx5 names the
 * PCI device id: MT4129 = ConnectX-7).  0 when unknown. */
static double card_ib_gbps(const char *hca, const char **name)
{
	static const struct {
		const char *id, *name;
		double gbps;
	} cards[] = {
		{"MT4131", "ConnectX-8", 800},    {"MT4129", "ConnectX-7", 400},
		{"MT4123", "ConnectX-6", 200},    {"MT4119", "ConnectX-5", 100},
		{"MT4121", "ConnectX-5 Ex", 100}, {"MT4115", "ConnectX-4", 100},
	};
	*name = NULL;
	if (!hca)
		return 0;
	for (size_t i = 0; i < sizeof(cards) / sizeof(cards[0]); i++)
		if (!strcmp(hca, cards[i].id)) {
			*name = cards[i].name;
			return cards[i].gbps;
		}
	return 0;
}

void node_check_link_speed(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(RDMA_SPEED);
	const char *subj = SUBJ_IB_PORTS;
	struct strbuf slow = STRBUF_INIT;
	size_t n = 0, nslow = 0;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (d->efa || !node_data_dev(f, d))
			continue;
		const char *card;
		double max = card_ib_gbps(d->hca_type, &card);
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct node_port *p = &d->ports[j];
			/* RoCE rates depend on the SKU and the switch port; only
			 * InfiniBand has a speed per card generation. */
			if (p->ll != IB_LL_INFINIBAND || !node_port_active(p) || p->rate.gbps <= 0)
				continue;
			n++;
			bool narrow = p->rate.width && p->rate.width < 4;
			bool below = max > 0 && p->rate.gbps < max;
			if (narrow || below) {
				nslow++;
				strbuf_joinf_capped(&slow, 400, ", ",
						    "%s/%u %s (expected %s%g Gb/sec 4X%s%s)",
						    d->name, p->num, p->rate_raw,
						    below ? "" : ">= ", below ? max : p->rate.gbps,
						    card ? " on a " : "", card ? card : "");
			}
		}
	}
	struct ci_check *c;
	if (!n) {
		report_na(r, ck, subj, "no active InfiniBand data port to compare with its card");
	} else if (nslow) {
		c = report_check(
			r, ck, CI_WARN, subj,
			"%zu of %zu InfiniBand port%s trained below what the card supports: %s",
			nslow, n, n == 1 ? "" : "s", slow.buf);
		check_set_fix(c, "reseat or replace the cable/transceiver, check the switch port "
				 "speed (`ibstat`, `mlxlink -d <dev>` on the node)");
	} else {
		report_check(
			r, ck, CI_OK, subj,
			"every InfiniBand data port runs at its card's speed on 4 lanes (%zu port%s)",
			n, n == 1 ? "" : "s");
	}
	strbuf_release(&slow);
}

void node_check_pcie_width(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(PCIE_WIDTH);
	const char *subj = "PCIe link width";
	struct strbuf narrow = STRBUF_INIT;
	size_t n = 0, nn = 0;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (!d->pci.width_max || !d->pci.width_cur || !node_data_dev(f, d))
			continue;
		n++;
		if (d->pci.width_cur < d->pci.width_max) {
			nn++;
			strbuf_joinf_capped(&narrow, 400, ", ", "NIC %s x%u of x%u", d->name,
					    d->pci.width_cur, d->pci.width_max);
		}
	}
	/* GPUs: the ones nvidia-smi lists (the pod's; sysfs shows the whole
	 * node's), each by the kernel's sysfs reading, the same as the NICs',
	 * else by nvidia-smi -q "GPU Link Info"; without nvidia-smi, every GPU
	 * on the PCI bus. */
	bool smi = f->smi_q_t.state == TOOL_OK && f->q.ngpus;
	for (size_t i = 0; smi && i < f->q.ngpus; i++) {
		const struct smi_query_gpu *g = &f->q.gpus[i];
		unsigned cur = g->link_width_cur, max = g->link_width_max;
		const struct node_pci_gpu *s = g->bus_id ? node_pci_gpu_find(f, g->bus_id) : NULL;
		if (s && s->pci.width_cur && s->pci.width_max) {
			cur = s->pci.width_cur;
			max = s->pci.width_max;
		}
		if (!cur || !max)
			continue;
		n++;
		if (cur < max) {
			nn++;
			strbuf_joinf_capped(&narrow, 400, ", ", "GPU %s x%u of x%u",
					    s           ? s->bdf
					    : g->bus_id ? g->bus_id
							: "?",
					    cur, max);
		}
	}
	for (size_t i = 0; !smi && i < f->n_pci_gpus; i++) {
		const struct node_pci_gpu *g = &f->pci_gpus[i];
		if (!g->pci.width_max || !g->pci.width_cur)
			continue;
		n++;
		if (g->pci.width_cur < g->pci.width_max) {
			nn++;
			strbuf_joinf_capped(&narrow, 400, ", ", "GPU %s x%u of x%u", g->bdf,
					    g->pci.width_cur, g->pci.width_max);
		}
	}
	struct ci_check *c;
	if (!n) {
		report_na(r, ck, subj,
			  "no PCIe link width was collected (older probe, or no NIC/GPU)");
	} else if (nn) {
		c = report_check(
			r, ck, CI_WARN, subj,
			"%zu of %zu PCIe links below their maximum width: %s (bandwidth is cut "
			"in proportion)",
			nn, n, narrow.buf);
		check_set_fix(c,
			      "reseat the card or its riser, check the slot's bifurcation in the "
			      "BIOS; the generation is not judged (it drops at idle)");
	} else {
		report_check(r, ck, CI_OK, subj,
			     "every NIC and GPU PCIe link runs at its maximum width (%zu link%s)",
			     n, n == 1 ? "" : "s");
	}
	strbuf_release(&narrow);
}

/* Counters whose growth within a second means trouble now. */
static const struct {
	enum node_counter c;
	enum ci_status st;
} watched[] = {
	{NC_LINK_DOWNED, CI_FAIL},       {NC_EXCESSIVE_BUFFER_OVERRUN, CI_FAIL},
	{NC_SYMBOL_ERROR, CI_WARN},      {NC_LINK_ERROR_RECOVERY, CI_WARN},
	{NC_PORT_RCV_ERRORS, CI_WARN},   {NC_OUT_OF_SEQUENCE, CI_WARN},
	{NC_LOCAL_ACK_TIMEOUT, CI_WARN}, {NC_RNR_NAK_RETRY, CI_WARN},
};

void node_check_errors(struct ci_report *r, const struct node_facts *f)
{
	const struct check_desc *ck = NODE_CHECK(RDMA_ERRORS);
	const char *subj = "port counters";
	if (!f->n_devs) {
		report_na(r, ck, subj, "no RDMA device");
		return;
	}
	if (!f->have_ctr2) {
		report_na(r, ck, subj, "%s: a single reading says nothing about now",
			  f->sysroot ? "a sysroot tree is one instant, its counters cannot be "
				       "read twice"
				     : "the counters were not read twice (not collected by this "
				       "probe)");
		return;
	}
	enum ci_status worst = CI_OK;
	struct strbuf grew = STRBUF_INIT, cnp = STRBUF_INIT;
	size_t n = 0;
	bool roce = false;
	for (size_t i = 0; i < f->n_devs; i++) {
		const struct node_rdma_dev *d = &f->devs[i];
		if (!node_data_dev(f, d))
			continue;
		for (size_t j = 0; j < d->n_ports; j++) {
			const struct node_port *p = &d->ports[j];
			if (!p->have_ctr[0] || !p->have_ctr[1])
				continue;
			n++;
			for (size_t k = 0; k < sizeof(watched) / sizeof(watched[0]); k++) {
				uint64_t a = p->ctr[0][watched[k].c], b = p->ctr[1][watched[k].c];
				if (a == UINT64_MAX || b == UINT64_MAX || b <= a)
					continue;
				if (watched[k].st > worst)
					worst = watched[k].st;
				roce |= p->ll == IB_LL_ETHERNET;
				strbuf_joinf_capped(&grew, 400, ", ", "%s/%u %s +%" PRIu64, d->name,
						    p->num, node_counter_name(watched[k].c), b - a);
			}
			for (int k = NC_NP_CNP_SENT; k <= NC_RP_CNP_HANDLED; k++) {
				uint64_t a = p->ctr[0][k], b = p->ctr[1][k];
				if (a != UINT64_MAX && b != UINT64_MAX && b > a)
					strbuf_joinf_capped(&cnp, 300, ", ", "%s/%u %s +%" PRIu64,
							    d->name, p->num,
							    node_counter_name((enum node_counter)k),
							    b - a);
			}
		}
	}
	struct ci_check *c = NULL;
	char within[48];
	if (f->ctr_interval_ms)
		snprintf(within, sizeof(within), "within %u.%u s", f->ctr_interval_ms / 1000,
			 f->ctr_interval_ms % 1000 / 100);
	else
		snprintf(within, sizeof(within), "within about a second");
	if (!n) {
		report_na(r, ck, subj, "no port counter could be read twice");
	} else if (worst == CI_FAIL) {
		c = report_check_as(r, ck, CI_FAIL, true, CI_LAYER_FABRIC, subj,
				    "a link flapped or dropped packets %s: %s", within, grew.buf);
		check_set_fix(c,
			      "look at the cable, transceiver and switch port of the named ports "
			      "(`mlxlink`, switch logs); a link that goes down breaks transfers");
	} else if (worst == CI_WARN) {
		c = report_check(r, ck, CI_WARN, subj,
				 "error or retransmission counters grew %s: %s%s", within, grew.buf,
				 roce ? " (lossy RoCE: check PFC/ECN on the NIC and the switch)"
				      : "");
		check_set_fix(
			c, "%s",
			roce ? "enable PFC (or ECN/DCQCN) end to end for the RoCE "
			       "traffic class, then look at cables with symbol errors"
			     : "look at cables and transceivers with symbol errors (`mlxlink`)");
	} else {
		c = report_check(r, ck, CI_OK, subj, "no error counter grew %s on %zu port%s",
				 within, n, n == 1 ? "" : "s");
	}
	if (c && cnp.len)
		check_add_evidence(c, "congestion notifications (ECN working, not loss): %s",
				   cnp.buf);
	strbuf_release(&grew);
	strbuf_release(&cnp);
}
