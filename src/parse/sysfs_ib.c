/* SPDX-License-Identifier: Apache-2.0 */
#include "parse/sysfs_ib.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "parse/lines.h"

/*
 * Reduce a state spelling to a bare upper-case word and an optional number:
 * "4: ACTIVE" -> (4, "ACTIVE"); "PORT_ACTIVE (4)" -> (4, "ACTIVE");
 * "LinkUp" -> (-1, "LINKUP"); "LINK_UP (5)" -> (5, "LINKUP").
 */
static int state_words(const char *s, char *word, size_t cap)
{
	int num = -1;
	size_t o = 0;
	const char *p;

	word[0] = '\0';
	if (!s)
		return -1;
	s = str_skip_ws(s);
	if (isdigit((unsigned char)*s)) {
		num = 0;
		while (isdigit((unsigned char)*s) && num < 1000)
			num = num * 10 + (*s++ - '0');
		while (*s == ':' || *s == ' ' || *s == '\t')
			s++;
	}
	if (str_istarts(s, "PORT_"))
		s += 5;
	for (p = s; *p && *p != '(' && o + 1 < cap; p++) {
		if (*p == '_' || *p == '-' || isspace((unsigned char)*p))
			continue;
		word[o++] = (char)toupper((unsigned char)*p);
	}
	word[o] = '\0';
	if (*p == '(' && num < 0) {
		p++;
		if (isdigit((unsigned char)*p)) {
			num = 0;
			while (isdigit((unsigned char)*p) && num < 1000)
				num = num * 10 + (*p++ - '0');
		}
	}
	return num;
}

enum ib_port_state ib_port_state_parse(const char *s)
{
	static const char *const names[] = {
		"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVEDEFER",
	};
	char w[32];
	int num = state_words(s, w, sizeof(w));
	size_t i;

	for (i = 1; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(w, names[i]) == 0)
			return (enum ib_port_state)i;
	if (strcmp(w, "INITIALIZE") == 0 || strcmp(w, "INITIALIZING") == 0)
		return IB_STATE_INIT;
	if (!w[0] && num >= 1 && num <= 5)
		return (enum ib_port_state)num;
	return IB_STATE_UNKNOWN;
}

enum ib_phys_state ib_phys_state_parse(const char *s)
{
	static const struct {
		const char *w;
		enum ib_phys_state st;
	} map[] = {
		{"SLEEP", IB_PHYS_SLEEP},
		{"POLLING", IB_PHYS_POLLING},
		{"DISABLED", IB_PHYS_DISABLED},
		{"TRAINING", IB_PHYS_TRAINING},
		{"PORTCONFIGURATIONTRAINING", IB_PHYS_TRAINING},
		{"LINKUP", IB_PHYS_LINKUP},
		{"LINKERRORRECOVERY", IB_PHYS_ERROR_RECOVERY},
		{"PHYTEST", IB_PHYS_PHY_TEST},
	};
	char w[40];
	int num = state_words(s, w, sizeof(w));
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(w, map[i].w) == 0)
			return map[i].st;
	if (!w[0] && num >= 1 && num <= 7)
		return (enum ib_phys_state)num;
	return IB_PHYS_UNKNOWN;
}

enum ib_link_layer ib_link_layer_parse(const char *s)
{
	if (!s)
		return IB_LL_UNKNOWN;
	s = str_skip_ws(s);
	if (str_istarts(s, "infiniband"))
		return IB_LL_INFINIBAND;
	if (str_istarts(s, "ethernet"))
		return IB_LL_ETHERNET;
	return IB_LL_UNKNOWN;
}

enum ib_gid_type ib_gid_type_parse(const char *s)
{
	if (!s)
		return IB_GID_UNKNOWN;
	if (str_icontains(s, "v2"))
		return IB_GID_ROCE_V2;
	if (str_icontains(s, "v1") || str_icontains(s, "IB/RoCE"))
		return IB_GID_IB_ROCE_V1;
	return IB_GID_UNKNOWN;
}

const char *ib_port_state_name(enum ib_port_state st)
{
	static const char *const n[] = {
		"UNKNOWN", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
	};
	return (unsigned)st < sizeof(n) / sizeof(n[0]) ? n[st] : "UNKNOWN";
}

const char *ib_phys_state_name(enum ib_phys_state st)
{
	static const char *const n[] = {
		"unknown",
		"Sleep",
		"Polling",
		"Disabled",
		"PortConfigurationTraining",
		"LinkUp",
		"LinkErrorRecovery",
		"PhyTest",
	};
	return (unsigned)st < sizeof(n) / sizeof(n[0]) ? n[st] : "unknown";
}

