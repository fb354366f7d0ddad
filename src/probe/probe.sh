#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check_interconnect probe: ONE constant POSIX sh script, read-only.
# (Owned by the node area; the transport embeds it byte for byte.)
#
# Run as:  sh -c "<this script>" ci-probe ROOT
# ROOT is "" for the host or pod the shell runs in, or a directory holding a
# dump of /sys, /proc and /dev (--sysroot).  User input reaches the script
# only as that positional argument; nothing is ever pasted into it.
#
# It only reads: files under ROOT/sys, ROOT/proc, ROOT/dev, the NIXL plugin
# directories and the nixl Python METADATA; `command -v`; and read-only tool
# queries (ibv_devinfo, nvidia-smi queries, fi_info,
# ucx_info, df).  It writes nothing and changes nothing.
#
# Output (see src/probe/transcript.h):
#   @@ci-probe v1
#   @@begin NAME
#   |body line                 every body line starts with '|', so no tool
#   @@end NAME rc=N [capped] [timeout] [missing]     output can forge '@@'
#   @@done
# A blank line may precede @@end (it ends a body whose last line had no
# newline); readers ignore it.
#
# Sections (names #defined in src/node/sections.h):
#   meta                 root=host|sysroot, kernel=<osrelease>, have_timeout=0|1
#   sys                  "<path>=<first line>" per sysfs file, "<path>/" per
#                        directory that matters by its presence; paths are
#                        relative to ROOT ("sys/class/infiniband/mlx5_0/...")
#   dev                  "<path>" per device node present ("dev/infiniband/uverbs0")
#   proc:modules         /proc/modules, only the transport modules
#   proc:nvidia-version  /proc/driver/nvidia/version
#   proc:status          /proc/self/status Cap* lines
#   proc:limits          /proc/self/limits "Max locked memory" line
#   proc:mounts          /proc/mounts lines of /dev/shm
#   ulimit:l ulimit:hl   `ulimit -l` / `ulimit -Hl` (host/pod only)
#   env:pid1             NAME=VALUE from /proc/1/environ, transport names only
#   env:exec             NAME=VALUE from this shell, transport names only
#                        (host/pod only).  Secret-like names: <redacted>.
#   which                "<tool>=<path>" ("<tool>=" when not on PATH)
#   tool:ibv_devinfo tool:nvsmi-q tool:nvsmi-topo
#   tool:nvsmi-nvlink tool:nvsmi-query tool:fi_info-efa tool:ucx_info-v
#   tool:ucx_info-d tool:df-shm          the tools' output (stderr merged)
#   nixl:plugins         "<dir>/" then "<dir>/libplugin_X.so" per plugin found
#   nixl:python          "<METADATA path>: Name: x" / ": Version: y"

root=${1-}
rs=$(printf '\036')
cap=65536
bigcap=262144
exec 3>&1

have() { command -v "$1" >/dev/null 2>&1; }
have_timeout=; have timeout && have_timeout=1
have_sed=; have sed && have_sed=1
have_head=; have head && have_head=1
have_grep=; have grep && have_grep=1

# Prefix every line with '|' (a forged "@@end" becomes "|@@end").
prefix() {
	if [ -n "$have_sed" ]; then
		sed 's/^/|/'
	else
		while IFS= read -r l || [ -n "$l" ]; do
			printf '|%s\n' "$l"
		done
	fi
}

# Body of a section from stdin, at most $1 bytes; reports "capped" on fd 5.
capbody() {
	if [ -n "$have_head" ]; then
		head -c "$1" | prefix
		if head -c 1 | grep -q '^'; then
			echo capped >&5
			cat >/dev/null
		fi
	else
		prefix
	fi
}

# endsec NAME RC FLAGS
endsec() {
	printf '\n@@end %s rc=%s%s\n' "$1" "$2" "$3"
}

# tool NAME CAP CMD ARGS...: one tool run, under `timeout 5` when present.
tool() {
	name=$1; c=$2; shift 2
	printf '@@begin %s\n' "$name"
	if ! have "$1"; then
		endsec "$name" 127 " missing"
		return 0
	fi
	if [ -n "$have_timeout" ]; then
		set -- timeout 5 "$@"
	fi
	res=$( { { "$@" </dev/null 2>&1; echo "rc=$?" >&5; } | capbody "$c" >&3; } 5>&1 )
	toolend "$name" "$res"
}

# toolend NAME RES: the @@end line from what the pipeline reported.
toolend() {
	rc=${2##*rc=}
	rc=${rc%%[!0-9]*}
	[ -n "$rc" ] || rc=-1
	flags=
	case $2 in *capped*) flags=" capped" ;; esac
	if [ -n "$have_timeout" ] && [ "$rc" = 124 ]; then
		flags="$flags timeout"
	fi
	endsec "$1" "$rc" "$flags"
}

