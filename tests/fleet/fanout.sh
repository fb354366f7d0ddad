#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The fleet fan-out against tests/fakes/kubectl.  usage: fanout.sh BINARY
set -uo pipefail
bin=$1
root=$(pwd)
kubectl=$root/tests/fakes/kubectl
# the fake clusters, built at test time (tests/fixtures/fleet/clusters.py)
clusters=$(python3 tests/fixtures/trees.py)/fleet || { echo "tests/fixtures/trees.py failed"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fleet-fanout.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# grep across the text renderer's line wrapping
says() { tr -s '\n ' '  ' <"$tmp/out" | grep -qF -- "$1"; }

run() { # cluster, then args; sets rc, out, err, wall
	local c=$1; shift
	local t0 t1
	t0=$(date +%s.%N)
	FAKE_KUBECTL_PODS_DIR=$clusters/$c FAKE_KUBECTL_LOG=$tmp/log \
		"$bin" --kubectl "$kubectl" -n dynamo "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	t1=$(date +%s.%N)
	wall=$(echo "$t1 - $t0" | bc)
}

# 1. Round trips: one get, one exec per running worker (frontend and the
#    not-running pods get none), for node, nixl and all alike.
for verb in node nixl; do
	: >"$tmp/log"
	run not_running "$verb" -v --deployment llm-disagg
	gets=$(grep -c '\[get\] \[pods\]' "$tmp/log")
	execs=$(grep -c '\[exec\]' "$tmp/log")
	[ "$gets" -eq 1 ] || fail "$verb: $gets get pods calls (want 1)"
	[ "$execs" -eq 2 ] || fail "$verb: $execs execs (want 2: one per running worker)"
	says 'llm-disagg-vllmprefillworker-1 (Pending)' || fail "$verb: Pending pod not named"
	says 'left out: 1 frontend' || fail "$verb: frontend not named"
	grep -q '\[-l\] \[nvidia.com/dynamo-graph-deployment-name=llm-disagg\]' "$tmp/log" ||
		fail "$verb: the get pods selector is not the DGD label"
	[ -s "$tmp/err" ] && fail "$verb: stderr not empty off a terminal: $(cat "$tmp/err")"
done
: >"$tmp/log"
run healthy all tests/fixtures/fleet/recipes/llm-disagg --deployment llm-disagg
[ "$(grep -c '\[exec\]' "$tmp/log")" -eq 2 ] || fail "all: not one exec per pod"
[ "$(grep -c '\[get\]' "$tmp/log")" -eq 1 ] || fail "all: not one get"

# 2. A hanging pod: named, verdict unknown, stopped at its --timeout, and the
#    hung kubectl's whole process group (it and its child) gone after the run.
#    A wrapper records each kubectl's pid, which is its process group (the
#    tool starts each in its own group).
cat >"$tmp/kubectl-pg" <<SH
#!/bin/sh
echo \$\$ >>"$tmp/pgids"
exec "$kubectl" "\$@"
SH
chmod +x "$tmp/kubectl-pg"
: >"$tmp/pgids"
t0=$(date +%s.%N)
# The outer timeout only catches a real hang (the tool waiting on the hung
# kubectl's hour-long sleep); it is far above any loaded machine's time.
# The run's speed is bench/'s: under ASan on a 2-core machine shared with
# other suites this run took 31 s, all of it waiting for a CPU (the tool
# needs 0.35 s of CPU; its TERM, KILL and reap take 0.2 s after the 2 s).
FAKE_KUBECTL_PODS_DIR=$clusters/hang timeout -k 5 120 \
	"$bin" --kubectl "$tmp/kubectl-pg" -n dynamo node --deployment llm-disagg --timeout 2 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
wall=$(echo "$(date +%s.%N) - $t0" | bc)
case $rc in
124 | 137) fail "hang: the run did not end (stopped by timeout(1) after $wall s)" ;;
3) ;;
*) fail "hang: exit $rc (want 3, unknown)" ;;
esac
says 'vllmdecodeworker-0 did not answer within --timeout (2 s)' || fail "hang: pod not named"
says 'RBAC forbids exec into pod dynamo/llm-disagg-vllmdecodeworker-1' || fail "hang: forbidden pod not named"
[ "$(wc -l <"$tmp/pgids")" -eq 4 ] || fail "hang: $(wc -l <"$tmp/pgids") kubectl calls (want 1 get + 3 exec)"
# A live (not zombie) process in group $1, from /proc: a killed child that
# init has not reaped yet is a zombie, not a survivor.
group_alive() {
	local g=$1 f s rest
	for f in /proc/[0-9]*/stat; do
		{ read -r s <"$f"; } 2>/dev/null || continue
		rest=${s##*) }
		# shellcheck disable=SC2086 # the fields: state ppid pgrp ...
		set -- $rest
		if [ "${3-}" = "$g" ] && [ "$1" != Z ]; then return 0; fi
	done
	return 1
}
while read -r pg; do
	# SIGKILL is delivered at once, but a process takes a moment to exit.
	for _ in 1 2 3 4 5 6 7 8 9 10; do group_alive "$pg" || break; sleep 0.2; done
	group_alive "$pg" && fail "hang: kubectl's process group $pg outlived the run"
done <"$tmp/pgids"
# Not a speed bound: a run that returns before the --timeout did not wait.
if [ "$(echo "$wall < 1.9" | bc)" -eq 1 ]; then fail "hang: returned in $wall s, before the deadline?"; fi

# 3. Parallel: 8 pods at 300 ms each, --jobs 8: one round trip, not eight.
big=$tmp/big
mkdir -p "$big"
python3 - "$clusters/healthy/_pods.json" "$big" <<'PY'
import json, os, sys
src, out = sys.argv[1], sys.argv[2]
doc = json.load(open(src))
tmpl = [p for p in doc["items"] if p["metadata"]["labels"].get("nvidia.com/dynamo-sub-component-type") == "prefill"][0]
items = []
for i in range(8):
    p = json.loads(json.dumps(tmpl))
    p["metadata"]["name"] = "w-%d" % i
    items.append(p)
    os.makedirs(os.path.join(out, "w-%d" % i))
    os.symlink(os.path.abspath("tests/fixtures/fleet/transcripts/ib_ok.txt"), os.path.join(out, "w-%d" % i, "transcript"))
    open(os.path.join(out, "w-%d" % i, "latency_ms"), "w").write("300\n")
doc["items"] = items
json.dump(doc, open(os.path.join(out, "_pods.json"), "w"))
PY
# Parallelism is proven by overlap, not by a wall time: a wrapper logs each
# exec's start and end, and some exec must start before another has ended.
cat >"$tmp/kubectl" <<SH
#!/bin/sh
case " \$* " in *" exec "*) echo "start \$\$" >>"$tmp/overlap" ;; esac
"$kubectl" "\$@"; rc=\$?
case " \$* " in *" exec "*) echo "end \$\$" >>"$tmp/overlap" ;; esac
exit \$rc
SH
chmod +x "$tmp/kubectl"
: >"$tmp/overlap"
FAKE_KUBECTL_PODS_DIR=$big "$bin" node -v --kubectl "$tmp/kubectl" -n dynamo -l app=x --jobs 8 >"$tmp/out" 2>&1
most=$(awk '$1 == "start" { n++; if (n > m) m = n } $1 == "end" { n-- } END { print m + 0 }' "$tmp/overlap")
[ "$most" -ge 2 ] || fail "8 pods x 300 ms with --jobs 8: at most $most exec at a time (not parallel)"
says '8 running worker pods' || fail "selector run: not 8 pods"

