#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 11, finding 8: fleet pod lists are bounded but honest.
#  - a realistic 300-pod answer (over 4 MiB) is read, not refused;
#  - one "\u0000" in an unrelated field does not make the list unreadable;
#  - above the 65536-pod cap the run says how many pods it left out (warn).
# shellcheck disable=SC2154 # tmp, root, bin and failed are set by lib.sh
. "$(dirname "$0")/lib.sh"

k=$tmp/kubectl
cat >"$k" <<'KEOF'
#!/bin/sh
for a in "$@"; do
	if [ "$a" = get ]; then cat "$PODS_JSON"; exit 0; fi
done
echo 'Error from server (NotFound): pods "x" not found' >&2
exit 1
KEOF
chmod +x "$k"

# pods.json N BIG: N worker pods, the first 2 Running, the rest Pending
# (so that only 2 are probed); BIG=1 gives each pod ~17 KiB of annotations
# and labels, as real pods carry; one annotation holds "\u0000".
mkpods() {
	python3 - "$@" <<'PY'
import json, sys
path, n, big = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
items = []
for i in range(n):
    role = "prefill" if i % 2 else "decode"
    ann = {}
    if big:
        ann = {"kubectl.kubernetes.io/last-applied-configuration": "x" * 16000,
               "note": "n" * 500}
    if i == 7:
        ann["hostile"] = "a\u0000b"
    items.append({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "llm-%s-%d" % (role, i), "namespace": "dynamo", "annotations": ann,
            "labels": {"nvidia.com/dynamo-graph-deployment-name": "llm",
                "nvidia.com/dynamo-component-type": "worker",
                "nvidia.com/dynamo-sub-component-type": role}},
        "spec": {"containers": [{"name": "main"}], "nodeName": "node-%d" % i},
        "status": {"phase": "Running" if i < 2 else "Pending", "podIP": "10.0.%d.%d" % (i // 250, i % 250 + 1),
            "containerStatuses": [{"name": "main", "ready": i < 2,
                                   "state": {"running": {}} if i < 2 else {"waiting": {}}}]}})
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open(path, "w"))
PY
}

export PODS_JSON="$tmp/pods.json"
mkpods "$PODS_JSON" 300 1
size=$(wc -c <"$PODS_JSON")
[ "$size" -gt $((4 << 20)) ] || fail "test setup: the 300-pod list is only $size bytes"
"$bin" node --deployment llm -n dynamo --kubectl "$k" --json >"$tmp/out" 2>"$tmp/err"
no_sanitizer_report "$tmp/err" "300 pods"
grep -q 'not a pod list\|could not be listed\|MiB of JSON' "$tmp/out" "$tmp/err" &&
	fail "300 realistic pods ($size bytes, one \\u0000): the list was refused: $(head -c 300 "$tmp/err")"
grep -q '298 worker pods are not running' "$tmp/out" || fail "300 pods: the Pending ones are not all counted"
[ "$failed" = 0 ] && ok "a $size-byte list of 300 pods with a \\u0000 annotation is read"

mkpods "$PODS_JSON" 10 0
"$bin" node --deployment llm -n dynamo --kubectl "$k" >"$tmp/out" 2>"$tmp/err"
grep -q '8 worker pods are not running' "$tmp/out" || fail "10 pods, one \\u0000 annotation: the list was not read: $(head -c 300 "$tmp/err")"

# 65540 minimal items (a name each): 4 past the cap.
python3 -c 'import json, sys
json.dump({"kind": "List", "items": [{"metadata": {"name": "p%d" % i}} for i in range(65540)]},
          open(sys.argv[1], "w"))' "$PODS_JSON"
"$bin" node --deployment llm -n dynamo --kubectl "$k" --json >"$tmp/out" 2>"$tmp/err"
no_sanitizer_report "$tmp/err" "65540 pods"
python3 -c 'import json, sys
c = [c for c in json.load(open(sys.argv[1]))["checks"] if c["id"] == "fleet.pods.capped"]
sys.exit(0 if c and c[0]["status"] == "warn" and "4 left out of the probe" in c[0]["detail"] else 1)' "$tmp/out" ||
	fail "65540 pods: no fleet.pods.capped warning saying 4 were left out"
[ "$failed" = 0 ] && ok "above 65536 pods the cut is a warning that counts what it left out"
finish
