#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""node --observe end to end, without a GPU.

For each case a sysroot tree of one worker is built (make_tree.py), NIXL's
Prometheus exporter is served from a real HTTP listener on 127.0.0.1, and
the counters of the tree change during the window: the listener rewrites
them right after it answered the probe's first scrape (which the probe
makes as the last reading of its first sample), so the change always falls
inside the window, however slow the machine.  The JSON report's node.live.*
statuses are then compared with what each case must show.

usage: test_observe.py BINARY
Prints "N passed, N failed"; exit 1 on any failure.
"""
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "fixtures", "live"))
import make_tree  # noqa: E402

GIB = 1 << 30


def metrics(tx, rx, errors, old=False):
    if old:
        # NIXL 0.9.0-1.0.1 (prometheus_exporter.cpp): prometheus-cpp
        # counters named without _total, labels sorted, no error counter.
        return ("\n".join([
            "# HELP agent_tx_bytes Number of bytes sent by the agent",
            "# TYPE agent_tx_bytes counter",
            'agent_tx_bytes{agent_name="worker-0",category="NIXL_TELEMETRY_TRANSFER",hostname="decode-0"} %d' % tx,
            "# TYPE agent_rx_bytes counter",
            'agent_rx_bytes{agent_name="worker-0",category="NIXL_TELEMETRY_TRANSFER",hostname="decode-0"} %d' % rx,
        ]) + "\n").encode()
    out = [
        "# HELP agent_tx_bytes_total Number of bytes sent by the agent",
        "# TYPE agent_tx_bytes_total counter",
        'agent_tx_bytes_total{category="NIXL_TELEMETRY_TRANSFER",hostname="decode-0",agent_name="worker-0"} %d' % tx,
        "# TYPE agent_rx_bytes_total counter",
        'agent_rx_bytes_total{category="NIXL_TELEMETRY_TRANSFER",hostname="decode-0",agent_name="worker-0"} %d' % rx,
        "# TYPE agent_errors_total counter",
        'agent_errors_total{hostname="decode-0",agent_name="worker-0",status="NIXL_ERR_REMOTE_DISCONNECT"} %d' % errors,
        "# TYPE process_cpu_seconds_total counter",
        "process_cpu_seconds_total 12.5",
    ]
    return ("\n".join(out) + "\n").encode()


class Case:
    def __init__(self, name, telemetry, before, after, change, expect, path, live):
        self.name, self.telemetry = name, telemetry
        self.before, self.after = before, after   # (tx, rx, errors) per scrape
        self.change = change                      # fn(tree) run once, mid-window
        self.expect = expect                      # {check id: status}
        self.path = path                          # the live section's path
        self.live = live                          # fn(live section) -> [problems]
        self.engine_env = None   # the switches in the engine's /proc/PID/environ only
        self.old = False         # NIXL 0.9-1.0 names


def in_engine_env(case, exporter, port_var):
    case.engine_env = (exporter, port_var)
    return case


def rdma_moved(tree):
    # mlx5 counters are 4-byte words: 1 GiB sent and received on two ports.
    for dev in ("mlx5_0", "mlx5_1"):
        make_tree.counters(tree, dev, 1000 + GIB // 4, 1000 + GIB // 4)


def tcp_moved(tree):
    make_tree.net_dev(tree, 120000000 + 4 * GIB, 80000000 + 4 * GIB)


def nothing(tree):
    pass


def ports_moved(live):
    # 1 GiB each way on mlx5_0/1 and mlx5_1/1, the others flat
    w = live["window"]
    got = {(p["device"], p["port"]): (p["tx_bytes"], p["rx_bytes"]) for p in w["rdma_ports"]}
    want = {("mlx5_0", 1): (GIB, GIB), ("mlx5_1", 1): (GIB, GIB)}
    return ["port %s/%d moved %s, want %s" % (k[0], k[1], got.get(k), v)
            for k, v in want.items() if got.get(k) != v]


def ifs_moved(live):
    got = {i["name"]: (i["tx_bytes"], i["rx_bytes"]) for i in live["window"]["interfaces"]}
    return [] if got.get("eth0") == (4 * GIB, 4 * GIB) else ["eth0 moved %s" % (got.get("eth0"),)]


def errors_grew(live):
    n = live["window"]["nixl"]
    want = [{"status": "NIXL_ERR_REMOTE_DISCONNECT", "delta": 6.0}]
    return [] if n["errors"] == want else ["NIXL errors %s, want %s" % (n["errors"], want)]


def no_nixl(live):
    w = live["window"]
    return [] if w["nixl"] is None and w["nixl_why"] else ["nixl %s" % (w["nixl"],)]


def engine_seen(live):
    p = live["process"]
    errs = [] if p["pid"] == 412 and p["engine"] == "dynamo.vllm" else ["process %s" % p]
    if "UCX" not in live["nixl_plugins"]:
        errs.append("plugins %s" % live["nixl_plugins"])
    if not any(m.startswith("libuct_ib") for m in live["ucx"]["modules"]):
        errs.append("UCX modules %s" % live["ucx"]["modules"])
    if live["descriptors"].count("/dev/infiniband/uverbs0") != 1:
        errs.append("descriptors %s" % live["descriptors"])
    return errs


CASES = [
    Case("rdma", True, (0, 0, 0), (2 * GIB, 2 * GIB, 0), rdma_moved,
         {"node.live.loaded": "ok", "node.live.traffic": "ok", "node.live.errors": "ok"},
         "rdma", lambda l: engine_seen(l) + ports_moved(l)),
    Case("tcp-fallback", True, (0, 0, 0), (4 * GIB, 4 * GIB, 0), tcp_moved,
         {"node.live.traffic": "fail", "node.live.errors": "ok"}, "tcp", ifs_moved),
    Case("errors-growing", True, (GIB, 0, 1), (2 * GIB, 0, 7), rdma_moved,
         {"node.live.traffic": "ok", "node.live.errors": "fail"}, "rdma", errors_grew),
    Case("nothing-moved", True, (5, 5, 0), (5, 5, 0), nothing,
         {"node.live.traffic": "skipped"}, "idle", lambda l: []),
    Case("no-telemetry", False, None, None, rdma_moved,
         {"node.live.traffic": "warn"}, "unknown", no_nixl),
    # The switches only in the engine process's own environment (a launch
    # script set them), none in the probe's: the probe reads them there.
    in_engine_env(Case("engine-env-prometheus", True, (0, 0, 0), (2 * GIB, 2 * GIB, 0),
                       rdma_moved, {"node.live.traffic": "ok"}, "rdma", lambda l: []),
                  "prometheus", "NIXL_TELEMETRY_PROMETHEUS_PORT"),
    # The DOCA exporter has its own port variable (doca_exporter.cpp).
    in_engine_env(Case("engine-env-doca", True, (0, 0, 0), (2 * GIB, 2 * GIB, 0),
                       rdma_moved, {"node.live.traffic": "ok"}, "rdma", lambda l: []),
                  "doca", "NIXL_TELEMETRY_DOCA_PROMETHEUS_PORT"),
]
OLD = Case("nixl-0.9-names", True, (0, 0, 0), (2 * GIB, 2 * GIB, 0), rdma_moved,
           {"node.live.traffic": "ok"}, "rdma", lambda l: [])
OLD.old = True
CASES.append(OLD)


def serve(case, tree):
    state = {"n": 0}

    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            if self.path != "/metrics":
                self.send_error(404)
                return
            first = state["n"] == 0
            body = metrics(*(case.before if first else case.after), old=case.old)
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            if first:
                case.change(tree)
            state["n"] += 1

        def log_message(self, *a):
            pass

    srv = http.server.HTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, state


def run_case(binary, case, tmp, extra=()):
    tree = os.path.join(tmp, case.name)
    make_tree.build("ucx_ib", tree)
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "NO_COLOR": "1"}
    srv = None
    if case.telemetry and case.engine_env:
        srv, state = serve(case, tree)
        exporter, port_var = case.engine_env
        # NUL-separated as the kernel writes it; a secret beside them must
        # never leave the pod.
        with open(os.path.join(tree, "proc/412/environ"), "w") as f:
            f.write("HF_TOKEN=hf_secretsecret\0NIXL_TELEMETRY_EXPORTER=%s\0%s=%d\0"
                    % (exporter, port_var, srv.server_address[1]))
    elif case.telemetry:
        srv, state = serve(case, tree)
        env.update(NIXL_TELEMETRY_ENABLE="y", NIXL_TELEMETRY_EXPORTER="prometheus",
                   NIXL_TELEMETRY_PROMETHEUS_PORT=str(srv.server_address[1]))
    else:
        # No exporter: change the counters once the first sample is surely
        # taken (the probe's first reading), then let the window run.
        timer = threading.Timer(1.5, case.change, [tree])
        timer.start()
    p = subprocess.run([binary, "node", "--sysroot", tree, "--observe", "4", "--json", *extra],
                       env=env, capture_output=True, text=True, timeout=120)
    if srv:
        srv.shutdown()
        srv.server_close()
    try:
        report = json.loads(p.stdout)
    except ValueError:
        return ["not JSON (exit %d): %s %s" % (p.returncode, p.stdout[:300], p.stderr[:300])]
    got = {c["id"]: c for c in report["checks"]}
    errs = []
    if "hf_secret" in p.stdout or "hf_secret" in p.stderr:
        errs.append("a secret of the engine's environment was printed")
    for cid, want in case.expect.items():
        c = got.get(cid)
        if not c:
            errs.append("%s missing" % cid)
        elif c["status"] != want:
            errs.append("%s is %s, want %s: %s" % (cid, c["status"], want, c["detail"]))
    live = report.get("live")
    if not live:
        errs.append("no live section")
    else:
        if live["path"] != case.path:
            errs.append("path %s, want %s: %s" % (live["path"], case.path, live["conclusion"]))
        if live["window"] is None:
            errs.append("live.window is null")
        else:
            errs += case.live(live)
    if case.telemetry and state["n"] != 2:
        errs.append("the probe scraped NIXL's endpoint %d times, want 2" % state["n"])
    return errs


def main():
    binary = os.path.abspath(sys.argv[1])
    passed = failed = 0
    tmp = tempfile.mkdtemp(prefix="observe.")
    try:
        for case in CASES:
            errs = run_case(binary, case, tmp)
            if errs:
                failed += 1
                print("FAIL %s: %s" % (case.name, "; ".join(errs)))
            else:
                passed += 1
                print("ok   %s" % case.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
