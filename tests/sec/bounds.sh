#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 23, one bound for every parser, end to end: a 128 KB kubeconfig of
# nested flow sequences (67 s through libyaml's document loader) is read
# under the recipe reader's caps.  The cmocka tests (tests/parse) prove the
# bound by counting the work; the timeout here is only a guard against a
# run that does not stop.
# shellcheck disable=SC2154 # tmp, root, bin and failed are set by lib.sh
. "$(dirname "$0")/lib.sh"
G=30 # seconds: a guard, not a speed test (the bounded run takes milliseconds)

python3 - "$tmp/kubeconfig" <<'PY'
import sys
n = 64 << 10
open(sys.argv[1], "w").write("current-context: a\ncontexts:\n- name: a\n  context:\n"
                             "    namespace: ns-a\n    deep: " + "[" * n + "]" * n + "\n")
PY
k=$tmp/kubectl
printf '#!/bin/sh\necho "Error from server (NotFound): pods \\"p\\" not found" >&2\nexit 1\n' >"$k"
chmod +x "$k"
KUBECONFIG=$tmp/kubeconfig timeout -k 1 $G "$bin" node --pod p --kubectl "$k" >"$tmp/out" 2>"$tmp/err"
rc=$?
no_sanitizer_report "$tmp/err" "deep kubeconfig"
[ "$rc" = 124 ] || [ "$rc" = 137 ] && fail "a 128 KB nested kubeconfig: still reading after ${G}s"
[ "$rc" = 3 ] || fail "a 128 KB nested kubeconfig: exit $rc, expected 3 (the pod is not found)"
# a file past the depth cap names no namespace: kubectl's own default
grep -q 'pod default/p' "$tmp/out" ||
	fail "a cut kubeconfig: the namespace is not the default: $(head -c 300 "$tmp/out")"
[ "$failed" = 0 ] && ok "a 128 KB nested kubeconfig stops at the depth cap"
finish
