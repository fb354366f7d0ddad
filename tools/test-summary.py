#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Print the one summary line of `make test` from meson's test logs.

usage: test-summary.py [--extra NAME:RC]... BUILD_DIR...

Reads BUILD_DIR/meson-logs/testlog.json (one JSON object per test) of every
build dir given, lists the failed tests, and ends with exactly one line:
"N passed, N failed" (", N skipped" when some were skipped).  A build dir
without a test log (the build itself failed) counts as one failure.
--extra NAME:RC counts one more test (CI steps outside meson, such as the
fuzz run): passed when RC is 0, skipped when 77, else failed.
Exit status: 1 when anything failed, else 0.
"""
import json
import os
import sys

PASSED = {"OK", "EXPECTEDFAIL"}
SKIPPED = {"SKIP"}


def main(args):
    passed = failed = skipped = 0
    dirs = []
    while args:
        a = args.pop(0)
        if a == "--extra" and args:
            name, _, rc = args.pop(0).rpartition(":")
            if rc == "0":
                passed += 1
            elif rc == "77":
                skipped += 1
            else:
                failed += 1
                print("%s: exit %s" % (name, rc))
        else:
            dirs.append(a)
    for d in dirs:
        log = os.path.join(d, "meson-logs", "testlog.json")
        try:
            with open(log, encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
        except OSError:
            print("%s: no test log (did the build fail?)" % d)
            failed += 1
            continue
        for line in lines:
            line = line.strip()
            if not line:
                continue
            try:
                t = json.loads(line)
            except ValueError:
                continue
            result = t.get("result", "")
            if result in PASSED:
                passed += 1
            elif result in SKIPPED:
                skipped += 1
            else:
                failed += 1
                print("%s: %s %s" % (d, result or "?", t.get("name", "?")))
    line = "%d passed, %d failed" % (passed, failed)
    if skipped:
        line += ", %d skipped" % skipped
    print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
