#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `nixl` against a pod through the fake kubectl (tests/fakes/kubectl): count
# the kubectl calls in FAKE_KUBECTL_LOG.  Without --peer: exactly 1 exec and
# 1 `get pods` (peer discovery).  With --peer: 1 exec, no get.  A failing get
# is reported (nixl.peer) and never turns into a second call.
set -u
bin=${1:?usage: pod_calls.sh BINARY}
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nixl-calls.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
pod=llama-70b-disagg-vllmprefillworker-6b7d9c5f8-4hq2m
peer=llama-70b-disagg-vllmdecodeworker-7f5c8d6a9-k7c2r
export FAKE_KUBECTL_TRANSCRIPT=$root/tests/fixtures/nixl/transcripts/ib_gpudirect.txt
export FAKE_KUBECTL_GET_PODS=$root/tests/fixtures/nixl/pods/dgd_1p_pending_3d.json
unset FAKE_KUBECTL_MODE FAKE_KUBECTL_GET_MODE FAKE_KUBECTL_PODS_DIR
count() { grep -c "^kubectl .*\\[$1\\]" "$2" || true; }

# 1. discovery: 1 exec + 1 get
export FAKE_KUBECTL_LOG=$tmp/log1
out=$("$bin" nixl -n dynamo --pod "$pod" --kubectl tests/fakes/kubectl 2>&1)
rc=$?
[ "$rc" = 0 ] || fail "discovery run exit $rc: $out"
[ "$(count exec "$tmp/log1")" = 1 ] || fail "expected 1 exec: $(cat "$tmp/log1")"
[ "$(count get "$tmp/log1")" = 1 ] || fail "expected 1 get: $(cat "$tmp/log1")"
[ "$(wc -l <"$tmp/log1")" = 2 ] || fail "expected 2 calls in all"
grep -q '^kubectl \[get\] \[pods\] \[-n\] \[dynamo\] \[-l\] \[nvidia.com/dynamo-graph-deployment-name\] \[-o\] \[json\]$' "$tmp/log1" ||
	fail "unexpected get argv: $(grep get "$tmp/log1")"
printf '%s\n' "$out" | grep -q "ok      nixl.peer" || fail "no nixl.peer ok"
printf '%s\n' "$out" | grep -q "exec -n 'dynamo' '$peer' -- nixlbench --etcd_endpoints" || fail "no nixlbench on the peer"

# 2. --peer: 1 exec, no get
export FAKE_KUBECTL_LOG=$tmp/log2
out=$("$bin" nixl -n dynamo --pod "$pod" --peer "$peer" --kubectl tests/fakes/kubectl 2>&1)
[ "$(count exec "$tmp/log2")" = 1 ] || fail "--peer: expected 1 exec"
[ "$(count get "$tmp/log2")" = 0 ] || fail "--peer: expected no get"
printf '%s\n' "$out" | grep -q "given with --peer" || fail "--peer not reported"

# 3. get forbidden: still 1 exec + 1 get, the peer is skipped with the reason
export FAKE_KUBECTL_LOG=$tmp/log3 FAKE_KUBECTL_GET_MODE=forbidden
out=$("$bin" nixl -n dynamo --pod "$pod" --kubectl tests/fakes/kubectl 2>&1)
rc=$?
unset FAKE_KUBECTL_GET_MODE
[ "$(wc -l <"$tmp/log3")" = 2 ] || fail "forbidden get: expected 2 calls"
[ "$rc" = 0 ] || fail "a failed peer lookup changed the verdict (exit $rc)"
printf '%s\n' "$out" | tr -s ' \n' '  ' | grep -q "skipped nixl.peer peer: the peer could not be looked up: RBAC forbids listing pods in namespace dynamo" ||
	fail "forbidden get not reported: $out"

# 4. exec fails: nixl.probe, exit 3, said once (the check in text; also
# one stderr line when stdout is JSON); still at most 2 calls
export FAKE_KUBECTL_LOG=$tmp/log4 FAKE_KUBECTL_MODE=forbidden
out=$("$bin" nixl -n dynamo --pod "$pod" --kubectl tests/fakes/kubectl 2>"$tmp/err4")
rc=$?
FAKE_KUBECTL_LOG=$tmp/log4j "$bin" nixl --json -n dynamo --pod "$pod" --kubectl tests/fakes/kubectl >/dev/null 2>"$tmp/err4j"
unset FAKE_KUBECTL_MODE
[ "$rc" = 3 ] || fail "exec forbidden: exit $rc, expected 3"
[ ! -s "$tmp/err4" ] || fail "exec forbidden: said on stderr as well as in the check: $(cat "$tmp/err4")"
[ "$(printf '%s\n' "$out" | tr -s ' \n' '  ' | grep -o "RBAC forbids exec" | wc -l)" = 1 ] || fail "exec forbidden: the reason is not said exactly once on stdout"
[ "$(wc -l <"$tmp/err4j")" = 1 ] || fail "exec forbidden --json: expected one stderr line: $(cat "$tmp/err4j")"
printf '%s\n' "$out" | grep -q "skipped nixl.probe" || fail "no nixl.probe check"
[ "$(wc -l <"$tmp/log4")" -le 2 ] || fail "exec forbidden: more than 2 calls"
echo "ok: 1 exec + 1 get; 1 exec with --peer; errors reported"
