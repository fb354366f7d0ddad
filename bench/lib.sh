# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
#
# Helpers for bench/<area>.sh (sourced: `. "$(dirname "$0")/lib.sh"`).
# Benchmarks print figures; they never pass or fail on timing, nor on the
# exit code of the command they time: the tool's exit code is its verdict
# (a fleet of replayed transcripts is `blocked` by their shared RoCE GIDs),
# and a verdict must not stop a bench under `set -e`.
#
#   median N...              median of the numbers (integers or decimals)
#   time_ms CMD...           wall time of one run of CMD, in ms (output discarded)
#   median_ms RUNS CMD...    median wall time over RUNS runs (one warm-up first)
#   peak_rss_kib CMD...      peak resident set of one run, in KiB
#   bench_bin                the binary under test ($CI_BIN or build/check_interconnect)

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
		END {
			if (NR == 0) { print "nan"; exit }
			if (NR % 2) print v[(NR + 1) / 2];
			else printf "%g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
}

now_ns() {
	date +%s%N
}

time_ms() {
	_t0=$(now_ns)
	"$@" >/dev/null 2>&1 </dev/null || :
	_t1=$(now_ns)
	awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.2f\n", (b - a) / 1e6 }'
}

median_ms() {
	_runs=$1
	shift
	"$@" >/dev/null 2>&1 </dev/null || : # warm the page cache
	_all=""
	_i=0
	while [ "$_i" -lt "$_runs" ]; do
		_all="$_all $(time_ms "$@")"
		_i=$((_i + 1))
	done
	# shellcheck disable=SC2086 # split the list into arguments
	median $_all
}

# GNU time's %M when /usr/bin/time is there; else ru_maxrss of the child
# through python3's getrusage (both are the kernel's peak RSS, in KiB).
peak_rss_kib() {
	if [ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1; then
		/usr/bin/time -f %M "$@" 2>&1 >/dev/null </dev/null | tail -n 1
	elif command -v python3 >/dev/null 2>&1; then
		python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
	else
		echo "nan"
	fi
}

bench_bin() {
	if [ -n "${CI_BIN:-}" ]; then
		echo "$CI_BIN"
	else
		echo "${BENCH_BUILD:-build}/check_interconnect"
	fi
}

# wall_cpu_ms CMD...   one run of CMD: "WALL_MS CPU_MS" (CPU: user + system
# of CMD and its children, from getrusage), output discarded.  On a shared
# machine the CPU figure is the steadier one.
wall_cpu_ms() {
	python3 -c 'import resource, subprocess, sys, time
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
t1 = time.perf_counter()
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
print("%.2f %.2f" % ((t1 - t0) * 1e3, cpu * 1e3))' "$@"
}
