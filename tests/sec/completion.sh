#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 23: shell completion runs nothing.  A kubectl that answers context,
# namespace and pod names holding $(...) and backticks; the bash completion
# (COMPREPLY, then each reply read back as the shell reads an inserted
# word) and the zsh one (driven through a pty: TAB, then Enter runs a stub
# check_interconnect that records its argv) must hand the names over as
# data: nothing runs, and the word the command gets is the name itself.
# Without zsh its half is skipped (exit 77) after the bash half passed.
# shellcheck disable=SC2154 # tmp, root, bin and failed are set by lib.sh
. "$(dirname "$0")/lib.sh"
comp=${CI_COMPLETIONS:-$(dirname "$bin")/completions}
[ -f "$comp/check_interconnect" ] || { echo "FAIL: no bash completion in $comp"; exit 1; }
mkdir "$tmp/bin"
cat >"$tmp/bin/kubectl" <<EOF2
#!/bin/sh
case "\$*" in
*"config get-contexts"*) printf '%s\n' 'ctx\$(touch $tmp/ran1)' 'tick\`touch $tmp/ran2\`' ;;
*"get namespaces"*) printf '%s\n' 'namespace/ns\$(touch $tmp/ran3)' ;;
*"get pods"*) printf '%s\n' 'pod/pod\$(touch $tmp/ran4)' 'pod/sq'"'"'\$(touch $tmp/ran5)' ;;
esac
EOF2
chmod +x "$tmp/bin/kubectl"
ran() { find "$tmp" -maxdepth 1 -name 'ran*' | sed 's|.*/||' | tr '\n' ' '; }

# bash: COMPREPLY for the last word; each reply is then evaluated as the
# command line would read it once inserted, and must give the name back.
bash_case() { # want words...
	want=$1
	shift
	PATH="$tmp/bin:$PATH" bash --norc --noprofile -c '
		source "$1"; want=$2; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_check_interconnect
		[ ${#COMPREPLY[@]} -gt 0 ] || { echo "no reply"; exit 1; }
		for r in "${COMPREPLY[@]}"; do
			eval "set -- $r"
			[ "$1" = "$want" ] && exit 0
		done
		echo "replies: ${COMPREPLY[*]}"; exit 1' _ "$comp/check_interconnect" "$want" "$@" \
		>"$tmp/bash.out" 2>&1 || fail "bash: completing '$*': $(cat "$tmp/bash.out")"
}
bash_case "ctx\$(touch $tmp/ran1)" check_interconnect --context ct
bash_case "tick\`touch $tmp/ran2\`" check_interconnect --context ti
bash_case "ns\$(touch $tmp/ran3)" check_interconnect node -n n
bash_case "pod\$(touch $tmp/ran4)" check_interconnect node -n x --pod po
bash_case "pod\$(touch $tmp/ran4)" check_interconnect nixl p
bash_case "sq'\$(touch $tmp/ran5)" check_interconnect nixl --peer s
[ -z "$(ran)" ] || fail "bash completion ran a command hidden in a name: $(ran)"
[ "$failed" = 0 ] && ok "bash: context, namespace and pod names are completed as data"

if ! command -v zsh >/dev/null 2>&1; then
	echo "skipped: zsh is not installed (tools/deps.sh test installs it)"
	[ "$failed" = 0 ] && exit 77
	finish
fi
[ -f "$comp/_check_interconnect" ] || fail "no zsh completion in $comp"
cat >"$tmp/drive.zsh" <<'EOF2'
# argv: completions folder, stub kubectl folder, argv record, lines...
zmodload zsh/zpty || exit 1
comp=$1 stub=$2 rec=$3
shift 3
zpty z zsh -f -i
zpty -w z "PS1='>'; PATH=${(q)stub}:\$PATH; fpath=(${(q)comp} \$fpath); autoload -Uz compinit; compinit -u -D; check_interconnect() { print -r -- \"\$*\" >>${(q)rec}; }"
zpty -w z "print -r -- READY"
zpty -r -m z out '*READY*' || exit 1
for line in "$@"; do
	zpty -w -n z "$line"$'\t'
	sleep 0.5
	zpty -w -n z $'\n'
	sleep 0.3
done
zpty -w z "print -r -- DONE"
zpty -r -m z out '*DONE*DONE*'
zpty -d z
EOF2
: >"$tmp/argv"
timeout 60 zsh -f "$tmp/drive.zsh" "$comp" "$tmp/bin" "$tmp/argv" \
	'check_interconnect --context ct' 'check_interconnect --context ti' \
	'check_interconnect -n n' 'check_interconnect node -n x --pod po' \
	'check_interconnect nixl --peer s' >/dev/null 2>&1
printf '%s\n' "--context ctx\$(touch $tmp/ran1)" "--context tick\`touch $tmp/ran2\`" \
	"-n ns\$(touch $tmp/ran3)" "node -n x --pod pod\$(touch $tmp/ran4)" \
	"nixl --peer sq'\$(touch $tmp/ran5)" >"$tmp/want"
if ! cmp -s "$tmp/want" "$tmp/argv"; then
	fail "zsh: the commands did not get the names as data: $(diff "$tmp/want" "$tmp/argv" | tr '\n' ' ')"
fi
[ -z "$(ran)" ] || fail "zsh completion ran a command hidden in a name: $(ran)"
[ "$failed" = 0 ] && ok "zsh: context, namespace and pod names are completed as data"
finish
