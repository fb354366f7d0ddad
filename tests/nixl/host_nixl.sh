#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run `check_interconnect nixl` on this very host with its real UCX (Debian's
# ucx-utils on the CI machine: no RDMA device, UCX lists only tcp and shared
# memory).  The report must say that UCX has no RDMA transport, that KV
# would move over TCP, and block the transport (exit 2).  Skipped (77) when
# ucx_info is not on PATH, or when this machine's UCX does list an RDMA
# transport (then there is nothing to assert about its absence).
set -u
bin=${1:?usage: host_nixl.sh BINARY}
if ! command -v ucx_info >/dev/null 2>&1; then
	echo "skip: ucx_info is not on PATH (install ucx-utils)"
	exit 77
fi
if ucx_info -d 2>/dev/null | grep -Eq '^#[[:space:]]+Transport: (rc|dc|ud|srd)'; then
	echo "skip: this machine's UCX lists RDMA transports"
	exit 77
fi
out=$(NO_COLOR=1 "$bin" nixl 2>&1)
rc=$?
printf '%s\n' "$out" | sed -n '/nixl.ucx.rdma/,/fix:/p'
[ "$rc" = 2 ] || { echo "FAIL: exit $rc, expected 2 (blocked)"; exit 1; }
line=$(printf '%s\n' "$out" | tr -s ' \n' '  ' | grep -o 'fail nixl.ucx.rdma ucx_info -d: UCX has no RDMA transport here ([^)]*): KV would move over TCP')
[ -n "$line" ] || { echo "FAIL: no 'fail nixl.ucx.rdma ... no RDMA transport ... KV would move over TCP'"; exit 1; }
printf '%s\n' "$out" | grep -q '^verdict: blocked (not trusted, exit 2)' ||
	{ echo "FAIL: no blocked verdict line"; exit 1; }
json=$("$bin" nixl --json 2>/dev/null)
jrc=$?
[ "$jrc" = 2 ] || { echo "FAIL: --json exit $jrc"; exit 1; }
printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = {x["id"]: x for x in d["checks"]}
assert d["command"] == "nixl", d["command"]
assert c["nixl.ucx.rdma"]["status"] == "fail", c["nixl.ucx.rdma"]
assert "no RDMA transport" in c["nixl.ucx.rdma"]["detail"]
assert c["nixl.reachability"]["status"] == "skipped"
assert len(d["next_steps"]) >= 4
' || { echo "FAIL: --json content"; exit 1; }
echo "ok: UCX has no RDMA transport here; exit 2"
