#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# usage: bench/run.sh [BUILD_DIR]   (default build; `make bench` builds it)
# Runs every bench/*.sh (other than lib.sh and this file), each with
# CI_BIN=BUILD_DIR/check_interconnect, and prints their figures.  Timing
# figures are printed, never judged: a bench fails only when it errors.
set -u

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
case "$build" in /*) ;; *) build=$(pwd)/$build ;; esac
CI_BIN=$build/check_interconnect
BENCH_BUILD=$build
export CI_BIN BENCH_BUILD

if [ ! -x "$CI_BIN" ]; then
	echo "bench: $CI_BIN is not built (run make)" >&2
	exit 1
fi
echo "bench: $(uname -srm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cpus, $("$CI_BIN" --version)"
failed=0
ran=0
for b in "$here"/*.sh; do
	case "${b##*/}" in lib.sh | run.sh) continue ;; esac
	[ -f "$b" ] || continue
	echo "== ${b##*/}"
	if ! sh "$b"; then
		echo "bench ${b##*/} failed"
		failed=$((failed + 1))
	fi
	ran=$((ran + 1))
done
[ "$ran" = 0 ] && echo "bench: no bench/*.sh yet"
[ "$failed" = 0 ]
