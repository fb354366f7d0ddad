#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Regenerate src/rules/logs_table.c from the upstream trees.

usage: tools/log_formats.py MIRRORS OUT.c
(then update test_meaning_tally's counts in tests/rules/test_logs.c, and say in
the commit which rows changed meaning)
MIRRORS holds the bare clones as owner+name/repo (openucx+ucx, ai-dynamo+nixl,
NVIDIA+nccl, aws+aws-ofi-nccl, ofiwg+libfabric); each is read with `git show`
at the tags below, never checked out.  Every error and warning call of the
listed files gives one row: its format string (C literals joined, a macro or
identifier spliced in as %s, a macro parameter replaced by the literal each
use of the macro passes), what the call means, its file.

What a row means comes from the code path after the call, not from the call's
level alone (consequence() below):
- the statements after the call, up to the end of its block, return an error
  (`return UCS_ERR_*`, `return ncclSystemError`, `return status`, `return
  -FI_*`, `return NULL`/`false`/`-1`), jump to an error label (`goto`), throw or
  abort: the operation failed -> fail;
- they carry on (`continue`, `break`, `return UCS_OK`/`ncclSuccess`/
  `NIXL_SUCCESS`/`0`): the call reports something the code survives -> warn;
- the block ends undecided: past its if-chain's else branches, a `return VAR`
  whose VAR the block's own condition tests for an error, unassigned on the
  way, is this path's error -> fail (aws-ofi-nccl 1.7 find_ofi_provider);
- neither: the call's level decides.  Loggers with an error level (UCX's
  ucs_error, NIXL's NIXL_ERROR) mean fail at that level and warn at their
  warning level; loggers whose highest level is a warning (NCCL's WARN,
  aws-ofi-nccl's NCCL_OFI_WARN, libfabric's EFA_WARN) mean warn unless the path
  fails.  A warning call (ucs_warn, NIXL_WARN) is never promoted: the project
  chose to warn, and its callers fall back.
Informational rows (LOG_MEAN_INFO: shown, never a problem):
- the diagnostics of UCX's own test tools (src/tools/perf: ucx_perftest and
  libperf), which a serving process never prints;