# readfile NAME PATH [FILTER-ERE]: a file's content, optionally filtered.
readfile() {
	printf '@@begin %s\n' "$1"
	if [ ! -r "$2" ]; then
		endsec "$1" 1 " missing"
		return 0
	fi
	if [ -n "${3-}" ] && [ -n "$have_grep" ]; then
		res=$( { { grep -E "$3" "$2" 2>/dev/null; echo "rc=0" >&5; } | capbody "$cap" >&3; } 5>&1 )
	else
		res=$( { { cat "$2" 2>/dev/null; echo "rc=0" >&5; } | capbody "$cap" >&3; } 5>&1 )
	fi
	flags=
	case $res in *capped*) flags=" capped" ;; esac
	endsec "$1" 0 "$flags"
}

# First line of a sysfs file as "|<relpath>=<value>" (no fork: `read`).
val() {
	if [ -r "$1" ]; then
		v=
		IFS= read -r v 2>/dev/null <"$1" || [ -n "$v" ] || [ -f "$1" ] || return 0
		printf '|%s=%s\n' "${1#"$root"/}" "$v"
	fi
}

# A directory that matters by being there.
dir() {
	[ -d "$1" ] && printf '|%s/\n' "${1#"$root"/}"
	return 0
}

# Secret-like names never print a value (same words as src/core/redact.c).
secret_name() {
	up=$(printf '%s' "$1" | tr 'abcdefghijklmnopqrstuvwxyz' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
	case $up in
	*TOKEN* | *SECRET* | *PASSWORD* | *PASSWD* | *PASSPHRASE* | *CREDENTIAL* | \
	*PRIVATE* | *AUTH* | *COOKIE* | *SESSION* | *APIKEY* | *ACCESS_KEY* | *SIGNATURE*)
		return 0 ;;
	KEY | KEY_* | *_KEY | *_KEY_* | PASS | PASS_* | *_PASS | *_PASS_* | \
	PWD | PWD_* | *_PWD | *_PWD_* | CERT | CERT_* | *_CERT | *_CERT_*)
		return 0 ;;
	esac
	return 1
}

# The transport prefixes (same list as redact_is_transport_name()).
transport_name() {
	case $1 in
	*[!A-Za-z0-9_]* | '') return 1 ;;
	UCX_* | NIXL_* | NCCL_* | FI_* | MC_* | GLOO_SOCKET_IFNAME* | \
	SGLANG_DISAGGREGATION_* | TRTLLM_NIXL_* | TRTLLM_USE_UCX_KVCACHE* | \
	TRTLLM_USE_NIXL_KVCACHE* | DYN_KVBM_NIXL_BACKEND_* | VLLM_NIXL_* | \
	CUDA_VISIBLE_DEVICES*)
		return 0 ;;
	esac
	return 1
}

# One NAME=VALUE line from stdin per variable (newlines inside values
# already turned into \036); prints only transport names, secrets redacted,
# and only the first line of a value.
envfilter() {
	seen=' '
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in *=*) ;; *) continue ;; esac
		n=${l%%=*}
		transport_name "$n" || continue
		case $seen in *" $n "*) continue ;; esac
		seen="$seen$n "
		v=${l#*=}
		case $v in *"$rs"*) v="${v%%"$rs"*} <multi-line value cut>" ;; esac
		if secret_name "$n"; then
			v='<redacted>'
		else
			case $v in *://*@*) v='<redacted: URL with credentials>' ;; esac
		fi
		printf '|%s=%s\n' "$n" "$v"
	done
}

kernel=
if [ -r "$root/proc/sys/kernel/osrelease" ]; then
	IFS= read -r kernel <"$root/proc/sys/kernel/osrelease" || true
fi
if [ -z "$kernel" ] && [ -z "$root" ] && have uname; then
	kernel=$(uname -r 2>/dev/null)
fi

echo '@@ci-probe v1'
printf '@@begin meta\n'
if [ -n "$root" ]; then echo '|root=sysroot'; else echo '|root=host'; fi
printf '|kernel=%s\n' "$kernel"
printf '|have_timeout=%s\n' "${have_timeout:-0}"
endsec meta 0 ''

