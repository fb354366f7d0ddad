#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every check id the code emits or a golden output shows is described in
docs/checks.md (the one place the README points to).  Ids are gathered from
the literal ids passed to report_add() in src/ and from every golden output
(JSON "id" fields and text check lines), so ids built at run time, such as
node.env.ucx.tls from the shared value rules, are covered too."""
import glob
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
os.chdir(root)
ID = r'[a-z0-9_]+(?:\.[a-z0-9_]+)+'
ids = {}
for path in glob.glob('src/**/*.c', recursive=True):
    for m in re.finditer(r'report_add\(\s*[^,]+,\s*"(' + ID + ')"', open(path).read()):
        ids.setdefault(m.group(1), path)
for path in glob.glob('tests/golden/cases/**/expected.out', recursive=True):
    text = open(path, errors='replace').read()
    for m in re.finditer(r'"id": "(' + ID + ')"', text):
        ids.setdefault(m.group(1), path)
    for m in re.finditer(r'^\s*(?:ok|warn|fail|skipped)\s+(' + ID + r')\s', text, re.M):
        ids.setdefault(m.group(1), path)
doc = open('docs/checks.md').read()
missing = sorted(i for i in ids if '`' + i + '`' not in doc)
if len(ids) < 50:
    print('only %d check ids found: the scan is broken' % len(ids))
    sys.exit(1)
for i in missing:
    print('not in docs/checks.md: %s (used in %s)' % (i, ids[i]))
print('%d check ids, %d undocumented' % (len(ids), len(missing)))
sys.exit(1 if missing else 0)
