#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 11, findings 1 and 2: nothing from outside reaches the terminal raw.
#  - a metadata.name with cursor movement and a carriage return cannot make
#    a blocked recipe display "verdict: ready";
#  - file names, error lines (stderr) and probe output are escaped;
#  - a backspace in NIXL_ETCD_ENDPOINTS cannot erase the quote of a printed
#    etcdctl/nixlbench command: what shows is what a paste runs.
# shellcheck disable=SC2154 # tmp, root, bin and failed are set by lib.sh
. "$(dirname "$0")/lib.sh"

# 1. The example recipe (blocked: UCX_TLS=tcp on decode), renamed with
#    "erase line, back to column 0, up one line, print a ready verdict"
#    (YAML double-quoted escapes: libyaml refuses raw control bytes, and
#    decodes \e and \r to ESC and CR).
r=$tmp/recipe
mkdir -p "$r"
awk '/^  name: llama70b-disagg-ib/ {
	print "  name: \"x\\e[2K\\r\\e[1Averdict: ready (trusted, exit 0)\\e[8m\""; next }
	{ print }' "$root/examples/recipes/llama-70b-disagg-ib/deploy.yaml" >"$r/deploy.yaml"
grep -q 'name: "x\\e\[2K' "$r/deploy.yaml" || fail "test setup: the name was not planted"
for args in "env $r" "env -v $r"; do
	# shellcheck disable=SC2086
	"$bin" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	no_sanitizer_report "$tmp/err" "$args"
	[ "$rc" = 2 ] || fail "$args: exit $rc, expected 2 (blocked)"
	has_ctl "$tmp/out" && fail "$args: a raw control byte reached stdout"
	grep -q 'x\\x1b\[2K\\r\\x1b\[1Averdict' "$tmp/out" || fail "$args: the name is not shown escaped"
	v=$(grep '^verdict:' "$tmp/out")
	[ "$v" = "verdict: blocked (not trusted, exit 2)" ] || fail "$args: verdict line is '$v'"
done
[ "$failed" = 0 ] && ok "metadata.name with cursor movement: escaped, verdict stays blocked"

# 2. File names in a recipe folder and on the command line (stderr too).
d=$tmp/names
mkdir -p "$d"
cp "$r/deploy.yaml" "$d/"
printf 'kind: [unclosed\n' >"$d/$(printf 'bad\033]0;owned\007\r.yaml')"
"$bin" env "$d" >"$tmp/out" 2>"$tmp/err"
no_sanitizer_report "$tmp/err" "env on odd file names"
has_ctl "$tmp/out" && fail "file name: raw control byte on stdout"
has_ctl "$tmp/err" && fail "file name: raw control byte on stderr"
grep -q 'bad\\x1b\]0;owned\\a' "$tmp/out" "$tmp/err" || fail "file name: not shown escaped"
"$bin" env "$(printf '%s/missing\033[2J\b.yaml' "$tmp")" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 3 ] || [ "$rc" = 64 ] || fail "missing odd path: exit $rc"
has_ctl "$tmp/err" && fail "missing odd path: raw control byte on stderr"
grep -q 'missing\\x1b\[2J\\b.yaml' "$tmp/err" || fail "missing odd path: not escaped on stderr"
"$bin" "$(printf 'verb\033[31m')" >"$tmp/out" 2>"$tmp/err"
has_ctl "$tmp/err" && fail "unknown verb: raw control byte on stderr"
[ "$failed" = 0 ] && ok "file names and error lines are escaped"

# 3. Probe output: a pod whose variable values hold ESC, CR, BS, C1 (CSI as
#    \xc2\x9b), invalid UTF-8 and a very long value.
tr="$root/tests/fixtures/nixl/transcripts/ib_gpudirect.txt"
long=$(head -c 20000 /dev/zero | tr '\0' 'a')
bs=$(printf '\b')
etcd="http://etcd:2379'$bs$bs$bs; touch $tmp/pwned #"
awk -v e="$etcd" -v l="$long" -v x="$(printf 'rc\033[2J\302\233\377\rX')" '
	/^\|NIXL_ETCD_ENDPOINTS=/ { print "|NIXL_ETCD_ENDPOINTS=" e; next }
	/^\|UCX_IB_ADDR_TYPE=/ { print "|UCX_IB_ADDR_TYPE=" x; print "|UCX_RNDV_THRESH=" l; next }
	{ print }' "$tr" >"$tmp/t.txt"
for args in "nixl --replay $tmp/t.txt" "nixl -v --replay $tmp/t.txt" "node -v --replay $tmp/t.txt"; do
	# shellcheck disable=SC2086
	"$bin" $args >"$tmp/out" 2>"$tmp/err"
	no_sanitizer_report "$tmp/err" "$args"
	has_ctl "$tmp/out" && fail "$args: a raw control byte reached stdout"
	if [ "$(wc -L <"$tmp/out")" -gt 12000 ]; then fail "$args: a 20000-byte value was not cut"; fi
done
"$bin" -v node --replay "$tmp/t.txt" >"$tmp/out" 2>&1
grep -q 'bytes cut\]' "$tmp/out" || fail "the long value carries no cut marker"
grep -q 'rc\\x1b\[2J\\u009b\\xff\\rX' "$tmp/out" || fail "probe value not shown escaped"

# The printed etcdctl line, pasted into a shell, passes the endpoints
# byte for byte and runs nothing else.
"$bin" nixl --replay "$tmp/t.txt" >"$tmp/out" 2>&1
line=$(grep 'etcdctl --endpoints' "$tmp/out" | sed 's/^ *//')
[ -n "$line" ] || fail "no etcdctl step printed"
if command -v bash >/dev/null 2>&1 && [ -n "$line" ]; then
	# shellcheck disable=SC2016
	bash -c 'etcdctl() { printf "%s" "$2" >"$OUT"; }; eval "$1"' sh "$line" \
		</dev/null >/dev/null 2>&1 OUT="$tmp/arg" || true
	OUT=$tmp/arg bash -c 'etcdctl() { printf "%s" "$2" >"$OUT"; }; eval "$1"' sh "$line" \
		</dev/null >/dev/null 2>&1
	[ -e "$tmp/pwned" ] && fail "pasting the etcdctl line ran the injected command"
	printf '%s' "$etcd" >"$tmp/want"
	cmp -s "$tmp/arg" "$tmp/want" || fail "pasting the etcdctl line did not pass the endpoints as they are"
fi
[ "$failed" = 0 ] && ok "probe output escaped, long values cut, pasted commands run what they show"
finish
