#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 11, findings 5 and 11: one pod variable can never forge another,
# and a hand-edited transcript (--replay) shows no more than a pod would.
# shellcheck disable=SC2154 # tmp, root, bin and failed are set by lib.sh
. "$(dirname "$0")/lib.sh"

settings() { # json-file: NAME=VALUE per line, from the JSON "settings"
	python3 -c 'import json,sys
for s in json.load(open(sys.argv[1])).get("settings", []):
    print("%s=%s" % (s["name"], s["value"]))' "$1"
}

# 1. A sysroot whose pid 1 has a CR (and ESC, and a newline) inside one
#    value that spells another variable; the real UCX_TLS is tcp.
t=$tmp/tree
cp -R "$(trees)/node/h100_ib" "$t"
printf 'PATH=/usr/bin\000NIXL_NOTE=a\rUCX_TLS=rc,cuda_copy\000NCCL_X=b\033\rUCX_NET_DEVICES=mlx5_9:1\000NIXL_Y=c\nUCX_IB_GID_INDEX=7\000UCX_TLS=tcp\000' \
	>"$t/proc/1/environ"
"$bin" node --sysroot "$t" --json >"$tmp/out.json" 2>"$tmp/err"
no_sanitizer_report "$tmp/err" "node --sysroot"
settings "$tmp/out.json" >"$tmp/set"
grep -qx 'UCX_TLS=tcp' "$tmp/set" || fail "the pod's UCX_TLS=tcp is not what is reported: $(grep '^UCX_TLS=' "$tmp/set")"
grep -q '^UCX_TLS=rc' "$tmp/set" && fail "a CR inside NIXL_NOTE forged UCX_TLS=rc,cuda_copy"
grep -q '^UCX_NET_DEVICES=' "$tmp/set" && fail "ESC CR inside NCCL_X forged UCX_NET_DEVICES"
grep -q '^UCX_IB_GID_INDEX=' "$tmp/set" && fail "a newline inside NIXL_Y forged UCX_IB_GID_INDEX"
"$bin" node --sysroot "$t" >"$tmp/out" 2>&1
grep -q 'UCX_TLS=tcp' "$tmp/out" || fail "text: UCX_TLS=tcp not shown"
grep -q '^  UCX_TLS=rc' "$tmp/out" && fail "text: UCX_TLS=rc,cuda_copy shown as a setting"
[ "$failed" = 0 ] && ok "a CR, ESC or newline inside a value never starts a variable"

# 2. The same, as a transcript line (--replay), and a hand-edited transcript
#    with variables no pod filter would let out.
tr="$root/tests/fixtures/nixl/transcripts/ib_gpudirect.txt"
awk '/^@@begin env:pid1/ { print; print "|NIXL_NOTE=a\rUCX_TLS=rc,cuda_copy"; print "|UCX_TLS=tcp";
	print "|HF_TOKEN=PLANTED1"; print "|PATH=/PLANTED2"; print "|UCX_CREDS=PLANTED3";
	print "|NIXL_OPTS=user=a password=PLANTED4"; print "|NIXL_ETCD_ENDPOINTS=http://root:PLANTED5@etcd:2379";
	print "|NIXL_URL=https://PLANTED6@example.com/x"; print "|lower_ucx=PLANTED7"; print "|UCX-BAD=PLANTED8"; next }
	/^\|(UCX_TLS|NIXL_ETCD_ENDPOINTS)=/ { next } { print }' "$tr" >"$tmp/t.txt"
for fmt in "" "-v" "--json"; do
	# shellcheck disable=SC2086
	"$bin" nixl $fmt --replay "$tmp/t.txt" >"$tmp/out" 2>"$tmp/err"
	no_sanitizer_report "$tmp/err" "nixl $fmt --replay"
	grep -q 'PLANTED' "$tmp/out" "$tmp/err" && fail "nixl $fmt --replay: $(grep -o 'PLANTED[0-9]' "$tmp/out" "$tmp/err" | sort -u | tr '\n' ' ')"
	# shellcheck disable=SC2086
	"$bin" node $fmt --replay "$tmp/t.txt" >"$tmp/out" 2>"$tmp/err"
	grep -q 'PLANTED' "$tmp/out" "$tmp/err" && fail "node $fmt --replay: $(grep -o 'PLANTED[0-9]' "$tmp/out" "$tmp/err" | sort -u | tr '\n' ' ')"
done
"$bin" node --json --replay "$tmp/t.txt" >"$tmp/out.json" 2>/dev/null
settings "$tmp/out.json" >"$tmp/set"
grep -qx 'UCX_TLS=tcp' "$tmp/set" || fail "replay: UCX_TLS=tcp not reported"
grep -qx 'NIXL_ETCD_ENDPOINTS=http://root:<redacted>@etcd:2379' "$tmp/set" ||
	fail "replay: URL credentials not shown as user:<redacted>@"
grep -q '^HF_TOKEN=\|^PATH=\|^lower_ucx=' "$tmp/set" && fail "replay: a non-transport variable is shown"
[ "$failed" = 0 ] && ok "--replay applies the pod-side filter"
finish