- an error or warning call inside a function that tears down (its name has
  cleanup, destroy or finalize, or it is UCX's UCS_CLASS_CLEANUP_FUNC(type)):
  printed on shutdown or while releasing a resource, it changes no transfer
  (UCX's uct_ib_mlx5_devx_obj_destroy "mlx5dv_devx_obj_destroy(%s) failed",
  uct_ib_device_cleanup_async_events "async_events_hash not empty",
  UCS_CLASS_CLEANUP_FUNC(uct_rc_iface_t) "some eps were not destroyed").  The
  enclosing function is read from the braces (functions() below); a format
  that another, non-teardown path also prints keeps that path's meaning;
NCCL's INFO() calls that say its fast path is off for this run (GPU Direct
RDMA disabled by distance, no IB device found: NCCL runs on, over host
staging or sockets) are rows printed at info level that mean warn.
"""
import os
import re
import subprocess
import sys


def files(repo, tag, paths):
    out = subprocess.run(['git', '-C', repo, 'ls-tree', '-r', '--name-only', tag, '--'] + paths,
                         capture_output=True, text=True).stdout.split()
    return [f for f in out if f.endswith(('.c', '.cc', '.cpp', '.h', '.hpp', '.inl'))]


def show(repo, tag, f):
    return subprocess.run(['git', '-C', repo, 'show', '%s:%s' % (tag, f)], capture_output=True,
                          text=True, errors='replace').stdout


STR = r'"(?:[^"\\]|\\.)*"'


def c_call_fmt(text, pos, params=None):
    """From pos (after '('), the first argument as fragments: literals and '%s'
    for macros; a macro parameter named in params becomes that literal."""
    i, depth, parts = pos, 0, []
    n = len(text)
    while i < n:
        c = text[i]
        if c == "'":
            m = re.match(r"'(?:[^'\\]|\\.)*'", text[i:])
            i += len(m.group(0)) if m else 1
            continue
        if c == '"':
            m = re.match(STR, text[i:])
            if not m:
                i += 1
                continue
            parts.append(('lit', m.group(0)[1:-1]))
            i += len(m.group(0))
            continue
        if c in '([':
            depth += 1
        elif c in ')]':
            if depth == 0:
                break
            depth -= 1
        elif c == ',' and depth == 0:
            break
        elif re.match(r'[A-Za-z_]', c):
            m = re.match(r'[A-Za-z_][A-Za-z0-9_]*', text[i:])
            ident = m.group(0)
            if params and ident in params:
                parts.append(('param', ident))
            else:
                parts.append(('id', ident))
            i += len(ident)
            continue
        i += 1
    return parts


def skip_args(text, pos, count):
    depth, i, cnt = 0, pos, 0
    while i < len(text) and cnt < count:
        if text[i] in '([':
            depth += 1
        elif text[i] in ')]':
            depth -= 1
        elif text[i] == ',' and depth == 0:
            cnt += 1
        i += 1
    return i


def tokens(text, pos):
    """(index, char, depth) over text from pos, string literals skipped;
    depth counts the ( and [ open before the char."""
    depth, i = 0, pos
    while i < len(text):
        c = text[i]
        if c == '"':
            m = re.match(STR, text[i:])
            i += len(m.group(0)) if m else 1
            continue
        yield i, c, depth
        if c in '([':
            depth += 1
        elif c in ')]':
            depth -= 1
        i += 1


def call_end(text, pos):
    """The index after the ';' that ends the call opened at pos ('(' consumed)."""
    for i, c, depth in tokens(text, pos):
        if c == ';' and depth < 0:
            return i + 1
        if c == '\n' and depth < 0 and not text[i - 1] == '\\':
            return i
    return len(text)


SUCCESS = re.compile(r'^\s*\(?\s*(UCS_OK|ncclSuccess|NIXL_SUCCESS|FI_SUCCESS|0|true|'
                     r'UCS_LOG_FUNC_RC_CONTINUE)\s*\)?\s*$')


def consequence(text, pos):
    """What the code does after the call ending at pos: 'fail', 'carry' or ''."""
    seg = text[pos:pos + 900]
    seg = re.sub(r'/\*.*?\*/', ' ', seg, flags=re.S)
    seg = re.sub(r'//[^\n]*', ' ', seg)
    seg = re.sub(STR, '""', seg)
    d, i = 0, 0
    while i < len(seg):
        c = seg[i]
        if c == '{':
            d += 1
        elif c == '}':
            if d == 0:
                break
            d -= 1
        elif c == '#' and (i == 0 or seg[i - 1] == '\n'):
            # a preprocessor line after the call ends what can be read
            if not seg.startswith('#define', i):
                break
        i += 1
    cons = decide(seg[:i])
    if cons or i >= len(seg) or seg[i] != '}':
        return cons
    # The call's block ends undecided: the code falls out of it.  Its
    # else-siblings are other paths; what follows the if-chain, in the
    # enclosing blocks (past an #endif and a label), is where this path
    # goes.  A variable returned there is this path's error when the
    # block's own condition holds it at an error value and nothing assigns
    # it after the call (aws-ofi-nccl 1.7's find_ofi_provider: inside
    # `else if (rc == -FI_ENODATA)`, "Couldn't find any optimal provider",
    # then `exit: ... return rc;`).  Any other return out there may be
    # another path's, and leaves the row to its level.
    errvars = guard_error_vars(text, pos)
    if not errvars:
        return ''
    rest = fall_out(seg, i)
    m = re.search(r'\breturn\s*\(?\s*(\w+)\s*\)?\s*;', rest)
    if not m or m.group(1) not in errvars:
        return ''
    if re.search(r'\b%s\s*=[^=]' % re.escape(m.group(1)), rest[:m.start()]):
        return ''
    return 'fail'


ERR_TEST = re.compile(r'\b(\w+)\s*(?:==\s*-?\s*(?:FI_E\w+|UCS_ERR_\w+|nccl\w*Error)|'
                      r'!=\s*(?:0|UCS_OK|ncclSuccess|FI_SUCCESS)\b|<\s*0\b)')


def guard_error_vars(text, pos):
    """The variables that the condition of the if opening the block around
    pos tests for an error value (`rc == -FI_ENODATA`, `ret != 0`, `rc < 0`)."""
    d, j = 0, pos
    while j > 0:
        j -= 1
        if text[j] == '}':
            d += 1
        elif text[j] == '{':
            if d == 0:
                break
            d -= 1
    head = text[max(0, j - 300):j].rstrip()
    if not head.endswith(')'):
        return set()
    # the condition: from the matching '(' of the final ')'
    d, k = 0, len(head)
    while k > 0:
        k -= 1
        if head[k] == ')':
            d += 1
        elif head[k] == '(':
            d -= 1
            if d == 0:
                break
    if not re.search(r'\bif\s*$', head[:k]):
        return set()
    return {m.group(1) for m in ERR_TEST.finditer(head[k:])}


def skip_block(seg, i):
    """From the '{' at i, the index after its matching '}'."""
    d = 0
    while i < len(seg):
        if seg[i] == '{':
            d += 1
        elif seg[i] == '}':
            d -= 1
            if d == 0:
                return i + 1
        i += 1
    return i


def fall_out(seg, i):
    """The statements run after the block whose '}' is at i, leaving its
    if-chain's else branches out, up to the end of the function."""
    out = ''
    # a '}' at the start of its line closes the function (K&R layout of
    # every project read here): nothing after it is this path's
    while i < len(seg) and seg[i] == '}' and i > 0 and seg[i - 1] != '\n':
        i += 1
        while True:
            m = re.match(r'\s*else\b\s*(if\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\s*)?', seg[i:])
            if not m or not m.group(0).strip():
                break
            j = i + m.end()
            if j >= len(seg) or seg[j] != '{':
                return out
            i = skip_block(seg, j)
        start = i
        while i < len(seg):
            c = seg[i]
            if c == '{':
                i = skip_block(seg, i)
                continue
            if c == '}':
                break
            if c == '#' and seg[i - 1] == '\n':
                if not re.match(r'#\s*endif', seg[i:]):
                    return out + seg[start:i]
            i += 1
        out += seg[start:i] + ' '
    return out


def decide(body):
    """A statement list's decision: 'fail', 'carry' or ''."""
    m = re.search(r'\b(return\b([^;]*);|goto\s+\w+|continue\s*;|break\s*;|throw\b|abort\s*\(|'
                  r'ucs_fatal\s*\(|ucs_bug\s*\(|exit\s*\(|NCCLCHECK\w*\s*\(|'
                  r'ucs_error\s*\(|NIXL_ERROR\b)', body)
    if not m:
        return ''
    tok = m.group(1)
    if tok.startswith('return'):
        val = (m.group(2) or '').strip().rstrip('\\').strip()
        if not val:
            return ''
        return 'carry' if SUCCESS.match(val) else 'fail'
    if tok.startswith(('continue', 'break')):
        return 'carry'
    if tok.startswith(('NCCLCHECK', 'ucs_error', 'NIXL_ERROR')):
        return ''
    return 'fail'


def macro_defs(text, funcs):
    """#define NAME(params) bodies that log with one of funcs and splice a
    parameter into the format: {NAME: (params, [(func, parts, consequence)])}."""
    out = {}
    for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)((?:[^\n]*\\\n)*[^\n]*)',
                         text, re.M):
        name, params = m.group(1), [p.strip() for p in m.group(2).split(',') if p.strip()]
        body = m.group(3)
        calls = []
        for c in re.finditer(r'\b(%s)\s*\(' % '|'.join(funcs), body):
            p = c.end()
            skip = funcs[c.group(1)] if isinstance(funcs, dict) else 0
            if skip:
                p = skip_args(body, p, skip)
            parts = c_call_fmt(body, p, set(params))
            if not any(k in ('lit', 'param') for k, _ in parts):
                continue
            calls.append((c.group(1), parts, consequence(body, call_end(body, c.end())),
                          any(k == 'param' for k, _ in parts), m.start()))
        if calls:
            out[name] = (params, calls)
    return out


