#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/fleet.sh: the fleet fan-out (`node`, `nixl`, `all --deployment`), each exec
# answering a saved transcript after LATENCY_MS (default 200).
#
# 1. 1, 8, 32 and 64 worker pods through the test kubectl (tests/fakes/
#    kubectl, a shell script), the default --jobs: median wall time of RUNS
#    runs (default 5) against ceil(pods / jobs) x latency, and the kubectl
#    calls of one run (1 get + 1 exec per pod).
# 2. 64, 1,024 and 10,000 pods with --jobs 64 through bench/fake_kubectl.c
#    (compiled here, static: a replaying fake; its CPU per call, measured
#    apart, is mostly the process start, ~1 ms on an idle machine, 5-9 ms
#    on a shared 2-core one): median wall time (RUNS_BIG runs, default 3)
#    against the ideal ceil(pods / 64) x latency and against this machine's
#    floor (the ideal, or the run's CPU spread over every CPU, whichever is
#    longer: above the ideal, process start-up bounds the run, not the
#    tool), the tool's peak RSS and what it grows by per pod, and the
#    machine cost per pod (CPU of the tool plus its kubectl children, and
#    the tool's alone: the fake's share taken off).
#    Each size runs for every verb of FLEET_VERBS: `node` (the node checks
#    only), `nixl` (the NIXL/UCX checks and one peer pick per pod) and `all`
#    (env on the bundled example recipe, examples/recipes/
#    llama-70b-disagg-ib, then node and nixl per pod and the drift between
#    the recipe and the pods): one transcript each pod, judged three ways.
# Figures are printed, never judged.  Env: RUNS, RUNS_BIG, LATENCY_MS,
# FLEET_SIZES (default "64 1024 10000"), FLEET_VERBS (default
# "node nixl all"), SMALL=0 (skip part 1).
# Usage (repository root): BENCH_BUILD=build sh bench/fleet.sh
#   e.g. SMALL=0 RUNS_BIG=3 FLEET_SIZES="64 1024 4096 10000" sh bench/fleet.sh
set -eu
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
RUNS=${RUNS:-5}
RUNS_BIG=${RUNS_BIG:-3}
LATENCY_MS=${LATENCY_MS:-200}
SIZES=${FLEET_SIZES:-64 1024 10000}
JOBS_BIG=64
bin=$(bench_bin)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fleet-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sel=nvidia.com/dynamo-graph-deployment-name=llm-disagg
jobs=$("$bin" --help | sed -n 's/.*--jobs N .*(default \([0-9]*\)).*/\1/p')

[ "${SMALL:-1}" = 0 ] || printf '%-6s %-6s %12s %12s %7s %s\n' pods jobs "median ms" \
	"target ms" ratio "kubectl calls"
for n in 1 8 32 64; do
	[ "${SMALL:-1}" = 0 ] && break
	dir=$tmp/c$n
	python3 tests/fleet/make_cluster.py "$n" "$dir" --latency "$LATENCY_MS"
	export FAKE_KUBECTL_PODS_DIR="$dir"
	: >"$tmp/log"
	FAKE_KUBECTL_LOG=$tmp/log "$bin" node --kubectl tests/fakes/kubectl -n dynamo -l "$sel" \
		>/dev/null 2>&1 || :
	gets=$(grep -c '\[get\]' "$tmp/log" || :)
	execs=$(grep -c '\[exec\]' "$tmp/log" || :)
	med=$(median_ms "$RUNS" "$bin" node --kubectl tests/fakes/kubectl -n dynamo -l "$sel")
	# shellcheck disable=SC2017 # ceil(pods / jobs) first: whole rounds of execs
	target=$(( (n + jobs - 1) / jobs * LATENCY_MS ))
	ratio=$(awk -v m="$med" -v t="$target" 'BEGIN { printf "%.2f", m / t }')
	printf '%-6s %-6s %12s %12s %7s %s\n' "$n" "$jobs" "$med" "$target" "${ratio}x" \
		"$gets get + $execs exec"
	rm -rf "$dir"
done
unset FAKE_KUBECTL_PODS_DIR

# 2. Big fleets, through the compiled fake.
cc=${CC:-cc}
# Static when it links: exec of a static binary costs less CPU.
if ! "$cc" -O2 -static -o "$tmp/kubectl" bench/fake_kubectl.c 2>/dev/null &&
	! "$cc" -O2 -o "$tmp/kubectl" bench/fake_kubectl.c 2>/dev/null; then
	echo "fleet: no C compiler ($cc): big fleets skipped"
	exit 0
