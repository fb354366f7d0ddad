#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Regenerate src/rules/logs_table.c from the upstream trees.

usage: tools/log_formats.py MIRRORS OUT.c
MIRRORS holds the bare clones as owner+name/repo (openucx+ucx, ai-dynamo+nixl,
NVIDIA+nccl, aws+aws-ofi-nccl, ofiwg+libfabric); each is read with `git show`
at the tags below, never checked out.  Every error and warning call of the
listed files gives one row: its format string (C literals joined, a macro or
identifier spliced in as %s), what the call means, its file.
"""
import json
import os
import re
import subprocess
import sys

def files(repo, tag, paths):
    out = subprocess.run(['git', '-C', repo, 'ls-tree', '-r', '--name-only', tag, '--'] + paths,
                         capture_output=True, text=True).stdout.split()
    return [f for f in out if f.endswith(('.c', '.cc', '.cpp', '.h', '.hpp'))]

def show(repo, tag, f):
    return subprocess.run(['git', '-C', repo, 'show', '%s:%s' % (tag, f)], capture_output=True,
                          text=True, errors='replace').stdout

STR = r'"(?:[^"\\]|\\.)*"'

def c_call_fmt(text, pos):
    """From pos (after '('), the first argument as fragments: literals and '%s' for macros."""
    i, depth, parts = pos, 0, []
    n = len(text)
    while i < n:
        c = text[i]
        if c == "'":
            m = re.match(r"'(?:[^'\\]|\\.)*'", text[i:])
            i += len(m.group(0)) if m else 1; continue
        if c == '"':
            m = re.match(STR, text[i:])
            if not m:
                i += 1; continue
            parts.append(('lit', m.group(0)[1:-1]))
            i += len(m.group(0)); continue
        if c in '([':
            depth += 1
        elif c in ')]':
            if depth == 0: break
            depth -= 1
        elif c == ',' and depth == 0:
            break
        elif re.match(r'[A-Za-z_]', c):
            m = re.match(r'[A-Za-z_][A-Za-z0-9_]*', text[i:])
            parts.append(('id', m.group(0))); i += len(m.group(0)); continue
        i += 1
    return parts

def c_extract(text, funcs, skip_default=0):
    res = []
    for m in re.finditer(r'\b(%s)\s*\(' % '|'.join(funcs), text):
        pos = m.end()
        skip_first = funcs[m.group(1)] if isinstance(funcs, dict) else skip_default
        if skip_first:
            # skip leading args (e.g. EFA_WARN(FI_LOG_EP_CTRL, "fmt"))
            depth = 0; i = pos
            cnt = 0
            while i < len(text) and cnt < skip_first:
                if text[i] in '([': depth += 1
                elif text[i] in ')]': depth -= 1
                elif text[i] == ',' and depth == 0: cnt += 1
                i += 1
            pos = i
        parts = c_call_fmt(text, pos)
        if not any(k == 'lit' for k, _ in parts):
            continue
        fmt = ''
        for k, v in parts:
            fmt += v if k == 'lit' else '%s'
        line = text.count('\n', 0, m.start()) + 1
        res.append((m.group(1), fmt, line))
    return res

def cpp_stream(text, macros):
    res = []
    for m in re.finditer(r'\b(%s)\b\s*<<' % '|'.join(macros), text):
        end = text.find(';', m.end())
        body = text[m.end():end]
        # split on << at top level
        segs = [s.strip() for s in re.split(r'<<', body)]
        fmt = ''
        lit = False
        for s in segs:
            ms = re.fullmatch(r'(\s*%s\s*)+' % STR, s)
            if ms:
                for x in re.findall(STR, s):
                    fmt += x[1:-1]
                lit = True
            else:
                fmt += '%s'
        if not lit:
            continue
        line = text.count('\n', 0, m.start()) + 1
        res.append((m.group(1), fmt, line))
    return res

def extract(spec):
    out = []
    for f in files(spec['repo'], spec['tag'], spec['paths']):
        t = show(spec['repo'], spec['tag'], f)
        if spec.get('stream'):
            rows = cpp_stream(t, spec['funcs'])
        else:
            rows = c_extract(t, spec['funcs'], spec.get('skip', 0))
        for fn, fmt, line in rows:
            out.append({'file': f, 'line': line, 'func': fn, 'fmt': fmt, 'tag': spec['tag']})
    return out


UCX_PATHS = ["src/uct/ib", "src/uct/cuda", "src/ucp/wireup", "src/ucp/core/ucp_context.c",
             "src/ucp/core/ucp_mm.c", "src/ucs/memory/rcache.c", "src/ucp/core/ucp_worker.c",
             "src/ucp/core/ucp_ep.c", "src/ucp/core/ucp_device.c"]
UCX_FUNCS = {"ucs_error": 0, "ucs_warn": 0, "ucs_diag": 0, "ucs_log": 1,
             "uct_ib_check_memlock_limit_msg": 2}
NIXL_PATHS = ["src/core", "src/plugins/ucx", "src/plugins/libfabric", "src/utils/ucx",
              "src/utils/libfabric"]
NIXL_FUNCS = ["NIXL_ERROR", "NIXL_WARN", "NIXL_ERROR_FUNC"]
NCCL_NEW = ["src/transport/net.cc", "src/transport/net_ib", "src/transport/net_socket.cc",
            "src/misc/ibvwrap.cc", "src/misc/gdrwrap.cc"]
NCCL_OLD = ["src/transport/net.cc", "src/transport/net_ib.cc", "src/transport/net_socket.cc",
            "src/misc/ibvwrap.cc", "src/misc/gdrwrap.cc"]
SPECS = {
    'ucx1220.json': ('openucx+ucx', 'v1.22.0', UCX_PATHS, UCX_FUNCS, False, 0),
    'ucx1180.json': ('openucx+ucx', 'v1.18.0', UCX_PATHS, UCX_FUNCS, False, 0),
    'nixl140.json': ('ai-dynamo+nixl', 'v1.4.0', NIXL_PATHS, NIXL_FUNCS, True, 0),
    'nixl071.json': ('ai-dynamo+nixl', '0.7.1', NIXL_PATHS, NIXL_FUNCS, True, 0),
    'nccl230.json': ('NVIDIA+nccl', 'v2.30.7-1', NCCL_NEW, ["WARN"], False, 0),
    'nccl221.json': ('NVIDIA+nccl', 'v2.21.5-1', NCCL_OLD, ["WARN"], False, 0),
    'ofi121.json': ('aws+aws-ofi-nccl', 'v1.21.1', ["src"], ["NCCL_OFI_WARN"], False, 0),
    'ofi171.json': ('aws+aws-ofi-nccl', 'v1.7.1-aws', ["src", "include"], ["NCCL_OFI_WARN"], False, 0),
    'efa26.json': ('ofiwg+libfabric', 'v2.6.0', ["prov/efa/src"], ["EFA_WARN"], False, 1),
    'efa119.json': ('ofiwg+libfabric', 'v1.19.1', ["prov/efa/src"], ["EFA_WARN"], False, 1),
}
mirrors, out_c = sys.argv[1], sys.argv[2]
DATA = {}
for name, (repo, tag, paths, funcs, stream, skip) in SPECS.items():
    DATA[name] = extract({'repo': os.path.join(mirrors, repo, 'repo'), 'tag': tag, 'paths': paths,
                          'funcs': funcs, 'stream': stream, 'skip': skip})
SRC = [  # (section, json files with their project label)
 ('UCX', 'LOG_SRC_UCX', [('ucx1220.json','openucx/ucx v1.22.0'), ('ucx1180.json','openucx/ucx v1.18.0')]),
 ('NIXL', 'LOG_SRC_NIXL', [('nixl140.json','ai-dynamo/nixl v1.4.0'), ('nixl071.json','ai-dynamo/nixl 0.7.1')]),
 ('NCCL', 'LOG_SRC_NCCL', [('nccl230.json','NVIDIA/nccl v2.30.7-1'), ('nccl221.json','NVIDIA/nccl v2.21.5-1')]),
 ('OFI', 'LOG_SRC_OFI', [('ofi121.json','aws/aws-ofi-nccl v1.21.1'), ('ofi171.json','aws/aws-ofi-nccl v1.7.1-aws')]),
 ('EFA', 'LOG_SRC_EFA', [('efa26.json','ofiwg/libfabric v2.6.0'), ('efa119.json','ofiwg/libfabric v1.19.1')]),
]
LEVEL = {'ucs_error':'CI_FAIL','ucs_warn':'CI_WARN','ucs_diag':'CI_WARN','ucs_log':'CI_FAIL','uct_ib_check_memlock_limit_msg':'CI_FAIL','NIXL_ERROR':'CI_FAIL','NIXL_ERROR_FUNC':'CI_FAIL',
         'NIXL_WARN':'CI_WARN','WARN':'CI_WARN','NCCL_OFI_WARN':'CI_WARN','EFA_WARN':'CI_WARN'}
CONV = re.compile(r'%[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|j|t|L|PRI[a-zA-Z0-9]+)?[diouxXeEfgGcspm%]')
def unescape(s):
    s = s.replace('\\n', '').replace('\\t', ' ').replace('\\"', '"').replace("\\'", "'").replace('\\\\', '\\')
    # PRIu64-style macros became %s already; normalise %m (strerror) and %%
    # a PRI* macro spliced after its flags ("%016" PRIx64) is one conversion
    s = re.sub(r'%[-+ #0-9.]*%s', '%s', s)
    return s.strip()
def literal_len(f):
    return sum(len(x) for x in CONV.split(f) if x and not CONV.fullmatch(x or '')) 
def frags(f):
    out=[]; pos=0
    for m in CONV.finditer(f):
        if m.group(0) == '%%': continue
        out.append(f[pos:m.start()]); pos=m.end()
    out.append(f[pos:])
    return [x for x in out if x.strip()]
MANUAL = [
 # built piecewise with ucs_string_buffer_appendf, logged by ucs_log(level) in
 # ucp_memh_register_log_fail: no single call holds it
 {'sec': 'UCX', 'enum': 'LOG_SRC_UCX', 'fmt': 'failed to register address %p (%s) length %zu', 'level': 'CI_FAIL',
  'file': 'src/ucp/core/ucp_mm.c', 'labels': ['openucx/ucx v1.22.0']},
 # libfabric's core, when the provider asked for (FI_PROVIDER=efa) offers
 # nothing: no EFA endpoint can be opened
 {'sec': 'EFA', 'enum': 'LOG_SRC_EFA', 'fmt': 'fi_getinfo: provider %s output empty list', 'level': 'CI_WARN',
  'file': 'src/fabric.c', 'labels': ['ofiwg/libfabric v2.6.0']},
]
rows = list(MANUAL)
for sec, enum, files in SRC:
    seen = {}
    for fn, label in files:
        for x in DATA[fn]:
            f = unescape(x['fmt'])
            fr = frags(f)
            lit = sum(len(a.strip()) for a in fr)
            longest = max((len(a.strip()) for a in fr), default=0)
            if lit < 14 or longest < 10:
                continue
            if any(ord(c) < 32 for c in f): continue
            key = (f, LEVEL[x['func']])
            if key in seen:
                if label not in seen[key]['labels']: seen[key]['labels'].append(label)
                continue
            seen[key] = {'sec': sec, 'enum': enum, 'fmt': f, 'level': LEVEL[x['func']], 'file': x['file'], 'labels': [label]}
    rows += list(seen.values())
SECS = [('UCX','LOG_SRC_UCX','openucx/ucx', ['v1.22.0','v1.18.0'], 'ucs_error (fail) / ucs_warn (warn) in src/uct/ib, src/uct/cuda, src/ucp/wireup, ucp_context.c, ucp_mm.c, ucp_worker.c, ucp_ep.c, ucp_device.c, src/ucs/memory/rcache.c'),
        ('NIXL','LOG_SRC_NIXL','ai-dynamo/nixl', ['v1.4.0','0.7.1'], 'NIXL_ERROR / NIXL_ERROR_FUNC (fail) and NIXL_WARN (warn) in src/core, src/plugins/ucx, src/plugins/libfabric, src/utils/ucx, src/utils/libfabric'),
        ('NCCL','LOG_SRC_NCCL','NVIDIA/nccl', ['v2.30.7-1','v2.21.5-1'], 'WARN() (warn: NCCL is not the KV path) in src/transport/net.cc, net_ib, net_socket.cc, src/misc/ibvwrap.cc, gdrwrap.cc'),
        ('OFI','LOG_SRC_OFI','aws/aws-ofi-nccl', ['v1.21.1','v1.7.1-aws'], 'NCCL_OFI_WARN() (warn) in src/ and include/'),
        ('EFA','LOG_SRC_EFA','ofiwg/libfabric', ['v2.6.0','v1.19.1'], 'EFA_WARN() (warn) in prov/efa/src')]
def cstr(s):
    return '"' + s.replace('\\','\\\\').replace('"','\\"') + '"'
out = []
out.append('''/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The log lines of each transport, from the source that prints them: every
 * error and warning format string of the files named in each section, at
 * the two tags given (newer first; a row's versions say which print it).
 * Generated by tools/log_formats.py from the upstream trees; do not edit a
 * row by hand, re-run the script against the tags.  A row is data: the
 * format string as the source writes it (trailing \\n dropped, a macro
 * spliced into the literal as %s), what its call means (fail: an error
 * call; warn: a warning call), and its file.  Rows whose literal text is
 * shorter than 14 characters (or whose longest fragment is under 10) are
 * left out: too general to name one failure.
 */
#include "rules/logs.h"
''')
for sec, enum, proj, tags, what in SECS:
    rs = [r for r in rows if r['sec'] == sec]
    rs.sort(key=lambda r: (r['file'], r['fmt']))
    out.append('/* %s %s, %s: %s */' % (proj, ' and '.join(tags), enum, what))
    out.append('static const struct log_rule rows_%s[] = {' % sec.lower())
    for r in rs:
        v = 0
        for l in r['labels']:
            v |= 1 if l.endswith(tags[0]) else 2
        out.append('\t{%s, %s, %s, %d},' % (cstr(r['fmt']), 'LOG_MEAN_FAIL' if r['level']=='CI_FAIL' else 'LOG_MEAN_WARN', cstr(r['file']), v))
    out.append('};\n')
out.append('const struct log_source log_sources_table[LOG_SRC_COUNT] = {')
for sec, enum, proj, tags, what in SECS:
    out.append('\t[%s] = {"%s", "%s", {"%s", "%s"}, rows_%s, sizeof(rows_%s) / sizeof(rows_%s[0])},' % (enum, sec.lower(), proj, tags[0], tags[1], sec.lower(), sec.lower(), sec.lower()))
out.append('};')
open(out_c, 'w').write('\n'.join(out) + '\n')
