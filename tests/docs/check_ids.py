#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every check id the code can emit is described in docs/checks.md (the one
place the README points to).  The ids come from the check descriptor tables
(src/*/*_desc.c), printed by check_table_dump: every check is added through
a descriptor, so the tables are the whole list.  Every id a golden output
shows must be in a table too (a check added around the tables fails here),
and where docs/checks.md heads a check with "(critical ...)" or "(not
critical ...)" and a layer, the table must say the same.  Every descriptor
names its source (where the rule's truth comes from), and a docs entry of
its id (its "####" section, or a table row whose first cell names it, read
as tools/check_docs.py reads them for SARIF) holds that string, compared as
plain text (markdown and line breaks aside).

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
sources = {}
for line in p.stdout.splitlines():
    cid, layer, crit, _summary, source = line.split('\t')
    table[cid] = (layer, crit == 'critical')
    sources[cid] = source
if len(table) < 50:
    print('only %d check ids in the tables: the dump is broken' % len(table))
    sys.exit(1)

bad = 0
doc = open('docs/checks.md').read()
for cid in sorted(table):
    if '`' + cid + '`' not in doc:
        print('not in docs/checks.md: %s' % cid)
        bad += 1

sys.path.insert(0, 'tools')
import check_docs  # noqa: E402

entries = check_docs.parse_all(doc)
for cid in sorted(table):
    want = check_docs.plain(sources[cid])
    texts = [text for _anchor, text in entries.get(cid, [])]
    if not texts:
        print('docs/checks.md has no "####" section or table row for %s' % cid)
        bad += 1
    elif not any(want in text for text in texts):
        print('docs/checks.md entry of %s does not cite its descriptor\'s source: %s' % (
            cid, sources[cid]))
        bad += 1

golden = {}
for path in sorted(glob.glob('tests/golden/cases/**/expected.out', recursive=True) +
                   glob.glob('tests/golden/cases/**/expected.lines', recursive=True)):
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

# The tables of the node, nixl, fleet, all and live sections: each row's
# header cells say what its descriptor says.  node and live rows:
# "`node.efa` (FABRIC, critical)": the layer, and ", critical" exactly when
# the descriptor is critical ("; critical when failing" is one finding's
# exception, report_check_as(), so the descriptor is not critical); nixl
# rows: the "critical" column's first word, yes or no; fleet, all and live
# rows: the status column names "critical" exactly when the descriptor is.
LAYERS = {'FABRIC': 'fabric', 'DRIVER': 'driver', 'ENV': 'environment', 'TUNING': 'tuning'}
ROW = re.compile(r'^\| `(' + ID + r')`(?: \(([^)]*)\))? \|([^|]*)\|')
described = set()


def doc_mismatch(cid, what, doc_says):
    global bad
    layer, crit = table[cid]
    print('docs/checks.md %s row says %s %s; its descriptor: %s, layer %s' % (
        what, cid, doc_says, 'critical' if crit else 'not critical', layer))
    bad += 1


kind = None
for line in doc.splitlines():
    if line.startswith('| id |'):
        cols = [c.strip() for c in line.strip('|').split('|')]
        kind = {'reads': 'node', 'critical': 'nixl', 'status when it fires': 'status',
                'status': 'status'}.get(cols[1])
        continue
    if not line.startswith('|'):
        kind = None
        continue
    m = ROW.match(line)
    if not kind or not m or m.group(1) not in table or m.group(1) in described:
        continue
    cid, paren, col2 = m.group(1), m.group(2), m.group(3).strip()
    layer, crit = table[cid]
    described.add(cid)
    words = paren.split(',')[0].split(';')[0].strip() if paren else ''
    if words in LAYERS and LAYERS[words] != layer:
        doc_mismatch(cid, 'table', '(%s)' % paren)
        continue
    if kind == 'node' and paren and words in LAYERS:
        if bool(re.search(r', critical$', paren)) != crit:
            doc_mismatch(cid, 'table', '(%s)' % paren)
    elif kind == 'nixl':
        said = col2.strip('*').split()[0] if col2 else ''
        if said in ('yes', 'no') and (said == 'yes') != crit:
            doc_mismatch(cid, 'table', 'critical: %s' % col2)
    elif kind == 'status':
        if ('critical' in col2) != crit and not (paren and re.search(r', critical$', paren)):
            doc_mismatch(cid, 'table', 'status "%s"' % col2[:60])

print('%d check ids in the tables, %d in golden outputs, %d problems' % (
    len(table), len(golden), bad))
sys.exit(1 if bad else 0)
