#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# usage: .ci/fresh-root.sh [COMMIT]   (as root; default: HEAD of this checkout)
#
# A new user's first minute, proven: make a minimal Debian 12 root
# (mmdebstrap, variant minbase, plus git and ca-certificates, from the apt
# sources this machine is configured with: nothing else installed), clone
# COMMIT into it, and run there, as root in a chroot, the README's two
# commands, read from README.md itself (the first ```sh block, one command a
# line) so that the two can never drift apart.  Before them, as a non-root
# user, the first command must fail saying the apt-get line; between them
# (after the first one only, as an agent would) the skill's entry points
# must run every published invocation with the binary's output and exit
# code.  Each step prints its time.  /proc, /sys, /dev and /dev/pts are
# mounted into the root and unmounted on every exit (a trap); the root is
# removed afterwards unless FRESH_ROOT_KEEP=1.  FRESH_ROOT_ORDER=reverse runs
# the two commands in the other order; FRESH_ROOT_TARBALL=FILE starts from a
# tarball of such a root instead of making one.  Exit 0 when all passed.
set -euo pipefail
exec </dev/null
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$repo" rev-parse "${1:-HEAD}")
suite=bookworm # Debian 12
order=${FRESH_ROOT_ORDER:-readme}

[ "$(id -u)" = 0 ] || {
	echo "fresh-root: needs root (mmdebstrap, chroot, mount)" >&2
	exit 1
}
command -v mmdebstrap >/dev/null || {
	echo "fresh-root: mmdebstrap is not installed (apt-get install mmdebstrap)" >&2
	exit 1
}