def macro_args(text, pos):
    """The arguments of the call opened at pos, as raw strings."""
    args, start = [], pos
    for i, c, depth in tokens(text, pos):
        if depth:
            continue
        if c in ')]':
            args.append(text[start:i].strip())
            return args
        if c == ',':
            args.append(text[start:i].strip())
            start = i + 1
    return args


def parts_fmt(parts, binding=None):
    fmt = ''
    for k, v in parts:
        if k == 'lit':
            fmt += v
        elif k == 'param' and binding is not None and re.fullmatch(r'(\s*%s\s*)+' % STR, binding.get(v, '')):
            fmt += ''.join(x[1:-1] for x in re.findall(STR, binding[v]))
        else:
            fmt += '%s'
    return fmt


def c_extract(text, funcs):
    res = []
    for m in re.finditer(r'\b(%s)\s*\(' % '|'.join(funcs), text):
        # a call inside a #define is read where the macro is used
        ls = text.rfind('\n', 0, m.start()) + 1
        if re.match(r'[ \t]*#[ \t]*define', text[ls:m.start()]) or text[ls - 2:ls] == '\\\n':
            continue
        pos = m.end()
        skip_first = funcs[m.group(1)] if isinstance(funcs, dict) else 0
        if skip_first:
            pos = skip_args(text, pos, skip_first)
        parts = c_call_fmt(text, pos)
        if not any(k == 'lit' for k, _ in parts):
            continue
        line = text.count('\n', 0, m.start()) + 1
        res.append((m.group(1), parts_fmt(parts), line, consequence(text, call_end(text, m.end()))))
    # UCX builds some lines piecewise into a string buffer and logs the
    # buffer ("%s", ucs_string_buffer_cstr(&msg)): each appendf into that
    # buffer is a row at the logging call's level and consequence.
    for m in re.finditer(r'\b(%s)\s*\(' % '|'.join(funcs), text):
        end = call_end(text, m.end())
        b = re.search(r'ucs_string_buffer_cstr\s*\(\s*&?\s*(\w+)\s*\)', text[m.end():end])
        if not b:
            continue
        cons = consequence(text, end)
        for a in re.finditer(r'\bucs_string_buffer_appendf\s*\(\s*&?\s*%s\s*,' % re.escape(b.group(1)),
                             text):
            parts = c_call_fmt(text, a.end())
            if any(k == 'lit' for k, _ in parts):
                res.append((m.group(1), parts_fmt(parts), text.count('\n', 0, a.start()) + 1, cons))
    for name, (params, calls) in macro_defs(text, funcs).items():
        for fn, parts, cons, has_param, at in calls:
            if not has_param and any(k == 'lit' for k, _ in parts):
                res.append((fn, parts_fmt(parts), text.count('\n', 0, at) + 1, cons))
        for u in re.finditer(r'\b%s\s*\(' % re.escape(name), text):
            ls = text.rfind('\n', 0, u.start()) + 1
            if re.match(r'[ \t]*#[ \t]*define', text[ls:u.start()]):
                continue
            args = macro_args(text, u.end())
            binding = dict(zip(params, args))
            line = text.count('\n', 0, u.start()) + 1
            for fn, parts, cons, has_param, _ in calls:
                if has_param:
                    res.append((fn, parts_fmt(parts, binding), line, cons))
    return res


