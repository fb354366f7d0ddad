#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Does a case's stdout hold its expected.lines, in order?

usage: match_lines.py EXPECTED_LINES STDOUT

EXPECTED_LINES is a golden case's expected.lines (the form is described in
tests/golden/run_golden.sh), STDOUT the case's stdout after the runner's
@ROOT@ substitution.  Every listed line must be a whole line of stdout, and
the listed lines must appear in the order they are listed (a subsequence of
stdout's lines: other lines may come between them).  The first line of the
file is '# ' and what the case is about; any other line starting with '#' is
a comment, a blank line is ignored, and a line starting with '\\' loses that
one backslash (so '\\# ...' asserts a stdout line that starts with '#').
When stdout holds a text report's verdict line ('verdict: ...'), the file
must list it.  Prints what is wrong (the first listed line not found, where
the search was and the closest line there) and exits 1; exits 0 when every
line is found.
"""
import difflib
import sys

SHOW_MAX = 150  # stdout lines shown under a failure


def load(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return [line.rstrip("\r\n").rstrip("\r") for line in f]


def wanted(lines):
    """([(file line number, stdout line)], [problems])"""
    problems = []
    if not lines or not lines[0].startswith("# ") or not lines[0][2:].strip():
        problems.append("expected.lines:1: the first line must be '# ' and what the case is about")
    out = []
    for n, line in enumerate(lines, 1):
        if line.startswith("#") or not line.strip():
            continue
        if line.startswith("\\"):
            line = line[1:]
        out.append((n, line))
    return out, problems


def show(actual, start):
    """The stdout lines from start on (numbered from 1), at most SHOW_MAX."""
    rows = ["--- actual stdout from line %d:" % (start + 1)]
    for i in range(start, min(len(actual), start + SHOW_MAX)):
        rows.append("%4d| %s" % (i + 1, actual[i]))
    if len(actual) > start + SHOW_MAX:
        rows.append("     ... %d more lines" % (len(actual) - start - SHOW_MAX))
    if start >= len(actual):
        rows.append("     (stdout ends at line %d)" % len(actual))
    return rows


def match(lines, actual):
    """Problems with actual (stdout's lines) against lines (expected.lines')."""
    want, problems = wanted(lines)
    if problems:
        return problems
    verdict = None
    for i, line in enumerate(actual):
        if line.startswith("verdict: "):
            verdict = i
    if not want:
        return ["expected.lines lists no stdout line (at least the verdict line, or what the case is about)"]
    pos = 0
    matched = set()
    prev = None
    for n, line in want:
        try:
            at = actual.index(line, pos)
        except ValueError:
            msg = ["expected.lines:%d: not in stdout%s: %r" %
                   (n, " after stdout line %d (expected.lines:%d)" % (pos, prev) if prev else "", line)]
            if line in actual[:pos]:
                msg.append("  it is at stdout line %d, before the line expected.lines:%d matched: "
                           "the lines are out of order" % (actual.index(line) + 1, prev))
            else:
                close = difflib.get_close_matches(line, actual[pos:], n=1, cutoff=0.6)
                if close:
                    k = actual.index(close[0], pos)
                    msg.append("  closest there: stdout line %d: %r" % (k + 1, close[0]))
                else:
                    msg.append("  no stdout line after it is like it")
            return msg + show(actual, pos)
        matched.add(at)
        pos = at + 1
        prev = n
    if verdict is not None and verdict not in matched:
        return ["expected.lines does not list the report's verdict line (every case lists it): %r" %
                actual[verdict]]
    return []


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: match_lines.py EXPECTED_LINES STDOUT")
    problems = match(load(sys.argv[1]), load(sys.argv[2]))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