const char *ib_link_layer_name(enum ib_link_layer ll)
{
	switch (ll) {
	case IB_LL_INFINIBAND: return "InfiniBand";
	case IB_LL_ETHERNET: return "Ethernet";
	default: return "unknown";
	}
}

bool ib_rate_parse(const char *s, struct ib_rate *out)
{
	const char *p;
	size_t o = 0;

	memset(out, 0, sizeof(*out));
	if (!s || !str_lead_double(s, &out->gbps) || out->gbps < 0 || out->gbps > 1e6) {
		out->gbps = 0;
		return false;
	}
	p = strchr(s, '(');
	if (p) {
		p = str_skip_ws(p + 1);
		if (isdigit((unsigned char)*p)) {
			unsigned w = 0;
			while (isdigit((unsigned char)*p) && w < 1000)
				w = w * 10 + (unsigned)(*p++ - '0');
			if (*p == 'X' || *p == 'x') {
				out->width = w;
				p++;
			}
		}
		p = str_skip_ws(p);
		while (*p && *p != ')' && !isspace((unsigned char)*p) && o + 1 < sizeof(out->speed))
			out->speed[o++] = *p++;
		out->speed[o] = '\0';
	}
	return true;
}

bool ib_lid_parse(const char *s, uint32_t *out)
{
	if (!s)
		return false;
	s = str_skip_ws(s);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return str_to_u32(s, 16, out);
	return str_to_u32(s, 10, out);
}

bool ib_guid_parse(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	int digits = 0;

	if (!s)
		return false;
	s = str_skip_ws(s);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return str_to_u64(s, 16, out);
	for (; *s && !isspace((unsigned char)*s); s++) {
		if (*s == ':')
			continue;
		if (!isxdigit((unsigned char)*s) || ++digits > 16)
			return false;
		v = v << 4 | (uint64_t)(isdigit((unsigned char)*s)
						? *s - '0'
						: (tolower((unsigned char)*s) - 'a' + 10));
	}
	if (*str_skip_ws(s) || digits == 0)
		return false;
	*out = v;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

bool ib_gid_parse(const char *s, uint8_t out[16])
{
	uint16_t head[8], tail[8];
	size_t nh = 0, nt = 0, i;
	bool gap = false;
	const char *p;

	if (!s)
		return false;
	p = str_skip_ws(s);
	if (p[0] == ':' && p[1] == ':') {
		gap = true;
		p += 2;
	}
	while (*p && !isspace((unsigned char)*p)) {
		unsigned v = 0;
		int d = 0;
		while (hexval(*p) >= 0 && d < 5) {
			v = v << 4 | (unsigned)hexval(*p++);
			d++;
		}
		if (d == 0 || d > 4)
			return false;
		if (gap) {
			if (nt == 8)
				return false;
			tail[nt++] = (uint16_t)v;
		} else {
			if (nh == 8)
				return false;
			head[nh++] = (uint16_t)v;
		}
		if (*p == ':') {
			p++;
			if (*p == ':') {
				if (gap)
					return false;
				gap = true;
				p++;
			} else if (!*p) {
				return false;
			}
		} else if (*p && !isspace((unsigned char)*p)) {
			return false;
		}
	}
	if (*str_skip_ws(p))
		return false;
	if ((!gap && nh != 8) || nh + nt > (gap ? 7u : 8u))
		return false;
	memset(out, 0, 16);
	for (i = 0; i < nh; i++) {
		out[2 * i] = (uint8_t)(head[i] >> 8);
		out[2 * i + 1] = (uint8_t)head[i];
	}
	for (i = 0; i < nt; i++) {
		size_t k = 8 - nt + i;
		out[2 * k] = (uint8_t)(tail[i] >> 8);
		out[2 * k + 1] = (uint8_t)tail[i];
	}
	return true;
}

bool ib_gid_is_zero(const char *s)
{
	uint8_t g[16];
	size_t i;

	if (!ib_gid_parse(s, g))
		return true;
	for (i = 0; i < 16; i++)
		if (g[i])
			return false;
	return true;
}

int ib_node_type_parse(const char *s)
{
	uint64_t v;
	char buf[16];
	size_t i = 0;

	if (!s)
		return -1;
	s = str_skip_ws(s);
	while (isdigit((unsigned char)s[i]) && i + 1 < sizeof(buf)) {
		buf[i] = s[i];
		i++;
	}
	buf[i] = '\0';
	if (!i || !str_to_u64(buf, 10, &v) || v > 1000)
		return -1;
	return (int)v;
}
