#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 11, findings 9 and 10: odd files never hang a run or hide the
# others' findings; --save-probe never writes through a symlink or over a
# file (unless --force), is checked before probing, and a failed write is
# an error and exit 74 with the analysis printed unchanged.
# shellcheck disable=SC2154 # tmp, root, bin and failed are set by lib.sh
. "$(dirname "$0")/lib.sh"
flat() { tr '\n' ' ' <"$1" | tr -s ' '; }  # the report with its wrapping undone
T=10  # seconds: anything that blocks is killed by timeout(1) and fails

# 9. A FIFO (no writer) and a socket next to a valid recipe, in a folder and
#    named on the command line; --replay of a FIFO and of a device.
r=$tmp/recipe
mkdir -p "$r"
cp "$root/examples/recipes/llama-70b-disagg-ib/deploy.yaml" "$r/"
mkfifo "$r/fifo.yaml"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$r/sock.yaml"
timeout -k 1 $T "$bin" env "$r" >"$tmp/out" 2>"$tmp/err"
rc=$?
no_sanitizer_report "$tmp/err" "env folder with a FIFO"
[ "$rc" = 2 ] || fail "env on a folder with a FIFO: exit $rc (124: it hung), expected 2"
flat "$tmp/out" | grep -q 'fifo.yaml: a FIFO, not a regular file' || fail "the FIFO is not reported"
flat "$tmp/out" | grep -q 'sock.yaml: a socket, not a regular file' || fail "the socket is not reported"
grep -q 'fail    env.ucx.tls' "$tmp/out" || fail "the valid recipe's findings are not printed next to the FIFO"
timeout -k 1 $T "$bin" env "$r/fifo.yaml" "$r/deploy.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] || fail "env FIFO FILE: exit $rc (124: it hung), expected 2"
grep -q 'fail    env.ucx.tls' "$tmp/out" || fail "env FIFO FILE: the file's findings are not printed"
[ "$(grep -c 'a FIFO, not a regular file' "$tmp/err")" = 1 ] || fail "env FIFO FILE: not one clear line on stderr"
timeout -k 1 $T "$bin" node --replay "$r/fifo.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 3 ] || fail "--replay of a FIFO: exit $rc (124: it hung), expected 3"
timeout -k 1 $T "$bin" node --replay /dev/zero >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 3 ] || fail "--replay /dev/zero: exit $rc, expected 3"
# said once: in the report's node.probe check (stderr too for other formats)
cat "$tmp/out" "$tmp/err" | tr -s ' \n' '  ' | grep -q 'not a regular file or a pipe' || fail "--replay /dev/zero: not refused by type"
[ "$failed" = 0 ] && ok "FIFOs, sockets and devices are reported and skipped, never block"

# 10. --save-probe (a sysroot probe: blocked, exit 2).
tree=$(trees)/node/down_memlock
"$bin" node --sysroot "$tree" >"$tmp/plain.out" 2>/dev/null
plain_rc=$?
[ "$plain_rc" = 2 ] || fail "test setup: the down_memlock tree gives exit $plain_rc, not 2"

echo canary >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/link"
"$bin" node --sysroot "$tree" --save-probe "$tmp/link" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 64 ] || fail "--save-probe SYMLINK: exit $rc, expected 64"
[ "$(cat "$tmp/victim")" = canary ] || fail "--save-probe wrote through a symlink"
grep -q 'symbolic link' "$tmp/err" || fail "--save-probe SYMLINK: the error does not say why"
"$bin" node --sysroot "$tree" --save-probe "$tmp/link" --force >/dev/null 2>&1
[ "$(cat "$tmp/victim")" = canary ] || fail "--save-probe SYMLINK --force wrote through the symlink"

echo old >"$tmp/exists"
"$bin" node --sysroot "$tree" --save-probe "$tmp/exists" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 64 ] || fail "--save-probe EXISTING: exit $rc, expected 64"
[ "$(cat "$tmp/exists")" = old ] || fail "--save-probe overwrote an existing file"
[ -s "$tmp/out" ] && fail "--save-probe EXISTING: it probed anyway (a report was printed)"
"$bin" node --sysroot "$tree" --save-probe "$tmp/exists" --force >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] || fail "--save-probe EXISTING --force: exit $rc, expected 2"
head -1 "$tmp/exists" | grep -q '^@@ci-probe v1' || fail "--force did not write the transcript"
cmp -s "$tmp/out" "$tmp/plain.out" || fail "--save-probe changed the analysis"

# Checked before probing: a pod target whose kubectl logs every call.
log=$tmp/kubectl.log
FAKE_KUBECTL_LOG=$log "$bin" node -n ns --pod p --kubectl "$root/tests/fakes/kubectl" \
	--save-probe "$tmp/no/such/dir/t.txt" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 64 ] || fail "--save-probe in a missing folder: exit $rc, expected 64"
[ -s "$log" ] && fail "--save-probe in a missing folder: kubectl ran before the path was checked"

# A write that fails (file size limit 0, SIGXFSZ ignored: EFBIG): the
# analysis is printed unchanged, one error line, exit 74.  stdout and
# stderr are pipes, which the limit does not cover.
python3 - "$tmp" "$bin" node --sysroot "$tree" --save-probe "$tmp/full.txt" <<'PY'
import resource, signal, subprocess, sys
def limit():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
p = subprocess.run(sys.argv[2:], capture_output=True, preexec_fn=limit)
d = sys.argv[1]
open(d + "/out", "wb").write(p.stdout)
open(d + "/err", "wb").write(p.stderr)
open(d + "/rc", "w").write(str(p.returncode))
PY
rc=$(cat "$tmp/rc")
[ "$rc" = 74 ] || fail "a failed --save-probe write: exit $rc, expected 74"
cmp -s "$tmp/out" "$tmp/plain.out" || fail "a failed --save-probe write changed the analysis"
grep -q 'cannot write --save-probe' "$tmp/err" || fail "a failed --save-probe write: no error line"
[ "$failed" = 0 ] && ok "--save-probe: no symlink, no overwrite without --force, checked first, failures are exit 74"
finish
