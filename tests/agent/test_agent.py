#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The agent verb end to end, without a GPU or a cluster (issue 25).

A sysroot tree of one node with several engine processes in several pods
(cgroup files in the kubelet's forms, /var/log/pods folders and
/var/log/containers links, maps, descriptors, environments), each engine's
NIXL exporter served on 127.0.0.1 (metric names: src/rules/nixl_telemetry.c,
NIXL 1.1.0 on), and a background writer that moves the counters between
scans: RDMA port words for the RDMA engine, eth0 bytes for the TCP one,
NIXL's bytes only for the MNNVL one (it holds an IMEX channel), nothing for
the idle one.  Then:
  - agent --once writes each pod's path; promtool check metrics passes;
  - agent --listen: /metrics and /healthz answer, each pod's path is named;
  - a NIXL restart (its counters start again) keeps kv_bytes_total monotonic;
  - a real Prometheus (Debian's prometheus) scrapes the agent every 1 s; its
    HTTP API shows the series, and a path change (TCP -> RDMA) within two
    scans of the change;
  - SIGTERM: the agent exits 0.
Without prometheus/promtool those parts print SKIP and count as skipped.

usage: test_agent.py BINARY
Prints "N passed, N failed" (", N skipped" when some were); exit 1 on any failure.
"""
import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

MIB = 1 << 20
passed = failed = skipped = 0
children = []


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("PASS " + what)
    else:
        failed += 1
        print("FAIL " + what)
    return cond


def skip(what):
    global skipped
    skipped += 1
    print("SKIP " + what)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


NET_DEV = """Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:     184320    1201    0    0    0     0          0         0     184320    1201    0    0    0     0       0          0
  eth0: {rx:>10}   92013    0    0    0     0          0         0 {tx:>10}   81022    0    0    0     0       0          0
"""

LIBS_UCX = [
    "/opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/plugins/libplugin_UCX.so",
    "/opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/libnixl.so",
    "/usr/local/ucx/lib/libucp.so.0.0.0",
    "/usr/local/ucx/lib/libuct.so.0.0.0",
    "/usr/local/ucx/lib/libucs.so.0.0.0",
    "/usr/local/ucx/lib/ucx/libuct_ib.so.0.0.0",
    "/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.50.0",
    "/usr/lib/x86_64-linux-gnu/libmlx5.so.1.24.50.0",
    "/usr/local/ucx/lib/ucx/libuct_cuda.so.0.0.0",
    "/usr/lib/x86_64-linux-gnu/libc.so.6",
]


def maps_text(libs):
    # /proc/PID/maps lines (the kernel's fs/proc/task_mmu.c show_map_vma).
    out, addr = [], 0x7F2A1C000000
    for i, lib in enumerate(libs):
        for perm, off in (("r--p", 0), ("r-xp", 0x21000), ("rw-p", 0x90000)):
            out.append("%012x-%012x %s %08x 00:3a %d %s" % (addr, addr + 0x21000, perm, off, 20011 + i, lib))
            addr += 0x22000
    out.append("7ffc1c000000-7ffc1c021000 rw-p 00000000 00:00 0      [stack]")
    return "\n".join(out) + "\n"


class Exporter:
    """NIXL's Prometheus exporter (1.1.0 on: agent_tx_bytes_total,
    agent_rx_bytes_total) on 127.0.0.1, its counters set by the writer."""

    def __init__(self):
        self.tx = self.rx = 0
        self.lock = threading.Lock()
        ex = self

        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                with ex.lock:
                    body = ("# TYPE agent_tx_bytes_total counter\n"
                            'agent_tx_bytes_total{category="NIXL_TELEMETRY_TRANSFER",agent_name="w"} %d\n'
                            "# TYPE agent_rx_bytes_total counter\n"
                            'agent_rx_bytes_total{category="NIXL_TELEMETRY_TRANSFER",agent_name="w"} %d\n'
                            % (ex.tx, ex.rx)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; version=0.0.4")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.port = self.srv.server_address[1]
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()

    def add(self, n):
        with self.lock:
            self.tx += n // 2
            self.rx += n - n // 2

    def restart(self):
        with self.lock:
            self.tx = self.rx = 1000

    def total(self):
        with self.lock:
            return self.tx + self.rx

    def stop(self):
        self.srv.shutdown()
        self.srv.server_close()


# (pid, namespace, pod, uid, container, container id, cgroup form, kind)
PODS = [
    (1101, "dynamo", "decode-rdma", "6f1c2e3a-1b2c-4d5e-8f90-0a1b2c3d4e5f", "main",
     "a1" * 32, "systemd-containerd", "rdma"),
    (1202, "dynamo", "decode-tcp", "7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d", "main",
     "b2" * 32, "cgroupfs", "tcp"),
    (1303, "infer", "prefill-mnnvl", "8b3c4d5e-6f7a-4b2c-8d3e-4f5a6b7c8d9e", "worker",
     "c3" * 32, "systemd-crio", "mnnvl"),
    (1404, "infer", "prefill-idle", "9c4d5e6f-7a8b-4c3d-9e4f-5a6b7c8d9e0f", "worker",
     "d4" * 32, "v1", "idle"),
]
UNNAMED_PID = 1505


def cgroup_text(form, uid, cid):
    esc = uid.replace("-", "_")
    if form == "systemd-containerd":
        return ("0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod%s.slice/"
                "cri-containerd-%s.scope\n" % (esc, cid))
    if form == "systemd-crio":
        return "0::/kubepods.slice/kubepods-pod%s.slice/crio-%s.scope\n" % (esc, cid)
    if form == "cgroupfs":
        return "0::/kubepods/besteffort/pod%s/%s\n" % (uid, cid)
    return ("12:memory:/kubepods/burstable/pod%s/%s\n"
            "11:cpu,cpuacct:/kubepods/burstable/pod%s/%s\n"
            "1:name=systemd:/kubepods/burstable/pod%s/%s\n" % (uid, cid, uid, cid, uid, cid))


class Node:
    def __init__(self, root):
        self.root = root
        self.exp = {}
        self.net = {}      # pid -> [rx, tx]
        self.words = 1000  # mlx5_0 port 1 data words (x4 bytes)
        self.rdma_pids = {1101}
        self.lock = threading.Lock()
        write(os.path.join(root, "proc/sys/kernel/hostname"), "gpu-node-7\n")
        write(os.path.join(root, "sys/class/infiniband_verbs/uverbs0/ibdev"), "mlx5_0\n")
        write(os.path.join(root, "sys/class/infiniband/mlx5_0/ports/1/state"), "4: ACTIVE\n")
        self.write_words()
        for pid, ns, pod, uid, ctr, cid, form, kind in PODS:
            e = Exporter()
            self.exp[pid] = e
            self.engine(pid, kind, e.port, cgroup_text(form, uid, cid))
            os.makedirs(os.path.join(root, "var/log/pods", "%s_%s_%s" % (ns, pod, uid), ctr), exist_ok=True)
            link = os.path.join(root, "var/log/containers", "%s_%s_%s-%s.log" % (pod, ns, ctr, cid))
            os.makedirs(os.path.dirname(link), exist_ok=True)
            os.symlink("/var/log/pods/%s_%s_%s/%s/0.log" % (ns, pod, uid, ctr), link)
        # an engine outside any pod: still reported, never dropped
        self.engine(UNNAMED_PID, "idle", 0, "0::/system.slice/vllm.service\n", nixl=False)
        # a process that is no engine
        write(os.path.join(root, "proc/1/cmdline"), "/sbin/init\0")
        write(os.path.join(root, "proc/1/maps"), maps_text(["/usr/lib/x86_64-linux-gnu/libc.so.6"]))

    def engine(self, pid, kind, port, cgroup, nixl=True):
        p = os.path.join(self.root, "proc", str(pid))
        write(os.path.join(p, "cmdline"), "python3\0-m\0dynamo.vllm\0--model\0Qwen/Qwen3-0.6B\0")
        write(os.path.join(p, "comm"), "python3\n")
        write(os.path.join(p, "maps"), maps_text(LIBS_UCX if nixl else LIBS_UCX[2:]))
        write(os.path.join(p, "cgroup"), cgroup)
        env = ["PATH=/usr/bin", "HF_TOKEN=hf_secretvalue", "UCX_TLS=rc,cuda_copy"]
        if port:
            env += ["NIXL_TELEMETRY_ENABLE=y", "NIXL_TELEMETRY_EXPORTER=prometheus",
                    "NIXL_TELEMETRY_PROMETHEUS_PORT=%d" % port]
        write(os.path.join(p, "environ"), "\0".join(env) + "\0")
        write(os.path.join(p, "limits"), "Max locked memory         unlimited            unlimited            bytes\n")
        fd = os.path.join(p, "fd")
        os.makedirs(fd, exist_ok=True)
        links = {"0": "/dev/null", "3": "socket:[4711]"}
        if kind == "rdma":
            links["17"] = "/dev/infiniband/uverbs0"
        if kind == "mnnvl":
            links["18"] = "/dev/nvidia-caps-imex-channels/channel0"
        for n, t in links.items():
            os.symlink(t, os.path.join(fd, n))
        self.net[pid] = [120000000, 80000000]
        self.write_net(pid)

    def write_net(self, pid):
        rx, tx = self.net[pid]
        write(os.path.join(self.root, "proc", str(pid), "net/dev"), NET_DEV.format(rx=rx, tx=tx))

    def write_words(self):
        for c in ("port_xmit_data", "port_rcv_data"):
            write(os.path.join(self.root, "sys/class/infiniband/mlx5_0/ports/1/counters", c),
                  "%d\n" % self.words)

    def tcp_to_rdma(self):
        """The TCP pod's engine now holds the RDMA device and its bytes
        cross it (a rollout fixed its UCX)."""
        with self.lock:
            os.symlink("/dev/infiniband/uverbs0", os.path.join(self.root, "proc/1202/fd/17"))
            self.rdma_pids.add(1202)

    def tick(self):
        with self.lock:
            step = {1101: 64 * MIB, 1202: 32 * MIB, 1303: 16 * MIB}
            for pid, n in step.items():
                self.exp[pid].add(n)
                if pid in self.rdma_pids:
                    self.words += n // 4
                elif pid == 1202:
                    self.net[pid][1] += n // 2
                    self.net[pid][0] += n - n // 2
                    self.write_net(pid)
            self.write_words()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def get(url, timeout=3):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, "", ""
    except OSError:
        return 0, "", ""


def series(text):
    """{(name, frozenset(labels)): value}"""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, rest = line.partition("{")
        labels, _, val = rest.rpartition("} ")
        d = {}
        for part in labels.split('",'):
            k, _, v = part.partition('="')
            d[k] = v.rstrip('"')
        out[(name, frozenset(d.items()))] = float(val)
    return out


def value(s, name, **labels):
    for (n, ls), v in s.items():
        if n == name and set(labels.items()) <= set(ls):
            return v
    return None


def path_of(s, pod):
    for (n, ls), v in s.items():
        d = dict(ls)
        if n == "check_interconnect_engine_kv_path" and d.get("pod") == pod and v == 1:
            return d["path"]
    return None


EXPECT = {"decode-rdma": "rdma", "decode-tcp": "tcp", "prefill-mnnvl": "mnnvl", "prefill-idle": "idle"}


def check_promtool(text, what):
    promtool = shutil.which("promtool")
    if not promtool:
        skip("promtool check metrics (%s): promtool not installed" % what)
        return
    r = subprocess.run([promtool, "check", "metrics"], input=text.encode(), capture_output=True)
    ok(r.returncode == 0, "promtool check metrics passes (%s) %s" % (what, r.stdout.decode() + r.stderr.decode()))


def prom_query(port, q):
    st, _, body = get("http://127.0.0.1:%d/api/v1/query?query=%s" % (port, urllib.parse.quote(q)))
    if st != 200:
        return None
    return json.loads(body)["data"]["result"]


def main():
    binary = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="ci-agent-")
    root = os.path.join(tmp, "root")
    node = Node(root)
    stop = threading.Event()

    def writer():
        while not stop.wait(0.25):
            node.tick()

    threading.Thread(target=writer, daemon=True).start()
    try:
        run(binary, tmp, root, node)
    finally:
        stop.set()
        for p in children:
            if p.poll() is None:
                p.kill()
                p.wait()
        for e in node.exp.values():
            e.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed) + (", %d skipped" % skipped if skipped else ""))
    return 1 if failed else 0


def run(binary, tmp, root, node):
    env = dict(os.environ, NODE_NAME="")
    # --once: two samples a window apart, for the textfile collector; a 3 s
    # window holds about 12 of the writer's ticks, so that one tick read by
    # one counter of a sample and not by the other (the writer runs beside
    # the agent) cannot tip a path on a loaded machine
    out = os.path.join(tmp, "once.prom")
    r = subprocess.run([binary, "agent", "--once", "--interval", "3s", "--sysroot", root,
                        "--format", "prometheus", "--output", out],
                       capture_output=True, env=env, timeout=120)
    ok(r.returncode == 0, "agent --once exits 0 (%s)" % r.stderr.decode().strip())
    text = open(out).read() if os.path.exists(out) else ""
    s = series(text)
    for pod, path in EXPECT.items():
        ok(path_of(s, pod) == path, "--once: %s takes %s (saw %s)" % (pod, path, path_of(s, pod)))
    ok(value(s, "check_interconnect_engine_kv_path", namespace="dynamo", pod="decode-rdma",
             container="main", node="gpu-node-7", path="rdma") == 1,
       "--once: the RDMA pod is named namespace/pod/container, node from the root's hostname")
    ok(value(s, "check_interconnect_engine_kv_path", namespace="unknown", pod="unknown",
             container="pid-%d" % UNNAMED_PID, path="unknown") is not None,
       "--once: an engine outside any pod is reported with unknown labels")
    ok(value(s, "check_interconnect_engines") == 5, "--once: five engines found")
    ok(value(s, "check_interconnect_node_verdict", verdict="ready") is not None,
       "--once: the node verdict series are there")
    ok("hf_secretvalue" not in text, "--once: no secret of an engine's environment")
    check_promtool(text, "--once")

    # the served agent
    port = free_port()
    agent = subprocess.Popen([binary, "agent", "--sysroot", root, "--interval", "1s",
                              "--listen", "127.0.0.1:%d" % port],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    children.append(agent)
    prom = start_prometheus(tmp, port)
    deadline = time.time() + 60
    s = {}
    while time.time() < deadline:
        st, ctype, body = get("http://127.0.0.1:%d/metrics" % port)
        if st == 200:
            s = series(body)
            if all(path_of(s, p) == v for p, v in EXPECT.items()):
                break
        time.sleep(0.5)
    ok(st == 200 and ctype.startswith("text/plain; version=0.0.4"),
       "/metrics answers 200 with text/plain; version=0.0.4 (%s)" % ctype)
    for pod, path in EXPECT.items():
        ok(path_of(s, pod) == path, "served: %s takes %s (saw %s)" % (pod, path, path_of(s, pod)))
    check_promtool(body, "served")
    st, _, _ = get("http://127.0.0.1:%d/healthz" % port)
    ok(st == 200, "/healthz answers 200 after a scan")
    st, _, _ = get("http://127.0.0.1:%d/nothing" % port)
    ok(st == 404, "another path is 404")

    # a NIXL restart: its counters start again; the agent's do not fall
    before = value(s, "check_interconnect_engine_kv_bytes_total", pod="decode-rdma", path="rdma") or 0
    ok(before > 0, "kv_bytes_total of the RDMA pod counts (%d)" % before)
    def by_path(s):
        return {dict(ls)["path"]: v for (n, ls), v in s.items()
                if n == "check_interconnect_engine_kv_bytes_total" and dict(ls).get("pod") == "decode-rdma"}

    node.exp[1101].restart()
    seen = [by_path(s)]
    t_end = time.time() + 6
    while time.time() < t_end:
        st, _, body = get("http://127.0.0.1:%d/metrics" % port)
        if st == 200:
            seen.append(by_path(series(body)))
        time.sleep(0.3)
    falls = ["%s %d -> %d" % (p, a[p], b.get(p, -1)) for a, b in zip(seen, seen[1:])
             for p in a if b.get(p, -1) < a[p]]
    negative = [p for x in seen for p, v in x.items() if v < 0]
    ok(not falls and not negative and seen[-1].get("rdma", 0) > before,
       "a NIXL restart keeps every kv_bytes_total series monotonic (%s), rdma growing (%d -> %d)"
       % ("; ".join(falls + negative) or "none fell", before, seen[-1].get("rdma", 0)))

    # the path change, seen by Prometheus within two scans
    if prom:
        pport = prom
        deadline = time.time() + 60
        res = None
        while time.time() < deadline:
            res = prom_query(pport, 'check_interconnect_engine_kv_path{pod="decode-tcp",path="tcp"}')
            if res and res[0]["value"][1] == "1":
                break
            time.sleep(0.5)
        ok(bool(res) and res[0]["value"][1] == "1", "Prometheus: decode-tcp's path is tcp")
        res = prom_query(pport, 'sum by (path) (check_interconnect_engine_kv_path{namespace=~"dynamo|infer"})')
        ok(res is not None and {r["metric"]["path"]: r["value"][1] for r in res}.get("rdma") == "1",
           "Prometheus: one engine on rdma")
        res = prom_query(pport, 'check_interconnect_engine_kv_bytes_total{pod="decode-rdma",path="rdma"}')
        ok(bool(res) and float(res[0]["value"][1]) > 0, "Prometheus: kv_bytes_total of decode-rdma > 0")
        # the scans the agent completed when the change was made, and in
        # the first scrape Prometheus holds that shows it: at most two
        # scans after the change (counted, not timed: a loaded machine
        # stretches the seconds, not the scans)
        st, _, body = get("http://127.0.0.1:%d/metrics" % port)
        scans0 = value(series(body), "check_interconnect_scans_total")
        t0 = time.time()
        node.tcp_to_rdma()
        scans1 = None
        while time.time() < t0 + 60:
            res = prom_query(pport, 'check_interconnect_scans_total and on(node) '
                             'check_interconnect_engine_kv_path{pod="decode-tcp",path="rdma"} == 1')
            if res:
                scans1 = float(res[0]["value"][1])
                break
            time.sleep(0.2)
        ok(scans0 is not None and scans1 is not None and scans1 - scans0 <= 2,
           "Prometheus: the TCP->RDMA change is seen within two scans (scan %s -> %s, %.1f s)"
           % (scans0, scans1, time.time() - t0))
    else:
        node.tcp_to_rdma()

    agent.send_signal(signal.SIGTERM)
    try:
        rc = agent.wait(timeout=15)
    except subprocess.TimeoutExpired:
        rc = None
    ok(rc == 0, "SIGTERM: the agent exits 0 (%s)" % rc)


def start_prometheus(tmp, agent_port):
    exe = shutil.which("prometheus")
    if not exe:
        skip("a real Prometheus scraping the agent: prometheus not installed")
        return None
    port = free_port()
    cfg = os.path.join(tmp, "prometheus.yml")
    write(cfg, "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
               "scrape_configs:\n  - job_name: check_interconnect\n"
               "    static_configs:\n      - targets: ['127.0.0.1:%d']\n" % agent_port)
    p = subprocess.Popen([exe, "--config.file=" + cfg, "--storage.tsdb.path=" + os.path.join(tmp, "tsdb"),
                          "--web.listen-address=127.0.0.1:%d" % port, "--log.level=error"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp)
    children.append(p)
    deadline = time.time() + 60
    while time.time() < deadline:
        if get("http://127.0.0.1:%d/-/ready" % port)[0] == 200:
            return port
        time.sleep(0.5)
    ok(False, "prometheus became ready")
    return None


if __name__ == "__main__":
    import urllib.parse  # noqa: E402
    sys.exit(main())
