#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/nixl.sh: `check_interconnect nixl` on a pod through the test kubectl.
#   - kubectl calls per run (must be 1 exec + at most 1 get; 1 exec with --peer)
#   - wall time with injected latency 0/100/200/500 ms per kubectl call, with
#     peer discovery (exec and get in parallel: ~1 round trip) and with --peer
#     (1 round trip), and the overhead above one round trip; medians of RUNS
# Usage (repository root): BENCH_BUILD=build RUNS=11 sh bench/nixl.sh
set -eu
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
RUNS=${RUNS:-11}
bin=$(bench_bin)
root=$(pwd)
pod=llama-70b-disagg-vllmprefillworker-6b7d9c5f8-4hq2m
peer=llama-70b-disagg-vllmdecodeworker-7f5c8d6a9-k7c2r
FAKE_KUBECTL_TRANSCRIPT=$root/tests/fixtures/nixl/transcripts/ib_gpudirect.txt
FAKE_KUBECTL_GET_PODS=$root/tests/fixtures/nixl/pods/dgd_1p_pending_3d.json
export FAKE_KUBECTL_TRANSCRIPT FAKE_KUBECTL_GET_PODS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-nixl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

FAKE_KUBECTL_LOG=$tmp/log FAKE_KUBECTL_LATENCY_MS=0 \
	"$bin" nixl -n dynamo --pod "$pod" --kubectl tests/fakes/kubectl >/dev/null 2>&1 || true
ex=$(grep -c '\[exec\]' "$tmp/log" || true)
ge=$(grep -c '\[get\]' "$tmp/log" || true)
rm -f "$tmp/log"
FAKE_KUBECTL_LOG=$tmp/log FAKE_KUBECTL_LATENCY_MS=0 \
	"$bin" nixl -n dynamo --pod "$pod" --peer "$peer" --kubectl tests/fakes/kubectl >/dev/null 2>&1 || true
ex2=$(grep -c '\[exec\]' "$tmp/log" || true)
ge2=$(grep -c '\[get\]' "$tmp/log" || true)
echo "nixl kubectl calls: discovery ${ex} exec + ${ge} get; --peer ${ex2} exec + ${ge2} get"

for lat in 0 100 200 500; do
	export FAKE_KUBECTL_LATENCY_MS=$lat
	rt=$(median_ms "$RUNS" tests/fakes/kubectl get pods -n dynamo -o json)
	disc=$(median_ms "$RUNS" "$bin" nixl -n dynamo --pod "$pod" --kubectl tests/fakes/kubectl)
	given=$(median_ms "$RUNS" "$bin" nixl -n dynamo --pod "$pod" --peer "$peer" --kubectl tests/fakes/kubectl)
	over=$(awk -v a="$disc" -v b="$rt" 'BEGIN { printf "%.2f", a - b }')
	echo "latency ${lat} ms: one round trip ${rt} ms; nixl with discovery ${disc} ms (+${over} ms), with --peer ${given} ms (medians of $RUNS)"
done
