#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fleet --observe at 64 pods through the fake kubectl (issue 22): with
# --jobs 64 every exec runs at once, so the pods share one window, measured
# by each exec's start and end on this machine's clock (fleet.live.window
# ok); the one pod that stayed flat among 63 moving peers is named
# (fleet.live.flat); with --jobs 16 the pods are observed in successive
# windows and nothing is compared.  Each exec holds its pod 6 s (a 6 s
# window, FAKE_KUBECTL latency) before it answers with its saved window.
# usage: observe64.sh BIN
set -euo pipefail
bin=${1:?BIN}
# built at test time by tests/fixtures/fleet/clusters.py (via trees.py)
src=$(python3 tests/fixtures/trees.py)/fleet/live_one_flat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$src" "$tmp/cluster" <<'PY'
import copy, json, os, sys
src, out = sys.argv[1], sys.argv[2]
items = json.load(open(os.path.join(src, "_pods.json")))["items"]
tmpl = {("prefill" if "prefill" in i["metadata"]["name"] else "decode"): i
        for i in items if "worker" in i["metadata"]["name"]}
os.makedirs(out)
pods = [i for i in items if "worker" not in i["metadata"]["name"]]
for n in range(64):
    role = "prefill" if n % 2 == 0 else "decode"
    p = copy.deepcopy(tmpl[role])
    name = "llm-disagg-vllm%sworker-%d" % (role, n // 2)
    p["metadata"]["name"] = name
    p["spec"]["nodeName"] = "gpu-node-%d" % (n // 2)
    pods.append(p)
    d = os.path.join(out, name)
    os.makedirs(d)
    # pod 17 (a decode) replays the flat pod's window, the others a moving one
    moving = "llm-disagg-vllm%sworker-0" % role
    from_ = "llm-disagg-vllmdecodeworker-1" if n == 17 else moving
    os.symlink(os.path.abspath(os.path.join(src, from_, "transcript")),
               os.path.join(d, "transcript"))
    open(os.path.join(d, "latency_ms"), "w").write("6000\n")
json.dump({"apiVersion": "v1", "kind": "List", "items": pods},
          open(os.path.join(out, "_pods.json"), "w"))
PY
export FAKE_KUBECTL_PODS_DIR=$tmp/cluster
run() { # JOBS
	"$bin" node --deployment llm-disagg -n dynamo --kubectl tests/fakes/kubectl \
		--observe 2 --jobs "$1" --json >"$tmp/out.json" 2>"$tmp/err" || true
	python3 - "$tmp/out.json" "$1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
jobs = int(sys.argv[2])
ck = {c["id"]: c for c in doc["checks"] if c["id"].startswith("fleet.live.")}
w = ck["fleet.live.window"]
fails = []
if jobs >= 64:
    if w["status"] != "ok" or "64 observed pods were observed in one window" not in w["detail"]:
        fails.append("window: %s %s" % (w["status"], w["detail"]))
    f = ck.get("fleet.live.flat", {})
    if f.get("status") != "warn" or "llm-disagg-vllmdecodeworker-8" not in f.get("detail", "") \
            or "1 of 64" not in f.get("detail", ""):
        fails.append("flat: %s %s" % (f.get("status"), f.get("detail")))
else:
    if w["status"] != "warn" or "successive windows" not in w["detail"]:
        fails.append("window: %s %s" % (w["status"], w["detail"]))
    if ck.get("fleet.live.flat", {}).get("status") not in ("skipped", None):
        fails.append("flat compared across windows")
print("--jobs %d: fleet.live.window %s: %s" % (jobs, w["status"], w["detail"]))
for f in fails:
    print("FAIL --jobs %d: %s" % (jobs, f))
sys.exit(1 if fails else 0)
PY
}
rc=0
run 64 || rc=1
run 32 || rc=1
[ "$rc" = 0 ] && echo "observe64: 2 passed, 0 failed" || echo "observe64: failed"
exit "$rc"
