#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Issue 11, findings 6 and 7: no secret reaches any output.  Canaries
# (CANARY01..) are planted where secrets really live: secret-named
# transport variables, credentials inside URLs, password=/token= inside a
# value, in a recipe, a pod's environment (a sysroot's /proc/1/environ),
# a saved transcript and a whole fleet (fake kubectl).  Every verb runs in
# every output format, and the --save-probe file is read back; a canary in
# any stdout, stderr or file fails.  Each run must also show that it read
# the planted variables (a "<redacted>" or the URL's user), so that a run
# that silently read nothing cannot pass.
# shellcheck disable=SC2154 # tmp, root, bin and failed are set by lib.sh
. "$(dirname "$0")/lib.sh"

formats="text verbose json sarif prometheus junit nagios npd"
fmt_args() { # format -> the arguments that select it
	case $1 in
	text) ;;
	verbose) echo "-v" ;;
	*) echo "--format $1" ;;
	esac
}
runs=0
# check WHAT FILE...: no canary in any of the files
check() {
	what=$1
	shift
	runs=$((runs + 1))
	for f in "$@"; do
		no_sanitizer_report "$f" "$what"
		if grep -q 'CANARY' "$f"; then
			fail "$what: $(grep -o 'CANARY[0-9]*' "$f" | sort -u | tr '\n' ' ')in $(basename "$f")"
		fi
	done
}
# read_it WHAT FILE: the run saw the planted variables (redacted)
read_it() {
	grep -q '<redacted>\|REDACTED\|redacted' "$2" || fail "$1: no redacted value shown: did it read the planted variables?"
}

# The planted variables: the names and values a real deployment carries.
plant_env() { # the NAME=VALUE lines, one per line
	cat <<'EOF'
NIXL_ETCD_ENDPOINTS=http://root:CANARY01@etcd:2379
NIXL_ETCD_PASSWORD=CANARY02
UCX_CREDS=CANARY03
NCCL_IB_TOKEN=CANARY04
NIXL_OPTS=user=a password=CANARY05
UCX_OPTS=mode=x token=CANARY06
NIXL_BEARER=CANARY07
UCX_PRIVKEY=CANARY08
NIXL_URL=https://CANARY09@example.com/x
NCCL_JWT=CANARY10
EOF
}

# 1. env over a recipe, and all over the recipe and a fleet.  Beside the
#    variables: a secret on the engine's command line, in annotations, and
#    in a ConfigMap the workers could take variables from.
rec=$tmp/recipe
mkdir -p "$rec"
plant_env | while IFS='=' read -r n v; do
	printf '    - name: %s\n      value: "%s"\n' "$n" "$v"
done >"$tmp/envs.yaml"
printf '    - name: HF_TOKEN\n      valueFrom: {secretKeyRef: {name: hf, key: CANARY11}}\n' >>"$tmp/envs.yaml"
{
	sed -e "/^  envs:\$/r $tmp/envs.yaml" \
		-e 's|^  name: llm-disagg$|&\n  annotations: {deploy.example.com/token: CANARY14}|' \
		-e 's|^\( *\)- --tensor-parallel-size=8$|&\n\1- --api-key=CANARY12\n\1- --hf-token\n\1- CANARY13|' \
		"$root/tests/fixtures/fleet/recipes/llm-disagg/deploy.yaml"
	cat <<'EOF'
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: nixl-env
  annotations: {deploy.example.com/password: CANARY15}
data:
  NIXL_ETCD_PASSWORD: CANARY16
  UCX_OPTS: "token=CANARY17"
EOF
} >"$rec/deploy.yaml"
[ "$(grep -o "CANARY[0-9]*" "$rec/deploy.yaml" | sort -u | wc -l)" = 17 ] || fail "the recipe does not hold the 17 canaries"
for f in $formats; do
	# shellcheck disable=SC2046
	"$bin" env $(fmt_args "$f") "$rec" >"$tmp/out" 2>"$tmp/err"
	check "env ($f)" "$tmp/out" "$tmp/err"
done
"$bin" env -v "$rec" >"$tmp/out" 2>&1
read_it "env -v" "$tmp/out"
grep -q 'NIXL_ETCD_ENDPOINTS' "$tmp/out" || fail "env -v: the planted variables are not listed"

