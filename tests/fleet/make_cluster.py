#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Synthesise a cluster of N worker pods for tests/fakes/kubectl (and the
bench's cheaper fake): OUT/_pods.json (one compact pod object per pod,
alternating prefill/decode, two pods per node) and OUT/POD/{transcript,
latency_ms, mode}.  The transcripts are the real saved ones in
tests/fixtures/fleet/transcripts, linked.

usage: make_cluster.py N OUT [--latency MS] [--mix] [--json-only]
  --mix   vary the pods: a port down, another UCX_TLS, every 50th pod forbidden,
          every 97th not Running (the streaming test's mixed fleet)
  --json-only  write OUT/_pods.json only (bench/fake_kubectl answers every pod
               with one transcript)
"""
import argparse
import json
import os

ap = argparse.ArgumentParser()
ap.add_argument("n", type=int)
ap.add_argument("out")
ap.add_argument("--latency", type=int, default=0)
ap.add_argument("--mix", action="store_true")
ap.add_argument("--json-only", action="store_true")
a = ap.parse_args()
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
tdir = os.path.join(root, "tests", "fixtures", "fleet", "transcripts")
os.makedirs(a.out, exist_ok=True)
items = []
for i in range(a.n):
    role = "prefill" if i % 2 == 0 else "decode"
    name = "fleet-%s-%05d" % (role, i)
    phase = "Pending" if a.mix and i % 97 == 96 else "Running"
    items.append({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "dynamo", "labels": {
            "nvidia.com/dynamo-component": "VllmPrefillWorker" if role == "prefill" else "VllmDecodeWorker",
            "nvidia.com/dynamo-component-type": "worker",
            "nvidia.com/dynamo-graph-deployment-name": "llm-disagg",
            "nvidia.com/dynamo-sub-component-type": role}},
        "spec": {"nodeName": "gpu-node-%04d" % (i // 2), "containers": [{"name": "main"}]},
        "status": {"phase": phase, "podIP": "10.%d.%d.%d" % (i >> 16, (i >> 8) & 255, i & 255),
                   "containerStatuses": [{"name": "main", "ready": True,
                                          "state": {"running": {}}}]},
    })
    if a.json_only:
        continue
    d = os.path.join(a.out, name)
    os.makedirs(d, exist_ok=True)
    t = "ib_ok.txt"
    if a.mix and i % 7 == 3:
        t = "ib_port_down.txt"
    elif a.mix and i % 11 == 5:
        t = "ib_tls_rc.txt"
    os.symlink(os.path.join(tdir, t), os.path.join(d, "transcript"))
    if a.latency:
        with open(os.path.join(d, "latency_ms"), "w") as f:
            f.write("%d\n" % a.latency)
    if a.mix and i % 50 == 49:
        with open(os.path.join(d, "mode"), "w") as f:
            f.write("forbidden\n")
with open(os.path.join(a.out, "_pods.json"), "w") as f:
    json.dump({"apiVersion": "v1", "kind": "List", "items": items,
               "metadata": {"resourceVersion": ""}}, f, separators=(",", ":"))
