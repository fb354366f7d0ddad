#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 24: a --bundle holds no secret, wherever the secret was planted.

Canaries (CANARY...) are planted in every place the tool reads a value
from: the worker's environment (pid 1's and the engine's /proc/PID/environ
in the pod, and the exec shell's own), NIXL's telemetry labels (an exporter
on loopback), the worker's log (kubectl logs), and the kubeconfig (a token,
a password, a URL password).  One pod is probed with --observe and --logs
into a bundle; every byte of every entry of the tar is searched for them,
and the report printed too.  The bundle must also show <redacted> (the
secrets were read and withheld, not missed), and replay offline without
them.  Without the one redaction rule (core/redact.c) this test fails.

usage: test_bundle_canary.py BINARY
"""
import gzip
import http.server
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, "..", ".."))
sys.path.insert(0, os.path.join(root, "tests", "fixtures", "live"))
import make_tree  # noqa: E402

KUBECTL = os.path.join(root, "tests", "fakes", "kubectl")


def metrics(n):
    lab = ('hostname="http://nixl:CANARYTM1@etcd:2379",agent_name="worker token=CANARYTM2",'
           'api_token="CANARYTM3",detail="{\\"password\\": \\"CANARYTM4\\"}"')
    return ("# TYPE agent_tx_bytes_total counter\n"
            'agent_tx_bytes_total{%s} %d\n'
            'agent_errors_total{%s,status="Bearer CANARYTM5"} %d\n'
            % (lab, 1000 + n, lab, n)).encode()


def serve():
    state = {"n": 0}

    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            body = metrics(state["n"])
            state["n"] += 1
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


KUBECONFIG = """apiVersion: v1
kind: Config
current-context: gpu
clusters:
- cluster:
    server: https://admin:CANARYKC1@127.0.0.1:6443
  name: gpu
contexts:
- context:
    cluster: gpu
    namespace: dynamo
    user: operator
  name: gpu
users:
- name: operator
  user:
    token: CANARYKC2
    password: CANARYKC3
    client-key-data: CANARYKC4
"""

LOG = """2026-12-02T01:00:00.000000000Z [1716594409.541480] [w:1:0] sock.c:323 UCX ERROR connect(fd=87, dest_addr=http://u:CANARYLG1@172.17.0.1:47133) failed: Connection refused
2026-12-02T01:00:01.000000000Z pml_ucx.c:419 Error: ucp_ep_create failed: Destination is unreachable password=CANARYLG2
2026-12-02T01:00:02.000000000Z NIXL_ERR_BACKEND Authorization: Bearer CANARYLG3
2026-12-02T01:00:03.000000000Z W1202 01:00:03.000000  412 rpc_communicator.cpp:93] Falling back to TCP mode {"password": "CANARYLG4"} --token CANARYLG5
"""


def environ(pairs):
    return "".join("%s=%s\0" % kv for kv in pairs)


def main():
    binary = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="canary.")
    fails = []
    srv = serve()
    try:
        tree = os.path.join(tmp, "tree")
        make_tree.build("ucx_ib", tree)
        port = str(srv.server_address[1])
        tm = [("NIXL_TELEMETRY_ENABLE", "y"), ("NIXL_TELEMETRY_EXPORTER", "prometheus"),
              ("NIXL_TELEMETRY_PROMETHEUS_PORT", port)]
        secrets = [("NIXL_ETCD_ENDPOINTS", "http://nixl:CANARYEV1@etcd:2379"),
                   ("UCX_IB_TOKEN", "CANARYEV2"), ("NIXL_ETCD_PASSWORD", "CANARYEV3")]
        for pid in ("1", "412"):
            with open(os.path.join(tree, "proc", pid, "environ"), "w") as f:
                f.write(environ(secrets + tm))
        kc = os.path.join(tmp, "kubeconfig")
        with open(kc, "w") as f:
            f.write(KUBECONFIG)
        log = os.path.join(tmp, "worker.log")
        with open(log, "w") as f:
            f.write(LOG)
        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "NO_COLOR": "1", "HOME": tmp,
               "FAKE_KUBECTL_SYSROOT": tree, "FAKE_KUBECTL_LOGS": log,
               # the exec shell's own environment (the probe's env:exec)
               "NCCL_IB_SECRET": "CANARYEX1", "UCX_PASSWORD": "CANARYEX2",
               "FI_EFA_ENDPOINT": "https://k:CANARYEX3@x", **dict(tm)}
        bundle = os.path.join(tmp, "b.tar.gz")
        p = subprocess.run([binary, "node", "-n", "dynamo", "--pod", "vllm-decode-0",
                            "--kubectl", KUBECTL, "--kubeconfig", kc, "--observe", "1",
                            "--logs", "-v", "--bundle", bundle],
                           env=env, capture_output=True, text=True, timeout=180)
        printed = p.stdout + p.stderr
        if not os.path.exists(bundle):
            fails.append("no bundle written (rc %d): %s" % (p.returncode, printed[-400:]))
            raise SystemExit
        if "CANARY" in printed:
            fails.append("the printed report shows a canary: %s" % sorted(
                {w for w in printed.split() if "CANARY" in w})[:5])
        seen_redacted = False
        with tarfile.open(bundle, "r:gz") as t:
            members = t.getmembers()
            for m in members:
                if not m.isfile():
                    continue
                data = t.extractfile(m).read()
                seen_redacted = seen_redacted or b"redacted" in data
                i = data.find(b"CANARY")
                if i >= 0:
                    fails.append("%s holds a canary: %r" % (m.name, data[max(0, i - 60):i + 20]))
        if len(members) < 3:
            fails.append("the bundle holds %d entries: %s" % (len(members),
                                                               [m.name for m in members]))
        if not seen_redacted:
            fails.append("no <redacted> anywhere in the bundle: were the secrets read?")
        # the bundle replays offline, and the replay shows none either
        r = subprocess.run([binary, "node", "-v", "--replay", bundle, "--kubectl", "/nonexistent"],
                           env=env, capture_output=True, text=True, timeout=60)
        if "CANARY" in r.stdout + r.stderr:
            fails.append("the replayed report shows a canary")
        # the raw bytes too (gzip of the whole file): nothing past the tar
        with open(bundle, "rb") as f:
            raw = gzip.decompress(f.read())
        if b"CANARY" in raw and not fails:
            fails.append("the decompressed archive holds a canary outside its entries")
    except SystemExit:
        pass
    finally:
        srv.shutdown()
        srv.server_close()
        shutil.rmtree(tmp)
    for f in fails:
        print("FAIL: " + f)
    print("%d passed, %d failed" % (0 if fails else 1, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
