#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 11, finding 4: a signalled run leaves no kubectl (nor its children)
# behind, and exits with 128+signal; one pod and a whole fleet.  The fake
# kubectl here answers `get pods` with 4 worker pods, and on `exec` writes
# its pid and the pid of a child it starts, then sleeps; both ignore SIGTERM
# so that only the KILL after the grace ends them.
# shellcheck disable=SC2154 # tmp, root, bin and failed are set by lib.sh
. "$(dirname "$0")/lib.sh"

k=$tmp/kubectl
cat >"$k" <<'KEOF'
#!/bin/sh
for a in "$@"; do
	if [ "$a" = get ]; then
		cat "$PODS_JSON"
		exit 0
	fi
done
trap '' TERM
sh -c 'trap "" TERM; echo $$ >"$1"; while :; do sleep 1; done' child "$PIDS/child.$$" &
echo $$ >"$PIDS/kubectl.$$"
while :; do sleep 1; done
KEOF
chmod +x "$k"
python3 - "$tmp/pods.json" <<'PY'
import json, sys
items = []
for i, role in enumerate(["prefill", "prefill", "decode", "decode"]):
    items.append({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "llm-%s-%d" % (role, i), "namespace": "dynamo",
            "labels": {"nvidia.com/dynamo-graph-deployment-name": "llm",
                "nvidia.com/dynamo-component-type": "worker",
                "nvidia.com/dynamo-sub-component-type": role}},
        "spec": {"containers": [{"name": "main"}], "nodeName": "node-%d" % i},
        "status": {"phase": "Running", "podIP": "10.0.0.%d" % (i + 1),
            "containerStatuses": [{"name": "main", "ready": True, "state": {"running": {}}}]}})
json.dump({"apiVersion": "v1", "kind": "List", "items": items}, open(sys.argv[1], "w"))
PY
export PODS_JSON="$tmp/pods.json"

alive() { # pid: still running after a moment (a zombie counts as gone;
	# a process killed by the tool may take a few ms to be dead)
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		st=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
		case $st in '' | Z | X) return 1 ;; esac
		sleep 0.1
	done
	return 0
}

# run SIGNAL WANT_PIDS ARGS...: start the tool, wait for WANT_PIDS kubectl
# pids (and their children), send SIGNAL, then check the exit code and that
# every recorded process is gone.
nrun=0
run() {
	sig=$1 want=$2
	shift 2
	nrun=$((nrun + 1))
	PIDS=$tmp/pids.$nrun
	export PIDS
	mkdir -p "$PIDS"
	# A background job of a script starts with SIGINT ignored, and the
	# tool keeps an ignored signal ignored (nohup): start it with the
	# dispositions a terminal would give it.
	python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGPIPE):
    signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$bin" "$@" --kubectl "$k" --timeout 60 >"$tmp/out" 2>"$tmp/err" &
	tool=$!
	i=0
	while [ "$(find "$PIDS" -name 'child.*' -size +0 | wc -l)" -lt "$want" ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 300 ] || fail "$sig $*: the fake kubectl never started"
	kill -s "$sig" "$tool"
	wait "$tool"
	rc=$?
	case $sig in INT) n=2 ;; HUP) n=1 ;; TERM) n=15 ;; PIPE) n=13 ;; esac
	[ "$rc" = $((128 + n)) ] || fail "$sig $*: exit $rc, expected $((128 + n))"
	no_sanitizer_report "$tmp/err" "$sig $*"
	for f in "$PIDS"/*; do
		p=$(cat "$f")
		if alive "$p"; then
			fail "$sig $*: $(basename "$f") (pid $p) outlived the run"
			kill -9 "$p" 2>/dev/null
		fi
	done
}

for sig in INT TERM HUP PIPE; do
	run "$sig" 1 node -n dynamo --pod llm-prefill-0
done
[ "$failed" = 0 ] && ok "one pod: INT, TERM, HUP, PIPE stop and reap kubectl and its child"
for sig in INT TERM; do
	run "$sig" 4 node --deployment llm -n dynamo --jobs 4
done
run INT 4 nixl --deployment llm -n dynamo
[ "$failed" = 0 ] && ok "fleet: no kubectl of the fan-out outlives a signalled run"

# nohup: a SIGHUP ignored on entry stays ignored (the run goes on).
PIDS=$tmp/pids.nohup
mkdir -p "$PIDS"
(trap '' HUP; exec "$bin" node -n dynamo --pod llm-prefill-0 --kubectl "$k" --timeout 3) \
	>/dev/null 2>&1 &
tool=$!
sleep 1
kill -HUP "$tool" 2>/dev/null
wait "$tool"
rc=$?
[ "$rc" = 129 ] && fail "nohup: an ignored SIGHUP ended the run"
for f in "$PIDS"/*; do
	[ -f "$f" ] || continue
	p=$(cat "$f")
	if alive "$p"; then fail "nohup: $(basename "$f") outlived the deadline"; kill -9 "$p"; fi
done
finish
