#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check_interconnect probe: ONE constant POSIX sh script, read-only.
# (The transport embeds it byte for byte; docs/probe.md describes it.)
#
# Run as:  sh -c "<this script>" ci-probe ROOT [WINDOW]
# ROOT is "" for the host or pod the shell runs in, or a directory holding a
# dump of /sys, /proc and /dev (--sysroot).  User input reaches the script
# only as that positional argument; nothing is ever pasted into it.
#
# It only reads: files under ROOT/sys, ROOT/proc, ROOT/dev, the NIXL plugin
# directories and the nixl Python METADATA; its own shell variables; and
# read-only tool queries (ibv_devinfo, nvidia-smi, fi_info, ucx_info, df).
# It writes nothing and changes nothing.
#
# Processes: the shell's built-ins (read, case, parameter expansion, printf,
# test) do all the framing, capping and filtering.  What runs is the tool
# queries, each under `timeout 5`, plus one `tr` for /proc/1/environ (its NUL
# separators are invisible to the shell), one subshell for `export -p`, and
# at most one `sleep 1` between the two counter readings (only when the
# tool queries took under a second), and with a window one `head -c` per
# telemetry scrape (the byte cap of an exporter's reply):
# no process per section, per file or per variable (docs/probe.md, "Process
# budget"; `make bench` counts them).
#
# Output (see src/parse/transcript.h):
#   @@ci-probe v1
#   @@begin NAME
#   |body line                 every body line starts with '|', so no tool
#   @@end NAME rc=N [capped] [timeout] [missing]     output can forge '@@'
#   @@done
# Empty lines of tool output are not carried (the shell's field splitting,
# which frames a tool's output without a process per line, drops them; no
# reader needs them).
#
# Sections (names #defined in src/node/sections.h):
#   meta                 root=host|sysroot, kernel=<osrelease>, have_timeout=0|1,
#                        gids=all (every GID index is read)
#   sys                  "<path>=<first line>" per sysfs file, "<path>/" per
#                        directory that matters by its presence; paths are
#                        relative to ROOT ("sys/class/infiniband/mlx5_0/..."):
#                        RDMA devices, their PCIe width, NUMA node, IOMMU type
#                        and uverbs node, ports, GIDs in use, error counters;
#                        netdevs; modules; NVIDIA GPUs on the PCI bus; DMI
#   sys:counters         interval_ms=N, the port counters again (host/pod with
#                        an RDMA port only: a sysroot is one instant)
#   dev                  "<path>" per device node present ("dev/infiniband/uverbs0")
#   proc:modules         /proc/modules, only the transport modules
#   proc:nvidia-version  /proc/driver/nvidia/version
#   proc:status          /proc/self/status Cap* lines (the exec shell)
#   proc:limits          /proc/self/limits "Max locked memory" line
#   proc:pid1-status     /proc/1/status Cap* lines (the worker: pid 1)
#   proc:pid1-limits     /proc/1/limits "Max locked memory" line
#   proc:mounts          /proc/mounts lines of /dev/shm
#   proc:net-route proc:net-if_inet6   /proc/net/route, /proc/net/if_inet6
#   ulimit:l ulimit:hl   `ulimit -l` / `ulimit -Hl` (host/pod only)
#   env:pid1             NAME=VALUE from /proc/1/environ, transport names only
#   env:exec             NAME=VALUE from this shell, transport names only
#                        (host/pod only).  Secret-like names: <redacted>;
#                        URL passwords: user:<redacted>@; a value ends at its
#                        first line break (" <multi-line value cut>"), other
#                        control bytes are written \xHH.
#   which                "<tool>=<path>" ("<tool>=" when not on PATH)
#   tool:ibv_devinfo tool:nvsmi-q tool:nvsmi-topo tool:nvsmi-nvlink
#   tool:nvsmi-p2p (topo -p2p r, only when topo -m shows GPUs without NVLink)
#   tool:fi_info-efa tool:ucx_info-vd (`ucx_info -v -d`: version, then
#   devices; tool:ucx_info-v too when that run printed no version)
#   tool:df-shm          the tools' output (stderr merged); df only when
#                        /proc/mounts gives no size for /dev/shm
#   nixl:plugins         "<dir>/" then "<dir>/libplugin_X.so" per plugin found
#   nixl:python          "<METADATA path>: Name: x" / ": Version: y"
#   files:libs           paths of libibverbs.so.1.*, libgdrapi.so.2.*, libucp*,
#                        aws-ofi-nccl's libnccl-net*.so
#   efa:packages         /opt/amazon/efa_installed_packages (the EFA installer's
#                        version and package list)
#   live:proc live:maps live:fd   the engine process (the one that mapped a
#                        NIXL plugin, else pid 1 or an engine command line):
#                        pid, how found, engine module, comm; its transport
#                        library paths; its /dev descriptors (src/live/live.h)
#   live:sample:N live:netdev:N live:nixl:N   with a window ($2, --observe):
#                        RDMA port counters and /proc/uptime, /proc/net/dev,
#                        NIXL's Prometheus agent_* lines, at the start (0) and
#                        the end (1) of the window
# A section that is absent was not collected.

root=${1-}
sysroot=${1:+1}
cap=65536
bigcap=262144
hc=
nl='
'
sp_ifs=' 	
'

# Under a sysroot every path resolves inside it (a jail, as on the C side):
# the root itself is made physical once, and a directory is used only when
# `cd -P` (symlinks followed, no process) lands inside it; a file that is
# itself a symlink is not read.  sysfs-style links within the tree work.
if [ -n "$root" ]; then
	if cd -P -- "$root" 2>/dev/null; then
		root=$PWD
		[ "$root" != / ] || root=
	else
		root=/nonexistent/ci-probe-root
	fi
fi

