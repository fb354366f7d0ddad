/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `nvidia-smi topo -p2p r` (or rw/w/n/a): a GPU-by-GPU matrix of P2P status
 * words: X (self), OK, CNS (chipset not supported), GNS (GPU not supported),
 * TNS (topology not supported), NS (not supported), DR (disabled by regkey),
 * U (unknown).  Rows may start with a blank and end with a TAB; the legend
 * after the matrix is ignored.  Pure: bytes in, struct out.
 */
#ifndef CI_PARSE_SMI_P2P_H
#define CI_PARSE_SMI_P2P_H

#include <stdbool.h>
#include <stddef.h>

#define SMI_P2P_MAX 64

enum p2p_status {
	P2P_UNKNOWN = 0,
	P2P_SELF,
	P2P_OK,
	P2P_CNS,
	P2P_GNS,
	P2P_TNS,
	P2P_NS,
	P2P_DR,
};

struct smi_p2p {
	size_t ngpus;                                 /* columns named GPU<N> */
	int index[SMI_P2P_MAX];                       /* N of each column */
	unsigned char cell[SMI_P2P_MAX][SMI_P2P_MAX]; /* enum p2p_status, row x column */
};

/* 0 with at least one GPU row read; -1 otherwise. */
int smi_p2p_parse(const char *buf, size_t len, struct smi_p2p *out);
void smi_p2p_release(struct smi_p2p *p);
enum p2p_status p2p_status_parse(const char *word);
const char *p2p_status_name(enum p2p_status s); /* "OK", "NS", ... */
/* Not OK and not self: P2P between the two GPUs is refused by the driver. */
bool p2p_status_blocked(enum p2p_status s);

#endif
