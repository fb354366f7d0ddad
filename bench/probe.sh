#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/probe.sh: the probe transport against the test kubectl.
#   - kubectl invocations per pod probe (must be 1)
#   - wall time of one pod probe with injected latency 0/100/200/500 ms, and
#     its overhead above one round trip (the same fake kubectl call made
#     directly from the shell), medians of RUNS runs; for a saved transcript
#     (transport only) and for the embedded script run inside the fake pod
#     against a small sysroot (transport + the script's own run time)
#   - time to return when kubectl hangs (ignoring SIGTERM, with a child),
#     with --timeout 2: must be the deadline plus under one second
#   - what the script costs on the worker (bench/probe_cost.sh): processes
#     (execve counted by strace) and CPU against bare runs of the same tools
# Driven through `check_interconnect node` when that verb can probe a pod,
# else through tests/probe/probe_drive (probe_collect() alone).
# Usage (repository root): BENCH_BUILD=build RUNS=11 sh bench/probe.sh
set -eu
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
RUNS=${RUNS:-11}
FAKE=tests/fakes/kubectl
SAMPLE=tests/fixtures/probe/transcript_sample.txt
SYSROOT=tests/fixtures/probe/sysroot_min

bin=$(bench_bin)
build=$(dirname "$bin")
drive=$build/tests/probe/probe_drive
if [ -x "$bin" ] && ! "$bin" node --replay "$SAMPLE" 2>&1 | grep -q 'not built yet'; then
	via="check_interconnect node"
else
	via=probe_drive
	[ -x "$drive" ] || ninja -C "$build" tests/probe/probe_drive >/dev/null
fi

probe() { # probe TIMEOUT: one pod probe through the fake kubectl
	if [ "$via" = probe_drive ]; then
		"$drive" -n bench --pod bench-0 --kubectl "$FAKE" --timeout "$1" >/dev/null 2>&1 || :
	else
		"$bin" node -n bench --pod bench-0 --kubectl "$FAKE" --timeout "$1" >/dev/null 2>&1 || :
	fi
}

direct() { # the same round trip, straight from the shell
	"$FAKE" exec -n bench bench-0 -- sh -c "$script" ci-probe "" >/dev/null 2>&1 || :
}

# median wall time in microseconds of RUNS runs of "$@" (one warm-up)
median_us() {
	"$@"
	_all=""
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do
		_t0=$(now_ns)
		"$@"
		_t1=$(now_ns)
		_all="$_all $(((_t1 - _t0) / 1000))"
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2086 # split the list into arguments
	median $_all
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset FAKE_KUBECTL_MODE FAKE_KUBECTL_SYSROOT FAKE_KUBECTL_TRANSCRIPT FAKE_KUBECTL_PODS_DIR \
	FAKE_KUBECTL_LATENCY_MS FAKE_KUBECTL_DUMP_DIR 2>/dev/null || :
script=$(cat src/probe/probe.sh)

echo "probe transport (via $via; medians of $RUNS runs)"

# 1. round trips per pod
export FAKE_KUBECTL_LOG="$tmp/log"
export FAKE_KUBECTL_TRANSCRIPT="$SAMPLE"
: >"$FAKE_KUBECTL_LOG"
probe 10
calls=$(wc -l <"$FAKE_KUBECTL_LOG" | tr -d ' ')
echo "kubectl invocations per pod probe: $calls (must be 1)"
unset FAKE_KUBECTL_LOG

# 2. wall time against injected latency
for kind in transcript script; do
	if [ "$kind" = transcript ]; then
		export FAKE_KUBECTL_TRANSCRIPT="$SAMPLE"
		unset FAKE_KUBECTL_SYSROOT 2>/dev/null || :
	else
		unset FAKE_KUBECTL_TRANSCRIPT 2>/dev/null || :
		export FAKE_KUBECTL_SYSROOT="$SYSROOT"
	fi
	for lat in 0 100 200 500; do
		export FAKE_KUBECTL_LATENCY_MS=$lat
		p=$(median_us probe 30)
		d=$(median_us direct)
		awk -v k="$kind" -v l="$lat" -v p="$p" -v d="$d" 'BEGIN {
			printf "pod probe, %-10s latency %3d ms: wall %6.1f ms, one round trip %6.1f ms, overhead %5.1f ms\n",
			       k, l, p / 1000, d / 1000, (p - d) / 1000 }'
	done
done
unset FAKE_KUBECTL_LATENCY_MS FAKE_KUBECTL_SYSROOT 2>/dev/null || :
export FAKE_KUBECTL_TRANSCRIPT="$SAMPLE"

# 3. a hanging kubectl with --timeout 2
export FAKE_KUBECTL_MODE=hang
n=5
all=""
i=0
while [ $i -lt $n ]; do
	t0=$(now_ns)
	probe 2
	t1=$(now_ns)
	all="$all $(((t1 - t0) / 1000))"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # split the list into arguments
med=$(median $all)
# shellcheck disable=SC2086
max=$(printf '%s\n' $all | sort -n | tail -n 1)
awk -v m="$med" -v x="$max" -v n="$n" 'BEGIN {
	printf "hung kubectl, --timeout 2: returns after %.3f s (median of %d), max %.3f s = deadline + %.0f ms (must be < 1000)\n",
	       m / 1e6, n, x / 1e6, x / 1000 - 2000 }'

# 4. The script's own cost on the worker (processes, CPU).
sh bench/probe_cost.sh