# inroot DIR: DIR may be read (always true without a sysroot).
inroot() {
	[ -n "$root" ] || return 0
	cd -P -- "$1" 2>/dev/null || return 1
	case $PWD/ in "$root"/*) return 0 ;; esac
	return 1
}

# safe FILE: FILE may be read: its directory is in the tree and it is not a
# symlink (real sysfs attributes and procfs files never are).
safe() {
	[ -n "$root" ] || return 0
	[ ! -h "$1" ] && inroot "${1%/*}"
}

have() { command -v "$1" >/dev/null 2>&1; }
have_timeout=
have timeout && have_timeout=1

begin() { printf '@@begin %s\n' "$1"; }
# endsec NAME RC FLAGS
endsec() { printf '@@end %s rc=%s%s\n' "$1" "$2" "$3"; }

# frame CAP TEXT: TEXT as body lines "|line", whole lines up to CAP bytes;
# cut=" capped" when it stopped early.
frame() {
	c=$1
	cut=
	t=$2
	set -f
	IFS=$nl
	# shellcheck disable=SC2086 # split on line breaks, globbing off
	set -- $t
	IFS=$sp_ifs
	set +f
	[ $# -gt 0 ] || return 0
	if [ "${#t}" -le "$c" ]; then
		printf '|%s\n' "$@"
		return 0
	fi
	n=0
	for l do
		n=$((n + ${#l} + 1))
		if [ "$n" -gt "$c" ]; then
			cut=' capped'
			break
		fi
		printf '|%s\n' "$l"
	done
}

# toolrun CMD ARGS...: out= its output (stderr merged), rc= its status, under
# `timeout 5` when there is one, with the log levels quiet: the pod's
# UCX_LOG_LEVEL=debug or FI_LOG_LEVEL=trace would flood the listing (and
# UCX_LOG_FILE would make ucx_info write a file).  The env sections keep the
# pod's real values: they were read before.
#
# With $hc set (the telemetry scrape) only the first hc bytes are read:
# `head -c` stops there and the tool gets SIGPIPE, so a peer that never
# stops sending costs hc bytes, not what it sends in 3 s.  The tool's status
# travels after its output as a last line "@rc=N" (a pipeline's status is
# head's); a cut leaves it out, or the output fills hc: cut=" capped".
toolrun() {
	[ -z "$have_timeout" ] || set -- timeout 5 "$@"
	if [ -z "$hc" ]; then
		out=$(UCX_LOG_LEVEL=warn UCX_LOG_FILE='' FI_LOG_LEVEL=warn "$@" </dev/null 2>&1)
		rc=$?
		return 0
	fi
	out=$({ UCX_LOG_LEVEL=warn UCX_LOG_FILE='' FI_LOG_LEVEL=warn "$@" </dev/null 2>&1; printf '\n@rc=%s\n' "$?"; } | head -c "$hc")
	cut=' capped'
	rc=0
	case $out in
	*"$nl@rc="*)
		rc=${out##*"$nl"@rc=}
		out=${out%"$nl"@rc=*}
		[ "${#out}" -ge $((hc - 16)) ] || cut=
		case $rc in '' | *[!0-9]*) rc=1 cut=' capped' ;; esac
		;;
	esac
}

# toolend NAME: the @@end line of a tool section from rc and cut.
toolend() {
	f=$cut
	if [ -n "$have_timeout" ] && [ "$rc" = 124 ]; then
		f="$f timeout"
	fi
	endsec "$1" "$rc" "$f"
}

# tool NAME CAP CMD ARGS...: one tool run as a section.
tool() {
	name=$1
	c=$2
	shift 2
	begin "$name"
	if ! have "$1"; then
		endsec "$name" 127 ' missing'
		return 0
	fi
	toolrun "$@"
	frame "$c" "$out"
	toolend "$name"
}

# pick KIND LINE: 0 when LINE belongs in a section of KIND, 1 when not, 2
# when it does and is the last one needed (the rest is not read).
pick() {
	case $1:$2 in
	modules:nvidia* | modules:nv_peer_mem* | modules:efa_nv_peermem* | \
	modules:gdrdrv* | modules:ib_* | modules:mlx4_* | modules:mlx5_* | \
	modules:efa* | modules:rdma* | modules:irdma* | modules:bnxt_re* | \
	modules:siw* | all:*)
		return 0 ;;
	caps:CapAmb:* | 'memlock:Max locked memory'*) return 2 ;;
	caps:CapInh:* | caps:CapPrm:* | caps:CapEff:* | caps:CapBnd:* | \
	'shm:'*' /dev/shm '*)
		return 0 ;;
	esac
	return 1
}

# readfile NAME PATH KIND: the lines of PATH that `pick KIND` keeps, up to
# $cap bytes (also left in $kept).  `read` takes a byte per system call, so
# only small files are read this way, and reading stops once pick says so.
readfile() {
	begin "$1"
	if ! safe "$2" || ! { true <"$2"; } 2>/dev/null; then
		endsec "$1" 1 ' missing'
		return 0
	fi
	n=0
	cut=
	kept=
	while IFS= read -r l || [ -n "$l" ]; do
		pick "$3" "$l"
		k=$?
		[ "$k" != 1 ] || continue
		n=$((n + ${#l} + 1))
		if [ "$n" -gt "$cap" ]; then
			cut=' capped'
			break
		fi
		printf '|%s\n' "$l"
		kept=$kept$l$nl
		[ "$k" != 2 ] || break
	done <"$2"
	endsec "$1" 0 "$cut"
}

# First line of a sysfs file as "|<relpath>=<value>" (no fork: `read`).
val() {
	if [ -r "$1" ] && safe "$1"; then
		v=
		IFS= read -r v 2>/dev/null <"$1" || [ -n "$v" ] || [ -f "$1" ] || return 0
		printf '|%s=%s\n' "${1#"$root"/}" "$v"
	fi
}

# dir DIR: "|<relpath>/" for a directory that matters by being there; false
# when it is not there (or leads out of the sysroot).
dir() {
	[ -d "$1" ] && inroot "$1" || return 1
	pline "${1#"$root"/}/"
}

# pcidev DIR: a PCI function's link width (current and maximum: the
# generation is not read, it drops at idle), NUMA node and IOMMU domain type.
pcidev() {
	for f in current_link_width max_link_width numa_node iommu_group/type; do
		val "$1/$f"
	done
}

# gids PORT: every GID entry in use, whatever its index (RoCE tables hold
# up to 256).  The kernel fails the read of an empty entry's
# gid_attrs/types/N (rdma_get_gid_attr(); its gids/N reads as zeros), so the
# type is read first and the GID only for an entry in use.  Kernels without
# gid_attrs: every gids/N, zeros left out.
gids() {
	zero=0000:0000:0000:0000:0000:0000:0000:0000
	if [ -d "$1/gid_attrs/types" ]; then
		for t in "$1"/gid_attrs/types/*; do
			if ! [ -r "$t" ] || ! safe "$t"; then continue; fi
			v=
			IFS= read -r v 2>/dev/null <"$t" || [ -n "$v" ] || continue
			[ -n "$v" ] || continue
			g=
			safe "$1/gids/${t##*/}" && IFS= read -r g 2>/dev/null <"$1/gids/${t##*/}"
			if [ -z "$g" ] || [ "$g" = "$zero" ]; then continue; fi
			printf '|%s=%s\n|%s=%s\n' "${t#"$root"/}" "$v" "${1#"$root"/}/gids/${t##*/}" "$g"
		done
		return 0
	fi
	for t in "$1"/gids/*; do
		if ! [ -r "$t" ] || ! safe "$t"; then continue; fi
		g=
		IFS= read -r g 2>/dev/null <"$t" || [ -n "$g" ] || continue
		if [ -z "$g" ] || [ "$g" = "$zero" ]; then continue; fi
		printf '|%s=%s\n' "${t#"$root"/}" "$g"
	done
}

# counters PORT: the error and retransmission counters node.rdma.errors
# compares between two readings (sys, then sys:counters).
counters() {
	for c in counters/link_downed counters/symbol_error counters/link_error_recovery \
		counters/port_rcv_errors counters/excessive_buffer_overrun_errors \
		hw_counters/out_of_sequence hw_counters/local_ack_timeout_err \
		hw_counters/rnr_nak_retry_err hw_counters/np_cnp_sent hw_counters/rp_cnp_handled; do
		val "$1/$c"
	done
}

# esc TEXT: TEXT with every control byte written \xHH (printf's "'c"
# argument is the code of c): one line whatever TEXT holds.
esc() {
	e=$1
	while :; do
		case $e in
		*[[:cntrl:]]*) ;;
		*)
			printf '%s' "$e"
			return 0
			;;
		esac
		h=${e%%[[:cntrl:]]*}
		e=${e#"$h"}
		printf '%s\\x%02x' "$h" "'$e"
		e=${e#?}
	done
}

# pline TEXT: TEXT as one body line.
pline() {
	printf '|'
	esc "$1"
	printf '\n'
}

# Secret-like names never print a value: the rule of redact_is_secret_name()
# in src/core/redact.c, word for word (tests/node/test_probe_script.py runs
# both on the same names).  Words anywhere in the name, any case:
secret_name() {
	case $1 in
	*[Tt][Oo][Kk][Ee][Nn]* | *[Ss][Ee][Cc][Rr][Ee][Tt]* | \
	*[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]* | *[Pp][Aa][Ss][Ss][Ww][Dd]* | \
	*[Pp][Aa][Ss][Ss][Pp][Hh][Rr][Aa][Ss][Ee]* | \
	*[Cc][Rr][Ee][Dd][Ee][Nn][Tt][Ii][Aa][Ll]* | *[Pp][Rr][Ii][Vv][Aa][Tt][Ee]* | \
	*[Aa][Uu][Tt][Hh]* | *[Cc][Oo][Oo][Kk][Ii][Ee]* | *[Ss][Ee][Ss][Ss][Ii][Oo][Nn]* | \
	*[Aa][Pp][Ii][Kk][Ee][Yy]* | *[Aa][Cc][Cc][Ee][Ss][Ss]_[Kk][Ee][Yy]* | \
	*[Ss][Ii][Gg][Nn][Aa][Tt][Uu][Rr][Ee]*)
		return 0 ;;
	esac
	# ... and whole words (names are [A-Za-z0-9_], so words end at '_'):
	case _$1_ in
	*_[Kk][Ee][Yy]_* | *_[Pp][Aa][Ss][Ss]_* | *_[Pp][Ww][Dd]_* | *_[Cc][Ee][Rr][Tt]_* | \
	*_[Cc][Rr][Ee][Dd][Ss]_* | *_[Cc][Rr][Ee][Dd]_* | *_[Bb][Ee][Aa][Rr][Ee][Rr]_* | \
	*_[Jj][Ww][Tt]_* | *_[Pp][Rr][Ii][Vv][Kk][Ee][Yy]_* | *_[Pp][Ee][Mm]_* | *_[Ss][Aa][Ss]_*)
		return 0 ;;
	esac
	return 1
}

# Values that carry a secret whatever the variable is called
# (redact_is_secret_value()): "password=", "token=", "Bearer "...
secret_value() {
	case $1 in
	*[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd][=:]* | *[Pp][Aa][Ss][Ss][Ww][Dd]=* | \
	*[Pp][Ww][Dd]=* | *[Tt][Oo][Kk][Ee][Nn][=:]* | *[Ss][Ee][Cc][Rr][Ee][Tt]=* | \
	*[Aa][Pp][Ii][Kk][Ee][Yy]=* | *[Aa][Pp][Ii]_[Kk][Ee][Yy]=* | \
	*[Aa][Cc][Cc][Ee][Ss][Ss]_[Kk][Ee][Yy]=* | *[Bb][Ee][Aa][Rr][Ee][Rr]' '*)
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

# envline NAME VALUE BREAK: one "|NAME=VALUE" line of an env section.  The
# value ends at its first BREAK (a line break: "\n", or what tr made of
# one) and is marked so; then redact_value()'s rule: a secret-like name or
# value prints <redacted>, a URL's credentials user:<redacted>@; other
# control bytes are escaped.
envline() {
	v=$2
	case $v in
	*"$3"*) v="${v%%"$3"*} <multi-line value cut>" ;;
	esac
	if secret_name "$1" || secret_value "$v"; then
		v='<redacted>'
	else
		case $v in *://*@*) urlcreds "$v" ;; esac
	fi
	pline "$1=$v"
}

# urlcreds VALUE: v= VALUE with the userinfo of every URL hidden as
# redact_url_credentials() does: the password after "user:", or a lone user
# (often a token: https://TOKEN@host); the authority ends at the first of
# / ? # , ; quote or blank, and its last '@' ends the userinfo.
uq='"'"'"
urlcreds() {
	r=
	u=$1
	while :; do
		case $u in
		*://*) ;;
		*) break ;;
		esac
		r=$r${u%%://*}://
		u=${u#*://}
		# shellcheck disable=SC2295 # $uq (the two quotes) joins the bracket
		a=${u%%[/?#,\;${uq}[:blank:]]*}
		case $a in
		*@*)
			a=${a%@*}
			case $a in
			*:*) r="$r${a%%:*}:<redacted>" ;;
			*) r="$r<redacted>" ;;
			esac
			u=${u#"$a"}
			;;
		esac
	done
	v=$r$u
}

kernel=
if safe "$root/proc/sys/kernel/osrelease" && [ -r "$root/proc/sys/kernel/osrelease" ]; then
	IFS= read -r kernel <"$root/proc/sys/kernel/osrelease" || true
fi
if [ -z "$kernel" ] && [ -z "$sysroot" ] && have uname; then
	kernel=$(uname -r 2>/dev/null)
fi

# --- live evidence (node.live.*, src/live/live.h) ---------------------------
# What the serving process loaded and holds open, and with a window ($2,
# digits: --observe) what moved.  Paths and counters only: never memory,
# file contents, or the command line beyond the engine's module name.
observe=${2-0}
case $observe in '' | *[!0-9]* | ????*) observe=0 ;; esac

# now: seconds since boot, from this machine's clock (also under a sysroot:
# the window is measured here).
now() {
	up=
	IFS=' ' read -r up _ </proc/uptime 2>/dev/null || up=
}

# nvlink_gaps TOPO: true when `nvidia-smi topo -m` printed two GPUs whose
# cell is not NV<n> (no NVLink between them).  The header row names the
# columns (GPU0 GPU1 ... NIC0 ... CPU Affinity); a GPU row's first cells are
# its GPU-to-GPU cells.
nvlink_gaps() {
	ngc=
	set -f
	IFS=$nl
	# shellcheck disable=SC2086 # one matrix row per line
	set -- $1
	IFS=$sp_ifs
	for row do
		# shellcheck disable=SC2086 # the row's cells
		set -- $row
		case $1:${2-} in
		GPU[0-9]*:GPU[0-9]* | GPU[0-9]*:NIC[0-9]* | GPU[0-9]*:CPU* | GPU[0-9]*:mlx*)
			[ -z "$ngc" ] || continue
			ngc=0
			for cell do
				case $cell in GPU[0-9]*) ngc=$((ngc + 1)) ;; esac
			done
			;;
		GPU[0-9]*:*)
			if [ -z "$ngc" ] || [ "$ngc" -lt 2 ]; then continue; fi
			shift
			k=0
			for cell do
				k=$((k + 1))
				[ "$k" -le "$ngc" ] || break
				case $cell in
				X | NV[0-9]*) ;;
				*)
					set +f
					return 0
					;;
				esac
			done
			;;
		esac
	done
	set +f
	return 1
}

# csec UPTIME: cs= the /proc/uptime reading in centiseconds ("" when it is
# not one).
csec() {
	cs=
	case $1 in
	*[0-9].[0-9][0-9]) ;;
	*) return 0 ;;
	esac
	case ${1%.*} in *[!0-9]*) return 0 ;; esac
	h=${1#*.}
	cs=$((${1%.*} * 100 + ${h#0}))
}

# live_engine CMDLINE: e= the engine a command line runs (the shell drops
# the NUL separators, so the words run together: substrings only).
live_engine() {
	case $1 in
	*ci-probe*) e= ;;
	*dynamo.vllm*) e=dynamo.vllm ;;
	*dynamo.sglang*) e=dynamo.sglang ;;
	*dynamo.trtllm*) e=dynamo.trtllm ;;
	*dynamo.mocker*) e=dynamo.mocker ;;
	*sglang*) e=sglang ;;
	*vllm* | *VLLM*) e=vllm ;;
	*trtllm* | *tensorrt_llm*) e=trtllm ;;
	*) e= ;;
	esac
}

# live_find: the engine process.  The one that mapped a NIXL backend plugin
# moves KV (vLLM and SGLang run NIXL in worker processes whose command lines
# are rewritten, "VLLM::EngineCore"): ONE grep -l over every maps file the
# jail allows.  Else pid 1 or the first process whose command line runs an
# engine.  Our own shell (its command line holds this script) is skipped.
# Why grep and not `while read` + `case` (the framing's way): a serving
# engine maps thousands of lines (6,000, 412 KiB, in the synthesised vLLM
# maps of docs/probe.md), and the shell's read costs a read(2) per byte
# (dash) or re-generates /proc's seq_file on every lseek back (bash).  Per
# such file, CPU: `timeout 5 grep -l` 26 ms (mostly its two execs); the
# built-in loop 760 ms in dash, 5.9 s in bash on a real /proc/PID/maps, and
# a pod has one per worker process.  The grep runs in every probe, once
# for all the files, never once per file; the live:maps grep once more
# when an engine was found.
live_find() {
	pid='' how='' engine='' exe='' nixl_procs=0
	set --
	for m in "$root"/proc/[0-9]*/maps; do
		if ! [ -r "$m" ] || ! safe "$m"; then continue; fi
		[ "${m%/maps}" != "$root/proc/$$" ] || continue
		set -- "$@" "$m"
	done
	if [ $# -gt 0 ] && have grep; then
		toolrun grep -l -s -e 'libplugin_[A-Za-z0-9_]*\.so' -- "$@"
		set -f
		IFS=$nl
		for m in $out; do
			p=${m%/maps}
			p=${p##*/}
			case $p in '' | *[!0-9]*) continue ;; esac
			nixl_procs=$((nixl_procs + 1))
			[ -n "$pid" ] || pid=$p how=nixl
		done
		IFS=$sp_ifs
		set +f
	fi
	if [ -n "$pid" ]; then
		l=
		safe "$root/proc/$pid/cmdline" && IFS= read -r l <"$root/proc/$pid/cmdline" 2>/dev/null
		live_engine "$l"
		engine=$e
	else
		for d in "$root"/proc/1 "$root"/proc/[0-9]*; do
			p=${d##*/}
			[ "$p" != "$$" ] || continue
			if ! [ -r "$d/cmdline" ] || ! safe "$d/cmdline"; then continue; fi
			l=
			IFS= read -r l <"$d/cmdline" 2>/dev/null || [ -n "$l" ] || continue
			live_engine "$l"
			[ -n "$e" ] || continue
			pid=$p engine=$e how=cmdline
			[ "$p" != 1 ] || how=pid1
			break
		done
	fi
	[ -n "$pid" ] || return 0
	safe "$root/proc/$pid/comm" && IFS= read -r exe <"$root/proc/$pid/comm" 2>/dev/null
}

live_proc() {
	begin live:proc
	pline "observe=$observe"
	if [ -z "$pid" ]; then
		pline "why=no engine process found (no NIXL plugin mapped, no engine command line)"
		endsec live:proc 0 ''
		return 0
	fi
	pline "pid=$pid"
	pline "how=$how"
	pline "engine=$engine"
	pline "exe=$exe"
	pline "nixl_procs=$nixl_procs"
	pline "tm_from=$tm_from"
	pline "tm_enable=$tm_enable"
	pline "tm_exporter=$tm_exporter"
	pline "tm_metrics=$tm_metrics"
	m=$root/proc/$pid/maps
	d=$root/proc/$pid/fd
	if ! [ -r "$m" ] || ! safe "$m" || ! [ -d "$d" ] || ! inroot "$d"; then
		pline "readable=no"
		pline "why=/proc/$pid/maps or /proc/$pid/fd cannot be read (another user's process, or not in the dump)"
		endsec live:proc 0 ''
		return 0
	fi
	pline "readable=yes"
	endsec live:proc 0 ''

	# The transport libraries it mapped: one grep (a loop of built-ins
	# costs 20-170x its CPU on an engine's maps: live_find says why); a
	# library is mapped in consecutive segments, so its first line is kept.
	begin live:maps
	if have grep; then
		toolrun grep -E -s -e '/(libplugin_|libnixl|libuc[pst]|libuct_|libfabric|libefa|libibverbs|libmlx5|libnccl|libgdrapi)[^/]*$' -- "$m"
		last=
		n=0
		set -f
		IFS=$nl
		for l in $out; do
			p=/${l#*/}
			[ "$p" != "$last" ] || continue
			last=$p
			n=$((n + 1))
			[ "$n" -le 512 ] || break
			pline "$l"
		done
		IFS=$sp_ifs
		set +f
		rc=0
		endsec live:maps 0 ''
	else
		endsec live:maps 127 ' missing'
	fi

	# What it holds open: one ls -l (link texts, never followed), device
	# targets only.
	begin live:fd
	if have ls; then
		toolrun ls -l -- "$d"
		n=0
		set -f
		IFS=$nl
		for l in $out; do
			case $l in *' -> '*dev/*) ;; *) continue ;; esac
			n=$((n + 1))
			[ "$n" -le 512 ] || break
			pline "$l"
		done
		IFS=$sp_ifs
		set +f
		endsec live:fd 0 ''
	else
		endsec live:fd 127 ' missing'
	fi
}

# live_sample N: every RDMA port's data counters, the pod's interface bytes
# and NIXL's telemetry, at one instant.
live_sample() {
	now
	begin "live:sample:$1"
	pline "uptime=$up"
	for p in "$root"/sys/class/infiniband/*/ports/*; do
		if ! [ -d "$p" ] || ! inroot "$p"; then continue; fi
		for c in counters/port_xmit_data counters/port_rcv_data hw_counters/tx_bytes \
			hw_counters/rx_bytes hw_counters/rdma_read_bytes hw_counters/rdma_write_bytes \
			hw_counters/rdma_read_resp_bytes hw_counters/rdma_write_recv_bytes; do
			val "$p/$c"
		done
	done
	endsec "live:sample:$1" 0 ''
	readfile "live:netdev:$1" "$root/proc/net/dev" all
	live_nixl "$1"
}

# live_truthy VALUE: NIXL's reading of a boolean variable (y, yes, on, true,
# enable, 1, any case: nixl::config).
live_truthy() {
	case $1 in
	[yY]) return 0 ;;
	[yY][eE][sS]) return 0 ;;
	[oO][nN]) return 0 ;;
	[tT][rR][uU][eE]) return 0 ;;
	[eE][nN][aA][bB][lL][eE]) return 0 ;;
	1) return 0 ;;
	esac
	return 1
}

# live_falsy VALUE: the other half (n, no, off, false, disable, 0).
live_falsy() {
	case $1 in
	[nN] | [nN][oO] | [oO][fF][fF] | [fF][aA][lL][sS][eE]) return 0 ;;
	[dD][iI][sS][aA][bB][lL][eE] | 0) return 0 ;;
	esac
	return 1
}

# live_tm_env: NIXL's telemetry switches as the engine process has them:
# its own /proc/PID/environ (a launch script, or the engine itself, may set
# them for that process only), NIXL_TELEMETRY_* names only, never printed
# beyond the five below; the probe's own environment only when that file
# cannot be read.  The names and ports are src/rules/nixl_telemetry.c's
# (tests/rules/test_nixl_telemetry.c holds the two together).
live_tm_env() {
	tm_enable='' tm_exporter='' tm_port='' tm_doca_port='' tm_metrics='' tm_from=''
	[ -n "$pid" ] || return 0
	e=$root/proc/$pid/environ
	if [ -r "$e" ] && safe "$e" && have tr &&
		out=$(tr '\000\n' '\n\036' 2>/dev/null <"$e"); then
		tm_from='env'
		set -f
		IFS=$nl
		for l in $out; do
			case $l in
			NIXL_TELEMETRY_ENABLE=*) tm_enable=${l#*=} ;;
			NIXL_TELEMETRY_EXPORTER=*) tm_exporter=${l#*=} ;;
			NIXL_TELEMETRY_PROMETHEUS_PORT=*) tm_port=${l#*=} ;;
			NIXL_TELEMETRY_DOCA_PROMETHEUS_PORT=*) tm_doca_port=${l#*=} ;;
			NIXL_TELEMETRY_ENABLED_METRICS=*) tm_metrics=${l#*=} ;;
			esac
		done
		IFS=$sp_ifs
		set +f
	else
		tm_from='probe'
		tm_enable=${NIXL_TELEMETRY_ENABLE-}
		tm_exporter=${NIXL_TELEMETRY_EXPORTER-}
		tm_port=${NIXL_TELEMETRY_PROMETHEUS_PORT-}
		tm_doca_port=${NIXL_TELEMETRY_DOCA_PROMETHEUS_PORT-}
		tm_metrics=${NIXL_TELEMETRY_ENABLED_METRICS-}
	fi
	# only names and numbers go out: anything else is dropped
	case $tm_exporter in *[!A-Za-z0-9_]* | ?????????????????????????????????*) tm_exporter=bad ;; esac
	case $tm_enable in *[!A-Za-z0-9]* | ????????*) tm_enable=bad ;; esac
	case $tm_metrics in *[!A-Za-z0-9_*?,]*) tm_metrics=bad ;; esac
}

# NIXL's Prometheus exporters, when the engine has one: ONE fixed GET of
# 127.0.0.1:PORT/metrics with what the image has; agent_* lines only.
# prometheus and prometheus_mp serve on NIXL_TELEMETRY_PROMETHEUS_PORT
# (9090), doca on NIXL_TELEMETRY_DOCA_PROMETHEUS_PORT (9091).  The agent
# may have been switched on by its config (capture_telemetry) without
# NIXL_TELEMETRY_ENABLE; only an explicit "off" keeps the probe away.
# At most tm_cap bytes are read (NIXL_TM_SCRAPE_MAX of
# src/rules/nixl_telemetry.h says why that many: NIXL's whole exposition for
# eight ranks, many times over), through `head -c` (python3 reads no more
# itself); at most $bigcap bytes of agent_* lines are kept.  Either cut
# marks the section capped, and a capped scrape is never read as counters.
tm_cap=1048576
live_nixl() {
	! live_falsy "$tm_enable" || return 0
	if [ "$tm_exporter" = prometheus ] || [ "$tm_exporter" = prometheus_mp ]; then
		port=${tm_port:-9090}
	elif [ "$tm_exporter" = doca ]; then
		port=${tm_doca_port:-9091}
	else
		return 0
	fi
	case $port in '' | *[!0-9]* | ??????*) return 0 ;; esac
	url=http://127.0.0.1:$port/metrics
	begin "live:nixl:$1"
	cut=
	hc=
	! have head || hc=$tm_cap
	if [ -n "$hc" ] && have curl; then
		toolrun curl -s -f -m 3 -- "$url"
	elif [ -n "$hc" ] && have wget; then
		toolrun wget -q -T 3 -O - -- "$url"
	elif have python3; then
		toolrun python3 -c '__import__("sys").stdout.write(__import__("urllib.request").request.urlopen(__import__("sys").argv[1],timeout=3).read(int(__import__("sys").argv[2])).decode("utf-8","replace"))' "$url" "$tm_cap"
		[ -n "$hc" ] || [ "${#out}" -lt $((tm_cap - 16)) ] || cut=' capped'
	else
		endsec "live:nixl:$1" 127 ' missing'
		return 0
	fi
	tcut=$cut
	hc=
	n=0
	set -f
	IFS=$nl
	for l in $out; do
		case $l in agent_*) ;; *) continue ;; esac
		n=$((n + ${#l} + 1))
		if [ "$n" -gt "$bigcap" ]; then
			tcut=' capped'
			break
		fi
		pline "$l"
	done
	IFS=$sp_ifs
	set +f
	endsec "live:nixl:$1" "$rc" "$tcut"
}

# live_wait: the rest of the window (the probe ran inside it), then the
# second sample.
live_wait() {
	[ "$observe" -gt 0 ] || return 0
	now
	left=$observe
	if [ -n "$up" ] && [ -n "$live_t0" ]; then
		left=$((observe - (${up%%.*} - ${live_t0%%.*})))
	fi
	[ "$left" -le 0 ] || sleep "$left"
	live_sample 1
}

echo '@@ci-probe v1'
begin meta
if [ -n "$sysroot" ]; then echo '|root=sysroot'; else echo '|root=host'; fi
pline "kernel=$kernel"
printf '|have_timeout=%s\n' "${have_timeout:-0}"
echo '|gids=all'
endsec meta 0 ''

# The engine process and its telemetry switches, before the first sample
# (which scrapes the exporter they name).
live_find
live_tm_env

# The window opens here: the rest of the probe runs inside it.
now
live_t0=$up
[ "$observe" -eq 0 ] || live_sample 0

# --- sysfs -----------------------------------------------------------------
begin sys
ctr_ports=
nd=0
for d in "$root"/sys/class/infiniband/*; do
	[ -d "$d" ] || continue
	nd=$((nd + 1))
	[ "$nd" -le 64 ] || break
	dir "$d" || continue
	for f in node_type fw_ver hca_type board_id; do val "$d/$f"; done
	pcidev "$d/device"
	# which uverbs node is this device's (a pod given a subset has only
	# its own in /dev/infiniband)
	for u in "$d"/device/infiniband_verbs/uverbs*; do
		[ -d "$u" ] && dir "$u"
	done
	np=0
	for p in "$d"/ports/*; do
		[ -d "$p" ] || continue
		np=$((np + 1))
		[ "$np" -le 8 ] || break
		dir "$p" || continue
		for f in state phys_state rate link_layer lid; do val "$p/$f"; done
		gids "$p"
		counters "$p"
		ctr_ports=$ctr_ports$p$nl
	done
	ni=0
	for n in "$d"/device/net/*; do
		[ -d "$n" ] || continue
		ni=$((ni + 1))
		[ "$ni" -le 8 ] || break
		dir "$n"
	done
done
ni=0
for n in "$root"/sys/class/net/*; do
	[ -d "$n" ] || continue
	ni=$((ni + 1))
	[ "$ni" -le 256 ] || break
	dir "$n" || continue
	val "$n/operstate"
	val "$n/type"
done
dir "$root/sys/kernel/mm/memory_peers"
for m in nvidia_peermem nv_peer_mem efa_nv_peermem gdrdrv nvidia efa ib_uverbs; do
	dir "$root/sys/module/$m"
done
val "$root/sys/module/gdrdrv/version"
# NVIDIA GPUs on the PCI bus (vendor 0x10de, display class 0x03xxxx): their
# link width, NUMA node and IOMMU domain.  Two short reads per PCI device,
# no process.
if dir "$root/sys/bus/pci/devices"; then
	ng=0
	for g in "$root"/sys/bus/pci/devices/*; do
		v=
		safe "$g/vendor" && IFS= read -r v 2>/dev/null <"$g/vendor"
		[ "$v" = 0x10de ] || continue
		v=
		safe "$g/class" && IFS= read -r v 2>/dev/null <"$g/class"
		case $v in 0x03????) ;; *) continue ;; esac
		ng=$((ng + 1))
		[ "$ng" -le 64 ] || break
		dir "$g" && pcidev "$g"
	done
fi
# a hypervisor or bare metal (the IOMMU's DMA mode is normal in a VM)
val "$root/sys/class/dmi/id/sys_vendor"
val "$root/sys/class/dmi/id/product_name"
endsec sys 0 ''
now
ctr_t0=$up

# --- device nodes ----------------------------------------------------------
begin dev
nf=0
if inroot "$root/dev"; then
	for f in "$root"/dev/infiniband/* "$root"/dev/gdrdrv "$root"/dev/nvidia[0-9]* \
		"$root"/dev/nvidiactl "$root"/dev/nvidia-uvm \
		"$root"/dev/nvidia-caps-imex-channels/*; do
		[ -e "$f" ] || continue
		[ -z "$root" ] || [ ! -h "$f" ] || continue
		nf=$((nf + 1))
		[ "$nf" -le 512 ] || break
		pline "${f#"$root"/}"
	done
fi
endsec dev 0 ''

# --- procfs ----------------------------------------------------------------
readfile proc:modules "$root/proc/modules" modules
readfile proc:nvidia-version "$root/proc/driver/nvidia/version" all
# The exec shell's own status and limits (what `kubectl exec` gets), then
# pid 1's: the worker's effective memlock and CAP_IPC_LOCK.
readfile proc:status "$root/proc/self/status" caps
readfile proc:limits "$root/proc/self/limits" memlock
readfile proc:pid1-status "$root/proc/1/status" caps
readfile proc:pid1-limits "$root/proc/1/limits" memlock
readfile proc:mounts "$root/proc/mounts" shm
# The size df would report is in the mount options when tmpfs has one.
shm_sized=
case $kept in *size=*) shm_sized=1 ;; esac
# The pod's network namespace: its default route and address scopes (the
# management NIC; NCCL_SOCKET_IFNAME on a link-local-only interface).
readfile proc:net-route "$root/proc/net/route" all
readfile proc:net-if_inet6 "$root/proc/net/if_inet6" all

if [ -z "$sysroot" ]; then
	# -l and -H are not POSIX, but dash, bash, busybox ash and mksh have them.
	begin ulimit:l
	printf '|'
	# shellcheck disable=SC3045
	ulimit -l 2>&1 || echo
	endsec ulimit:l 0 ''
	begin ulimit:hl
	printf '|'
	# shellcheck disable=SC3045
	ulimit -Hl 2>&1 || echo
	endsec ulimit:hl 0 ''
fi

# --- the transport environment (filtered HERE, never raw) ------------------
# /proc/1/environ is the worker itself (pid 1, with what its command line
# exported); the exec shell's variables come next (the C side prefers
# pid 1's).  Boundaries are the kernel's NULs for pid 1 (tr turns them into
# line breaks and a value's own line breaks into \036 first) and the shell's
# own variables for the exec shell, so no byte inside a value can start a
# variable of its own.
seen=' '
pid1_plugin_dir=
begin env:pid1
if safe "$root/proc/1/environ" && have tr &&
	out=$(tr '\000\n' '\n\036' 2>/dev/null <"$root/proc/1/environ"); then
	set -f
	IFS=$nl
	# shellcheck disable=SC2086 # one variable per line, globbing off
	set -- $out
	IFS=$sp_ifs
	set +f
	rs=
	nv=0
	for l do
		n=${l%%=*}
		[ "$n" != "$l" ] || continue
		transport_name "$n" || continue
		case $seen in *" $n "*) continue ;; esac
		nv=$((nv + 1))
		[ "$nv" -le 256 ] || break
		seen="$seen$n "
		v=${l#*=}
		case $v in
		*[[:cntrl:]]*) [ -n "$rs" ] || rs=$(printf '\036') ;;
		esac
		[ "$n" != NIXL_PLUGIN_DIR ] || pid1_plugin_dir=$v
		envline "$n" "$v" "${rs:-$nl}"
	done
	endsec env:pid1 0 ''
else
	endsec env:pid1 1 ' missing'
fi
if [ -z "$sysroot" ]; then
	# `export -p` only nominates names (a value spanning lines may hold a
	# line that looks like "export UCX_TLS=..."); each value is then read
	# from the shell itself, so a nomination cannot forge one.
	begin env:exec
	seen=' '
	nv=0
	out=$(export -p)
	set -f
	IFS=$nl
	# shellcheck disable=SC2086
	set -- $out
	IFS=$sp_ifs
	set +f
	for l do
		case $l in
		'export '*) n=${l#'export '} ;;
		'declare -x '*) n=${l#'declare -x '} ;;
		*) continue ;;
		esac
		n=${n%%=*}
		transport_name "$n" || continue
		case $seen in *" $n "*) continue ;; esac
		eval "isset=\${$n+1}"
		[ -n "$isset" ] || continue
		nv=$((nv + 1))
		[ "$nv" -le 256 ] || break
		seen="$seen$n "
		eval "v=\${$n}"
		envline "$n" "$v" "$nl"
	done
	endsec env:exec 0 ''
fi
# The tools run without the pod's NCCL debug setting (none of them is
# NCCL, but a wrapper or plugin may read it); env:* above kept its value.
unset NCCL_DEBUG

# --- tools -----------------------------------------------------------------
# (From a directory of no consequence: under a sysroot the jail checks left
# the shell somewhere inside the tree.)
cd / || :
begin which
for t in ibv_devinfo nvidia-smi fi_info ucx_info nixlbench nixl_test \
	nixl_example kvbench etcdctl ucx_perftest; do
	# PATH walked here, as `command -v` would, without a subshell per tool.
	p=
	set -f
	IFS=:
	# shellcheck disable=SC2086
	set -- $PATH
	IFS=$sp_ifs
	set +f
	for d do
		[ -n "$d" ] || d=.
		if [ -f "$d/$t" ] && [ -x "$d/$t" ]; then
			p=$d/$t
			break
		fi
	done
	pline "$t=$p"
done
endsec which 0 ''

# InfiniBand facts come from sysfs (ibstat and `rdma link` only re-read
# it); ibv_devinfo is run because it shows what libibverbs can open.
tool tool:ibv_devinfo "$cap" ibv_devinfo

# nvidia-smi -q: only what the checks read (GPU headers, product, driver and
# CUDA versions, the Fabric block up to the next 4-space key, and top-level
# failures), so that eight GPUs fit under the cap.  It also answers what a
# separate --query-gpu run used to (index = order, name, bus id, driver).
begin tool:nvsmi-q
if have nvidia-smi; then
	toolrun nvidia-smi -q
	set -f
	IFS=$nl
	# shellcheck disable=SC2086
	set -- $out
	IFS=$sp_ifs
	set +f
	n=0
	cut=
	fab=
	blk=
	for l do
		keep=
		if [ -n "$fab" ]; then
			keep=1
			case $l in '    '[![:blank:]]*) fab= ;; esac
		fi
		# MIG Mode's lines; GPU Link Info > Link Width's Max and Current
		case $blk:$l in
		mig:'        '[![:blank:]]*) keep=1 ;;
		gli:'            Link Width'*)
			keep=1
			blk=lw
			;;
		gli:'            '*) ;;
		lw:'                '[![:blank:]]*) keep=1 ;;
		lw:'            '*) blk=gli ;;
		*) blk= ;;
		esac
		case $l in
		'GPU '* | *'Driver Version'* | *'CUDA Version'* | *'Attached GPUs'* | \
		*'Product Name'* | [![:blank:]]*[Ff]ail* | [![:blank:]]*[Ee]rror* | [![:blank:]]*'not found'*)
			keep=1 ;;
		'    Fabric'*)
			keep=1
			fab=1
			;;
		'    MIG Mode'*)
			keep=1
			blk=mig
			;;
		'        GPU Link Info'*)
			keep=1
			blk=gli
			;;
		esac
		[ -n "$keep" ] || continue
		n=$((n + ${#l} + 1))
		if [ "$n" -gt "$bigcap" ]; then
			cut=' capped'
			break
		fi
		printf '|%s\n' "$l"
	done
	toolend tool:nvsmi-q
else
	endsec tool:nvsmi-q 127 ' missing'
fi
tool tool:nvsmi-topo "$cap" nvidia-smi topo -m
# The P2P matrix (ACS or the IOMMU refusing P2P) matters only between GPUs
# without NVLink: one more nvidia-smi only when topo -m shows such a pair.
if [ "$rc" = 0 ] && have nvidia-smi && nvlink_gaps "$out"; then
	tool tool:nvsmi-p2p "$cap" nvidia-smi topo -p2p r
fi
tool tool:nvsmi-nvlink "$cap" nvidia-smi nvlink -s
tool tool:fi_info-efa "$cap" fi_info -p efa
# One ucx_info run answers both -v and -d (it prints the version first).
# A run that died before flushing its version (a hang in a transport's
# query, stopped by timeout) gets a separate -v run, so the version stays.
tool tool:ucx_info-vd "$bigcap" ucx_info -v -d
if have ucx_info; then
	case $out in
	*'# Version '* | *'# Library version:'*) ;;
	*) tool tool:ucx_info-v "$cap" ucx_info -v ;;
	esac
fi
if [ -z "$sysroot" ] && [ -z "$shm_sized" ]; then
	tool tool:df-shm "$cap" df -k /dev/shm
fi

# --- the port counters again -------------------------------------------------
# The tool queries above ran between the two readings (on a GPU node they
# take well over a second); a `sleep 1` fills the gap only when they were
# quicker.  Not under a sysroot: a dump is one instant, and two readings of
# it would say "nothing grew".
if [ -z "$sysroot" ] && [ -n "$ctr_ports" ]; then
	now
	csec "$ctr_t0"
	cs0=$cs
	csec "$up"
	if [ -n "$cs0" ] && [ -n "$cs" ] && [ $((cs - cs0)) -lt 100 ]; then
		sleep 1
		now
		csec "$up"
	fi
	cs1=$cs
	begin sys:counters
	if [ -n "$cs0" ] && [ -n "$cs1" ]; then
		ms=$((cs1 - cs0))
		printf '|interval_ms=%s\n' "$((ms * 10))"
	fi
	set -f
	IFS=$nl
	# shellcheck disable=SC2086 # one port directory per line
	set -- $ctr_ports
	IFS=$sp_ifs
	set +f
	for p do counters "$p"; done
	endsec sys:counters 0 ''
fi

# --- NIXL installation -----------------------------------------------------
# The Python trees that can hold a NIXL wheel: the system's, /usr/local's,
# venvs under /opt and /workspace (lib and lib64: llm-d's images use a lib64
# venv) and the user site.  A lib64 that is a link to lib is skipped (the
# same files twice).  Inside each, the layouts of NIXL's packaging
# (ai-dynamo/nixl contrib/wheel + meson-python; rules/nixl.c reads them):
# auditwheel's {pkg}.libs/ with the bundled UCX (libucp*, ucx/libuct_*) and
# the plugins (nixl/libplugin_*), meson-python's .{pkg}.mesonpy.libs/plugins,
# older wheels' .nixl*.libs/plugins, TensorRT-LLM's tensorrt_llm/libs/nixl.
sites=
for sp in "$root"/usr/lib*/python3*/*-packages "$root"/usr/local/lib*/python3*/*-packages \
	"$root"/opt/*/lib*/python3*/site-packages "$root"/opt/*/*/lib*/python3*/site-packages \
	"$root"/workspace/*/lib*/python3*/site-packages \
	"$root"/root/.local/lib/python3*/site-packages; do
	[ -d "$sp" ] || continue
	libdir=${sp%/python3*}
	[ ! -L "$libdir" ] || continue
	inroot "$sp" || continue
	sites="$sites$sp$nl"
done

begin nixl:plugins
np=0
plugin_dir=${pid1_plugin_dir:-${NIXL_PLUGIN_DIR-}}
set -f
IFS=$nl
# shellcheck disable=SC2086
set -- $sites
IFS=$sp_ifs
set +f
pdirs=
for sp do
	for d in "$sp"/nixl*.libs/nixl "$sp"/.nixl*.mesonpy.libs/plugins \
		"$sp"/.nixl*.libs/plugins "$sp"/tensorrt_llm/libs/nixl/plugins; do
		[ -d "$d" ] && pdirs="$pdirs$d$nl"
	done
done
for d in "$root"/opt/nvidia/nvda_nixl/lib*/plugins "$root"/opt/nvidia/nvda_nixl/lib*/*/plugins \
	"$root"/usr/local/nixl/lib*/plugins "$root"/usr/local/nixl/lib*/*/plugins; do
	pdirs="$pdirs$d$nl"
done
set -f
IFS=$nl
# shellcheck disable=SC2086
set -- "$root$plugin_dir" $pdirs
IFS=$sp_ifs
set +f
for d do
	[ -n "$plugin_dir" ] || [ "$d" != "$root" ] || continue
	[ -d "$d" ] || continue
	inroot "$d" || continue
	pline "${d#"$root"}/"
	for f in "$d"/libplugin_*.so; do
		[ -e "$f" ] || continue
		np=$((np + 1))
		[ "$np" -le 256 ] || break
		pline "${f#"$root"}"
	done
done
endsec nixl:plugins 0 ''

# The image's libraries, by name only (never opened): rdma-core's ABI
# (ibv_reg_dmabuf_mr), GDRCopy's library against gdrdrv, a system UCX beside
# the one a NIXL wheel bundles, and that bundled UCX's modules (ucx/libuct_*:
# which of IB, CUDA, GDRCopy NIXL's own UCX can load).
begin files:libs
nf=0
wl=
set -f
IFS=$nl
# shellcheck disable=SC2086
set -- $sites
IFS=$sp_ifs
set +f
for sp do
	for f in "$sp"/nixl*.libs/libucp* "$sp"/.nixl*.libs/libucp* \
		"$sp"/.nixl*.mesonpy.libs/libucp* "$sp"/nixl*.libs/ucx/libuct_*; do
		[ -e "$f" ] && wl="$wl$f$nl"
	done
done
for f in "$root"/usr/lib/*-linux-gnu/libibverbs.so.1.* "$root"/usr/lib64/libibverbs.so.1.* \
	"$root"/usr/lib/libibverbs.so.1.* "$root"/usr/local/lib/libibverbs.so.1.* \
	"$root"/usr/lib/*-linux-gnu/libgdrapi.so.2.* "$root"/usr/lib64/libgdrapi.so.2.* \
	"$root"/usr/lib/libgdrapi.so.2.* "$root"/usr/local/lib/libgdrapi.so.2.* \
	"$root"/usr/lib/*-linux-gnu/libucp.so.* "$root"/usr/lib64/libucp.so.* \
	"$root"/usr/lib/libucp.so.* "$root"/usr/local/lib/libucp.so.* \
	"$root"/usr/local/ucx/lib/libucp.so.* "$root"/opt/hpcx/ucx/lib/libucp.so.* \
	"$root"/opt/amazon/ofi-nccl/lib/libnccl-net*.so \
	"$root"/opt/amazon/aws-ofi-nccl/lib/libnccl-net*.so; do
	[ -e "$f" ] && wl="$f$nl$wl"
done
set -f
IFS=$nl
# shellcheck disable=SC2086
set -- $wl
IFS=$sp_ifs
set +f
for f do
	[ -e "$f" ] || continue
	inroot "${f%/*}" || continue
	nf=$((nf + 1))
	[ "$nf" -le 64 ] || break
	pline "${f#"$root"}"
done
endsec files:libs 0 ''

# EFA's userspace: the installer's own record of what it installed
# (aws-efa-installer efa_installer.sh, write_package_file: its version, then
# the package file names), so that libfabric's and aws-ofi-nccl's versions
# are read without running anything (rules/efa.c judges them).
readfile efa:packages "$root/opt/amazon/efa_installed_packages" all

begin nixl:python
nm=0
set -f
IFS=$nl
# shellcheck disable=SC2086
set -- $sites
IFS=$sp_ifs
set +f
for sp do
	for m in "$sp"/nixl*.dist-info/METADATA; do
		[ -r "$m" ] || continue
		safe "$m" || continue
		nm=$((nm + 1))
		[ "$nm" -le 16 ] || break
		nl2=0
		while IFS= read -r l && [ "$nl2" -lt 40 ]; do
			nl2=$((nl2 + 1))
			case $l in
			Name:* | Version:*) pline "${m#"$root"}: $l" ;;
			'') break ;;
			esac
		done <"$m"
	done
done
endsec nixl:python 0 ''

live_proc
live_wait

echo '@@done'