def cpp_stream(text, macros):
    res = []
    for m in re.finditer(r'\b(%s)\b\s*<<' % '|'.join(macros), text):
        end = text.find(';', m.end())
        body = text[m.end():end]
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
        res.append((m.group(1), fmt, line, consequence(text, end + 1)))
    return res


def _blank(m):
    return re.sub(r'[^\n]', ' ', m.group(0))

KW = {'if', 'for', 'while', 'switch', 'catch', 'do', 'else', 'return', 'sizeof', 'defined',
      '__attribute__', 'alignas', 'decltype'}

def functions(text):
    """[(first_line, last_line, name)]: the functions defined in text, by
    their braces (comments, literals and #else branches left out; a brace
    at column 0 starts or ends a top-level block, the layout of every
    project read here)."""
    t = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', _blank, text,
               flags=re.S)
    # preprocessor lines out; the #else/#elif branches of a conditional too
    lines, cond, out = t.split('\n'), [], []
    cont = False
    for ln in lines:
        s = ln.strip()
        if cont or s.startswith('#'):
            cont = ln.rstrip().endswith('\\')
            if re.match(r'#\s*if', s):
                cond.append(False)
            elif re.match(r'#\s*(else|elif)', s) and cond:
                cond[-1] = True
            elif re.match(r'#\s*endif', s) and cond:
                cond.pop()
            out.append(' ' * len(ln))
            continue
        out.append(' ' * len(ln) if any(cond) else ln)
    t = '\n'.join(out)
    res, stack, last = [], [], 0
    line = 1
    for i, c in enumerate(t):
        if c == '\n':
            line += 1
            continue
        if c in ';':
            last = i + 1
            continue
        if c == '{':
            col0 = i == 0 or t[i - 1] == '\n'
            if col0:
                stack = []
            head = t[last:i]
            fn = None
            if not any(s[0] for s in stack):
                h = ' '.join(head.split())
                if re.search(r'\)\s*(?:const|override|final|noexcept|volatile|\s)*$', h):
                    m = re.search(r'(~?[A-Za-z_][\w:~]*)\s*\(', h)
                    if m and m.group(1) not in KW:
                        fn = m.group(1)
                        args = h[m.end():]
                        if fn.startswith('UCS_PROFILE_FUNC'):
                            a = [x.strip() for x in args.split(',')]
                            fn = a[1] if len(a) > 1 else fn
                        elif fn.startswith('UCS_CLASS_'):
                            fn = '%s(%s)' % (fn, args.split(')')[0].split(',')[0].strip())
            stack.append((fn, line))
            last = i + 1
        elif c == '}':
            if stack:
                fn, start = stack.pop()
                if fn:
                    res.append((start, line, fn))
            if i == 0 or t[i - 1] == '\n':
                stack = []
            last = i + 1
    return res

