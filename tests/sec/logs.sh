#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 23, hole 6: `--logs` reads the NEWEST lines of a tail larger than it
# keeps (4 MiB), and says so.  A 100 MB tail (2,000 lines of 50 KB, the
# shape of a worker that logs whole request payloads) ends with UCX's real
# errors (tests/fixtures/parse/ucx_errors__*: "Destination is unreachable",
# "no active messages transport"): node.live.logs must show them, name the
# cut, and never say ok.  The old code kept the first 4 MiB and said "no
# known transport error in the last 83 log lines".
# shellcheck disable=SC2154 # tmp, root, bin and failed are set by lib.sh
. "$(dirname "$0")/lib.sh"

log=$tmp/worker.log
fixture=$root/tests/fixtures/parse/ucx_errors__tcp_docker0_unreachable_and_no_am_transport.txt
# 2,000 lines of 50,000 bytes, kubectl's --timestamps prefix on each
awk 'BEGIN { s = "x"; while (length(s) < 50000) s = s s; s = substr(s, 1, 50000)
	for (i = 0; i < 2000; i++)
		printf "2026-12-02T01:%02d:%02d.000000000Z INFO engine step %d payload=%s\n", i / 60 % 60, i % 60, i, s }' >"$log"
grep -v '^#' "$fixture" | sed 's/^/2026-12-02T01:59:59.000000000Z /' >>"$log"
size=$(wc -c <"$log")
[ "$size" -gt 100000000 ] || fail "the tail is only $size bytes (test broken)"

FAKE_KUBECTL_SYSROOT="$(trees)/node/h100_ib"
export FAKE_KUBECTL_SYSROOT
export FAKE_KUBECTL_LOGS="$log"
out=$tmp/out
"$bin" node -n dynamo --pod vllm-decode-0 --kubectl "$root/tests/fakes/kubectl" \
	--logs=2100 --format json >"$out" 2>"$tmp/err"
rc=$?
no_sanitizer_report "$tmp/err" "logs"
python3 - "$out" <<'PY' >"$tmp/verdict" 2>&1 || fail "node.live.logs: $(cat "$tmp/verdict")"
import json, sys
doc = json.load(open(sys.argv[1]))
c = [c for c in doc["checks"] if c["id"] == "node.live.logs"]
if not c:
    sys.exit("no node.live.logs check")
c = c[0]
text = json.dumps(c)
problems = []
if c["status"] == "ok":
    problems.append("says ok about a log it cut")
if c["status"] != "fail":
    problems.append("status %s, not fail (the newest lines show UCX's errors)" % c["status"])
for want in ("ucx.unreachable", "ucx.no_am_transport", "the log was cut"):
    if want not in text:
        problems.append("no %r in %s" % (want, text[:400]))
if problems:
    sys.exit("; ".join(problems))
PY
[ "$failed" = 1 ] || ok "the newest lines of a 100 MB tail are read, the cut is named (rc $rc)"
f1=$failed

# The same tail without the errors: nothing known in what was read, but
# the older lines were not read: skipped, never ok.
head -n 2000 "$log" >"$tmp/quiet.log"
rm -f "$log"
FAKE_KUBECTL_LOGS=$tmp/quiet.log "$bin" node -n dynamo --pod vllm-decode-0 \
	--kubectl "$root/tests/fakes/kubectl" --logs=2100 --format json >"$out" 2>"$tmp/err"
python3 - "$out" <<'PY' >"$tmp/verdict" 2>&1 || fail "quiet node.live.logs: $(cat "$tmp/verdict")"
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["checks"] if c["id"] == "node.live.logs"]
if not c or c[0]["status"] != "skipped" or "the log was cut" not in c[0]["detail"]:
    sys.exit("want skipped with 'the log was cut': %s" % (c[0] if c else None))
PY
[ "$failed" = 1 ] || ok "a cut tail with nothing known in its newest lines is skipped, not ok"
p=0
[ "$f1" = 1 ] || p=$((p + 1))
[ "$failed" = 1 ] || p=$((p + 1))
echo "$p passed, $((2 - p)) failed"
finish