fi
FAKE_TRANSCRIPT=$(pwd)/tests/fixtures/fleet/transcripts/ib_ok.txt
export FAKE_TRANSCRIPT
# The fake's own cost: 200 calls in a row, no latency.
FAKE_LATENCY_MS=0 python3 -c 'import resource, subprocess, sys
for _ in range(200):
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f" % ((r.ru_utime + r.ru_stime) * 1e3 / 200))' "$tmp/kubectl" exec -n dynamo p -- sh >"$tmp/fakecost"
fake_ms=$(cat "$tmp/fakecost")
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
echo "fake kubectl (bench/fake_kubectl.c): ${fake_ms} ms of CPU per call; $ncpu CPUs; load:$(uptime | sed 's/.*load average://')"
# ideal: ceil(pods / 64) x latency.  floor: what this machine can reach at
# best, the ideal or all the CPU the run needs (the tool's and the fakes')
# spread over every CPU, whichever is longer: where the floor exceeds the
# ideal, the machine (process start-up) bounds the run, not the tool.
VERBS=${FLEET_VERBS:-node nixl all}
rss_prev="" n_prev=""
recipe=examples/recipes/llama-70b-disagg-ib
# fleet_cmd VERB: the command line of one run of VERB over the fake.
fleet_cmd() {
	case $1 in
	all) echo "$bin all $recipe --kubectl $tmp/kubectl -n dynamo --deployment llm-disagg --jobs $JOBS_BIG" ;;
	*) echo "$bin $1 --kubectl $tmp/kubectl -n dynamo -l $sel --jobs $JOBS_BIG" ;;
	esac
}
printf '%-5s %-6s %-5s %10s %9s %7s %9s %7s %12s %10s %10s\n' verb pods jobs "median ms" \
	"ideal ms" ratio "floor ms" "/floor" "peak RSS KiB" "CPU ms/pod" "tool ms/pod"
for n in $SIZES; do
	python3 tests/fleet/make_cluster.py "$n" "$tmp/big" --json-only
	export FAKE_PODS_JSON="$tmp/big/_pods.json"
	export FAKE_LATENCY_MS="$LATENCY_MS"
	for verb in $VERBS; do
		cmd=$(fleet_cmd "$verb")
		walls='' cpus=''
		i=0
		while [ "$i" -lt "$RUNS_BIG" ]; do
			# shellcheck disable=SC2086 # the command line, split into words
			r=$(wall_cpu_ms $cmd)
			walls="$walls ${r% *}"
			cpus="$cpus ${r#* }"
			i=$((i + 1))
		done
		# shellcheck disable=SC2086 # split the lists into arguments
		w=$(median $walls)
		# shellcheck disable=SC2086
		c=$(median $cpus)
		# shellcheck disable=SC2017
		ideal=$(( (n + JOBS_BIG - 1) / JOBS_BIG * LATENCY_MS ))
		floor=$(awk -v i="$ideal" -v c="$c" -v p="$ncpu" 'BEGIN { f = c / p; printf "%.0f", (f > i ? f : i) }')
		# the largest process of the run: the tool (the static fake is tiny)
		# shellcheck disable=SC2086
		rss=$(peak_rss_kib $cmd)
		printf '%-5s %-6s %-5s %10s %9s %7s %9s %7s %12s %10s %10s\n' "$verb" "$n" "$JOBS_BIG" \
			"$w" "$ideal" \
			"$(awk -v m="$w" -v t="$ideal" 'BEGIN { printf "%.2fx", m / t }')" "$floor" \
			"$(awk -v m="$w" -v t="$floor" 'BEGIN { printf "%.2fx", m / t }')" "$rss" \
			"$(awk -v c="$c" -v n="$n" 'BEGIN { printf "%.2f", c / n }')" \
			"$(awk -v c="$c" -v n="$n" -v f="$fake_ms" 'BEGIN { printf "%.2f", c / n - f }')"
		# the previous size's RSS of this verb: rss_<verb>, n_<verb>
		eval "rss_prev=\${rss_$verb:-} n_prev=\${n_$verb:-}"
		if [ -n "$rss_prev" ]; then
			echo "      $verb: peak RSS grows by $(awk -v a="$rss" -v b="$rss_prev" -v n="$n" \
				-v m="$n_prev" 'BEGIN { printf "%.1f", (a - b) / (n - m) }') KiB per pod from $n_prev to $n pods"
		fi
		eval "rss_$verb=\$rss n_$verb=\$n"
	done
	rm -rf "$tmp/big"
done
