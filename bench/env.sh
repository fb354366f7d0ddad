#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# env verb: the whole official recipe tree in one invocation, and one
# invocation per recipe folder (a folder holding a deploy*.yaml); medians of
# repeated runs, plus peak RSS.  Targets: tree < 100 ms, one recipe < 5 ms,
# peak RSS < 8 MiB; then the tree at 1x, 10x and 100x (linear time: 100x
# within 110x; memory: peak RSS over an empty run's, per byte of YAML read,
# at most 1.5); then the share of env's instructions spent redacting
# (callgrind, target at most 5%).  Figures are printed, never judged.
# Env: RUNS (default 21), RECIPES (default ../shared/fixtures/recipes),
# SCALE_RUNS (default 5), SCALE_ONLY=1 (only the 1x/10x/100x part).
set -u
# env renders kustomize overlays with `kubectl kustomize` when a kubectl is
# installed (cmd/env.c).  Its RSS would count as env's (wait4's ru_maxrss
# covers the children), and CI has none: the figures here are env's own.
KUBECTL=kubectl-not-installed
export KUBECTL
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

if [ "${SCALE_ONLY:-0}" != 1 ]; then
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
fi

# Scale: the official tree copied 1, 10 and 100 times into a temporary folder
# (each copy's DynamoGraphDeployments renamed NAME-cK, so names stay
# distinct), one invocation over each, --max-files above the copies' count.
# Linear time means the 100x run costs about 100x the 1x run (target: within
# 110x).  Medians of SCALE_RUNS (default 5) runs, wall and CPU (user + sys:
# the steadier figure on a shared machine), and peak RSS.
scale_runs=${SCALE_RUNS:-5}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/env-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
synth() {
	python3 - "$recipes" "$1" "$2" <<'PY'
import os, re, shutil, sys
src, out, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
name_re = re.compile(r'^(  name:\s*)(\S+)\s*$', re.M)
sep_re = re.compile(r'(?m)^---[^\n]*\n')
for k in range(copies):
    dst = os.path.join(out, "copy-%04d" % k)
    for d, dirs, files in os.walk(src):
        dirs.sort()
        td = os.path.join(dst, os.path.relpath(d, src))
        os.makedirs(td, exist_ok=True)
        for f in sorted(files):
            p, q = os.path.join(d, f), os.path.join(td, f)
            if not f.endswith((".yaml", ".yml")):
                shutil.copyfile(p, q)
                continue
            text = open(p, encoding="utf-8", errors="surrogateescape").read()
            docs, seps = sep_re.split(text), sep_re.findall(text)
            for i, doc in enumerate(docs):
                if re.search(r'(?m)^kind:\s*DynamoGraphDeployment\s*$', doc):
                    docs[i] = name_re.sub(lambda m: "%s%s-c%d" % (m.group(1), m.group(2), k), doc, count=1)
            with open(q, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(docs[0] + "".join(s + d for s, d in zip(seps, docs[1:])))
PY
}
# Memory per byte read: (peak RSS - peak RSS of a run over an empty folder)
# / bytes of YAML in the copy; the empty run is the binary, libc and
# libyaml mapped, which no input size changes.  Target: at most 1.5.
mkdir "$tmp/empty"
rss0=$(peak_rss_kib "$bin" env "$tmp/empty")
echo "env peak RSS of an empty run: ${rss0} KiB (subtracted below)"
printf '%-6s %8s %12s %8s %12s %8s %12s %10s %9s\n' size files "wall ms" ratio "cpu ms" ratio \
	"peak RSS KiB" "YAML KiB" "RSS/YAML"
base_wall='' base_cpu=''
for x in 1 10 100; do
	synth "$tmp/x$x" "$x"
	files=$(find "$tmp/x$x" -name '*.yaml' -o -name '*.yml' | wc -l)
	max=$((files + 1))
	"$bin" env --max-files "$max" "$tmp/x$x" >/dev/null 2>&1 || : # warm the page cache
	walls='' cpus=''
	i=0
	while [ "$i" -lt "$scale_runs" ]; do
		r=$(wall_cpu_ms "$bin" env --max-files "$max" "$tmp/x$x")
		walls="$walls ${r% *}"
		cpus="$cpus ${r#* }"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # split the lists into arguments
	w=$(median $walls)
	# shellcheck disable=SC2086
	c=$(median $cpus)
	[ -n "$base_wall" ] || { base_wall=$w; base_cpu=$c; }
	rss=$(peak_rss_kib "$bin" env --max-files "$max" "$tmp/x$x")
	yaml_b=$(find "$tmp/x$x" \( -name '*.yaml' -o -name '*.yml' \) -type f -exec cat {} + | wc -c)
	printf '%-6s %8s %12s %8s %12s %8s %12s %10s %9s\n' "${x}x" "$files" "$w" \
		"$(awk -v a="$w" -v b="$base_wall" 'BEGIN { printf "%.1fx", a / b }')" "$c" \
		"$(awk -v a="$c" -v b="$base_cpu" 'BEGIN { printf "%.1fx", a / b }')" "$rss" \
		"$((yaml_b / 1024))" \
		"$(awk -v r="$rss" -v z="$rss0" -v y="$yaml_b" 'BEGIN { printf "%.2fx", (r - z) * 1024 / y }')"
	rm -rf "$tmp/x$x"
done
echo "env memory target: RSS/YAML at most 1.50x (peak RSS less the empty run's, over the bytes of YAML read)"

# Redaction's share of env's instructions on the official tree: the
# inclusive cost of every call into core/redact.c from outside it
# (bench/callgrind_share.py).  Target: at most 5%.
if command -v valgrind >/dev/null 2>&1; then
	cg=$tmp/callgrind.out
	valgrind --tool=callgrind --callgrind-out-file="$cg" "$bin" env "$recipes" \
		>/dev/null 2>&1 </dev/null || :
	share=$(python3 "$here/callgrind_share.py" "$cg" core/redact.c)
	echo "env redaction share (callgrind Ir in core/redact.c / all): ${share##* }% (${share%% *} of $(echo "$share" | cut -d' ' -f2)); target at most 5%"
else
	echo "env redaction share: skipped (valgrind not installed)"
fi
