#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2015 # `A && B || no ...`: no only records a failure
# --bundle and --replay BUNDLE: a 64-pod fake fleet (some pods answer, some
# time out or are refused: make_cluster.py --mix) written to a bundle
# replays, offline, to the same report, text and JSON, for node and nixl;
# the bundle holds its manifest, both reports and a transcript or an error
# per pod, and no secret; a bundle that this tool did not write (a path
# outside it, a link) is refused; one pod's bundle replays too.
#   usage: bundle.sh BIN
set -u
bin=$1
kubectl=$PWD/tests/fakes/kubectl
fail=0
no() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bundle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1764547200 NO_COLOR=1 COLUMNS=80 LC_ALL=C
python3 tests/fleet/make_cluster.py 64 "$tmp/c" --mix >/dev/null || { echo "make_cluster failed"; exit 1; }
for verb in node nixl; do
	for fmt in text json; do
		b=$tmp/$verb-$fmt.tar.gz
		FAKE_KUBECTL_PODS_DIR=$tmp/c "$bin" "$verb" -l app=x -n dynamo --kubectl "$kubectl" \
			--timeout 5 --format "$fmt" --bundle "$b" >"$tmp/a" 2>/dev/null
		rca=$?
		[ -s "$b" ] || { no "$verb --bundle wrote nothing"; continue; }
		# offline: no kubectl at all
		"$bin" "$verb" --replay "$b" --format "$fmt" --kubectl /nonexistent >"$tmp/b" 2>"$tmp/be"
		rcb=$?
		[ "$rca" = "$rcb" ] || no "$verb $fmt: exit $rca, replayed $rcb ($(head -c 300 "$tmp/be"))"
		cmp -s "$tmp/a" "$tmp/b" || no "$verb $fmt: the replay differs: $(diff "$tmp/a" "$tmp/b" | head -5)"
		tar tzf "$b" >"$tmp/list" || no "$verb: tar cannot list the bundle"
		for f in manifest.json report.txt report.json probe/pods.json; do
			grep -qx "$f" "$tmp/list" || no "$verb: the bundle lacks $f"
		done
		n=$(grep -c '^probe/pods/' "$tmp/list")
		[ "$n" = 64 ] || no "$verb: $n pod entries in the bundle, not 64"
		grep -q '^probe/pods/.*\.error$' "$tmp/list" || no "$verb: no pod that did not answer (--mix has some)"
		mkdir -p "$tmp/x" && tar xzf "$b" -C "$tmp/x" || no "tar cannot extract it"
		[ "$fmt" = text ] && { cmp -s "$tmp/x/report.txt" "$tmp/a" || no "$verb: report.txt is not the report printed"; }
		python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); assert m["command"]==sys.argv[2] and len(m["files"])>=67' \
			"$tmp/x/manifest.json" "$verb" || no "$verb: manifest.json"
		rm -rf "$tmp/x"
	done
done
# The replay is the bundle's verb.
"$bin" node --replay "$tmp/nixl-text.tar.gz" >/dev/null 2>"$tmp/e"
[ $? = 64 ] && grep -q "a bundle of 'nixl'" "$tmp/e" || no "node --replay of a nixl bundle: $(cat "$tmp/e")"
# A bundle never overwrites a file.
: >"$tmp/exists.tar.gz"
FAKE_KUBECTL_PODS_DIR=$tmp/c "$bin" node -l app=x -n dynamo --kubectl "$kubectl" --bundle "$tmp/exists.tar.gz" >/dev/null 2>&1
[ $? = 64 ] && [ ! -s "$tmp/exists.tar.gz" ] || no "--bundle over an existing file"
# Entries this tool does not write are refused, never extracted.
python3 - "$tmp" <<'PY'
import io, sys, tarfile
d = sys.argv[1]
for name, kind in (("../evil", tarfile.REGTYPE), ("probe/link", tarfile.SYMTYPE)):
    with tarfile.open(f"{d}/bad-{kind.decode()}.tar.gz", "w:gz", format=tarfile.USTAR_FORMAT) as t:
        i = tarfile.TarInfo(name); i.type = kind; i.linkname = "/etc/passwd" if kind == tarfile.SYMTYPE else ""
        data = b"x"; i.size = 0 if kind == tarfile.SYMTYPE else 1
        t.addfile(i, io.BytesIO(data) if i.size else None)
PY
for f in "$tmp"/bad-*.tar.gz; do
	out=$("$bin" node --replay "$f" 2>&1 >/dev/null)
	case $out in *"does not write"*) ;; *) no "$(basename "$f"): $out" ;; esac
done
[ ! -e "$tmp/../evil" ] || no "an entry was extracted"
# One pod: its transcript, replayed under the pod's name.
trees=$(python3 tests/fixtures/trees.py) || { echo "tests/fixtures/trees.py failed"; exit 1; }
FAKE_KUBECTL_MODE=ok FAKE_KUBECTL_SYSROOT=$trees/node/h100_ib \
	"$bin" node -n dynamo --pod vllm-decode-0 --kubectl "$kubectl" --bundle "$tmp/one.tar.gz" >"$tmp/a" 2>/dev/null
rca=$?
"$bin" node --replay "$tmp/one.tar.gz" >"$tmp/b" 2>/dev/null
[ $? = "$rca" ] && cmp -s "$tmp/a" "$tmp/b" || no "one pod's bundle: $(diff "$tmp/a" "$tmp/b" | head -5)"
# -A: one pod name in two namespaces, each pod's transcript kept apart
# (probe/pods/NS/POD) and replayed to the same report.
FAKE_KUBECTL_PODS_DIR=$trees/fleet/two_namespaces \
	"$bin" nixl -A --deployment llm-disagg --kubectl "$kubectl" --bundle "$tmp/all-ns.tar.gz" \
	>"$tmp/a" 2>/dev/null
rca=$?
"$bin" nixl --replay "$tmp/all-ns.tar.gz" --kubectl /nonexistent >"$tmp/b" 2>/dev/null
[ $? = "$rca" ] && cmp -s "$tmp/a" "$tmp/b" || no "-A bundle: $(diff "$tmp/a" "$tmp/b" | head -5)"
tar tzf "$tmp/all-ns.tar.gz" | grep -qx probe/pods/team-b/llm-disagg-vllmdecodeworker-0 ||
	no "-A bundle: no probe/pods/team-b/... entry"
[ "$fail" = 0 ] && echo "bundle: ok"
exit "$fail"