TEARDOWN = re.compile(r'cleanup|destroy|finali[sz]e|UCS_CLASS_CLEANUP_FUNC', re.I)

def enclosing(funcs, line):
    for a, b, n in funcs:
        if a <= line <= b:
            return n
    return None


def extract(repo, tag, paths, funcs, stream):
    out = []
    for f in files(repo, tag, paths):
        t = show(repo, tag, f)
        rows = cpp_stream(t, funcs) if stream else c_extract(t, funcs)
        fns = functions(t)
        for fn, fmt, line, cons in rows:
            where = enclosing(fns, line)
            out.append({'file': f, 'line': line, 'func': fn, 'fmt': fmt, 'cons': cons,
                        'teardown': bool(where and TEARDOWN.search(where))})
    return out


# The call's level: 'fail' (an error level), 'warn' (a warning level of a
# logger that has an error level above it), 'top' (the logger's highest
# level is a warning: the path decides), 'info'.
LEVEL = {'ucs_error': 'fail', 'ucs_log': 'fail', 'uct_ib_check_memlock_limit_msg': 'fail',
         'ucs_log_fatal_error': 'fail', 'ucs_warn': 'warn', 'ucs_diag': 'warn',
         'NIXL_ERROR': 'fail', 'NIXL_ERROR_FUNC': 'fail', 'NIXL_WARN': 'warn',
         'WARN': 'top', 'NCCL_OFI_WARN': 'top', 'EFA_WARN': 'top', 'FI_WARN': 'top',
         'FI_LOG': 'top', 'INFO': 'info'}


