#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run `check_interconnect node` on this very host.  Its hardware is whatever
# the machine has, so only the shape of the answer is asserted: exit code 0-3
# (1, 2 or 3 on a machine without GPU/RDMA), a verdict line, no crash, and
# JSON that parses.
set -u
bin=${1:?usage: host_node.sh BINARY}
out=$("$bin" node 2>&1)
rc=$?
printf '%s\n' "$out" | tail -5
case $rc in
0 | 1 | 2 | 3) ;;
*) echo "FAIL: exit code $rc"; exit 1 ;;
esac
if ! printf '%s\n' "$out" | grep -q '^verdict: \(ready\|degraded\|blocked\|unknown\) '; then
	echo "FAIL: no verdict line"
	exit 1
fi
if [ ! -e /sys/class/infiniband ] || [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	# No RDMA here: never a pass.
	case $rc in 1 | 2 | 3) ;; *) echo "FAIL: exit $rc on a host without RDMA"; exit 1 ;; esac
fi
json=$("$bin" node --json 2>/dev/null)
jrc=$?
[ "$jrc" = "$rc" ] || { echo "FAIL: --json exit $jrc differs from text exit $rc"; exit 1; }
printf '%s' "$json" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["command"]=="node"' ||
	{ echo "FAIL: --json output does not parse"; exit 1; }
echo "ok: exit $rc"
