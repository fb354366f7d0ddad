#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# env verb: the whole official recipe tree in one invocation, and one
# invocation per recipe folder (a folder holding a deploy*.yaml); medians of
# repeated runs, plus peak RSS.  Targets: tree < 100 ms, one recipe < 5 ms,
# peak RSS < 8 MiB.  Figures are printed, never judged.
# Env: RUNS (default 21), RECIPES (default ../shared/fixtures/recipes).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bin=$(bench_bin)
root=$(cd "$here/.." && pwd)
recipes=${RECIPES:-$root/../shared/fixtures/recipes}
runs=${RUNS:-21}
if [ ! -d "$recipes" ]; then
	echo "env: $recipes not found, skipped"
	exit 0
fi

# Whole tree, one invocation (hyperfine when installed: it corrects for the
# shell's start-up; otherwise date +%s%N around each run).
if command -v hyperfine >/dev/null 2>&1; then
	json=$(mktemp)
	hyperfine -N --style none --warmup 2 --runs "$runs" -i --export-json "$json" \
		"$bin env $recipes" >/dev/null 2>&1
	tree_ms=$(awk -F: '/"median"/ { gsub(/[ ,]/, "", $2); printf "%.2f\n", $2 * 1000; exit }' "$json")
	rm -f "$json"
	how="hyperfine median of $runs"
else
	tree_ms=$(median_ms "$runs" "$bin" env "$recipes")
	how="median of $runs"
fi
tree_rss=$(peak_rss_kib "$bin" env "$recipes")
n=$(find "$recipes" -name 'deploy*.yaml' | sed 's|/[^/]*$||' | sort -u | wc -l)
echo "env whole tree ($n recipe folders, one invocation): ${tree_ms} ms ($how), peak RSS ${tree_rss} KiB"

# One invocation per folder: the median of each folder's median, and the worst.
per_runs=$((runs < 11 ? runs : 11))
all=""
worst=0
worst_dir=""
rss_worst=0
for d in $(find "$recipes" -name 'deploy*.yaml' | sed 's|/[^/]*$||' | sort -u); do
	m=$(median_ms "$per_runs" "$bin" env "$d")
	all="$all $m"
	if awk -v a="$m" -v b="$worst" 'BEGIN { exit !(a > b) }'; then
		worst=$m
		worst_dir=${d#"$recipes"/}
	fi
	r=$(peak_rss_kib "$bin" env "$d")
	[ "$r" != nan ] && [ "$r" -gt "$rss_worst" ] && rss_worst=$r
done
# shellcheck disable=SC2086
echo "env one recipe folder: median ${per_runs}-run median $(median $all) ms over $n folders, worst ${worst} ms ($worst_dir), worst peak RSS ${rss_worst} KiB"
