#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 23: NIXL's telemetry, as hostile as an exporter can be, end to end.

1. Secrets in the exporter's labels (a Bearer token, token=, a URL
   password, a JSON password, a secret-named label) reach no output format
   (text, -v, json, sarif, prometheus, junit, nagios, npd) and not the
   --save-probe transcript; each run shows "<redacted>" (it read them).
2. An exporter that never ends its reply (agent_* lines, forever): the probe
   reads at most NIXL_TM_SCRAPE_MAX bytes of it and ends well inside its
   deadline, its memory stays bounded (the largest process of the run, by
   getrusage in a child), every other finding of a run against a sane
   exporter is still there, and node.live.errors says "cut at N bytes"
   (skipped), never ok.

usage: test_telemetry_bounds.py BINARY
"""
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "fixtures", "live"))
import make_tree  # noqa: E402

FORMATS = {"text": [], "verbose": ["-v"], "json": ["--format", "json"],
           "sarif": ["--format", "sarif"], "prometheus": ["--format", "prometheus"],
           "junit": ["--format", "junit"], "nagios": ["--format", "nagios"],
           "npd": ["--format", "npd"]}


def secret_metrics(n):
    lab = ('hostname="http://nixl:CANARY43@etcd:2379",agent_name="worker token=CANARY42",'
           'api_token="CANARY45",detail="{\\"password\\": \\"CANARY44\\"}"')
    return ("# TYPE agent_tx_bytes_total counter\n"
            'agent_tx_bytes_total{%s} %d\n'
            "# TYPE agent_errors_total counter\n"
            'agent_errors_total{%s,status="Bearer CANARY41"} %d\n'
            'agent_errors_total{%s,status="NIXL_ERR_REMOTE_DISCONNECT password=CANARY46"} %d\n'
            % (lab, 1000 + n, lab, 3 * n, lab, 2 * n)).encode()


def serve(body_fn):
    state = {"n": 0}

    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            body = body_fn(state["n"])
            state["n"] += 1
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


SCRAPE_MAX = 1048576   # src/rules/nixl_telemetry.h NIXL_TM_SCRAPE_MAX
RSS_MAX_KB = 100 * 1024   # the old probe's shell passed 600 MB
SENT_MAX = 16 << 20   # 1 MiB read + the loopback socket buffers (~4 MB)
DEADLINE = 20


def serve_endless(sent):
    """An exporter that sends agent_* lines until the reader goes away; each
    reply's byte count is appended to `sent` when it ends."""
    line = b'agent_tx_bytes_total{hostname="w0",agent_name="a"} 1\n' * 16384

    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.end_headers()
            n = 0
            try:
                while True:
                    self.wfile.write(line)
                    n += len(line)
            except OSError:
                pass
            sent.append(n)

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


# Runs ARGV in a child Python and prints the largest resident size of any
# process it waited for (ru_maxrss of RUSAGE_CHILDREN, KiB) on stderr last.
RSS_WRAP = ("import resource,subprocess,sys\n"
            "r=subprocess.run(sys.argv[1:])\n"
            "sys.stderr.write('\\nmaxrss=%d\\n'%resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
            "sys.exit(r.returncode)\n")


def run_json(binary, tree, env):
    p = subprocess.run([sys.executable, "-c", RSS_WRAP, binary, "node", "--sysroot", tree,
                        "--observe", "1", "--timeout", str(DEADLINE), "--format", "json"],
                       env=env, capture_output=True, text=True, timeout=DEADLINE * 3)
    rss = int(p.stderr.rsplit("maxrss=", 1)[1]) if "maxrss=" in p.stderr else -1
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    return p, doc, rss


def checks_of(doc):
    out = {}
    for t in (doc or {}).get("targets", [doc or {}]):
        for c in t.get("checks", []):
            out[c.get("id")] = c
    return out


