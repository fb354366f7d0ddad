#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 23, --output: an atomic rename only onto a regular file or a new
# name; a device, a FIFO or a symlink to one is written through, never
# replaced; a socket, a block device and a FIFO nobody reads are refused
# (exit 74); the target is checked before any probe runs; the temporary
# file never outlives the run (a signal included); any name the folder
# accepts works (255 bytes); an existing file keeps its mode and owner.
# shellcheck disable=SC2154 # tmp, root, bin and failed are set by lib.sh
. "$(dirname "$0")/lib.sh"
umask 022
recipe=$root/examples/recipes/llama-70b-disagg-ib
T=10
d=$tmp/out
mkdir "$d"
leftover() { # the tool's temporary files left in $d
	find "$d" -maxdepth 1 -name '.*' ! -name . ! -name .. | head -n 3
}
kind() { stat -c %F "$1" 2>/dev/null; }

# 1. A FIFO with a reader gets the report through it and stays a FIFO.
mkfifo "$d/fifo"
timeout 20 cat "$d/fifo" >"$tmp/fifo.read" &
reader=$!
timeout -k 1 $T "$bin" env "$recipe" --format prometheus --output "$d/fifo" >/dev/null 2>"$tmp/err"
rc=$?
wait "$reader"
no_sanitizer_report "$tmp/err" "--output FIFO"
[ "$rc" = 2 ] || fail "--output FIFO (read): exit $rc, expected the verdict's 2: $(head -c 200 "$tmp/err")"
[ "$(kind "$d/fifo")" = fifo ] || fail "--output FIFO: the FIFO was replaced by a $(kind "$d/fifo")"
grep -q '^check_interconnect_verdict' "$tmp/fifo.read" || fail "--output FIFO: the reader did not get the report"

# 2. A FIFO nobody reads: refused at once, exit 74, still a FIFO.
timeout -k 1 $T "$bin" env "$recipe" --output "$d/fifo" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 74 ] || fail "--output FIFO (no reader): exit $rc (124: it hung), expected 74"
[ "$(kind "$d/fifo")" = fifo ] || fail "--output FIFO (no reader): replaced by a $(kind "$d/fifo")"
grep -q 'nobody reads' "$tmp/err" || fail "--output FIFO (no reader): the error does not say why: $(cat "$tmp/err")"

# 3. A character device (a null device node of our own when we may make
#    one, else /dev/null itself) and a symlink to it: written through.
dev=/dev/null
if mknod "$d/null" c 1 3 2>/dev/null; then dev=$d/null; fi
ln -s "$dev" "$d/devlink"
for t in "$dev" "$d/devlink"; do
	timeout -k 1 $T "$bin" env "$recipe" --format json --output "$t" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] || fail "--output $t: exit $rc, expected 2: $(head -c 200 "$tmp/err")"
done
[ "$(kind "$dev")" = "character special file" ] || fail "--output DEVICE: $dev is now a $(kind "$dev")"
[ -L "$d/devlink" ] || fail "--output SYMLINK-TO-DEVICE: the link was replaced"
[ ! -s "$dev" ] || fail "--output DEVICE: $dev keeps what was written to it"
[ -z "$(leftover)" ] || fail "--output DEVICE: left $(leftover)"

# 4. A socket: refused (exit 74), still a socket.
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$d/sock"
timeout -k 1 $T "$bin" env "$recipe" --output "$d/sock" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 74 ] || fail "--output SOCKET: exit $rc, expected 74"
[ "$(kind "$d/sock")" = socket ] || fail "--output SOCKET: replaced by a $(kind "$d/sock")"
[ "$failed" = 0 ] && ok "devices, FIFOs, sockets and symlinks to them are never replaced"

# 5. A symlink to a regular file: the file gets the report, the link stays.
echo old >"$d/real.prom"
ln -s real.prom "$d/link.prom"
"$bin" env "$recipe" --format prometheus --output "$d/link.prom" >/dev/null 2>"$tmp/err"
[ -L "$d/link.prom" ] || fail "--output SYMLINK-TO-FILE: the link was replaced by a file"
grep -q '^check_interconnect_verdict' "$d/real.prom" || fail "--output SYMLINK-TO-FILE: the file it names was not written"

# 6. An existing file keeps its mode (and, as root, its owner).
echo old >"$d/keep.json"
chmod 0640 "$d/keep.json"
owner=0:0
if [ "$(id -u)" = 0 ]; then chown 4242:4343 "$d/keep.json" && owner=4242:4343; fi
"$bin" env "$recipe" --format json --output "$d/keep.json" >/dev/null 2>"$tmp/err"
[ "$(stat -c %a "$d/keep.json")" = 640 ] || fail "--output EXISTING: mode 0640 became $(stat -c %a "$d/keep.json")"
if [ "$owner" != 0:0 ]; then
	[ "$(stat -c %u:%g "$d/keep.json")" = "$owner" ] ||
		fail "--output EXISTING: owner $owner became $(stat -c %u:%g "$d/keep.json")"
