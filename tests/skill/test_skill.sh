#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The agent skill: SKILL.md's description fits what skill validators
# recommend (50-150 characters); both entry points, scripts/check_interconnect
# (sh) and scripts/check_interconnect.py (python3), find the skill root
# through symlinks and, unbuilt, exit 69 (not the usage 64) saying how to
# build; built, the .py adds nothing to the binary's stdout, stderr or exit
# code, also in the run_script(...) form the published skill text uses.
#   usage: test_skill.sh REPO_ROOT BINARY
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
cp "$root/scripts/check_interconnect" "$root/scripts/check_interconnect.py" "$tmp/skill/scripts/"

# The build command SKILL.md and both entry points name is the README's first
# command (which CI runs on a fresh Debian root).
build_cmd='sh tools/bootstrap.sh run'
grep -q "^$build_cmd " "$root/README.md" || no "README.md's first command is not '$build_cmd'"
grep -q "\`$build_cmd\` in the skill root" "$root/SKILL.md" || no "SKILL.md does not say to run '$build_cmd'"

# Unbuilt: 69 and the build command.
out=$(sh "$tmp/skill/scripts/check_interconnect" --version 2>&1)
rc=$?
[ "$rc" = 69 ] || no "unbuilt: exit $rc, want 69"
case $out in *"run \`$build_cmd\` in $tmp/skill"*) ;; *) no "unbuilt: says '$out'" ;; esac
out=$(cd "$tmp/other" && python3 ../skill/scripts/check_interconnect.py --version 2>&1)
rc=$?
[ "$rc" = 69 ] || no "unbuilt .py: exit $rc, want 69"
case $out in *"run \`$build_cmd\` in $tmp/skill"*) ;; *) no "unbuilt .py: says '$out'" ;; esac

# Built, called through an absolute symlink and a relative chain of two.
ln -s "$bin" "$tmp/skill/build/check_interconnect"
ln -s "$tmp/skill/scripts/check_interconnect" "$tmp/other/ci-abs"
ln -s ../other/ci-abs "$tmp/bin/ci"
ln -s "$tmp/skill/scripts/check_interconnect.py" "$tmp/other/ci-abs.py"
ln -s ../other/ci-abs.py "$tmp/bin/ci.py"
for s in "$tmp/skill/scripts/check_interconnect" "$tmp/other/ci-abs" "$tmp/bin/ci" \
	"python3 $tmp/skill/scripts/check_interconnect.py" "python3 $tmp/other/ci-abs.py" \
	"python3 $tmp/bin/ci.py"; do
	# shellcheck disable=SC2086 # "python3 FILE" splits into the interpreter and its file
	out=$(cd / && $s --version 2>&1)
	rc=$?
	[ "$rc" = 0 ] || no "$s: exit $rc ($out)"
	case $out in "check_interconnect "*) ;; *) no "$s: printed '$out'" ;; esac
done
# Arguments and the exit code pass through unchanged.
"$tmp/bin/ci" --no-such-option >/dev/null 2>&1
rc=$?
[ "$rc" = 64 ] || no "usage error through the script: exit $rc, want 64"

# The .py adds nothing: stdout, stderr and the exit code are the binary's,
# byte for byte, for a report, a usage error, JSON and an empty-argument
# case; and the published run_script("scripts/check_interconnect.py",
# args=[...]) form, which runs the file with python3 and the args from the
# skill root, on a recipe at the path the skill text names.
mkdir -p "$tmp/skill/recipes"
cp -R "$root/tests/fixtures/skill/recipes/." "$tmp/skill/recipes/"
cp -R "$root/examples" "$tmp/skill/"
python3 - "$tmp/skill" "$bin" <<'PY' || fail=1
import os, subprocess, sys
skill, binary = sys.argv[1], sys.argv[2]
os.environ["SOURCE_DATE_EPOCH"] = "1764547200"  # JSON's generated_at, the same in both runs
cases = [
    ["env", "examples/recipes/llama-70b-disagg-ib"],
    ["env", "recipes/qwen3-coder-480b/sglang/disagg"],
    ["env", "--json", "recipes/qwen3-coder-480b/sglang/disagg"],
    ["node", "--no-such-option"],
    ["env", ""],
    ["help", "nixl"],
]
bad = 0
for args in cases:
    want = subprocess.run([binary] + args, cwd=skill, capture_output=True)
    # run_script(script, args=[...]): the interpreter, the script path as
    # given, the args unchanged, from the skill root
    got = subprocess.run([sys.executable, "scripts/check_interconnect.py"] + args,
                         cwd=skill, capture_output=True)
    for what in ("returncode", "stdout", "stderr"):
        if getattr(want, what) != getattr(got, what):
            print("FAIL: run_script(%r): %s differs from the binary's" % (args, what))
            bad = 1
    if want.returncode not in (0, 1, 2, 3, 64) or not (want.stdout or want.stderr):
        print("FAIL: %r: the binary itself gave exit %d and no output" % (args, want.returncode))
        bad = 1
sys.exit(bad)
PY

[ "$fail" = 0 ] && echo "skill: ok"
exit "$fail"
