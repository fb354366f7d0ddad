#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What one agent scan costs on a node with 8 engine processes (issue 25).

The node: a sysroot of 8 pods (tests/agent/test_agent.py's tree shapes),
each engine with a maps file of 6,000 lines (the synthesised vLLM maps of
docs/probe.md: about 412 KiB), its descriptors, environment, cgroup and
its own NIXL exporter on 127.0.0.1; the RDMA port counters, the kubelet's
log folders.  The agent serves (--interval 1s, --node-interval 1h), so its
first scan runs the node checks (probe.sh, a process tree) and the next
ones read the engines only, in C.  From /proc/PID/stat of the agent:
  - an engine scan: the agent's own user+sys CPU between scans, per scan
    (median over RUNS windows of one scan each, after the first);
  - the node checks: the CPU of the children it waited for (the probe's
    tree), from the first scan;
  - max RSS: VmHWM of the agent after every scan.
usage: agent_cost.py BINARY [RUNS]
"""
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tests", "agent"))
import test_agent as t  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def stat(pid):
    with open("/proc/%d/stat" % pid) as f:
        f = f.read().rsplit(")", 1)[1].split()
    # fields after comm: state=0 ... utime=11 stime=12 cutime=13 cstime=14
    return int(f[11]) + int(f[12]), int(f[13]) + int(f[14])


def hwm(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def scans(port):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=5) as r:
            for line in r.read().decode().splitlines():
                if line.startswith("check_interconnect_scans_total"):
                    return int(float(line.rsplit(" ", 1)[1]))
    except OSError:
        pass
    return -1


def main():
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    tmp = tempfile.mkdtemp(prefix="ci-agent-bench-")
    root = os.path.join(tmp, "root")
    t.PODS[:] = [(2000 + i, "dynamo", "worker-%d" % i, "%08x-1b2c-4d5e-8f90-0a1b2c3d4e5f" % i,
                  "main", ("%02x" % (0x10 + i)) * 32, "systemd-containerd", "rdma") for i in range(8)]
    libs = t.LIBS_UCX + ["/usr/local/lib/python3.12/dist-packages/vllm/_C.abi3.so"]
    big = [libs[i % len(libs)] if i < len(libs) else
           "/usr/local/lib/python3.12/dist-packages/torch/lib/libtorch_part%04d.so" % i
           for i in range(2000)]
    node = t.Node(root)
    maps = t.maps_text(big)  # 3 lines a library: 6,000 lines
    for pid, *_ in t.PODS:
        with open(os.path.join(root, "proc", str(pid), "maps"), "w") as f:
            f.write(maps)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    p = subprocess.Popen([binary, "agent", "--sysroot", root, "--interval", "1s",
                          "--node-interval", "1h", "--listen", "127.0.0.1:%d" % port],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while scans(port) < 1 and time.time() < deadline:
            time.sleep(0.05)
        own0, kids0 = stat(p.pid)
        last, own_last, per = 1, own0, []
        while len(per) < runs and time.time() < deadline:
            n = scans(port)
            if n > last:
                own, _ = stat(p.pid)
                per.append((own - own_last) / TICK * 1000 / (n - last))
                last, own_last = n, own
            time.sleep(0.02)
        rss = hwm(p.pid)
        mean = (own_last - own0) / TICK * 1000 / max(last - 1, 1)
        print("agent scan of %d engine processes (maps %d KiB each), %d scans: CPU median %.1f ms, "
              "mean %.1f ms (user+sys; /proc ticks of %d ms), max RSS %.1f MB" %
              (len(t.PODS), len(maps) // 1024, len(per), statistics.median(per) if per else -1,
               mean, 1000 // TICK, rss / 1024))
        print("agent node checks (probe.sh, first scan, its process tree): CPU %.0f ms" %
              (kids0 / TICK * 1000))
    finally:
        p.terminate()
        p.wait()
        for e in node.exp.values():
            e.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
