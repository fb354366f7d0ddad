# ---- live evidence (node.live.*): the serving process and, with a window,
# what moved.  Paths and counters only.
# $2 is the observation window in seconds, digits only (checked again here:
# anything else is no window).
observe=${2-0}
case $observe in '' | *[!0-9]* | ?????*) observe=0 ;; esac

# now: seconds since boot from the real /proc/uptime (also under a sysroot:
# the window is measured on this machine's clock).
now() {
	up=
	IFS=' ' read -r up _ </proc/uptime 2>/dev/null || up=
}

# live_find: the engine process.  The process that mapped a NIXL backend
# plugin is the one that moves KV (vLLM and SGLang run NIXL in worker
# processes whose command lines are rewritten), found with ONE grep over
# every maps file; else pid 1 or the first process whose command line runs
# an engine.  Our own shell (its command line holds this script) is skipped.
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

live_find() {
	pid='' how='' engine='' exe='' nixl_procs=0
	if have grep; then
		# shellcheck disable=SC2013 # paths under /proc hold no spaces
		for m in $(grep -l -s -e 'libplugin_[A-Za-z0-9_]*\.so' "$root"/proc/[0-9]*/maps); do
			p=${m%/maps}
			p=${p##*/}
			[ "$p" = "$$" ] && continue
			nixl_procs=$((nixl_procs + 1))
			[ -n "$pid" ] || pid=$p how=nixl
		done
	fi
	if [ -n "$pid" ]; then
		l=
		IFS= read -r l <"$root/proc/$pid/cmdline" 2>/dev/null
		live_engine "$l"
		engine=$e
	else
		for d in "$root"/proc/1 "$root"/proc/[0-9]*; do
			p=${d##*/}
			[ "$p" = "$$" ] && continue
			l=
			IFS= read -r l <"$d/cmdline" 2>/dev/null || [ -n "$l" ] || continue
			live_engine "$l"
			[ -n "$e" ] || continue
			pid=$p engine=$e how=cmdline
			[ "$p" = 1 ] && how=pid1
			break
		done
	fi
	[ -n "$pid" ] || return 0
	IFS= read -r exe <"$root/proc/$pid/comm" 2>/dev/null || exe=
}

live_proc() {
	live_find
	printf '@@begin live:proc\n|observe=%s\n' "$observe"
	if [ -z "$pid" ]; then
		printf '|why=no engine process found (no NIXL plugin mapped, no engine command line)\n'
		endsec live:proc 0 ""
		return 0
	fi
	printf '|pid=%s\n|how=%s\n|engine=%s\n|exe=%s\n|nixl_procs=%s\n' "$pid" "$how" "$engine" "$exe" "$nixl_procs"
	if [ -r "$root/proc/$pid/maps" ] && [ -r "$root/proc/$pid/fd" ] && [ -x "$root/proc/$pid/fd" ]; then
		printf '|readable=yes\n'
	else
		printf '|readable=no\n|why=/proc/%s/maps or fd is not readable by this user\n' "$pid"
		endsec live:proc 0 ""
		return 0
	fi
	endsec live:proc 0 ""
	# The transport libraries it mapped: one grep, paths only.
	printf '@@begin live:maps\n'
	if have grep; then
		# A library is mapped in consecutive segments: keep its first.
		grep -E -s -e '/(libplugin_|libnixl|libuc[pst]|libuct_|libfabric|libefa|libibverbs|libmlx5|libnccl|libgdrapi)[^/]*$' \
			"$root/proc/$pid/maps" | {
			last=
			while IFS= read -r l; do
				p=/${l#*/}
				[ "$p" = "$last" ] && continue
				last=$p
				printf '|%s\n' "$l"
			done
		}
		endsec live:maps 0 ""
	else
		endsec live:maps 127 " missing"
	fi
	# What it holds open: one ls, device targets only.
	printf '@@begin live:fd\n'
	if have ls; then
		# shellcheck disable=SC2012 # one ls for every link, where find -printf is not POSIX
		ls -l "$root/proc/$pid/fd" 2>/dev/null | while IFS= read -r l; do
			case $l in *' -> '*dev/*) printf '|%s\n' "$l" ;; esac
		done
		endsec live:fd 0 ""
	else
		endsec live:fd 127 " missing"
	fi
}

# live_sample N: RDMA port data counters, the pod's interface bytes and
# NIXL's telemetry, all at one instant.
live_sample() {
	now
	printf '@@begin live:sample:%s\n|uptime=%s\n' "$1" "$up"
	for d in "$root"/sys/class/infiniband/*/ports/*; do
		[ -d "$d" ] || continue
		rel=${d#"$root"/}
		for c in counters/port_xmit_data counters/port_rcv_data hw_counters/tx_bytes \
			hw_counters/rx_bytes hw_counters/rdma_read_bytes hw_counters/rdma_write_bytes \
			hw_counters/rdma_read_resp_bytes hw_counters/rdma_write_recv_bytes; do
			v=
			[ -r "$d/$c" ] || continue
			IFS= read -r v <"$d/$c" || continue
			case $v in '' | *[!0-9]*) continue ;; esac
			printf '|%s/%s=%s\n' "$rel" "$c" "$v"
		done
	done
	endsec "live:sample:$1" 0 ""
	printf '@@begin live:netdev:%s\n' "$1"
	if [ -r "$root/proc/net/dev" ]; then
		while IFS= read -r l; do printf '|%s\n' "$l"; done <"$root/proc/net/dev"
		endsec "live:netdev:$1" 0 ""
	else
		endsec "live:netdev:$1" 1 " missing"
	fi
	live_nixl "$1"
}

# NIXL's Prometheus exporter, when the workload enables it: one fixed GET
# of 127.0.0.1:PORT/metrics with whatever the image has; agent_* lines only.
live_nixl() {
	case ${NIXL_TELEMETRY_ENABLE-} in
	[yY] | [yY][eE][sS] | [oO][nN] | [tT][rR][uU][eE] | [eE][nN][aA][bB][lL][eE] | 1) ;;
	*) return 0 ;;
	esac
	case ${NIXL_TELEMETRY_EXPORTER-} in prometheus) ;; *) return 0 ;; esac
	port=${NIXL_TELEMETRY_PROMETHEUS_PORT:-9090}
	case $port in '' | *[!0-9]* | ??????*) return 0 ;; esac
	url="http://127.0.0.1:$port/metrics"
	printf '@@begin live:nixl:%s\n' "$1"
	if have curl; then
		set -- curl -s -f -m 3 "$url"
	elif have wget; then
		set -- wget -q -T 3 -O - "$url"
	elif have python3; then
		set -- python3 -c 'import sys,urllib.request as u; sys.stdout.write(u.urlopen(sys.argv[1], timeout=3).read().decode("utf-8", "replace"))' "$url"
	else
		endsec "live:nixl:$1" 127 " missing"
		return 0
	fi
	rc=$( { { "$@" </dev/null 2>/dev/null; echo "rc=$?" >&5; } | while IFS= read -r l; do
		case $l in agent_*) printf '|%s\n' "$l" ;; esac
	done >&3; } 5>&1 )
	rc=${rc##*rc=}
	endsec "live:nixl:$1" "${rc:-1}" ""
}

# The window: the first sample at the start, the rest of the probe runs,
# then the remainder of the window is slept and the second sample taken.
live_wait() {
	[ "$observe" -gt 0 ] || return 0
	now
	left=$observe
	if [ -n "$up" ] && [ -n "$live_t0" ]; then
		e=$(( ${up%%.*} - ${live_t0%%.*} ))
		left=$(( observe - e ))
	fi
	[ "$left" -gt 0 ] && sleep "$left"
	live_sample 1
}
