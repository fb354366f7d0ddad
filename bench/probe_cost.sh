#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/probe_cost.sh: what the probe script costs inside a worker pod.
#
# The embedded script (or PROBE_SCRIPT=FILE, e.g. an earlier version from
# `git show REV:src/probe/probe.sh`) runs as the pod runs it, `sh -c SCRIPT
# ci-probe ""`, with fake GPU tools first on PATH (stubs that print REAL
# recorded outputs from tests/fixtures: an 8-GPU H100 `nvidia-smi -q` and
# `topo -m`, a CX-7 `ibv_devinfo`, an EFA `fi_info`, UCX 1.16 `ucx_info -v`
# and a CX-6 `ucx_info -d`) and eight transport variables set.  Printed:
#   - processes: successful execve calls (strace -f -e trace=process), split
#     into the tool queries, their `timeout`, and everything else the script
#     starts; and the number of processes (every pid strace saw: forks too)
#   - CPU: user+sys of the whole process tree (getrusage of the children),
#     median of RUNS runs
# each against a bare run of the same tool queries from a plain shell (no
# timeout, no framing), and as a ratio.  A stub is `sh` + `cat`, so every
# tool query costs two execve in both columns.
# Usage (repository root): RUNS=11 sh bench/probe_cost.sh
set -eu
cd "$(dirname "$0")/.."
RUNS=${RUNS:-11}
script_file=${PROBE_SCRIPT:-src/probe/probe.sh}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/out"
strip() { sed '1,/^# ---$/d' "$1" >"$tmp/out/$2"; }
o=tests/fixtures/node/outputs
n=tests/fixtures/nixl/outputs
strip "$o/ibv_devinfo__h200_cx7_roce_plus_bond_all_active.txt" ibv
strip "$o/nvidia-smi_-q__h100_535.183.01_fabric_completed_success.txt" smiq
strip "$o/nvidia-smi_topo_-m__h100_8gpu_nv18_8nic_legend_spaces.txt" topo
strip "$o/nvidia-smi_nvlink_--status__h100_gpu0_18links_26.562GBs.txt" nvlink
strip "$o/nvidia-smi_--query-gpu__h100nvl_name_deviceid_csv_noheader.txt" query
strip "$o/fi_info_-p_efa__eks_g5_mpirun_tagged_output.txt" fiinfo
strip "$n/ucx_info_-v__1.16.0_with_cuda_gdrcopy.txt" ucxv
strip "$n/ucx_info_-d__cx6_hdr_ib_cuda_gdrcopy_no_peermem.txt" ucxd
cat_bin=$(command -v cat)
stub() { # stub NAME CASE-BODY
	printf '#!/bin/sh\nO=%s\ncase "$*" in\n%s\n*) echo "%s: no recorded output for: $*" >&2; exit 2 ;;\nesac\n' \
		"$tmp/out" "$2" "$1" >"$tmp/bin/$1"
	chmod +x "$tmp/bin/$1"
}
stub ibv_devinfo "'') exec $cat_bin \$O/ibv ;;"
stub nvidia-smi "-q) exec $cat_bin \$O/smiq ;;
'topo -m') exec $cat_bin \$O/topo ;;
'nvlink -s') exec $cat_bin \$O/nvlink ;;
--query-gpu=*) exec $cat_bin \$O/query ;;"
stub fi_info "'-p efa') exec $cat_bin \$O/fiinfo ;;"
stub ucx_info "-v) exec $cat_bin \$O/ucxv ;;
-d) exec $cat_bin \$O/ucxd ;;
'-v -d') exec $cat_bin \$O/ucxv \$O/ucxd ;;"

# The bare runs: what the data needs, one query each (new), and the queries
# the script made before it merged them (old: --query-gpu, -v and -d apart).
cat >"$tmp/bare-new.sh" <<'BARE'
ibv_devinfo; nvidia-smi -q; nvidia-smi topo -m; nvidia-smi nvlink -s; fi_info -p efa
ucx_info -v -d; df -k /dev/shm
BARE
# The target (issue 14): those queries plus their `timeout` wrappers.
sed 's/\(^\|; \)\([a-z]\)/\1timeout 5 \2/g' "$tmp/bare-new.sh" >"$tmp/bare-timeout.sh"
cat >"$tmp/bare-old.sh" <<'BARE'
ibv_devinfo; nvidia-smi -q; nvidia-smi topo -m; nvidia-smi nvlink -s
nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version --format=csv,noheader
fi_info -p efa; ucx_info -v; ucx_info -d; df -k /dev/shm
BARE

