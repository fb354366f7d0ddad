#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every check id the code can emit is described in docs/checks.md (the one
place the README points to).  The ids come from the check descriptor tables
(src/*/*_desc.c), printed by check_table_dump: every check is added through
a descriptor, so the tables are the whole list.  Every id a golden output
shows must be in a table too (a check added around the tables fails here),
and where docs/checks.md heads a check with "(critical ...)" or "(not
critical ...)" and a layer, the table must say the same.

usage: check_ids.py ROOT CHECK_TABLE_DUMP"""
import glob
import os
import re
import subprocess
import sys

root, dump = sys.argv[1], os.path.abspath(sys.argv[2])
os.chdir(root)
ID = r'[a-z0-9_]+(?:\.[a-z0-9_]+)+'
p = subprocess.run([dump], capture_output=True, text=True)
if p.returncode:
    print(p.stderr, end='')
    sys.exit(1)
table = {}
for line in p.stdout.splitlines():
    cid, layer, crit, _summary = line.split('\t')
    table[cid] = (layer, crit == 'critical')
if len(table) < 50:
    print('only %d check ids in the tables: the dump is broken' % len(table))
    sys.exit(1)

bad = 0
doc = open('docs/checks.md').read()
for cid in sorted(table):
    if '`' + cid + '`' not in doc:
        print('not in docs/checks.md: %s' % cid)
        bad += 1

golden = {}
for path in glob.glob('tests/golden/cases/**/expected.out', recursive=True):
    text = open(path, errors='replace').read()
    for m in re.finditer(r'"id": "(' + ID + ')"', text):
        golden.setdefault(m.group(1), path)
    for m in re.finditer(r'^\s*(?:ok|warn|fail|skipped)\s+(' + ID + r')\s', text, re.M):
        golden.setdefault(m.group(1), path)
for cid in sorted(golden):
    if cid not in table:
        print('in %s but in no descriptor table: %s' % (golden[cid], cid))
        bad += 1

# "#### `env.input` (not critical, layer environment)"
for m in re.finditer(r'^#### `(' + ID + r')` \(((?:not )?critical)(?:, layer (\w+))?\)', doc, re.M):
    cid, crit, layer = m.group(1), m.group(2) == 'critical', m.group(3)
    if cid not in table:
        continue
    if table[cid][1] != crit or (layer and table[cid][0] != layer):
        print('docs/checks.md says %s is %s%s; its descriptor: %s, layer %s' % (
            cid, m.group(2), ', layer ' + layer if layer else '',
            'critical' if table[cid][1] else 'not critical', table[cid][0]))
        bad += 1
print('%d check ids in the tables, %d in golden outputs, %d problems' % (
    len(table), len(golden), bad))
sys.exit(1 if bad else 0)