def endless(binary, tmp, fails):
    tree = os.path.join(tmp, "tree2")
    make_tree.build("ucx_ib", tree)
    base_env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "NO_COLOR": "1",
                "NIXL_TELEMETRY_ENABLE": "y", "NIXL_TELEMETRY_EXPORTER": "prometheus"}
    sane = serve(lambda n: ("# TYPE agent_tx_bytes_total counter\n"
                            'agent_tx_bytes_total{hostname="w0",agent_name="a"} %d\n'
                            % (1000 + n)).encode())
    env = dict(base_env, NIXL_TELEMETRY_PROMETHEUS_PORT=str(sane.server_address[1]))
    _, doc, _ = run_json(binary, tree, env)
    sane.shutdown()
    sane.server_close()
    want = set(checks_of(doc))
    if not want:
        fails.append("endless: the run against a sane exporter gave no checks (test broken)")
        return
    sent = []
    srv = serve_endless(sent)
    env = dict(base_env, NIXL_TELEMETRY_PROMETHEUS_PORT=str(srv.server_address[1]))
    t0 = time.monotonic()
    p, doc, rss = run_json(binary, tree, env)
    took = time.monotonic() - t0
    time.sleep(0.5)   # the handler threads see the reader gone
    srv.shutdown()
    srv.server_close()
    got = checks_of(doc)
    if doc is None:
        fails.append("endless: no JSON report (rc %d): %s" % (p.returncode, p.stderr[-300:]))
        return
    if took >= DEADLINE:
        fails.append("endless: the run took %.1f s, past its --timeout %d" % (took, DEADLINE))
    # what the reader took before it hung up: the cap plus the socket
    # buffers (the old scrape read for 3 s: hundreds of MB)
    if not sent or max(sent) > SENT_MAX:
        fails.append("endless: the scrape read %s bytes of the reply (bound %d)"
                     % (sent, SENT_MAX))
    if rss < 0 or rss > RSS_MAX_KB:
        fails.append("endless: the largest process grew to %d KiB (bound %d)" % (rss, RSS_MAX_KB))
    lost = sorted(i for i in want - set(got) if i != "node.live.errors")
    if lost:
        fails.append("endless: findings lost against the endless exporter: %s" % lost[:8])
    e = got.get("node.live.errors")
    cut = "cut at %d bytes" % SCRAPE_MAX
    if not e or e.get("status") == "ok" or cut not in json.dumps(e):
        fails.append("endless: node.live.errors does not say %r: %s" % (cut, json.dumps(e)[:300]))
    for i, c in got.items():
        if i.startswith("node.live.") and i != "node.live.process" and i != "node.live.loaded" \
                and c.get("status") == "ok":
            fails.append("endless: %s is ok on a telemetry that was cut" % i)


def main():
    binary = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="telemetry.")
    fails = []
    try:
        tree = os.path.join(tmp, "tree")
        make_tree.build("ucx_ib", tree)
        srv = serve(secret_metrics)
        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "NO_COLOR": "1",
               "NIXL_TELEMETRY_ENABLE": "y", "NIXL_TELEMETRY_EXPORTER": "prometheus",
               "NIXL_TELEMETRY_PROMETHEUS_PORT": str(srv.server_address[1])}
        saved = os.path.join(tmp, "saved.txt")
        for name, args in FORMATS.items():
            extra = ["--save-probe", saved, "--force"] if name == "json" else []
            p = subprocess.run([binary, "node", "--sysroot", tree, "--observe", "1", *args,
                                *extra], env=env, capture_output=True, text=True, timeout=120)
            out = p.stdout + p.stderr
            if "CANARY" in out:
                fails.append("%s: a label's secret is shown: %s" % (
                    name, sorted(set(w for w in out.split() if "CANARY" in w))[:4]))
            if name in ("text", "verbose", "json") and "redacted" not in out:
                fails.append("%s: no <redacted>: were the labels read? %s" % (name, out[-300:]))
        text = open(saved, errors="replace").read() if os.path.exists(saved) else ""
        if "live:nixl" not in text:
            fails.append("--save-probe: no telemetry section was saved")
        if "CANARY" in text:
            fails.append("--save-probe: the transcript keeps a label's secret")
        # the saved transcript replays to a report without them either
        p = subprocess.run([binary, "node", "-v", "--replay", saved], env=env,
                           capture_output=True, text=True, timeout=60)
        if "CANARY" in p.stdout + p.stderr:
            fails.append("--replay of the saved transcript shows a secret")
        srv.shutdown()
        srv.server_close()
        endless(binary, tmp, fails)
    finally:
        shutil.rmtree(tmp)
    for f in fails:
        print("FAIL: " + f)
    print("%d passed, %d failed" % (0 if fails else 2, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
