#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 23: NIXL's telemetry, as hostile as an exporter can be, end to end.

1. Secrets in the exporter's labels (a Bearer token, token=, a URL
   password, a JSON password, a secret-named label) reach no output format
   (text, -v, json, sarif, prometheus, junit, nagios, npd) and not the
   --save-probe transcript; each run shows "<redacted>" (it read them).

usage: test_telemetry_bounds.py BINARY
"""
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading

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
    finally:
        shutil.rmtree(tmp)
    for f in fails:
        print("FAIL: " + f)
    print("%d passed, %d failed" % (0 if fails else 1, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
