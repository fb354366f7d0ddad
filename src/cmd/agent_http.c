/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The agent's HTTP side: GNU libmicrohttpd (Debian's libmicrohttpd-dev),
 * not a parser of our own: it bounds a request's memory
 * (MHD_OPTION_CONNECTION_MEMORY_LIMIT: headers beyond it are refused with
 * 431), its time (MHD_OPTION_CONNECTION_TIMEOUT) and the connections held
 * (MHD_OPTION_CONNECTION_LIMIT).  Only GET and HEAD of /metrics and
 * /healthz are answered; a body is never read.
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/agent.h"
#include "core/xalloc.h"
#include "probe/run_command.h"

/* Prometheus text format 0.0.4 (exposition_formats.md: "Content-Type:
 * text/plain; version=0.0.4"). */
#define CT_METRICS "text/plain; version=0.0.4; charset=utf-8"

struct agent_http {
	struct MHD_Daemon *d;
	pthread_mutex_t mu;
	char *text; /* the last scan's metrics, NULL before the first */
	size_t len;
	double scanned; /* CLOCK_MONOTONIC seconds of that scan's end */
	double stale_after_s;
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type,
			     const char *body, size_t len)
{
	/* MUST_COPY: the library copies it before this returns (the
	 * pointer is only read; its API takes a void *) */
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)(uintptr_t)body,
								 MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	enum MHD_Result ok = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **state)
{
	(void)version;
	(void)upload;
	struct agent_http *h = cls;
	static int first;
	if (!*state) { /* headers only so far: answer on the next call */
		*state = &first;
		return MHD_YES;
	}
	if (*upload_size) /* a body: never read */
		return reply(c, 413, "text/plain", "no body\n", 8);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", "GET only\n", 9);
	if (!strcmp(url, "/metrics")) {
		pthread_mutex_lock(&h->mu);
		enum MHD_Result ok = h->text ? reply(c, MHD_HTTP_OK, CT_METRICS, h->text, h->len)
					     : reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain",
						     "no scan completed yet\n", 22);
		pthread_mutex_unlock(&h->mu);
		return ok;
	}
	if (!strcmp(url, "/healthz")) {
		pthread_mutex_lock(&h->mu);
		bool fresh = h->text && run_now() - h->scanned <= h->stale_after_s;
		pthread_mutex_unlock(&h->mu);
		return fresh ? reply(c, MHD_HTTP_OK, "text/plain", "ok\n", 3)
			     : reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain",
				     "no recent scan\n", 15);
	}
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/plain",
			     "check_interconnect agent: /metrics /healthz\n", 44);
	return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", "not found\n", 10);
}

bool agent_listen_parse(const char *s, char *addr, size_t size, unsigned *port)
{
	const char *colon = s ? strrchr(s, ':') : NULL;
	if (!colon || (size_t)(colon - s) >= size || !colon[1] || strlen(colon + 1) > 5)
		return false;
	unsigned long p = 0;
	for (const char *q = colon + 1; *q; q++) {
		if (*q < '0' || *q > '9')
			return false;
		p = p * 10 + (unsigned long)(*q - '0');
	}
	if (p == 0 || p > 65535)
		return false;
	memcpy(addr, s, (size_t)(colon - s));
	addr[colon - s] = '\0';
	struct in_addr a;
	if (*addr && inet_pton(AF_INET, addr, &a) != 1)
		return false;
	*port = (unsigned)p;
	return true;
}

struct agent_http *agent_http_start(const char *addr, unsigned port, double stale_after_s,
				    char **why)
{
	struct agent_http *h = xcalloc(1, sizeof(*h));
	pthread_mutex_init(&h->mu, NULL);
	h->stale_after_s = stale_after_s;
	static struct sockaddr_in sa;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	if (addr && *addr)
		(void)inet_pton(AF_INET, addr, &sa.sin_addr);
	h->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, (uint16_t)port, NULL, NULL,
				on_request, h, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned)32,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
				MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned)1, MHD_OPTION_END);
	if (!h->d) {
		*why = xasprintf("cannot listen on %s:%u (in use, or not this host's address)",
				 addr && *addr ? addr : "", port);
		pthread_mutex_destroy(&h->mu);
		free(h);
		return NULL;
	}
	return h;
}

void agent_http_publish(struct agent_http *h, const char *text, size_t len, double mono_s)
{
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	pthread_mutex_lock(&h->mu);
	free(h->text);
	h->text = copy;
	h->len = len;
	h->scanned = mono_s;
	pthread_mutex_unlock(&h->mu);
}

void agent_http_stop(struct agent_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	pthread_mutex_destroy(&h->mu);
	free(h->text);
	free(h);
}