# 4. Progress on a terminal only (script(1) gives the run a pty).
if command -v script >/dev/null 2>&1; then
	FAKE_KUBECTL_PODS_DIR=$clusters/healthy script -qec "$bin node --kubectl $kubectl -n dynamo --deployment llm-disagg" /dev/null >"$tmp/tty" 2>&1
	grep -q 'probed 2/2 pods' "$tmp/tty" || fail "no progress line on a terminal"
	FAKE_KUBECTL_PODS_DIR=$clusters/healthy script -qec "$bin node --quiet --kubectl $kubectl -n dynamo --deployment llm-disagg" /dev/null >"$tmp/tty" 2>&1
	grep -q 'probed' "$tmp/tty" && fail "progress printed with --quiet"
fi

# 5. Usage: the fleet options and what they exclude.
# without -n, the kubeconfig context's namespace (as kubectl): the run goes on
HOME=$root/tests/fixtures/kube/home FAKE_KUBECTL_PODS_DIR=$clusters/healthy "$bin" node --deployment llm-disagg --kubectl "$kubectl" 2>/dev/null | grep -q 'in namespace dynamo' || fail "--deployment without -n does not take the kubeconfig's namespace"
"$bin" node --deployment x -n ns --pod p >/dev/null 2>&1; [ $? -eq 64 ] || fail "--deployment with --pod accepted"
"$bin" node --deployment 'Bad_Name' -n ns >/dev/null 2>&1; [ $? -eq 64 ] || fail "invalid --deployment accepted"
"$bin" all -n ns --deployment x >/dev/null 2>&1; [ $? -eq 64 ] || fail "all without a recipe accepted"

# 6. The listing itself forbidden: said once, exit 3: in the report's
# check (text), and also one line on stderr when stdout is JSON.
FAKE_KUBECTL_GET_MODE=forbidden FAKE_KUBECTL_PODS_DIR=$clusters/healthy "$bin" node --kubectl "$kubectl" -n dynamo --deployment llm-disagg >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "get pods forbidden: exit $rc (want 3)"
[ "$(tr -s ' \n' '  ' <"$tmp/out" | grep -o "RBAC forbids listing pods" | wc -l)" -eq 1 ] || fail "get pods forbidden: not said once in the report"
[ ! -s "$tmp/err" ] || fail "get pods forbidden: said twice (stderr too): $(cat "$tmp/err")"
FAKE_KUBECTL_GET_MODE=forbidden FAKE_KUBECTL_PODS_DIR=$clusters/healthy "$bin" node --json --kubectl "$kubectl" -n dynamo --deployment llm-disagg >"$tmp/out" 2>"$tmp/err"
grep -q "RBAC forbids listing pods" "$tmp/err" || fail "get pods forbidden --json: no line on stderr"

if [ "$failures" -ne 0 ]; then
	echo "$failures failure(s)"
	exit 1
fi
echo "fleet fan-out: all good"
