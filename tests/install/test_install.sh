#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make install DESTDIR=... puts the binary, the kubectl-interconnect plugin
# link, the man page (rendered by `man -l`) and the completions where they
# belong; the bash completion, loaded in bash, completes verbs, options,
# values and pod names (through a stub kubectl).
#   usage: test_install.sh REPO_ROOT BUILD_DIR
set -u
root=$1
build=$(cd "$2" && pwd)
fail=0
no() { echo "FAIL: $*"; fail=1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
if ! make -s -C "$root" install BUILD="$build" DESTDIR="$dest" >"$tmp/log" 2>&1; then
	cat "$tmp/log"
	no "make install failed"
	exit 1
fi
find1() { find "$dest" -path "$1" | head -n 1; }
bin=$(find1 '*/bin/check_interconnect')
plugin=$(find1 '*/bin/kubectl-interconnect')
kcomplete=$(find1 '*/bin/kubectl_complete-interconnect')
man=$(find1 '*/share/man/man1/check_interconnect.1')
bashc=$(find1 '*/share/bash-completion/completions/check_interconnect')
# shellcheck disable=SC2034 # read through ${!f} below
bash_kubectl=$(find1 '*/share/bash-completion/completions/kubectl-interconnect')
zshc=$(find1 '*/share/zsh/site-functions/_check_interconnect')
for f in bin plugin kcomplete man bashc bash_kubectl zshc; do
	[ -n "${!f}" ] || no "make install: no $f under $dest ($(cd "$dest" && find . -type f -o -type l | tr '\n' ' '))"
done
[ "$fail" = 0 ] || exit 1
[ -x "$bin" ] || no "$bin is not executable"
[ "$(readlink "$plugin")" = check_interconnect ] || no "kubectl-interconnect does not point at check_interconnect"
case $("$plugin" --version) in "check_interconnect "*) ;; *) no "kubectl-interconnect --version" ;; esac

# kubectl runs a plugin as kubectl-interconnect with the words after
# `kubectl interconnect`: the same command line works.
out=$("$plugin" node -n dynamo --pod '' 2>&1)
[ $? = 64 ] || no "kubectl-interconnect node with an empty pod: not a usage error ($out)"

# As the plugin, messages and help name what the user typed.
out=$("$plugin" nod 2>&1)
case $out in "kubectl interconnect: unknown verb 'nod'"*"(see 'kubectl interconnect --help')") ;; *) no "plugin error: $out" ;; esac
out=$("$plugin" node --peer x 2>&1)
case $out in *"(see 'kubectl interconnect help node')") ;; *) no "plugin verb error: $out" ;; esac
case $("$plugin" help node) in "usage: kubectl interconnect node [POD] [options]"*"  kubectl interconnect node -n dynamo --pod vllm-decode-0"*) ;; *) no "plugin help does not say kubectl interconnect" ;; esac

# kubectl's plugin completion (kubectl >= 1.26): kubectl runs
# kubectl_complete-interconnect with the words after `kubectl interconnect`
# and reads cobra's answer, candidates then ":<directive>".
[ "$(readlink "$kcomplete")" = check_interconnect ] || no "kubectl_complete-interconnect does not point at check_interconnect"
kc() { PATH="$tmp/bin:$PATH" "$kcomplete" "$@" | tr '\n' ' '; }
mkdir -p "$tmp/bin"
[ "$(kc ni)" = "nixl :4 " ] || no "kubectl_complete-interconnect ni: $(kc ni)"
[ "$(kc env --format sa)" = "sarif :4 " ] || no "kubectl_complete-interconnect env --format sa: $(kc env --format sa)"
[ "$(kc env "")" = ":0 " ] || no "kubectl_complete-interconnect env '': $(kc env "")"
case $(kc env --) in *--max-files*) ;; *) no "env -- lacks --max-files" ;; esac
case $(kc env --) in *--pod*) no "env -- offers --pod, which env refuses" ;; esac

# The man page renders, and says what --help says.
if command -v man >/dev/null 2>&1; then
	page=$(MANWIDTH=80 LC_ALL=C man -l "$man" 2>"$tmp/man.err" | col -b 2>/dev/null)
	[ -s "$tmp/man.err" ] && no "man -l warns: $(head -c 300 "$tmp/man.err")"
	for w in NAME SYNOPSIS VERBS OPTIONS "EXIT STATUS" "--namespace" "--format" "--timeout" \
		"kubectl interconnect" "check_interconnect env --format sarif"; do
		case $page in *"$w"*) ;; *) no "man page lacks '$w'" ;; esac
	done
	for o in $("$bin" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		case $page in *"$o"*) ;; *) no "man page lacks $o (in --help)" ;; esac
	done
else
	echo "man not installed: the page is not rendered (install man-db)"
fi

# The bash completion, loaded in bash.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/kubectl" <<'STUB'
#!/bin/sh
# stub: `kubectl get pods [-n NS] -o name`
case "$*" in
*"get pods -n dynamo -o name"*) printf 'pod/vllm-decode-0\npod/vllm-prefill-0\n' ;;
*"get pods -o name"*) printf 'pod/default-pod\n' ;;
*"get pods -n dynamo -o json"*) printf '{"kind":"List","items":[{"metadata":{"name":"vllm-decode-0"}},{"metadata":{"name":"vllm-prefill-0"}}]}\n' ;;
esac
STUB
chmod +x "$tmp/bin/kubectl"
complete_words() { # words...: COMPREPLY for the last word, one per line
	PATH="$tmp/bin:$PATH" bash --norc --noprofile -c '
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_check_interconnect
		printf "%s\n" "${COMPREPLY[@]}"' _ "$bashc" "$@"
}
expect() { # want words...
	local want=$1
	shift
	local got
	got=$(complete_words "$@")
	case $'\n'$got$'\n' in *$'\n'"$want"$'\n'*) ;; *) no "completing '$*': no '$want' in: ${got//$'\n'/ }" ;; esac
}
expect env check_interconnect e
expect nixl check_interconnect ni
expect help check_interconnect he
expect --namespace check_interconnect --nam
expect --format check_interconnect node --for
expect sarif check_interconnect env --format sa
expect prometheus check_interconnect --format p
expect vllm-decode-0 check_interconnect node -n dynamo --pod vllm-d
expect vllm-prefill-0 check_interconnect node -n dynamo ""
expect default-pod check_interconnect nixl --peer ""
expect node check_interconnect help n
[ "$(kc node -n dynamo vllm-p)" = "vllm-prefill-0 :4 " ] || no "kubectl_complete-interconnect node -n dynamo vllm-p: $(kc node -n dynamo vllm-p)"
# without kubectl: no pod names, no error
got=$(PATH=/usr/bin:/bin bash --norc --noprofile -c 'source "$1"; COMP_WORDS=(check_interconnect node --pod ""); COMP_CWORD=3; _check_interconnect 2>&1; echo "n=${#COMPREPLY[@]}"' _ "$bashc")
case $got in *"n=0") ;; *) no "without kubectl: $got" ;; esac

if command -v zsh >/dev/null 2>&1; then
	zsh -n "$zshc" || no "zsh completion does not parse"
fi

[ "$fail" = 0 ] && echo "install: ok"
exit "$fail"