fi
grep -q '"verdict"' "$d/keep.json" || fail "--output EXISTING: not rewritten"
new=$d/new.json
"$bin" env "$recipe" --format json --output "$new" >/dev/null 2>&1
[ "$(stat -c %a "$new")" = 644 ] || fail "--output NEW: mode $(stat -c %a "$new") under umask 022, expected 644"

# 7. A 255-byte name (the most a folder accepts) works.
long=$(python3 -c 'print("r" * 250 + ".prom")')
"$bin" env "$recipe" --format prometheus --output "$d/$long" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] || fail "--output of a 255-byte name: exit $rc: $(head -c 200 "$tmp/err")"
[ -f "$d/$long" ] || fail "--output of a 255-byte name: not written"
[ -z "$(leftover)" ] || fail "--output: left $(leftover)"
[ "$failed" = 0 ] && ok "regular files: mode, owner, symlinks and 255-byte names kept"

# 8. The target is checked before any probe runs: an unwritable folder is
#    exit 74 with no kubectl started (the probe's report would be lost).
k=$tmp/kubectl
printf '#!/bin/sh\necho called >>"%s/kubectl.log"\nexit 1\n' "$tmp" >"$k"
chmod +x "$k"
timeout -k 1 $T "$bin" node --pod p -n ns --kubectl "$k" --output /nonexistent-ci-dir/x.prom \
	>/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 74 ] || fail "--output into a missing folder: exit $rc, expected 74"
[ ! -e "$tmp/kubectl.log" ] || fail "--output into a missing folder: the probe ran first ($(wc -l <"$tmp/kubectl.log") kubectl calls)"
[ "$failed" = 0 ] && ok "an unwritable --output is refused before the probe"

# 9. SIGTERM and SIGHUP while (SIGINT: a background job ignores it) the probe runs: exit 128+signal, no
#    temporary file left, the target untouched.
printf '#!/bin/sh\nexec sleep 30\n' >"$k"
for sig in TERM HUP; do
	echo old >"$d/sig.prom"
	"$bin" node --pod p -n ns --kubectl "$k" --output "$d/sig.prom" >/dev/null 2>&1 &
	pid=$!
	i=0
	while [ -z "$(leftover)" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -s $sig "$pid"
	wait "$pid"
	rc=$?
	case $sig in TERM) want=143 ;; HUP) want=129 ;; esac
	[ "$rc" = "$want" ] || fail "SIG$sig during the probe: exit $rc, expected $want"
	[ -z "$(leftover)" ] || fail "SIG$sig during the probe: left $(leftover)"
	[ "$(cat "$d/sig.prom")" = old ] || fail "SIG$sig during the probe: the target changed"
done
[ "$failed" = 0 ] && ok "a signal leaves no temporary file"

# 10. SIGTERM while the report is being written (the temporary file holds it
#     and is not renamed yet).  That window is microseconds long, so strace
#     holds it open: the fsync(2) that precedes the rename returns 3 s late
#     (fault injection, delay_exit), and the signal is sent once the
#     temporary file exists.  Exit 143, no dot-file left, the target
#     untouched.  (The code before 7fb7342 left the dot-file here.)
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
	echo old >"$d/render.prom"
	strace -f -o /dev/null -e trace=fsync -e inject=fsync:delay_exit=3s \
		"$bin" env "$recipe" --format prometheus --output "$d/render.prom" >/dev/null 2>&1 &
	pid=$!
	i=0
	while [ -z "$(leftover)" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -n "$(leftover)" ] || fail "SIGTERM during the render: no temporary file seen (test broken)"
	sleep 0.2
	# the tool itself (strace's child), not strace
	tpid=
	read -r tpid _ <"/proc/$pid/task/$pid/children" 2>/dev/null
	kill -s TERM "${tpid:-$pid}"
	wait "$pid"
	rc=$?
	[ "$rc" = 143 ] || fail "SIGTERM during the render: exit $rc, expected 143"
	[ -z "$(leftover)" ] || fail "SIGTERM during the render: left $(leftover)"
	[ "$(cat "$d/render.prom")" = old ] || fail "SIGTERM during the render: the target changed"
	[ "$failed" = 0 ] && ok "a signal during the render leaves no temporary file"
else
	echo "skipped: no strace (or no ptrace here): the render-window signal case"
fi
finish