# The README's two commands (the commit's README): the first ```sh block,
# comments cut off.
mapfile -t cmds < <(git -C "$repo" show "$commit:README.md" | awk '
	/^```sh$/ && !seen { inside = 1; seen = 1; next }
	inside && /^```/ { exit }
	inside { sub(/[ \t]+#.*$/, ""); if ($0 != "") print }
')
if [ "${#cmds[@]}" != 2 ]; then
	echo "fresh-root: README.md's first sh block holds ${#cmds[@]} commands, not 2" >&2
	exit 1
fi
if [ "$order" = reverse ]; then cmds=("${cmds[1]}" "${cmds[0]}"); fi

# The machine's apt sources for Debian's suite (Debian's own keyring signs
# them inside the root), and its Acquire settings (proxy, snapshot dates):
# read from /etc/apt, never written into the repository.
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	if grep -Eq "^[[:space:]]*(deb[[:space:]].*[[:space:]]|Suites:(.*[[:space:]])?)$suite(-[a-z]+)?([[:space:]]|$)" "$f"; then
		sources+=("$f")
	fi
done
if [ "${#sources[@]}" = 0 ]; then
	echo "fresh-root: no apt source for $suite in /etc/apt" >&2
	exit 1
fi
aptopts=()
for f in /etc/apt/apt.conf.d/*; do
	[ -f "$f" ] && grep -q '^[[:space:]]*Acquire' "$f" && aptopts+=("--aptopt=$f")
done

work=$(mktemp -d "${TMPDIR:-/var/tmp}/fresh-root.XXXXXX")
root=$work/root
log=$work/log
mounted=()
cleanup() {
	local rc=$? i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}" || true
	done
	if findmnt -rn -o TARGET | grep -q "^$root/"; then
		echo "fresh-root: still mounted under $root: left in place" >&2
	elif [ "${FRESH_ROOT_KEEP:-0}" = 1 ]; then
		echo "fresh-root: kept $root"
	else
		rm -rf --one-file-system "$work"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

t0=$(date +%s)
step_start=$t0
lap() { # what: print how long the step took
	local now
	now=$(date +%s)
	echo "fresh-root: $1 ($((now - step_start))s)"
	step_start=$now
}
fail() {
	echo "fresh-root: FAIL: $*" >&2
	if [ -s "$log" ]; then
		echo "--- last lines of its output:" >&2
		tail -n 40 "$log" >&2
	fi
	exit 1
}

if [ -n "${FRESH_ROOT_TARBALL:-}" ]; then
	# To time the commands again by hand: a tarball of a root made by the
	# command below (mmdebstrap ... "$suite" root.tar ...), unpacked.
	echo "fresh-root: Debian root from $FRESH_ROOT_TARBALL"
	mkdir "$root"
	tar -C "$root" -xf "$FRESH_ROOT_TARBALL"
else
	echo "fresh-root: Debian $suite root from ${sources[*]}"
	mmdebstrap --quiet --variant=minbase --include=git,ca-certificates \
		--dpkgopt=force-unsafe-io "${aptopts[@]}" "$suite" "$root" "${sources[@]}" >"$log" 2>&1 ||
		fail "mmdebstrap"
fi
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
lap "root made"

for m in proc sys dev dev/pts; do
	case $m in
	proc) mount -t proc proc "$root/proc" ;;
	sys) mount -t sysfs sysfs "$root/sys" ;;
	*) mount --bind "/$m" "$root/$m" ;;
	esac
	mounted+=("$root/$m")
done

src=/root/check_interconnect
git clone -q --no-hardlinks "$repo" "$root$src"
git -C "$root$src" checkout -q --detach "$commit"
chmod 755 "$root/root"
lap "cloned $(git -C "$root$src" log --oneline -1)"

in_root() { # [--userspec U:G] command-line: run it in the clone, clean environment
	local user=()
	if [ "$1" = --userspec ]; then
		user=("--userspec=$2")
		shift 2
	fi
	chroot "${user[@]}" "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c "cd $src && $1"
}

# As a user who is not root, with no package: the apt-get line, exit non-zero.
rc=0
in_root --userspec 65534:65534 "${cmds[0]}" >"$log" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "'${cmds[0]}' as a non-root user with no package exited 0"
grep -q 'apt-get install -y' "$log" || fail "'${cmds[0]}' as a non-root user did not print the apt-get line"
lap "'${cmds[0]}' as a non-root user: exit $rc and the apt-get line"

# The skill's documented invocations, after the README's first command only:
# each gives the binary's own stdout, stderr and exit code.
skill_checks() {
	in_root "python3 - <<'PY'
import os, subprocess, sys
b = ['build/check_interconnect']
fake = dict(os.environ, PATH='tests/fakes:' + os.environ['PATH'],
            FAKE_KUBECTL_MODE='ok',
            FAKE_KUBECTL_SYSROOT=subprocess.check_output(
                [sys.executable, 'tests/fixtures/trees.py'], text=True).strip() + '/node/h100_ib')
nixl = dict(fake, FAKE_KUBECTL_TRANSCRIPT=os.getcwd() + '/tests/fixtures/nixl/transcripts/efa_libfabric.txt')
calls = [
    (['env', 'examples/recipes/llama-70b-disagg-ib'], None),
    (['node', '--namespace', 'dynamo', '--pod', 'vllm-decode-0'], fake),
    (['node', '-n', 'dynamo', '--pod', 'vllm-decode-0'], fake),
    (['nixl', '--namespace', 'dynamo', '--pod', 'sglang-disagg-prefill-0'], nixl),
    (['vars'], None),
]
bad = 0
for args, env in calls:
    want = subprocess.run(b + args, env=env, capture_output=True)
    for entry in (['python3', 'scripts/check_interconnect.py'], ['scripts/check_interconnect']):
        got = subprocess.run(entry + args, env=env, capture_output=True)
        same = (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)
        print('%s %s: exit %d%s' % (' '.join(entry), ' '.join(args), got.returncode,
                                    '' if same else ', NOT the binary output'))
        bad |= not same or got.returncode not in (0, 1, 2, 3)
sys.exit(bad)
PY"
}

n=0
for cmd in "${cmds[@]}"; do
	n=$((n + 1))
	echo "fresh-root: # $cmd"
	s=$(date +%s)
	rc=0
	in_root "$cmd" >"$log" 2>&1 || rc=$?
	tail -n 3 "$log"
	[ "$rc" = 0 ] || fail "'$cmd' exited $rc after $(($(date +%s) - s))s"
	lap "'$cmd': exit 0 in $(($(date +%s) - s))s"
	if [ "$n" = 1 ] && [ "$order" = readme ]; then
		skill_checks >"$log" 2>&1 || fail "the skill's entry points after '$cmd'"
		cat "$log"
		lap "the skill's invocations"
	fi
done
echo "fresh-root: ok in $(($(date +%s) - t0))s"