def meaning(func, cons):
    lv = LEVEL[func]
    if lv == 'info':
        return 'LOG_MEAN_WARN'
    if lv == 'warn':
        return 'LOG_MEAN_WARN'
    if lv == 'fail':
        return 'LOG_MEAN_WARN' if cons == 'carry' else 'LOG_MEAN_FAIL'
    return 'LOG_MEAN_FAIL' if cons == 'fail' else 'LOG_MEAN_WARN'


UCX_FUNCS = {"ucs_error": 0, "ucs_warn": 0, "ucs_diag": 0, "ucs_log": 1,
             "uct_ib_check_memlock_limit_msg": 2}
NIXL_FUNCS = ["NIXL_ERROR", "NIXL_WARN", "NIXL_ERROR_FUNC"]
# Each section: its enum, project, mirror, tags (newest first), and the
# inputs: (paths, funcs, skip-dict or list, stream?, printed at, kind)
# kind 'row' (a transport's line), 'tool' (a test tool's: informational),
# 'info-off' (an INFO call that says the fast path is off).
SECTIONS = [
    ('UCX', 'LOG_SRC_UCX', 'openucx/ucx', 'openucx+ucx', ['v1.22.0', 'v1.18.0', 'v1.15.0', 'v1.14.1', 'v1.13.1',
                                                'v1.12.1'], [
        (["src/tools/perf"], UCX_FUNCS, False, 'tool'),
        (["src/uct/ib", "src/uct/cuda", "src/uct/tcp", "src/ucp/wireup", "src/ucp/core",
          "src/ucs/memory"], UCX_FUNCS, False, 'row'),
        # what UCX prints when it aborts (a signal, a fatal assertion): the
        # line carries UCX's fatal prefix, not its level mark
        (["src/ucs/debug/debug.c"], {"ucs_log_fatal_error": 0}, False, 'row'),
    ], 'ucs_error/ucs_log (fail unless the code carries on) and ucs_warn/ucs_diag (warn) in src/uct/ib, '
       'src/uct/cuda, src/uct/tcp, src/ucp/wireup, src/ucp/core, src/ucs/memory; ucs_log_fatal_error in '
       'src/ucs/debug/debug.c (fail); src/tools/perf (ucx_perftest, libperf: informational)'),
    ('NIXL', 'LOG_SRC_NIXL', 'ai-dynamo/nixl', 'ai-dynamo+nixl', ['v1.4.0', 'v1.3.2', 'v1.2.0', 'v1.1.0',
                                                     '0.9.0', '0.7.1'], [
        (["src/core", "src/plugins/ucx", "src/plugins/libfabric", "src/plugins/cuda_gds",
          "src/plugins/gds_mt", "src/utils/ucx", "src/utils/libfabric"], NIXL_FUNCS, True, 'row'),
    ], 'NIXL_ERROR / NIXL_ERROR_FUNC (fail unless the code carries on) and NIXL_WARN (warn) in '
       'src/core (the agent), src/plugins/ucx, libfabric, cuda_gds, gds_mt, src/utils/ucx, '
       'src/utils/libfabric'),
    ('NCCL', 'LOG_SRC_NCCL', 'NVIDIA/nccl', 'NVIDIA+nccl', ['v2.30.7-1', 'v2.21.5-1', 'v2.18.3-1',
                                               'v2.17.1-1', 'v2.16.5-1', 'v2.15.5-1', 'v2.14.3-1',
                                               'v2.13.4-1', 'v2.12.12-1'], [
        (["src/transport/net.cc", "src/transport/net_ib", "src/transport/net_ib.cc",
          "src/transport/net_socket.cc", "src/transport/p2p.cc", "src/transport/nvls.cc",
          "src/transport/coll_net.cc", "src/misc/ibvwrap.cc", "src/misc/gdrwrap.cc"],
         ["WARN"], False, 'row'),
        (["src/graph/paths.cc", "src/transport/net_ib", "src/transport/net_ib.cc"], {"INFO": 1},
         False, 'info-off'),
    ], 'WARN() (fail when the call path returns an error, else warn) in src/transport/net.cc, '
       'net_ib, net_socket.cc, p2p.cc, nvls.cc, coll_net.cc, src/misc/ibvwrap.cc, gdrwrap.cc; '
       'INFO() lines of src/graph/paths.cc and net_ib that say GPU Direct RDMA or the IB '
       'device is off (warn)'),
    ('OFI', 'LOG_SRC_OFI', 'aws/aws-ofi-nccl', 'aws+aws-ofi-nccl', ['v1.21.1', 'v1.17.3', 'v1.7.1-aws'], [
        (["src", "include"], ["NCCL_OFI_WARN"], False, 'row'),
    ], 'NCCL_OFI_WARN() (fail when the call path returns an error, else warn) in src/ and include/'),
    ('EFA', 'LOG_SRC_EFA', 'ofiwg/libfabric', 'ofiwg+libfabric', ['v2.6.0', 'v1.22.0', 'v1.19.1', 'v1.17.1'], [
        # the RxR layer of libfabric 1.17 and older (prov/efa/src/rxr) logs
        # with FI_WARN(&rxr_prov, subsystem, ...)
        (["prov/efa/src"], {"EFA_WARN": 1, "FI_WARN": 2}, False, 'row'),
        # the core's provider selection, which an EFA run logs when the
        # provider asked for offers nothing (FI_LOG at a chosen level)
        (["src/fabric.c"], {"FI_WARN": 2, "FI_LOG": 3}, False, 'row'),
    ], 'EFA_WARN() and FI_WARN() (fail when the call path returns an error, else warn) in prov/efa/src '
       '(FI_WARN: the RxR layer of v1.17.1, prov/efa/src/rxr); '
       'FI_WARN()/FI_LOG() of the core\'s src/fabric.c (fi_getinfo, provider loading)'),
]
# An INFO() call says the fast path is off when its text says so; the words
# are NCCL's own (src/graph/paths.cc "GPU Direct RDMA Disabled",
# net_ib "No device found").
INFO_OFF = re.compile(r'GPU Direct RDMA Disabled|No device found')

