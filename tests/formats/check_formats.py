#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The machine formats, read the way their consumers read them.

usage: check_formats.py BINARY

- prometheus: parsed by a strict reader of the text exposition format
  (what node_exporter's textfile collector accepts): HELP/TYPE before the
  samples of a family, metric and label names, label escaping, float
  values, no series twice.
- junit: well-formed XML (xml.etree), testsuite counts that add up.
- sarif: SARIF 2.1.0 against the vendored OASIS schema (tests/sarif/).
- --output: the file holds what stdout would, is replaced atomically, and
  no temporary file is left behind, even when the write fails.
Each over the example recipe, a fleet run, node replays and a manifest whose
names hold quotes, backslashes, a newline, XML metacharacters and an escape.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.abspath(sys.argv[1])
FAILS = []
# the fake clusters, built at test time (tests/fixtures/fleet/clusters.py)
FLEET = subprocess.run([sys.executable, os.path.join(ROOT, "tests/fixtures/trees.py")], check=True,
                       capture_output=True, text=True).stdout.strip() + "/fleet"

RUNS = [
    ("env-example", ["env", "examples/recipes/llama-70b-disagg-ib"], {}),
    ("env-hostile", ["env", "tests/fixtures/formats/hostile-names.yaml"], {}),
    ("env-invalid", ["env", "tests/fixtures/env/bad/invalid-next-to-valid"], {}),
    ("node-h100", ["node", "--replay", "tests/fixtures/node/transcripts/h100_ib.txt"], {}),
    ("node-ci-host", ["node", "--replay", "tests/fixtures/node/transcripts/ci_host.txt"], {}),
    ("fleet-port-down", ["node", "--deployment", "llm-disagg", "-n", "dynamo", "--kubectl",
                         "tests/fakes/kubectl"],
     {"FAKE_KUBECTL_PODS_DIR": os.path.join(FLEET, "port_down")}),
]


def fail(what, msg):
    FAILS.append("%s: %s" % (what, msg))


def run(args, extra_env):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "NO_COLOR": "1",
           "SOURCE_DATE_EPOCH": "1764547200", "HOME": tempfile.gettempdir()}
    env.update(extra_env)
    for v in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if v in os.environ:
            env[v] = os.environ[v]
    p = subprocess.run([BIN] + args, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout, p.stderr


# --- Prometheus text format 0.0.4 -------------------------------------------
METRIC = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


def parse_labels(s, i, what):
    """s[i] is just past '{'; returns (labels, index past '}')."""
    labels = {}
    while True:
        if s[i] == "}":
            return labels, i + 1
        m = LABEL.match(s, i)
        if not m:
            raise ValueError("bad label name at %r" % s[i:i + 20])
        name = m.group(0)
        if name.startswith("__"):
            raise ValueError("reserved label name %s" % name)
        i = m.end()
        if s[i:i + 2] != '="':
            raise ValueError("label %s: expected =\"" % name)
        i += 2
        val = []
        while True:
            c = s[i]
            if c == "\\":
                n = s[i + 1]
                if n not in "\\\"n":
                    raise ValueError("label %s: bad escape \\%s" % (name, n))
                val.append({"\\": "\\", '"': '"', "n": "\n"}[n])
                i += 2
            elif c == '"':
                i += 1
                break
            elif c == "\n":
                raise ValueError("label %s: raw newline" % name)
            else:
                val.append(c)
                i += 1
        if name in labels:
            raise ValueError("label %s twice" % name)
        labels[name] = "".join(val)
        if s[i] == ",":
            i += 1
        elif s[i] != "}":
            raise ValueError("after label %s: %r" % (name, s[i]))


def parse_prometheus(text):
    if not text.endswith("\n"):
        raise ValueError("no final newline")
    families, series = {}, set()
    for n, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            kind, rest = line[2:6], line[7:]
            name, _, val = rest.partition(" ")
            if not METRIC.fullmatch(name):
                raise ValueError("line %d: bad metric name %r" % (n, name))
            fam = families.setdefault(name, {"samples": 0})
            if kind in fam:
                raise ValueError("line %d: second %s for %s" % (n, kind, name))
            if fam["samples"]:
                raise ValueError("line %d: %s after samples of %s" % (n, kind, name))
            if kind == "TYPE" and val not in ("gauge", "counter", "untyped", "summary",
                                              "histogram"):
                raise ValueError("line %d: type %r" % (n, val))
            fam[kind] = val
            continue
        if line.startswith("#") or not line:
            raise ValueError("line %d: stray %r" % (n, line[:40]))
        m = METRIC.match(line)
        if not m:
            raise ValueError("line %d: no metric name" % n)
        name, i, labels = m.group(0), m.end(), {}
        if line[i:i + 1] == "{":
            labels, i = parse_labels(line, i + 1, name)
        if line[i:i + 1] != " ":
            raise ValueError("line %d: no space before the value" % n)
        float(line[i + 1:].split(" ")[0])
        fam = families.get(name)
        if not fam or "HELP" not in fam or "TYPE" not in fam:
            raise ValueError("line %d: %s without HELP and TYPE first" % (n, name))
        if not name.startswith("check_interconnect_"):
            raise ValueError("line %d: %s lacks the check_interconnect_ prefix" % (n, name))
        key = (name, tuple(sorted(labels.items())))
        if key in series:
            raise ValueError("line %d: series repeated: %s" % (n, key))
        series.add(key)
        fam["samples"] += 1
        fam.setdefault("rows", []).append((labels, float(line[i + 1:])))
    return families


def check_prometheus(what, rc, out):
    try:
        fams = parse_prometheus(out.decode("utf-8"))
    except (ValueError, IndexError, UnicodeDecodeError) as e:
        return fail(what, "prometheus: %s" % e)
    for need in ("check_interconnect_verdict", "check_interconnect_checks",
                 "check_interconnect_check_status",
                 "check_interconnect_last_run_timestamp_seconds"):
        if need not in fams:
            fail(what, "prometheus: no %s" % need)
    verdict = fams["check_interconnect_verdict"]["rows"][0][1]
    if int(verdict) != rc:
        fail(what, "prometheus: verdict %s but exit %d" % (verdict, rc))
    ts = fams["check_interconnect_last_run_timestamp_seconds"]["rows"][0][1]
    if ts != 1764547200:
        fail(what, "prometheus: timestamp %s ignores SOURCE_DATE_EPOCH" % ts)
    # The state set: exactly one status is 1 per check series.
    per = {}
    for labels, val in fams.get("check_interconnect_check_status", {}).get("rows", []):
        k = tuple(sorted((a, b) for a, b in labels.items() if a != "status"))
        per[k] = per.get(k, 0) + val
    if any(v != 1 for v in per.values()):
        fail(what, "prometheus: a check whose statuses do not sum to 1")


def check_junit(what, out):
    try:
        root = ET.fromstring(out)
    except ET.ParseError as e:
        return fail(what, "junit: not well-formed: %s" % e)
    if root.tag != "testsuites":
        return fail(what, "junit: root is %s" % root.tag)
    total = [0, 0, 0]
    for s in root.findall("testsuite"):
        cases = s.findall("testcase")
        fails = sum(1 for c in cases if c.find("failure") is not None)
        errors = sum(1 for c in cases if c.find("error") is not None)
        skips = sum(1 for c in cases if c.find("skipped") is not None)
        if (int(s.get("tests")), int(s.get("failures")), int(s.get("errors")),
                int(s.get("skipped"))) != (len(cases), fails, errors, skips):
            fail(what, "junit: suite %r counts do not match its testcases" % s.get("name"))
        total = [total[0] + len(cases), total[1] + fails, total[2] + errors]
    # junit-10.xsd gives <testsuites> no skipped count
    if root.get("skipped") is not None:
        fail(what, "junit: <testsuites> has a skipped attribute")
    if [int(root.get(k)) for k in ("tests", "failures", "errors")] != total:
        fail(what, "junit: <testsuites> counts do not add up")


def check_sarif(what, out, validator):
    try:
        doc = json.loads(out)
    except ValueError as e:
        return fail(what, "sarif: not JSON: %s" % e)
    if validator is not None:
        errs = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errs[:5]:
            fail(what, "sarif: %s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:200]))
    run0 = doc["runs"][0]
    rules = [r["id"] for r in run0["tool"]["driver"]["rules"]]
    # Each rule says where its truth comes from: its descriptor's source,
    # in properties and in the help people read.
    for r in run0["tool"]["driver"]["rules"]:
        src = r.get("properties", {}).get("source")
        if not src:
            fail(what, "sarif: rule %s has no properties.source" % r["id"])
        elif src not in r.get("help", {}).get("text", ""):
            fail(what, "sarif: rule %s's help does not name its source %s" % (r["id"], src))
    for res in run0["results"]:
        if rules[res["ruleIndex"]] != res["ruleId"]:
            fail(what, "sarif: ruleIndex does not point at ruleId %s" % res["ruleId"])


def check_output_file(what, args, env, expected):
    with tempfile.TemporaryDirectory() as d:
        target = os.path.join(d, "check_interconnect.prom")
        with open(target, "w") as f:
            f.write("old\n")
        rc, out, err = run(["--format", "prometheus", "--output", target] + args, env)
        if out:
            fail(what, "--output: stdout not empty")
        with open(target, "rb") as f:
            if f.read() != expected:
                fail(what, "--output: file differs from what stdout gets")
        if sorted(os.listdir(d)) != ["check_interconnect.prom"]:
            fail(what, "--output: left %s" % os.listdir(d))
        if os.stat(target).st_mode & 0o777 == 0o600:
            fail(what, "--output: mode 0600 (the temporary file's), not the umask's")
        rc, out, err = run(["--format", "prometheus", "--output",
                            os.path.join(d, "missing", "x.prom")] + args, env)
        if rc != 74 or b"cannot write" not in err:
            fail(what, "--output into a missing folder: exit %d, %r" % (rc, err[:200]))


def main():
    validator = None
    try:
        import jsonschema
        with open(os.path.join(ROOT, "tests", "sarif", "sarif-schema-2.1.0.json")) as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        validator = cls(schema)
    except ImportError:
        print("python3-jsonschema missing: SARIF parsed, not validated", file=sys.stderr)
    for what, args, env in RUNS:
        rc, out, err = run(["--format", "prometheus"] + args, env)
        check_prometheus(what, rc, out)
        check_output_file(what, args, env, out)
        rc, out, err = run(["--format", "junit"] + args, env)
        check_junit(what, out)
        rc, out, err = run(["--format", "sarif"] + args, env)
        check_sarif(what, out, validator)
    for f in FAILS:
        print("FAIL", f)
    print("formats: %d runs, %d problems" % (len(RUNS), len(FAILS)))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
