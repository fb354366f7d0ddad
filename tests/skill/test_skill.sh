#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The agent skill: SKILL.md's description fits what skill validators
# recommend (50-150 characters), and scripts/check_interconnect finds the
# skill root through symlinks and, unbuilt, exits 69 (not the usage 64)
# saying how to build.   usage: test_skill.sh REPO_ROOT BINARY
set -u
root=$1
bin=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
fail=0
no() { echo "FAIL: $*"; fail=1; }

desc=$(sed -n '2,/^---$/s/^description: //p' "$root/SKILL.md")
n=$(printf '%s' "$desc" | wc -m)
if [ "$n" -lt 50 ] || [ "$n" -gt 150 ]; then no "SKILL.md description is $n characters (50-150)"; fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skill.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/skill/scripts" "$tmp/skill/build" "$tmp/bin" "$tmp/other"
cp "$root/scripts/check_interconnect" "$tmp/skill/scripts/"

# Unbuilt: 69 and the build command.
out=$(sh "$tmp/skill/scripts/check_interconnect" --version 2>&1)
rc=$?
[ "$rc" = 69 ] || no "unbuilt: exit $rc, want 69"
case $out in *"run \`make\` in $tmp/skill"*) ;; *) no "unbuilt: says '$out'" ;; esac

# Built, called through an absolute symlink and a relative chain of two.
ln -s "$bin" "$tmp/skill/build/check_interconnect"
ln -s "$tmp/skill/scripts/check_interconnect" "$tmp/other/ci-abs"
ln -s ../other/ci-abs "$tmp/bin/ci"
for s in "$tmp/skill/scripts/check_interconnect" "$tmp/other/ci-abs" "$tmp/bin/ci"; do
	out=$("$s" --version 2>&1)
	rc=$?
	[ "$rc" = 0 ] || no "$s: exit $rc ($out)"
	case $out in "check_interconnect "*) ;; *) no "$s: printed '$out'" ;; esac
done
# Arguments and the exit code pass through unchanged.
"$tmp/bin/ci" --no-such-option >/dev/null 2>&1
rc=$?
[ "$rc" = 64 ] || no "usage error through the script: exit $rc, want 64"

[ "$fail" = 0 ] && echo "skill: ok"
exit "$fail"
