#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Golden CLI tests.  usage: run_golden.sh [DIR...]   (default: tests/golden/cases)
#
# A case is any directory under DIR that holds an `args` file:
#   args          one argv element per line (the binary is prepended); @CASE@
#                 becomes the case directory relative to the repo root, @ROOT@
#                 the absolute repo root, @TREES@ the generated sysroot trees
#                 (tests/fixtures/trees.py builds them first: @TREES@/node/X,
#                 @TREES@/nixl/X, @TREES@/live/X), relative to the repo root
#   expected.out  exact stdout           expected.rc   exit code
#   expected.lines  instead of expected.out (never both): the lines stdout
#                 must hold, in this order, each a whole stdout line (exact,
#                 after the @ROOT@ substitution; other lines may come between
#                 them).  For a case about some checks, not the whole report:
#                 it lists those checks' lines, the verdict line and their
#                 fix-first entries, so that a check added elsewhere does not
#                 rewrite it.  Line 1 is '# ' and what the case is about
#                 (required); any other '#' line is a comment, a blank line is
#                 ignored, a leading '\' is dropped ('\#' asserts a line that
#                 starts with '#').  When stdout holds a verdict line
#                 ('verdict: ...'), expected.lines must list it; expected.rc
#                 is still required.  A failure names the first listed line
#                 not found, the closest stdout line and the stdout from where
#                 the search was (tests/golden/match_lines.py)
#   expected.err  exact stderr (optional; stderr is not compared without it)
#   env           optional KEY=VALUE lines; @ROOT@ = absolute repo root,
#                 @CASE@ = absolute case directory, @TREES@ = the trees'
#                 absolute path; '#' lines are comments
#   bin/          optional stub tools, prepended to PATH
#   stdout        optional: one line naming where stdout goes instead (e.g.
#                 /dev/full, to test write errors); expected.out is then empty
#   stdin         optional file given as standard input (else /dev/null)
#   json          optional, empty: the case's argv runs a second time with
#                 --json added; that report must validate against the schema,
#                 exit as expected.rc says and hold no fact that expected.out
#                 (for an expected.lines case: the text run's stdout) does
#                 not (tests/golden/same_run.py: every check's status, id,
#                 detail, fix and evidence, the settings, next steps,
#                 counts and verdict).  It replaces a JSON golden that would
#                 only repeat the text one (a -v text case shows the evidence
#                 and settings too)
#   via           optional: one line naming a skill entry script of this repo
#                 (scripts/check_interconnect.py, run with python3, or
#                 scripts/check_interconnect, run with sh) that runs the
#                 binary instead of the runner: the script is copied into a
#                 skill root of its own whose build/check_interconnect is the
#                 binary under test, so that both the script and $CI_BIN are
#                 what is tested; that root becomes @SKILL@ in the outputs
# Every case runs from the repo root with a clean environment (LC_ALL=C,
# NO_COLOR=1, SOURCE_DATE_EPOCH=1764547200, COLUMNS=80, stdin /dev/null
# unless the case has a stdin file,
# not a tty).  The absolute repo root in
# stdout/stderr is replaced by @ROOT@ before comparing, so goldens hold no
# machine-specific paths.  Any stdout that parses as JSON is validated against
# schema/check_interconnect.schema.json (schema/vars.schema.json for `vars`,
# tests/sarif/sarif-schema-2.1.0.json for SARIF);
# a --json case that exits 0-3 must print JSON.
#
# UPDATE_GOLDEN=1 rewrites expected.out/expected.rc (and expected.err where it
# exists).  READ every file it rewrites.  It never rewrites an expected.lines
# case (not its expected.rc or expected.err either): that case is still judged,
# and its lines are edited by hand.  Binary: $CI_BIN, else
# build/check_interconnect.  GOLDEN_JOBS cases run at once (CPU count),
# each under GOLDEN_TIMEOUT seconds (60).  A sanitizer report on stderr fails
# a case.  Exit 0 all ok, 1 any failure, 77 no cases.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${CI_BIN:-$root/build/check_interconnect}
case "$bin" in /*) ;; *) bin=$root/$bin ;; esac
update=${UPDATE_GOLDEN:-0}
case_timeout=${GOLDEN_TIMEOUT:-60}

if [ "$#" -eq 0 ]; then
	set -- "$here/cases"
fi
if [ ! -x "$bin" ]; then
	echo "run_golden: $bin is not built (set CI_BIN or run make)" >&2
	exit 1
fi

# The sysroot trees are built at test time, not committed.  CI_TREES moves
# them, but their path shows in outputs: the goldens expect the default.
trees=$(python3 "$root/tests/fixtures/trees.py") || {
	echo "run_golden: tests/fixtures/trees.py could not build the sysroot trees" >&2
	exit 1
}

cases=()
for d in "$@"; do
	d=$(cd "$d" 2>/dev/null && pwd) || continue
	while IFS= read -r f; do
		cases+=("$(dirname "$f")")
	done < <(find "$d" -name args -type f -not -path '*/bin/*' | LC_ALL=C sort)
done
if [ "${#cases[@]}" -eq 0 ]; then
	echo "run_golden: no cases in $*"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

have_jsonschema=0
if python3 -c 'import jsonschema' 2>/dev/null; then
	have_jsonschema=1
else
	echo "run_golden: python3-jsonschema not installed: JSON is parsed but not validated" >&2
fi

# Pass the sanitizers' settings through the clean environment.
passthru=()
for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS MSAN_OPTIONS TMPDIR; do
	if [ -n "${!v:-}" ]; then
		passthru+=("$v=${!v}")
	fi
done

relpath() { # path relative to the repo root
	case "$1" in "$root"/*) printf '%s\n' "${1#"$root"/}" ;; *) printf '%s\n' "$1" ;; esac
}
trees_rel=$(relpath "$trees")

is_json_case() { # argv...
	local a prev=
	for a in "$@"; do
		case "$a" in --json | --format=json) return 0 ;; esac
		if [ "$prev" = --format ] && [ "$a" = json ]; then return 0; fi
		prev=$a
	done
	return 1
}

run_case() { # index case-dir: run one case into $tmp/<index>/
	local i=$1 c=$2 rel name w line
	local -a argv envv
	rel=$(relpath "$c")
	name=${rel#tests/golden/cases/}
	w=$tmp/$i
	mkdir -p "$w"
	printf '%s\n' "$name" >"$w/name"
	printf '%s\n' "$c" >"$w/dir"

	argv=()
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		line=${line//@ROOT@/$root}
		line=${line//@TREES@/$trees_rel}
		argv+=("${line//@CASE@/$rel}")
	done <"$c/args"

	# SOURCE_DATE_EPOCH: reports carry a stable stamp (JSON generated_at,
	# the Prometheus timestamp); COLUMNS=80: text wraps as on an 80-column
	# terminal whatever the terminal running the tests.
	envv=("PATH=$PATH" "HOME=$tmp/home" "LC_ALL=C" "NO_COLOR=1" "SOURCE_DATE_EPOCH=1764547200"
		"COLUMNS=80" "${passthru[@]}")
	if [ -d "$c/bin" ]; then
		envv[0]="PATH=$c/bin:$PATH"
	fi
	if [ -f "$c/env" ]; then
		while IFS= read -r line || [ -n "$line" ]; do
			line=${line%$'\r'}
			case "$line" in '' | '#'*) continue ;; esac
			line=${line//@ROOT@/$root}
			line=${line//@TREES@/$trees}
			line=${line//@CASE@/$c}
			case "$line" in PATH=*) envv[0]=$line ;; *) envv+=("$line") ;; esac
		done <"$c/env"
	fi

	local stdout_to=$w/out
	: >"$w/out"
	if [ -f "$c/stdout" ]; then
		IFS= read -r stdout_to <"$c/stdout" || true
	fi
	local input=/dev/null
	if [ -f "$c/stdin" ]; then input=$c/stdin; fi
	local -a run=("$bin")
	if [ -f "$c/via" ]; then
		local via
		IFS= read -r via <"$c/via" || true
		mkdir -p "$w/skill/$(dirname "$via")" "$w/skill/build"
		cp "$root/$via" "$w/skill/$via"
		ln -s "$bin" "$w/skill/build/check_interconnect"
		case $via in
		*.py) run=(python3 "$w/skill/$via") ;;
		*) run=(sh "$w/skill/$via") ;;
		esac
	fi
	(cd "$root" && exec env -i "${envv[@]}" timeout -k 5 "$case_timeout" \
		"${run[@]}" "${argv[@]}" <"$input" >"$stdout_to" 2>"$w/err")
	echo $? >"$w/rc"
	sed -i -e "s|$w/skill|@SKILL@|g" -e "s|$root|@ROOT@|g" "$w/out" "$w/err"
	if [ -f "$c/json" ]; then # the same run as JSON (see `json` above)
		(cd "$root" && exec env -i "${envv[@]}" timeout -k 5 "$case_timeout" \
			"${run[@]}" "${argv[@]}" --json <"$input" >"$w/json.out" 2>"$w/json.err")
		echo $? >"$w/json.rc"
		sed -i -e "s|$w/skill|@SKILL@|g" -e "s|$root|@ROOT@|g" "$w/json.out"
	fi
	if is_json_case "${argv[@]}"; then touch "$w/json_required"; fi
}

# Cases run in parallel (GOLDEN_JOBS, default: the CPU count); the report
# below is still in case order.
jobs_max=${GOLDEN_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
mkdir -p "$tmp/home"
n=0
for c in "${cases[@]}"; do
	n=$((n + 1))
	run_case "$n" "$c" &
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n
	done
done
wait

# One python run validates every case's JSON (startup dominates otherwise).
python3 - "$tmp" "$root/schema" "$have_jsonschema" "$root/tests/sarif" <<'PY'
import json, os, sys
tmp, schema_dir, have, sarif_dir = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4]
validators = {}
if have:
    import jsonschema
    for key, path in (("main", os.path.join(schema_dir, "check_interconnect.schema.json")),
                      ("vars", os.path.join(schema_dir, "vars.schema.json")),
                      ("sarif", os.path.join(sarif_dir, "sarif-schema-2.1.0.json"))):
        try:
            with open(path) as f:
                schema = json.load(f)
            cls = jsonschema.validators.validator_for(schema)
            cls.check_schema(schema)
            validators[key] = cls(schema)
        except Exception as e:  # a broken schema fails every JSON case
            validators[key] = e
def check_json(w, out_name, rc_name, required):
    problems = []
    with open(os.path.join(w, out_name), "rb") as f:
        raw = f.read()
    rc = int(open(os.path.join(w, rc_name)).read().strip() or -1)
    doc = None
    text = raw.decode("utf-8", "replace").strip()
    if text[:1] in ("{", "["):
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            problems.append("stdout looks like JSON but does not parse: %s" % e)
    if doc is None and (required or os.path.exists(os.path.join(w, "json_required"))) and 0 <= rc <= 3 and not problems:
        problems.append("--json case exited %d without JSON on stdout" % rc)
    if doc is not None and have:
        key = "main"
        if isinstance(doc, dict) and doc.get("schema") == "check_interconnect/vars/v1":
            key = "vars"
        elif isinstance(doc, dict) and doc.get("version") == "2.1.0" and "runs" in doc:
            key = "sarif"  # --format sarif: the OASIS schema (tests/sarif/)
        v = validators.get(key)
        if isinstance(v, Exception):
            problems.append("schema %s unusable: %s" % (key, v))
        elif v is not None:
            seen = []
            for err in sorted(v.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path]):
                loc = "/".join(str(p) for p in err.absolute_path) or "(root)"
                msg = "schema: %s: %s" % (loc, err.message[:300])
                if msg not in seen:
                    seen.append(msg)
            problems.extend(seen[:12])
    return ["%s: %s" % (out_name, p) for p in problems] if out_name != "out" else problems


for n in sorted(os.listdir(tmp), key=lambda s: (len(s), s)):
    w = os.path.join(tmp, n)
    if not os.path.isfile(os.path.join(w, "rc")):
        continue
    problems = []
    for out_name, rc_name in (("out", "rc"), ("json.out", "json.rc")):
        if os.path.isfile(os.path.join(w, rc_name)):
            problems += check_json(w, out_name, rc_name, out_name == "json.out")
    if problems:
        with open(os.path.join(w, "json_problems"), "w") as f:
            f.write("\n".join(problems) + "\n")
PY

failed=0
passed=0
for ((i = 1; i <= n; i++)); do
	w=$tmp/$i
	name=$(cat "$w/name")
	c=$(cat "$w/dir")
	bad=0
	report=$w/report
	: >"$report"
	lines=0
	if [ -f "$c/expected.lines" ]; then lines=1; fi
	if [ "$update" = 1 ] && [ "$lines" = 0 ]; then
		cp "$w/out" "$c/expected.out"
		cp "$w/rc" "$c/expected.rc"
		if [ -f "$c/expected.err" ]; then cp "$w/err" "$c/expected.err"; fi
	fi
	if [ "$lines" = 1 ] && [ -f "$c/expected.out" ]; then
		echo "both expected.out and expected.lines: a case has one of them" >>"$report"
		bad=1
	elif [ "$lines" = 0 ] && { [ ! -f "$c/expected.out" ] || [ ! -f "$c/expected.rc" ]; }; then
		echo "missing expected.out or expected.rc (run with UPDATE_GOLDEN=1, then read them)" >>"$report"
		bad=1
	elif [ ! -f "$c/expected.rc" ]; then
		echo "missing expected.rc (an expected.lines case writes it by hand)" >>"$report"
		bad=1
	else
		if [ "$lines" = 1 ]; then
			if ! python3 "$here/match_lines.py" "$c/expected.lines" "$w/out" >>"$report" 2>&1; then
				bad=1
			fi
		elif ! diff -u --label "$name/expected.out" --label "$name/actual stdout" \
			"$c/expected.out" "$w/out" >>"$report"; then bad=1; fi
		exp_rc=$(tr -d ' \r\n' <"$c/expected.rc")
		act_rc=$(cat "$w/rc")
		if [ "$exp_rc" != "$act_rc" ]; then
			echo "exit code: expected $exp_rc, got $act_rc" >>"$report"
			bad=1
		fi
		if [ -f "$c/expected.err" ] && ! diff -u --label "$name/expected.err" \
			--label "$name/actual stderr" "$c/expected.err" "$w/err" >>"$report"; then
			bad=1
		fi
	fi
	if [ -f "$w/json.rc" ]; then
		if [ "$(cat "$w/json.rc")" != "$(tr -d ' \r\n' <"$c/expected.rc" 2>/dev/null)" ]; then
			echo "json: the --json run exited $(cat "$w/json.rc"), expected.rc says otherwise" >>"$report"
			bad=1
		fi
		text=$c/expected.out
		if [ "$lines" = 1 ]; then text=$w/out; fi
		if [ -s "$w/json.out" ] && ! python3 "$here/same_run.py" "$text" "$w/json.out" >>"$report" 2>&1; then
			bad=1
		fi
		if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer' "$w/json.err"; then
			echo "json: sanitizer report on stderr" >>"$report"
			bad=1
		fi
	fi
	if [ -f "$w/json_problems" ]; then
		cat "$w/json_problems" >>"$report"
		bad=1
	fi
	case $(cat "$w/rc") in
	124 | 137)
		echo "timed out (limit ${case_timeout}s; GOLDEN_TIMEOUT changes it)" >>"$report"
		bad=1
		;;
	esac
	# A sanitizer report fails the case even when stdout and rc still match.
	if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer' "$w/err"; then
		echo "sanitizer report on stderr" >>"$report"
		bad=1
	fi
	if [ "$bad" = 0 ]; then
		echo "ok $name"
		passed=$((passed + 1))
	else
		echo "FAIL $name"
		if [ ! -f "$c/expected.err" ] && [ -s "$w/err" ]; then
			{ echo "--- stderr (not compared):"; head -c 4000 "$w/err"; } >>"$report"
		fi
		sed 's/^/    /' "$report"
		failed=$((failed + 1))
	fi
done
echo "golden: $passed ok, $failed failed"
[ "$failed" = 0 ]
