#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The include rules of docs/HACKING.md, checked over src/.

usage: tools/check-includes.py [--graph] [ROOT]

An area is a directory under src/ (src/main.c is the area "main").  Fails
(exit 1, one line per problem) when:
  - the areas' include graph has a cycle (area A includes B, which
    includes A back, directly or through others), or a header includes
    itself back through other headers;
  - an area includes one that is not below it in LAYERS (the pipeline:
    probe -> parse -> check -> report);
  - a parser or a check includes probe/ or core/cli.h (only cmd/ and main.c
    see the command line; only cmd/ and probe/ run processes);
  - a file outside cmd/ and probe/ includes a header that runs processes or
    threads (SYSTEM_HEADERS), except the few files named in SYSTEM_ALLOWED;
  - a pure file reaches probe/ through other headers (fleet: FLEET_RUNNERS);
  - a quoted include is not src-relative ("area/file.h"): one include style.
--graph prints the area graph ("area -> area: N includes") and exits 0.
"""
import os
import re
import sys

# Which areas each area may include (besides itself).  The order is the
# pipeline, bottom up: nothing may include an area listed after it.
LAYERS = {
    'core': set(),
    'parse': {'core'},
    # the transport knowledge (docs/HACKING.md): data and value rules, one
    # module per transport, above the parsers and below the deployment model
    # (which reads Kubernetes' role labels and network names from rules/k8s)
    # and every check area
    'rules': {'core', 'parse'},
    'manifest': {'core', 'rules'},
    'probe': {'core', 'parse'},
    'env': {'core', 'parse', 'manifest', 'rules'},
    'live': {'core', 'parse', 'rules'},
    'node': {'core', 'parse', 'env', 'live', 'rules'},
    'nixl': {'core', 'parse', 'node', 'env', 'live', 'rules'},
    'fleet': {'core', 'parse', 'manifest', 'env', 'live', 'node', 'nixl', 'probe', 'rules'},
    'cmd': {'core', 'parse', 'manifest', 'probe', 'env', 'live', 'node', 'nixl', 'fleet',
            'rules'},
    'main': {'core', 'cmd', 'probe'},
}

# Headers that mean touching the system: files, processes, threads.
SYSTEM_HEADERS = {'unistd.h', 'fcntl.h', 'dirent.h', 'sys/stat.h', 'spawn.h', 'sys/wait.h',
                  'poll.h', 'signal.h', 'pthread.h'}
# Who else may, and why.  Everything new that needs them belongs in cmd/ or probe/.
SYSTEM_ALLOWED = {
    # the manifest model's one loader: reads the recipe files (the rest is pure)
    'src/manifest/manifest_load.c',
    # the fleet fan-out's worker pool: threads that each call probe_collect()
    'src/fleet/fleet_probe.c',
    # a mutex only: the redaction rule is called from the pool's threads
    'src/core/redact.c',
    # --output: the report's one file, written atomically (belongs with the
    # runner in cmd/; moved there when the renderers settle)
    'src/core/render_output.c',
    # the terminal's width (TIOCGWINSZ) and isatty for --color auto: the
    # runner asks it once per run
    'src/core/term.c',
}

# Files that may include probe/ although their area may not (none today).
PROBE_ALLOWED = set()

# The fleet area mixes pure code with the fan-out that runs kubectl: only
# these may reach probe/, directly or through other headers.  Every other
# fleet file (plan, pod summaries, checks, drift, layout) is as pure as a
# check, so a test can link it without process-running code.
FLEET_RUNNERS = {'src/fleet/fleet_run.h', 'src/fleet/fleet_run.c', 'src/fleet/fleet_probe.c'}
PURE_AREAS = ('parse', 'manifest', 'rules', 'env', 'live', 'node', 'nixl', 'core', 'fleet')

INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)


def area_of(rel):
    parts = rel.split('/')
    if len(parts) == 2:          # src/main.c
        return os.path.splitext(parts[1])[0]
    return parts[1]


def scan(root):
    files = {}
    for dirpath, _, names in os.walk(os.path.join(root, 'src')):
        for n in names:
            if n.endswith(('.c', '.h')):
                p = os.path.join(dirpath, n)
                rel = os.path.relpath(p, root)
                with open(p, errors='replace') as f:
                    files[rel] = INCLUDE.findall(f.read())
    return files


def resolve(root, rel, name):
    """src/-relative include, or relative to the including file."""
    for cand in (os.path.join('src', name), os.path.join(os.path.dirname(rel), name)):
        cand = os.path.normpath(cand)
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None


def find_cycles(edges):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main(argv):
    graph_only = '--graph' in argv
    args = [a for a in argv if a != '--graph']
    root = args[0] if args else os.getcwd()
    files = scan(root)
    problems = []
    area_edges, area_count, file_edges = {}, {}, {}
    for rel, incs in sorted(files.items()):
        a = area_of(rel)
        for kind, name in incs:
            if kind == '<':
                if name in SYSTEM_HEADERS and a not in ('cmd', 'probe') and rel not in SYSTEM_ALLOWED:
                    problems.append('%s: includes <%s>: only cmd/ and probe/ touch the system '
                                    '(SYSTEM_ALLOWED names the exceptions)' % (rel, name))
                continue
            if '/' not in name:
                problems.append('%s: includes "%s": write src-relative paths ("area/file.h"), '
                                'one include style' % (rel, name))
            target = resolve(root, rel, name)
            if target is None:
                problems.append('%s: includes "%s", which is not in src/' % (rel, name))
                continue
            file_edges.setdefault(rel, set()).add(target)
            b = area_of(target)
            if b == a:
                continue
            area_edges.setdefault(a, set()).add(b)
            area_count[(a, b)] = area_count.get((a, b), 0) + 1
            if a in ('parse', 'manifest', 'env', 'live', 'node', 'nixl', 'core') and target == 'src/core/cli.h' \
                    and rel != 'src/core/cli.c':
                problems.append('%s: includes core/cli.h: only cmd/ and main.c see the command line' % rel)
            if b == 'probe' and a in ('parse', 'manifest', 'env', 'live', 'node', 'nixl', 'core') \
                    and rel not in PROBE_ALLOWED:
                problems.append('%s: includes %s: parsers and checks never include probe/' % (rel, target))
            if a in LAYERS and b not in LAYERS[a]:
                problems.append('%s: includes %s: area %s may not include %s (see LAYERS)'
                                % (rel, target, a, b))

    if graph_only:
        for a in sorted(area_edges):
            for b in sorted(area_edges[a]):
                print('%s -> %s: %d' % (a, b, area_count[(a, b)]))
        for comp in find_cycles(area_edges):
            print('cycle: ' + ' <-> '.join(comp))
        return 0

    # Transitively: no pure file reaches probe/ through another header.
    for rel in sorted(files):
        a = area_of(rel)
        if a not in PURE_AREAS or rel in FLEET_RUNNERS or rel in PROBE_ALLOWED:
            continue
        seen, todo = set(), list(file_edges.get(rel, ()))
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            if area_of(f) == 'probe':
                problems.append('%s: reaches %s through its includes: pure code never '
                                'includes probe/ (fleet: only FLEET_RUNNERS)' % (rel, f))
                break
            todo.extend(file_edges.get(f, ()))

    for comp in find_cycles(area_edges):
        problems.append('include cycle between areas: ' + ' <-> '.join(comp))
    for comp in find_cycles(file_edges):
        problems.append('include cycle between files: ' + ' <-> '.join(comp))
    for p in problems:
        print(p)
    print('includes: %d files, %d area edges, %d problems'
          % (len(files), sum(len(v) for v in area_edges.values()), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
