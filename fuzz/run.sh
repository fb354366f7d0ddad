#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# usage: fuzz/run.sh [BUILD_DIR]   (default build-fuzz; `make fuzz` builds it)
# Runs every libFuzzer binary BUILD_DIR/fuzz/fuzz-<name> for FUZZ_SECONDS
# (default 10) over a scratch copy of fuzz/corpus/<name>/ (new inputs stay in
# BUILD_DIR, the seed corpus is not touched), FUZZ_JOBS (default: the CPU
# count) targets at once: each fuzzer is one process, so a 2-core CI machine
# halves the wall time.  A crash, leak or timeout is saved as
# fuzz/crashes/<name>-<kind>-<hash> and fails the run: minimise it, fix the
# bug, and copy the input into fuzz/corpus/<name>/ so that the replay test in
# `make test` keeps it fixed.
set -u

build=${1:-build-fuzz}
seconds=${FUZZ_SECONDS:-10}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
here=$(cd "$(dirname "$0")" && pwd)
crashes=$here/crashes
status=$build/fuzz-status
ran=0

mkdir -p "$crashes"
rm -rf "$status"
mkdir -p "$status"

# fuzz_one EXE NAME: one target; its result is the file $status/NAME.ok or .fail
fuzz_one() {
	exe=$1 name=$2
	seeds=$here/corpus/$name
	work=$build/fuzz-corpus/$name
	mkdir -p "$work"
	set -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-close_fd_mask=1 -print_final_stats=1 -artifact_prefix="$crashes/$name-"
	if [ -f "$here/$name.dict" ]; then
		set -- "$@" -dict="$here/$name.dict"
	fi
	if [ -d "$seeds" ]; then
		set -- "$@" "$work" "$seeds"
	else
		set -- "$@" "$work"
	fi
	log=$build/fuzz-$name.log
	if "$exe" "$@" >"$log" 2>&1; then
		{
			echo "fuzz $name: ${seconds}s"
			grep -E '^stat::number_of_executed_units|^Done ' "$log" | sed "s/^/  $name: /"
		} >"$status/$name.ok"
	else
		{
			echo "FAIL fuzz $name (artifacts in fuzz/crashes/, log $log):"
			grep -E 'ERROR|SUMMARY|Test unit written|runtime error' "$log" | head -20 | sed 's/^/  /'
		} >"$status/$name.fail"
	fi
}

running=0
for exe in "$build"/fuzz/fuzz-*; do
	if [ ! -f "$exe" ] || [ ! -x "$exe" ]; then continue; fi
	name=${exe##*/fuzz-}
	case "$name" in replay-*) continue ;; esac
	fuzz_one "$exe" "$name" &
	running=$((running + 1))
	ran=$((ran + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
if [ "$ran" = 0 ]; then
	echo "fuzz: no libFuzzer binaries in $build/fuzz (configure with -Dfuzzing=true)"
	exit 1
fi
cat "$status"/*.ok "$status"/*.fail 2>/dev/null
failed=$(find "$status" -name '*.fail' | wc -l)
echo "fuzz: $ran targets, $failed failed"
[ "$failed" = 0 ]