CONV = re.compile(r'%[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|j|t|L|PRI[a-zA-Z0-9]+)?[diouxXeEfgGcspm%]')


def unescape(s):
    s = s.replace('\\n', '').replace('\\t', ' ').replace('\\"', '"').replace("\\'", "'").replace('\\\\', '\\')
    # a PRI* macro spliced after its flags ("%016" PRIx64) is one conversion
    s = re.sub(r'%[-+ #0-9.]*%s', '%s', s)
    return s.strip()


def frags(f):
    out = []
    pos = 0
    for m in CONV.finditer(f):
        if m.group(0) == '%%':
            continue
        out.append(f[pos:m.start()])
        pos = m.end()
    out.append(f[pos:])
    return [x for x in out if x.strip()]


def lines_of(fmt):
    """UCX's and NCCL's loggers print each line of a message on its own
    (ucs_log_default_handler splits at newlines): one row per line."""
    out = []
    for piece in fmt.split('\\n'):
        f = unescape(piece)
        if f and not any(ord(c) < 32 for c in f):
            out.append(f)
    return out


def specific(f):
    """A row names one failure when its literal text is long enough: 14
    characters with a fragment of 10, or 24 in at least three fragments of 5
    (UCX's mlx5 completion error "%s on %s (synd 0x%x vend 0x%x hw_synd %d/%d)")."""
    fr = [a.strip() for a in frags(f)]
    lit = sum(len(a) for a in fr)
    longest = max((len(a) for a in fr), default=0)
    if lit >= 14 and longest >= 10:
        return True
    return lit >= 24 and sum(len(a) >= 5 for a in fr) >= 3


MANUAL = [
    # built piecewise with ucs_string_buffer_appendf, logged by ucs_log(level) in
    # ucp_memh_register_log_fail: no single call holds it
    {'sec': 'UCX', 'fmt': 'failed to register address %p (%s) length %zu', 'mean': 'LOG_MEAN_FAIL',
     'at': 'LOG_AT_LEVEL', 'file': 'src/ucp/core/ucp_mm.c', 'tags': {'v1.22.0'}},
]


