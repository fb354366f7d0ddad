#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Does a run's JSON report say what its text report says, and no more?

usage: same_run.py TEXT JSON

TEXT is a golden's expected.out (the text report; for an expected.lines case
the text run's stdout), JSON the --json report of
the same argv (tests/golden/run_golden.sh runs it for the cases listed in
tests/golden/json-twins, after validating it against the schema).  Every
fact of the JSON must be in the text: the verdict (status, exit code,
summary, fix-first order), the counts, each check's status, id, detail and
fix (in the text's order), each evidence line, setting and next step.  The
text wraps at spaces, so the text is compared with its whitespace collapsed.
Static descriptor fields (critical, layer) and the stamp are not facts of
the run.  Prints one line per difference; exit 1 if there is any.
"""
import json
import re
import sys

STATUSES = ("ok", "warn", "fail", "skipped")


def flat(s):
    return " ".join(s.split())


def check_blocks(lines):
    """[(status, id, flattened block text)] in the text's order."""
    out = []
    for line in lines:
        m = re.match(r"^ {2,}(ok|warn|fail|skipped) +([a-z][a-z0-9_.-]*)(?: |$)(.*)$", line)
        if m and "." in m.group(2):
            out.append([m.group(1), m.group(2), m.group(3)])
        elif out and out[-1] and line.startswith("    ") and line.strip():
            out[-1][2] += " " + line.strip()
        elif out and out[-1] and not line.startswith("    "):
            out.append(None)
    return [tuple(b[:2]) + (flat(b[2]),) for b in out if b]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: same_run.py TEXT JSON")
    with open(sys.argv[1]) as f:
        text = f.read()
    with open(sys.argv[2]) as f:
        rep = json.load(f)
    whole = flat(text)
    bad = []
    blocks = check_blocks(text.splitlines())
    checks = rep.get("checks", [])
    got = [(b[0], b[1]) for b in blocks]
    want = [(c["status"], c["id"]) for c in checks]
    if got != want:
        bad.append("checks differ: text %s, JSON %s" % (got, want))
    for c, b in zip(checks, blocks):
        for what in ("detail", "fix"):
            v = c.get(what)
            if v and flat(v) not in b[2]:
                bad.append("%s: the JSON %s is not in the text: %r" % (c["id"], what, v))
        for e in c.get("evidence") or []:
            if flat(e) not in b[2]:
                bad.append("%s: the JSON evidence is not in the text: %r" % (c["id"], e))
    for s in rep.get("settings", []):
        for part in (s["name"] + "=" + s["value"], s.get("source") or ""):
            if flat(part) not in whole:
                bad.append("setting %s: %r is not in the text" % (s["name"], part))
    for n in rep.get("next_steps", []):
        for v in [n] if isinstance(n, str) else [x for x in n.values() if isinstance(x, str)]:
            if flat(v) not in whole:
                bad.append("next step not in the text: %r" % v)
    if rep.get("pods"):
        bad.append("the JSON holds %d per-pod reports the text does not" % len(rep["pods"]))
    if rep.get("live"):
        bad.append("the JSON holds a live section the text may not")
    counts = rep.get("counts", {})
    line = ", ".join("%d %s" % (counts.get(k, 0), k) for k in STATUSES)
    if line not in whole:
        bad.append("counts %r are not in the text" % line)
    v = rep.get("verdict", {})
    m = re.search(r"^verdict: (\w+) \(([^)]*)exit (\d+)\)$", text, re.M)
    if not m or m.group(1) != v.get("status") or int(m.group(3)) != v.get("exit_code"):
        bad.append("verdict differs: text %r, JSON %s exit %s" %
                   (m.group(0) if m else None, v.get("status"), v.get("exit_code")))
    if v.get("summary") and flat(v["summary"]) not in whole:
        bad.append("verdict summary is not in the text: %r" % v["summary"])
    ff = v.get("fix_first") or []
    pos = [whole.find(i) for i in ff]
    if ff and (min(pos) < 0):
        bad.append("fix-first %s not all in the text" % ff)
    for line in bad:
        print("same_run: " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
