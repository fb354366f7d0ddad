#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The agent reads in C what probe.sh reads in the pod: the same transport
libraries of /proc/PID/maps (probe.sh's live:maps grep -E) and the same RDMA
port counters (its live_sample loop).  Two spellings of one list, held
together here: a library or a counter added to one and not the other fails.
usage: test_probe_lists.py (from the repository root)
Prints "N passed, N failed"; exit 1 on any failure."""
import re
import sys

passed = failed = 0


def ok(cond, what):
    global passed, failed
    passed, failed = passed + bool(cond), failed + (not cond)
    print(("PASS " if cond else "FAIL ") + what)


def c_array(src, name):
    m = re.search(r"%s\[\] = \{(.*?)\};" % name, src, re.S)
    return re.findall(r'"([^"]+)"', m.group(1)) if m else []


def expand(alt):
    # libuc[pst] -> libucp libucs libuct
    m = re.fullmatch(r"(.*)\[([a-z]+)\](.*)", alt)
    return [m.group(1) + c + m.group(3) for c in m.group(2)] if m else [alt]


sh = open("src/probe/probe.sh").read()
c = open("src/probe/proc_scan.c").read()
m = re.search(r"grep -E -s -e '/\(([^)]*)\)\[\^/\]\*\$'", sh)
ok(m is not None, "probe.sh's live:maps pattern found")
sh_libs = set()
for alt in (m.group(1).split("|") if m else []):
    sh_libs.update(expand(alt))
c_libs = set(c_array(c, "transport_libs"))
# a prefix the other side covers with a shorter one is the same set
def covered(x, by):
    return any(x.startswith(p) for p in by)
ok(all(covered(x, c_libs) for x in sh_libs) and all(covered(x, sh_libs) for x in c_libs),
   "the same transport libraries (probe.sh %s, proc_scan.c %s)" % (sorted(sh_libs), sorted(c_libs)))
m = re.search(r"for c in (counters/port_xmit_data.*?); do", sh, re.S)
sh_ctr = m.group(1).replace("\\\n", " ").split() if m else []
c_ctr = c_array(c, "port_counters")
ok(sh_ctr and sh_ctr == c_ctr, "the same port counters, in order (%d)" % len(c_ctr))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