# 2. node over a sysroot whose pid 1 carries them; --save-probe, then the
#    saved transcript replayed in every format (node and nixl).
t=$tmp/tree
cp -R "$(trees)/node/h100_ib" "$t"
{
	printf 'PATH=/usr/bin\000UCX_TLS=rc,cuda_copy\000'
	plant_env | tr '\n' '\000'
} >"$t/proc/1/environ"
for f in $formats; do
	# shellcheck disable=SC2046
	"$bin" node $(fmt_args "$f") --sysroot "$t" >"$tmp/out" 2>"$tmp/err"
	check "node --sysroot ($f)" "$tmp/out" "$tmp/err"
done
"$bin" node -v --sysroot "$t" >"$tmp/out" 2>&1
read_it "node -v --sysroot" "$tmp/out"
"$bin" node --sysroot "$t" --save-probe "$tmp/saved.txt" >"$tmp/out" 2>"$tmp/err"
check "node --save-probe (the file)" "$tmp/saved.txt" "$tmp/out" "$tmp/err"
grep -q 'NIXL_ETCD_ENDPOINTS' "$tmp/saved.txt" || fail "--save-probe: the planted variables are not in the file"
for verb in node nixl; do
	for f in $formats; do
		# shellcheck disable=SC2046
		"$bin" "$verb" $(fmt_args "$f") --replay "$tmp/saved.txt" >"$tmp/out" 2>"$tmp/err"
		check "$verb --replay ($f)" "$tmp/out" "$tmp/err"
	done
done

# 3. A hand-edited transcript with the values in the clear (a transcript
#    from an older probe, or forged): the replay filters it as a pod would.
awk -v planted="$(plant_env)" '/^@@begin env:pid1/ { print; n = split(planted, a, "\n");
	for (i = 1; i <= n; i++) print "|" a[i]; next } { print }' \
	"$root/tests/fixtures/nixl/transcripts/ib_gpudirect.txt" >"$tmp/forged.txt"
for verb in node nixl; do
	for f in $formats; do
		# shellcheck disable=SC2046
		"$bin" "$verb" $(fmt_args "$f") --replay "$tmp/forged.txt" >"$tmp/out" 2>"$tmp/err"
		check "$verb --replay forged ($f)" "$tmp/out" "$tmp/err"
	done
done
"$bin" nixl -v --replay "$tmp/forged.txt" >"$tmp/out" 2>&1
read_it "nixl -v --replay forged" "$tmp/out"

# 4. A fleet whose pods carry them (fake kubectl), node, nixl and all.
cl=$tmp/cluster
cp -R "$(trees)/fleet/healthy" "$cl" # built by tests/fixtures/fleet/clusters.py
for tr in "$cl"/*/transcript; do
	awk -v planted="$(plant_env)" '/^@@begin env:pid1/ { print; n = split(planted, a, "\n");
		for (i = 1; i <= n; i++) print "|" a[i]; next } { print }' "$tr" >"$tr.new"
	mv "$tr.new" "$tr"
	rm -f "$(dirname "$tr")/latency_ms"
done
# and the pods' annotations and container args in the get-pods answer
python3 - "$cl/_pods.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["items"]:
    p["metadata"].setdefault("annotations", {})["example.com/token"] = "CANARY18"
    for c in p["spec"].get("containers", []):
        c.setdefault("args", []).append("--api-key=CANARY19")
json.dump(d, open(sys.argv[1], "w"))
EOF
grep -q CANARY19 "$cl/_pods.json" || fail "the pods' answer does not hold the canaries"
for verb in node nixl all; do
	args=
	[ "$verb" = all ] && args=$rec
	for f in $formats; do
		# shellcheck disable=SC2046,SC2086
		FAKE_KUBECTL_PODS_DIR=$cl "$bin" "$verb" $(fmt_args "$f") $args --deployment llm-disagg \
			-n dynamo --kubectl "$root/tests/fakes/kubectl" >"$tmp/out" 2>"$tmp/err"
		check "$verb --deployment ($f)" "$tmp/out" "$tmp/err"
	done
done
# the pods' settings are in the JSON (the text matrix shows only drift)
FAKE_KUBECTL_PODS_DIR=$cl "$bin" node --json --deployment llm-disagg -n dynamo \
	--kubectl "$root/tests/fakes/kubectl" >"$tmp/out" 2>&1
read_it "node --json --deployment" "$tmp/out"
grep -q 'http://root:<redacted>@etcd' "$tmp/out" || fail "node --json --deployment: the pods' planted URL is not listed"

[ "$failed" = 0 ] && ok "no canary in $runs runs over 4 verbs, 8 output formats and a saved transcript"
finish
