# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=sh
# Shared by the tests/sec scripts: each builds its hostile input itself in a
# scratch folder, runs the binary ($CI_BIN, else build/check_interconnect)
# and fails with one line per broken guarantee.  POSIX sh.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${CI_BIN:-$root/build/check_interconnect}
case $bin in /*) ;; *) bin=$root/$bin ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ci-sec.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
export LC_ALL=C NO_COLOR=1
unset KUBECTL

# The generated sysroot trees (tests/fixtures/trees.py builds them once):
# "$(trees)/node/h100_ib".
trees() {
	python3 "$root/tests/fixtures/trees.py" || echo "$root/tests/fixtures/trees.py-failed"
}

fail() {
	echo "FAIL: $*"
	failed=1
}

ok() {
	echo "ok: $*"
}

# Does file $1 hold a raw control byte other than newline (C0, DEL, and the
# 8-bit C1 range written as UTF-8: \xc2\x80-\xc2\x9f)?
has_ctl() {
	LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$1" && return 0
	LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$1"
}

# A sanitizer report fails a run even when the output looks right.
no_sanitizer_report() { # file what
	if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer' "$1"; then
		fail "$2: sanitizer report"
	fi
}

finish() {
	[ "$failed" = 0 ] && echo "all ok"
	exit "$failed"
}
