#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The golden runner can fail: run_golden.sh over cases written here, in a
# temporary directory, each over one replayed NIXL transcript.  One case must
# pass; every other one must FAIL, with the message that names its fault (a
# listed line missing, lines out of order, no verdict line, no '# ' first
# line, expected.out beside expected.lines, a wrong exit code).  UPDATE_GOLDEN=1
# must leave an expected.lines case as it was, and still fail it.
# usage: selftest.sh   (binary: $CI_BIN, else build/check_interconnect)
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
export CI_BIN=${CI_BIN:-$root/build/check_interconnect}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden-selftest.XXXXXX")
trap "cp \"\$tmp/out\" /tmp/g-selftest.out; rm -rf \"\$tmp\"" EXIT

transcript=tests/fixtures/nixl/transcripts/ib_kv_env.txt
tools='  ok      nixl.tools         PATH: pair-test tools present: nixlbench,'
filters='  fail    nixl.ucx.filters   UCX_TLS, UCX_NET_DEVICES: UCX_TLS=rc_x,rc,sm leaves'
verdict='verdict: blocked (not trusted, exit 2)'

mkcase() { # name rc line...: a case with expected.lines of the lines given
	local d=$tmp/cases/$1 rc=$2
	shift 2
	mkdir -p "$d"
	printf '%s\n' nixl --replay "$transcript" >"$d/args"
	printf '%s\n' "$rc" >"$d/expected.rc"
	printf '%s\n' "$@" >"$d/expected.lines"
}

mkcase pass 2 '# the replayed UCX_TLS leaves cuda_copy out' "$tools" '' '# a comment' "$filters" "$verdict"
mkcase missing 2 '# a line that is not there' "$tools" "${filters/rc_x,rc,sm/rc_x,sm}" "$verdict"
mkcase order 2 '# two lines swapped' "$filters" "$tools" "$verdict"
mkcase noverdict 2 '# the verdict line left out' "$tools" "$filters"
mkcase nocomment 2 "$tools" "$filters" "$verdict"
mkcase both 2 '# expected.out beside expected.lines' "$filters" "$verdict"
: >"$tmp/cases/both/expected.out"
mkcase rc 0 '# a wrong exit code' "$filters" "$verdict"

bash "$here/run_golden.sh" "$tmp/cases" >"$tmp/out" 2>&1
status=$?

fails=0
block() { # name: the runner's report of one case (its ok/FAIL line and below)
	awk -v n="/$1" '
		/^(ok|FAIL) / { on = (substr($0, length($0) - length(n) + 1) == n) }
		/^golden: / { on = 0 }
		on' "$tmp/out"
}
expect() { # name ok|FAIL text: the case's report says so and holds text
	local b
	b=$(block "$1")
	if [ "${b%%" "*}" != "$2" ] || ! grep -qF -- "$3" <<<"$b"; then
		echo "selftest: case $1: expected $2 with '$3'; the runner said:"
		if [ -n "$b" ]; then printf '%s\n' "$b"; else cat "$tmp/out"; fi
		fails=$((fails + 1))
	else
		echo "ok selftest $1"
	fi
}

expect pass ok pass
expect missing FAIL "expected.lines:3: not in stdout after stdout line 3 (expected.lines:2): '${filters/rc_x,rc,sm/rc_x,sm}'"
expect missing FAIL "closest there: stdout line"
expect order FAIL "the lines are out of order"
expect noverdict FAIL "does not list the report's verdict line (every case lists it): '$verdict'"
expect nocomment FAIL "expected.lines:1: the first line must be '# ' and what the case is about"
expect both FAIL "both expected.out and expected.lines"
expect rc FAIL "exit code: expected 0, got 2"
if [ "$status" != 1 ]; then
	echo "selftest: run_golden.sh exited $status over failing cases, expected 1"
	fails=$((fails + 1))
fi

# UPDATE_GOLDEN=1 rewrites no expected.lines case, and still judges it.
cp -r "$tmp/cases/missing" "$tmp/before"
if UPDATE_GOLDEN=1 bash "$here/run_golden.sh" "$tmp/cases/missing" >"$tmp/out" 2>&1; then
	echo "selftest: UPDATE_GOLDEN=1 passed a case whose line is missing"
	fails=$((fails + 1))
elif ! diff -r "$tmp/before" "$tmp/cases/missing"; then
	echo "selftest: UPDATE_GOLDEN=1 changed an expected.lines case"
	fails=$((fails + 1))
else
	echo "ok selftest update-leaves-lines"
fi

if [ "$fails" != 0 ]; then
	echo "selftest: $fails failed"
	exit 1
fi
echo "selftest: the runner fails what it should"