def main():
    mirrors, out_c = sys.argv[1], sys.argv[2]
    rows = [dict(r) for r in MANUAL]
    for sec, enum, proj, mirror, tags, inputs, what in SECTIONS:
        repo = os.path.join(mirrors, mirror, 'repo')
        seen = {}
        for paths, funcs, stream, kind in inputs:
            for tag in tags:
                for x, f in ((x, f) for x in extract(repo, tag, paths, funcs, stream)
                             for f in lines_of(x['fmt'])):
                    if not specific(f):
                        continue
                    at = 'LOG_AT_LEVEL'
                    if kind == 'tool':
                        mean = 'LOG_MEAN_INFO'
                    elif kind == 'info-off':
                        if not INFO_OFF.search(f):
                            continue
                        mean, at = 'LOG_MEAN_WARN', 'LOG_AT_INFO'
                    elif x['teardown']:
                        mean = 'LOG_MEAN_INFO'
                    else:
                        mean = meaning(x['func'], x['cons'])
                    key = (f, at)
                    if key in seen:
                        r = seen[key]
                        r['tags'].add(tag)
                        # one format, two paths: the worse meaning holds
                        order = ['LOG_MEAN_INFO', 'LOG_MEAN_WARN', 'LOG_MEAN_FAIL']
                        if r['kind'] != 'tool' and order.index(mean) > order.index(r['mean']):
                            r['mean'] = mean
                        continue
                    seen[key] = {'sec': sec, 'fmt': f, 'mean': mean, 'at': at, 'file': x['file'],
                                 'tags': {tag}, 'kind': kind}
        rows += list(seen.values())

    def cstr(s):
        return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'
    out = ['''/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The log lines of each transport, from the source that prints them: every
 * error and warning format string of the files named in each section, at
 * the tags given (newest first; a row's versions say which print it: bit i,
 * tags[i]).  Generated by tools/log_formats.py from the upstream trees; do
 * not edit a row by hand, re-run the script against the tags.  A row is
 * data: the format string as the source writes it (trailing \\n dropped, a
 * macro spliced into the literal as %s, a macro's parameter as the literal
 * each use passes), what it means (from the code path after the call; see
 * the script), the level it is printed at, and its file.  Rows whose
 * literal text is shorter than 14 characters (or whose longest fragment is
 * under 10) are left out: too general to name one failure.  A section's
 * test-tool rows come last: a line that a transport row accounts for is
 * read as the transport's, whatever tool also prints those words.
 */
#include "rules/logs.h"
''']
    for sec, enum, proj, mirror, tags, inputs, what in SECTIONS:
        rs = [r for r in rows if r['sec'] == sec]
        rs.sort(key=lambda r: (r.get('kind') == 'tool', r['file'], r['fmt'], r['at']))
        out.append('/* %s %s, %s: %s */' % (proj, ', '.join(tags), enum, what))
        out.append('static const struct log_rule rows_%s[] = {' % sec.lower())
        for r in rs:
            v = 0
            for i, t in enumerate(tags):
                if t in r['tags']:
                    v |= 1 << i
            out.append('\t{%s, %s, %s, %s, %d},' % (cstr(r['fmt']), r['mean'], r['at'], cstr(r['file']), v))
        out.append('};\n')
    out.append('const struct log_source log_sources_table[LOG_SRC_COUNT] = {')
    for sec, enum, proj, mirror, tags, inputs, what in SECTIONS:
        s = sec.lower()
        out.append('\t[%s] = {"%s", "%s", {%s}, %d, rows_%s, sizeof(rows_%s) / sizeof(rows_%s[0])},' % (
            enum, s, proj, ', '.join('"%s"' % t for t in tags), len(tags), s, s, s))
    out.append('};')
    open(out_c, 'w').write('\n'.join(out) + '\n')


main()