cat >"$tmp/env" <<EOF2
PATH=$tmp/bin:/usr/local/bin:/usr/bin:/bin
UCX_TLS=rc,cuda_copy,cuda_ipc
UCX_NET_DEVICES=mlx5_0:1,mlx5_1:1,mlx5_4:1,mlx5_5:1
UCX_IB_GID_INDEX=3
UCX_RNDV_THRESH=8192
NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_4,mlx5_5
NCCL_SOCKET_IFNAME=eth0
NIXL_ETCD_ENDPOINTS=http://etcd:2379
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
EOF2

# python3: environment from the file, N runs, median CPU ms of the children
cpu_ms() { # cpu_ms MODE(script|bare-new|bare-old)
	python3 - "$tmp/env" "$RUNS" "$1" "$script_file" "$tmp" <<'PY'
import os, resource, statistics, subprocess, sys
envf, runs, mode, script_file, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
env = dict(l.rstrip("\n").split("=", 1) for l in open(envf) if "=" in l)
if mode == "script":
    argv = ["sh", "-c", open(script_file).read(), "ci-probe", ""]
else:
    argv = ["sh", os.path.join(tmp, mode + ".sh")]
def one():
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   stdin=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000
one()  # warm the page cache
print("%.1f" % statistics.median(one() for _ in range(runs)))
PY
}

# strace: successful execve calls, by what was run; and every pid seen
execs() { # execs MODE -> "total tools timeouts other pids"
	if [ "$1" = script ]; then
		set -- sh -c "$(cat "$script_file")" ci-probe ""
	else
		set -- sh "$tmp/$1.sh"
	fi
	# shellcheck disable=SC2046 # NAME=VALUE words (no blanks in them)
	env -i $(cat "$tmp/env") strace -f -qq -e trace=process -e signal=none -o "$tmp/trace" "$@" \
		>/dev/null 2>&1 </dev/null || :
	awk -v bin="$tmp/bin/" '
		function count(p) {
			total++
			if (total == 1) return   # the sh itself
			if (index(p, bin) == 1 || p ~ /\/cat$/ || p ~ /\/df$/) tools++
			else if (p ~ /\/timeout$/) timeouts++
			else { other++; names[p]++ }
		}
		{ pids[$1] = 1 }
		/ execve\("/ {
			p = $0; sub(/^[0-9]+ +execve\("/, "", p); sub(/".*/, "", p)
			path[$1] = p
			if ($0 ~ / = 0$/) count(p)
		}
		/<\.\.\. execve resumed>/ && / = 0$/ { count(path[$1]) }
		END {
			n = 0; for (q in pids) n++
			printf "%d %d %d %d %d", total, tools, timeouts, other, n
			for (q in names) printf " %s:%d", q, names[q]
			printf "\n"
		}' "$tmp/trace"
}

if ! command -v strace >/dev/null 2>&1; then
	echo "probe cost: strace not installed: process counts skipped"
	have_strace=
else
	have_strace=1
fi
echo "probe cost on the worker ($script_file; fake GPU tools, 8 transport variables; CPU medians of $RUNS runs)"
for mode in script bare-new bare-timeout bare-old; do
	c=$(cpu_ms "$mode")
	e="nan nan nan nan nan"
	[ -z "$have_strace" ] || e=$(execs "$mode")
	case $mode in
	script) cpu_script=$c ex_script=${e%% *} ;;
	bare-new) cpu_bare_new=$c ex_bare_new=${e%% *} ;;
	bare-timeout) cpu_bare_timeout=$c ex_bare_timeout=${e%% *} ;;
	bare-old) cpu_bare_old=$c ex_bare_old=${e%% *} ;;
	esac
	# shellcheck disable=SC2086
	set -- $e
	case $mode in
	script) label="probe script" ;;
	bare-new) label="bare tool runs (7 queries)" ;;
	bare-timeout) label="the same, each under timeout 5" ;;
	bare-old) label="bare tool runs (9 queries, unmerged)" ;;
	esac
	printf '%-38s execve %4s (sh 1, tools %s, timeout %s, other %s), processes %4s, CPU %7s ms\n' \
		"$label:" "$1" "$2" "$3" "$4" "$5" "$c"
	if [ "$mode" = script ] && [ "$#" -gt 5 ]; then
		shift 5
		echo "  other execve: $*"
	fi
done
awk -v c="$cpu_script" -v bn="$cpu_bare_new" -v bo="$cpu_bare_old" -v bt="$cpu_bare_timeout" \
	-v e="${ex_script:-nan}" -v en="${ex_bare_new:-nan}" -v eo="${ex_bare_old:-nan}" \
	-v et="${ex_bare_timeout:-nan}" 'BEGIN {
	printf "ratio probe/bare: execve %.2fx (vs 7 queries) %.2fx (vs 9) %.2fx (vs 7 under timeout)\n",
	       e / en, e / eo, e / et
	printf "ratio probe/bare: CPU %.2fx (vs 7 queries) %.2fx (vs 9) %.2fx (vs 7 under timeout)\n",
	       c / bn, c / bo, c / bt }'
