#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Issue 23: the formats hold against names built to break them.

1. Prometheus: two deployments whose names sanitise to the same text (a
   control byte, written \\x01, and the literal text \\x01) give two series,
   told apart, never one repeated series (node_exporter refuses the file)
   and never one dropped.
2. JUnit: U+FFFE, U+FFFF, a surrogate and broken UTF-8 in a name leave the
   report well-formed XML 1.0.
usage: check_hostile.py BINARY
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RECIPE = os.path.join(ROOT, "examples", "recipes", "llama-70b-disagg-ib", "deploy.yaml")


def recipe(path, name_yaml):
    text = open(RECIPE).read().replace("  name: llama70b-disagg-ib\n",
                                       "  name: %s\n" % name_yaml, 1)
    with open(path, "w") as f:
        f.write(text)


def main():
    binary = os.path.abspath(sys.argv[1])
    env = dict(os.environ, LC_ALL="C", NO_COLOR="1", SOURCE_DATE_EPOCH="1764547200")
    fails = []
    tmp = tempfile.mkdtemp(prefix="hostile.")
    try:
        d = os.path.join(tmp, "dup")
        os.mkdir(d)
        recipe(os.path.join(d, "a.yaml"), '"llm\\x01"')   # a control byte
        recipe(os.path.join(d, "b.yaml"), "'llm\\x01'")   # the text \x01
        p = subprocess.run([binary, "env", d, "--format", "prometheus"], env=env,
                           capture_output=True, timeout=60)
        seen, series = {}, 0
        for line in p.stdout.decode("utf-8", "replace").splitlines():
            if not line.startswith("check_interconnect_check_status{"):
                continue
            key = line.rsplit(" ", 1)[0]
            seen[key] = seen.get(key, 0) + 1
            series += 1
        dups = [k for k, v in seen.items() if v > 1]
        if dups:
            fails.append("prometheus: %d series repeated, e.g. %s" % (len(dups), dups[0][:200]))
        subjects = {k.split('subject="', 1)[1].split('"', 1)[0] for k in seen if 'subject="llm' in k}
        if len(subjects) < 2:
            fails.append("prometheus: the two deployments are not told apart: %s" % subjects)
        d = os.path.join(tmp, "xml")
        os.mkdir(d)
        # in a file name (YAML itself refuses U+FFFE in a value)
        name = b"c\xef\xbf\xbe\xef\xbf\xbf\xed\xa0\x80\xc3(\xf0\x9f\x98\x80.yaml"
        shutil.copy(RECIPE, os.path.join(os.fsencode(d), name))
        p = subprocess.run([binary, "env", d, "--format", "junit"], env=env,
                           capture_output=True, timeout=60)
        try:
            ET.fromstring(p.stdout)
        except ET.ParseError as e:
            fails.append("junit: not well-formed XML: %s" % e)
        if b"\xf0\x9f\x98\x80" not in p.stdout and b"llm" in p.stdout:
            fails.append("junit: a valid character (U+1F600) was not kept")
    finally:
        shutil.rmtree(tmp)
    for f in fails:
        print("FAIL: " + f)
    print("%d passed, %d failed" % (2 - min(2, len(fails)), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
