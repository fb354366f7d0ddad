#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Share of a program's instructions spent in one source file's functions.

    callgrind_share.py CALLGRIND_OUT FILE_SUFFIX

Reads a callgrind output (one event: Ir) and sums the inclusive cost of
every call made from a function outside FILE_SUFFIX (say core/redact.c) to
a function inside it, so nested calls inside the file are counted once and
what the file's functions call (strlen, toupper) is counted with them.
Prints "IR_IN_FILE TOTAL_IR PERCENT".
"""
import re
import sys


def main():
    path, suffix = sys.argv[1], sys.argv[2]
    names = {"fl": {}, "fn": {}}
    fn_file = {}
    total = None
    cur_fl = cur_fn = None
    call_fl = call_fn = None
    pending = False  # the next cost line is a call's inclusive cost
    inside = 0
    comp = re.compile(r"^\((\d+)\)(?: (.*))?$")

    def name(kind, text):
        m = comp.match(text)
        if not m:
            return text
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), text)

    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if line.startswith(("fl=", "fi=", "fe=")):
                f = name("fl", line[3:])
                if line.startswith("fl="):
                    cur_fl = f
            elif line.startswith("fn="):
                cur_fn = name("fn", line[3:])
                fn_file.setdefault(cur_fn, cur_fl)
            elif line.startswith(("cfl=", "cfi=")):
                call_fl = name("fl", line[4:])
            elif line.startswith("cfn="):
                call_fn = name("fn", line[4:])
            elif line.startswith("calls="):
                pending = True
            elif line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
            elif pending and line and (line[0].isdigit() or line[0] in "+-*"):
                pending = False
                cost = int(line.split()[1]) if len(line.split()) > 1 else 0
                callee = call_fl or fn_file.get(call_fn) or cur_fl
                if (callee or "").endswith(suffix) and not (cur_fl or "").endswith(suffix):
                    inside += cost
                call_fl = None
    if not total:
        print("nan nan nan")
        return
    print("%d %d %.1f" % (inside, total, 100.0 * inside / total))


main()
