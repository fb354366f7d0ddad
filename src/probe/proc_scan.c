/* SPDX-License-Identifier: Apache-2.0 */
#include "probe/proc_scan.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/redact.h"
#include "core/xalloc.h"
#include "parse/http_resp.h"

int proc_root_open(struct proc_root *r, const char *sysroot)
{
	r->host = !sysroot || !*sysroot;
	r->fd = open(r->host ? "/" : sysroot, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return r->fd < 0 ? -1 : 0;
}

void proc_root_close(struct proc_root *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

static int jail_open(const struct proc_root *r, const char *path, int flags)
{
#ifdef SYS_openat2
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC | O_NOCTTY),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, r->fd, path, &how, sizeof(how));
	if (fd >= 0 || errno != ENOSYS)
		return (int)fd;
#endif
	return openat(r->fd, path, flags | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
}

static bool read_fd(int fd, size_t cap, struct strbuf *sb, bool *capped)
{
	char buf[65536];
	size_t got = 0;
	if (capped)
		*capped = false;
	for (;;) {
		size_t want = sizeof(buf);
		if (cap - got < want)
			want = cap - got + 1; /* one byte more says it was cut */
		ssize_t n = read(fd, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		if (n == 0)
			return true;
		size_t take = (size_t)n;
		if (got + take > cap) {
			take = cap - got;
			if (capped)
				*capped = true;
			strbuf_add(sb, buf, take);
			return true;
		}
		strbuf_add(sb, buf, take);
		got += take;
	}
}

bool proc_read(const struct proc_root *r, const char *path, size_t cap, struct strbuf *sb,
	       bool *capped)
{
	int fd = jail_open(r, path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = !fstat(fd, &st) && S_ISREG(st.st_mode) && read_fd(fd, cap, sb, capped);
	close(fd);
	return ok;
}

size_t proc_list_dir(const struct proc_root *r, const char *dir, size_t max, char ***names)
{
	*names = NULL;
	int dfd = jail_open(r, dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return 0;
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	size_t n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < max) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			*names = xrealloc(*names, cap * sizeof(**names));
		}
		(*names)[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	return n;
}

/* The libraries probe.sh's live:maps keeps (its grep -E, the same set): a
 * path's basename starting with one of these.  NIXL's backend plugins
 * first: mapping one is what makes a process NIXL's. */
static const char *const transport_libs[] = {
	"libplugin_", "libnixl",    "libucp",  "libucs",  "libuct",    "libfabric",
	"libefa",     "libibverbs", "libmlx5", "libnccl", "libgdrapi",
};

/* The maps lines of transport libraries, each library once (its segments
 * are consecutive lines); *nixl when a NIXL plugin is among them. */
static void filter_maps(const char *buf, size_t len, struct strbuf *out, bool *nixl)
{
	const char *p = buf, *end = buf + len;
	const char *last = NULL;
	size_t last_n = 0, kept = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *path = memchr(p, '/', (size_t)(le - p));
		if (path) {
			const char *base = path;
			for (const char *q = path; q < le; q++)
				if (*q == '/')
					base = q + 1;
			size_t bn = (size_t)(le - base);
			for (size_t i = 0; i < sizeof(transport_libs) / sizeof(transport_libs[0]);
			     i++) {
				size_t k = strlen(transport_libs[i]);
				if (bn <= k || memcmp(base, transport_libs[i], k))
					continue;
				if (i == 0 && bn > 3 && memmem(base, bn, ".so", 3))
					*nixl = true;
				size_t pn = (size_t)(le - path);
				if (last && pn == last_n && !memcmp(path, last, pn))
					break;
				last = path;
				last_n = pn;
				if (++kept <= 512) {
					strbuf_add(out, p, (size_t)(le - p));
					strbuf_addch(out, '\n');
				}
				break;
			}
		}
		p = le + 1;
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static bool pid_name(const char *s, int *pid)
{
	long v = 0;
	if (!*s)
		return false;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9' || v > (1L << 22))
			return false;
		v = v * 10 + (*p - '0');
	}
	*pid = (int)v;
	return v > 0;
}

int proc_list_read(const struct proc_root *r, struct proc_list *out)
{
	memset(out, 0, sizeof(*out));
	int dfd = jail_open(r, "proc", O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return -1;
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -1;
	}
	int *pids = NULL;
	size_t np = 0, cp = 0;
	struct dirent *de;
	int self = r->host ? (int)getpid() : -1;
	while ((de = readdir(d)) && np < PROC_SCAN_MAX) {
		int pid;
		if (!pid_name(de->d_name, &pid) || pid == self)
			continue;
		if (np == cp) {
			cp = cp ? cp * 2 : 256;
			pids = xrealloc(pids, cp * sizeof(*pids));
		}
		pids[np++] = pid;
	}
	closedir(d);
	if (np)
		qsort(pids, np, sizeof(*pids), cmp_int);
	struct strbuf sb;
	strbuf_init(&sb);
	char path[64];
	for (size_t i = 0; i < np; i++) {
		out->seen++;
		struct proc_entry e;
		memset(&e, 0, sizeof(e));
		e.pid = pids[i];
		strbuf_init(&e.maps);
		strbuf_reset(&sb);
		snprintf(path, sizeof(path), "proc/%d/cmdline", e.pid);
		bool ok = proc_read(r, path, PROC_CMDLINE_MAX, &sb, NULL);
		for (size_t k = 0; k < sb.len; k++)
			if (sb.buf[k] == '\0' || sb.buf[k] == '\n')
				sb.buf[k] = ' ';
		while (sb.len && sb.buf[sb.len - 1] == ' ')
			sb.buf[--sb.len] = '\0';
		e.cmdline = xstrdup(sb.len ? sb.buf : "");
		strbuf_reset(&sb);
		snprintf(path, sizeof(path), "proc/%d/maps", e.pid);
		bool capped = false;
		e.maps_read = proc_read(r, path, PROC_MAPS_MAX, &sb, &capped);
		if (e.maps_read)
			filter_maps(sb.buf, sb.len, &e.maps, &e.nixl);
		if (!ok || !e.maps_read)
			out->unreadable++;
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 64;
			out->v = xrealloc(out->v, out->cap * sizeof(*out->v));
		}
		out->v[out->n++] = e;
	}
	strbuf_release(&sb);
	free(pids);
	return 0;
}

void proc_list_release(struct proc_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].cmdline);
		strbuf_release(&l->v[i].maps);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

bool proc_read_fds(const struct proc_root *r, int pid, struct strbuf *out)
{
	char path[64];
	snprintf(path, sizeof(path), "proc/%d/fd", pid);
	int dfd = jail_open(r, path, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return false;
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return false;
	}
	struct dirent *de;
	size_t n = 0, kept = 0;
	char target[512];
	while ((de = readdir(d)) && n < PROC_FD_MAX) {
		int fdn;
		if (!pid_name(de->d_name, &fdn) && strcmp(de->d_name, "0"))
			continue;
		n++;
		ssize_t k = readlinkat(dirfd(d), de->d_name, target, sizeof(target) - 1);
		if (k <= 0)
			continue;
		target[k] = '\0';
		/* the kernel's link text is absolute; a dump's may be relative
		 * to its own tree ("../../../dev/infiniband/uverbs0") */
		const char *t = target;
		while (!strncmp(t, "../", 3))
			t += 3;
		if (*t != '/' && t == target)
			continue;
		if (*t != '/')
			t--;
		if (strncmp(t, "/dev/", 5) || strchr(t, '\n') || ++kept > 512)
			continue;
		strbuf_addf(out, "%s -> %s\n", de->d_name, t);
	}
	closedir(d);
	return true;
}

bool proc_read_environ(const struct proc_root *r, int pid, struct strbuf *out)
{
	char path[64];
	snprintf(path, sizeof(path), "proc/%d/environ", pid);
	struct strbuf sb;
	strbuf_init(&sb);
	bool ok = proc_read(r, path, PROC_SMALL_MAX, &sb, NULL);
	for (size_t i = 0; ok && i < sb.len;) {
		const char *v = sb.buf + i;
		size_t n = strnlen(v, sb.len - i);
		const char *eq = memchr(v, '=', n);
		if (eq && eq > v && (size_t)(eq - v) < 128 && !memchr(v, '\n', n)) {
			char name[128];
			memcpy(name, v, (size_t)(eq - v));
			name[eq - v] = '\0';
			if (redact_is_transport_name(name)) {
				char *val = xstrndup(eq + 1, n - (size_t)(eq - v) - 1);
				strbuf_addf(out, "%s=%s\n", name, redact_value(name, val));
				free(val);
			}
		}
		i += n + 1;
	}
	strbuf_release(&sb);
	return ok;
}

bool proc_uverbs_ibdev(const struct proc_root *r, unsigned n, char *name, size_t size)
{
	char path[96];
	snprintf(path, sizeof(path), "sys/class/infiniband_verbs/uverbs%u/ibdev", n);
	struct strbuf sb;
	strbuf_init(&sb);
	bool ok = proc_read(r, path, 256, &sb, NULL) && sb.len;
	if (ok) {
		size_t k = strcspn(sb.buf, "\n");
		ok = k > 0 && k < size && !memchr(sb.buf, '/', k);
		if (ok)
			snprintf(name, size, "%.*s", (int)k, sb.buf);
	}
	strbuf_release(&sb);
	return ok;
}

/* The counters probe.sh's live_sample reads, in the same order. */
static const char *const port_counters[] = {
	"counters/port_xmit_data",
	"counters/port_rcv_data",
	"hw_counters/tx_bytes",
	"hw_counters/rx_bytes",
	"hw_counters/rdma_read_bytes",
	"hw_counters/rdma_write_bytes",
	"hw_counters/rdma_read_resp_bytes",
	"hw_counters/rdma_write_recv_bytes",
};

void proc_read_port_counters(const struct proc_root *r, const char *dev, struct strbuf *out)
{
	char path[256];
	snprintf(path, sizeof(path), "sys/class/infiniband/%s/ports", dev);
	int dfd = jail_open(r, path, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return;
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	struct dirent *de;
	struct strbuf sb;
	strbuf_init(&sb);
	size_t ports = 0;
	while ((de = readdir(d)) && ports < 64) {
		int port;
		if (!pid_name(de->d_name, &port))
			continue;
		ports++;
		for (size_t i = 0; i < sizeof(port_counters) / sizeof(port_counters[0]); i++) {
			snprintf(path, sizeof(path), "sys/class/infiniband/%s/ports/%d/%s", dev,
				 port, port_counters[i]);
			strbuf_reset(&sb);
			if (!proc_read(r, path, 64, &sb, NULL) || !sb.len)
				continue;
			size_t k = strspn(sb.buf, "0123456789");
			if (k)
				strbuf_addf(out, "%s=%.*s\n", path, (int)k, sb.buf);
		}
	}
	strbuf_release(&sb);
	closedir(d);
}

static long ms_left(const struct timespec *t0, int timeout_ms)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	long el = (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
	return timeout_ms - el;
}

int proc_http_get(const char *addr, unsigned port, const char *path, int timeout_ms, size_t cap,
		  struct strbuf *out, const char **why)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	*why = "bad address";
	if (port == 0 || port > 65535 || inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
		return -1;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	*why = "socket failed";
	if (s < 0)
		return -1;
	int rc = -1;
	struct strbuf resp;
	strbuf_init(&resp);
	struct pollfd pfd = {.fd = s, .events = POLLOUT};
	*why = "connection refused";
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) && errno != EINPROGRESS)
		goto out;
	*why = "timed out";
	if (poll(&pfd, 1, (int)(ms_left(&t0, timeout_ms) > 0 ? ms_left(&t0, timeout_ms) : 0)) != 1)
		goto out;
	int err = 0;
	socklen_t el = sizeof(err);
	*why = "connection refused";
	if (getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &el) || err)
		goto out;
	char req[256];
	int rl = snprintf(req, sizeof(req),
			  "GET %s HTTP/1.0\r\nHost: %s:%u\r\n"
			  "Accept: text/plain\r\nConnection: close\r\n\r\n",
			  path, addr, port);
	*why = "write failed";
	if (rl <= 0 || (size_t)rl >= sizeof(req) || send(s, req, (size_t)rl, MSG_NOSIGNAL) != rl)
		goto out;
	char buf[16384];
	for (;;) {
		long left = ms_left(&t0, timeout_ms);
		pfd.events = POLLIN;
		*why = "timed out";
		if (left <= 0 || poll(&pfd, 1, (int)left) != 1)
			goto out;
		ssize_t n = recv(s, buf, sizeof(buf), 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		*why = "read failed";
		if (n < 0)
			goto out;
		if (n == 0)
			break;
		*why = "answer too large";
		if (resp.len + (size_t)n > cap + 4096)
			goto out;
		strbuf_add(&resp, buf, (size_t)n);
	}
	const char *body;
	size_t blen;
	int status = http_resp_split(resp.buf, resp.len, &body, &blen);
	*why = status < 0 ? "not an HTTP answer" : "HTTP status not 200";
	if (status != 200)
		goto out;
	strbuf_add(out, body, blen > cap ? cap : blen);
	rc = 0;
	*why = NULL;
out:
	strbuf_release(&resp);
	close(s);
	return rc;
}