# --- sysfs -----------------------------------------------------------------
printf '@@begin sys\n'
nd=0
for d in "$root"/sys/class/infiniband/*; do
	[ -d "$d" ] || continue
	nd=$((nd + 1)); [ "$nd" -le 64 ] || break
	dir "$d"
	for f in node_type fw_ver hca_type board_id; do val "$d/$f"; done
	np=0
	for p in "$d"/ports/*; do
		[ -d "$p" ] || continue
		np=$((np + 1)); [ "$np" -le 8 ] || break
		dir "$p"
		for f in state phys_state rate link_layer lid; do val "$p/$f"; done
		for i in 0 1 2 3 4 5 6 7; do
			val "$p/gid_attrs/types/$i"
			val "$p/gids/$i"
		done
	done
	ni=0
	for n in "$d"/device/net/*; do
		[ -d "$n" ] || continue
		ni=$((ni + 1)); [ "$ni" -le 8 ] || break
		dir "$n"
	done
done
ni=0
for n in "$root"/sys/class/net/*; do
	[ -d "$n" ] || continue
	ni=$((ni + 1)); [ "$ni" -le 256 ] || break
	dir "$n"
	val "$n/operstate"
	val "$n/type"
done
dir "$root/sys/kernel/mm/memory_peers"
for m in nvidia_peermem nv_peer_mem efa_nv_peermem gdrdrv nvidia efa ib_uverbs; do
	dir "$root/sys/module/$m"
done
endsec sys 0 ''

# --- device nodes ----------------------------------------------------------
printf '@@begin dev\n'
nf=0
for f in "$root"/dev/infiniband/* "$root"/dev/gdrdrv "$root"/dev/nvidia[0-9]* \
	"$root"/dev/nvidiactl "$root"/dev/nvidia-uvm \
	"$root"/dev/nvidia-caps-imex-channels/*; do
	[ -e "$f" ] || continue
	nf=$((nf + 1)); [ "$nf" -le 512 ] || break
	printf '|%s\n' "${f#"$root"/}"
done
endsec dev 0 ''

# --- procfs ----------------------------------------------------------------
readfile proc:modules "$root/proc/modules" \
	'^(nvidia|nv_peer_mem|efa_nv_peermem|gdrdrv|ib_|mlx4_|mlx5_|efa|rdma|irdma|bnxt_re|rdma_rxe|siw)'
readfile proc:nvidia-version "$root/proc/driver/nvidia/version"
readfile proc:status "$root/proc/self/status" '^Cap(Inh|Prm|Eff|Bnd|Amb):'
readfile proc:limits "$root/proc/self/limits" '^Max locked memory'
readfile proc:mounts "$root/proc/mounts" ' /dev/shm '

if [ -z "$root" ]; then
	# -l and -H are not POSIX, but dash, bash, busybox ash and mksh have them.
	printf '@@begin ulimit:l\n'
	# shellcheck disable=SC3045
	ulimit -l 2>&1 | prefix
	endsec ulimit:l 0 ''
	printf '@@begin ulimit:hl\n'
	# shellcheck disable=SC3045
	ulimit -Hl 2>&1 | prefix
	endsec ulimit:hl 0 ''
fi

# --- the transport environment (filtered HERE, never raw) ------------------
# /proc/1/environ is the container's main process: it has variables exported
# inline by the container command.  Newlines inside values become \036 first,
# so a multi-line value cannot smuggle a "UCX_TLS=" line of its own.
pid1_plugin_dir=
printf '@@begin env:pid1\n'
# (access() may allow what open() then denies: try the open itself.)
if have tr && (: <"$root/proc/1/environ") 2>/dev/null; then
	pid1=$(tr '\n\0' '\036\n' 2>/dev/null <"$root/proc/1/environ" | envfilter)
	[ -z "$pid1" ] || printf '%s\n' "$pid1"
	case $pid1 in *"|NIXL_PLUGIN_DIR="*)
		pid1_plugin_dir=${pid1#*"|NIXL_PLUGIN_DIR="}
		pid1_plugin_dir=${pid1_plugin_dir%%"
"*} ;;
	esac
	endsec env:pid1 0 ''
else
	endsec env:pid1 1 ' missing'
fi
if [ -z "$root" ]; then
	# `env` prints multi-line values raw, so it only nominates names; each
	# value is then read from the shell itself (names are [A-Za-z0-9_]).
	printf '@@begin env:exec\n'
	if have env; then
		env 2>/dev/null | while IFS= read -r l || [ -n "$l" ]; do
			n=${l%%=*}
			transport_name "$n" || continue
			eval "isset=\${$n+1}"
			[ -n "$isset" ] || continue
			eval "v=\${$n}"
			printf '%s=%s' "$n" "$v" | tr '\n' '\036'
			printf '\n'
		done | envfilter
	fi
	endsec env:exec 0 ''
fi

# --- tools -----------------------------------------------------------------
printf '@@begin which\n'
for t in ibv_devinfo nvidia-smi fi_info ucx_info nixlbench nixl_test \
	nixl_example kvbench etcdctl ucx_perftest; do
	printf '|%s=%s\n' "$t" "$(command -v "$t" 2>/dev/null)"
done
endsec which 0 ''

# InfiniBand facts come from sysfs (ibstat and `rdma link` only re-read
# it); ibv_devinfo is run because it shows what libibverbs can open.
tool tool:ibv_devinfo "$cap" ibv_devinfo
if [ -n "$have_sed" ] && have nvidia-smi; then
	# Only what the checks read: GPU headers, product/driver and the Fabric
	# block (keys at 4 spaces end it), so eight GPUs fit under the cap.
	printf '@@begin tool:nvsmi-q\n'
	if [ -n "$have_timeout" ]; then set -- timeout 5 nvidia-smi -q; else set -- nvidia-smi -q; fi
	res=$( { { "$@" </dev/null 2>&1; echo "rc=$?" >&5; } |
		sed -n -e '/^GPU /{p;d;}' -e '/Driver Version/{p;d;}' -e '/CUDA Version/{p;d;}' \
			-e '/Attached GPUs/{p;d;}' -e '/Product Name/{p;d;}' \
			-e '/^    Fabric/,/^    [^ ]/{p;d;}' -e '/^[^ ].*[Ff]ail/{p;d;}' \
			-e '/^[^ ].*[Ee]rror/{p;d;}' -e '/^[^ ].*not found/{p;d;}' |
		capbody "$bigcap" >&3; } 5>&1 )
	toolend tool:nvsmi-q "$res"
else
	tool tool:nvsmi-q "$bigcap" nvidia-smi -q
fi
tool tool:nvsmi-topo "$cap" nvidia-smi topo -m
tool tool:nvsmi-nvlink "$cap" nvidia-smi nvlink -s
tool tool:nvsmi-query "$cap" nvidia-smi \
	--query-gpu=index,name,pci.bus_id,driver_version --format=csv,noheader
tool tool:fi_info-efa "$cap" fi_info -p efa
tool tool:ucx_info-v "$cap" ucx_info -v
tool tool:ucx_info-d "$bigcap" ucx_info -d
if [ -z "$root" ]; then
	tool tool:df-shm "$cap" df -k /dev/shm
fi

# --- NIXL installation -----------------------------------------------------
printf '@@begin nixl:plugins\n'
np=0
plugin_dir=${pid1_plugin_dir:-${NIXL_PLUGIN_DIR-}}
for d in "$root$plugin_dir" "$root"/opt/nvidia/nvda_nixl/lib*/plugins \
	"$root"/opt/nvidia/nvda_nixl/lib*/*/plugins "$root"/usr/local/nixl/lib*/plugins \
	"$root"/usr/local/nixl/lib*/*/plugins "$root"/usr/lib*/python3*/*-packages/.nixl*.libs/plugins \
	"$root"/usr/local/lib*/python3*/*-packages/.nixl*.libs/plugins \
	"$root"/opt/*/lib/python3*/site-packages/.nixl*.libs/plugins \
	"$root"/opt/*/*/lib/python3*/site-packages/.nixl*.libs/plugins; do
	[ -n "$plugin_dir" ] || [ "$d" != "$root" ] || continue
	[ -d "$d" ] || continue
	printf '|%s/\n' "${d#"$root"}"
	for f in "$d"/libplugin_*.so; do
		[ -e "$f" ] || continue
		np=$((np + 1)); [ "$np" -le 256 ] || break
		printf '|%s\n' "${f#"$root"}"
	done
done
endsec nixl:plugins 0 ''

printf '@@begin nixl:python\n'
nm=0
for m in "$root"/usr/lib*/python3*/*-packages/nixl*.dist-info/METADATA \
	"$root"/usr/local/lib*/python3*/*-packages/nixl*.dist-info/METADATA \
	"$root"/opt/*/lib/python3*/site-packages/nixl*.dist-info/METADATA \
	"$root"/opt/*/*/lib/python3*/site-packages/nixl*.dist-info/METADATA \
	"$root"/workspace/*/lib/python3*/site-packages/nixl*.dist-info/METADATA \
	"$root"/root/.local/lib/python3*/site-packages/nixl*.dist-info/METADATA; do
	[ -r "$m" ] || continue
	nm=$((nm + 1)); [ "$nm" -le 16 ] || break
	nl=0
	while IFS= read -r l && [ "$nl" -lt 40 ]; do
		nl=$((nl + 1))
		case $l in
		Name:* | Version:*) printf '|%s: %s\n' "${m#"$root"}" "$l" ;;
		'') break ;;
		esac
	done <"$m"
done
endsec nixl:python 0 ''

echo '@@done'
