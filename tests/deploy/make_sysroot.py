#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""usage: make_sysroot.py DIR

A small node for `agent --once` in the image (tools/build-image.sh): two
engine processes in two pods, named the way the kubelet lays them out
(/proc/PID/cgroup in the systemd and cgroupfs forms, /var/log/pods and
/var/log/containers), one holding an RDMA device, and a process that is no
engine.  Static files: the windows are idle.  tests/agent/test_agent.py has
the full node (counters that move, NIXL exporters).
"""
import os
import sys

ROOT = sys.argv[1]
LIBS = ["/opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/plugins/libplugin_UCX.so",
        "/opt/nvidia/nvda_nixl/lib/x86_64-linux-gnu/libnixl.so",
        "/usr/local/ucx/lib/libucp.so.0.0.0", "/usr/local/ucx/lib/ucx/libuct_ib.so.0.0.0",
        "/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.50.0", "/usr/lib/x86_64-linux-gnu/libc.so.6"]
# (pid, namespace, pod, uid, container, container id, cgroup line, fds)
PODS = [
    (2101, "dynamo", "decode-0", "6f1c2e3a-1b2c-4d5e-8f90-0a1b2c3d4e5f", "main", "a1" * 32,
     "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod6f1c2e3a_1b2c_4d5e_8f90_"
     "0a1b2c3d4e5f.slice/cri-containerd-%s.scope\n" % ("a1" * 32), {"17": "/dev/infiniband/uverbs0"}),
    (2202, "dynamo", "prefill-0", "7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d", "main", "b2" * 32,
     "0::/kubepods/besteffort/pod7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d/%s\n" % ("b2" * 32), {}),
]


def write(rel, text):
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def maps(libs):
    out, addr = [], 0x7F2A1C000000
    for i, lib in enumerate(libs):
        out.append("%012x-%012x r-xp 00000000 00:3a %d %s" % (addr, addr + 0x21000, 20011 + i, lib))
        addr += 0x22000
    return "\n".join(out) + "\n"


write("proc/sys/kernel/hostname", "gpu-node-1\n")
write("sys/class/infiniband_verbs/uverbs0/ibdev", "mlx5_0\n")
write("sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n")
for c in ("port_xmit_data", "port_rcv_data"):
    write("sys/class/infiniband/mlx5_0/ports/1/counters/" + c, "1000\n")
write("proc/1/cmdline", "/sbin/init\0")
write("proc/1/maps", maps(LIBS[-1:]))
for pid, ns, pod, uid, ctr, cid, cgroup, fds in PODS:
    p = "proc/%d/" % pid
    write(p + "cmdline", "python3\0-m\0dynamo.vllm\0--model\0Qwen/Qwen3-0.6B\0")
    write(p + "comm", "python3\n")
    write(p + "maps", maps(LIBS))
    write(p + "cgroup", cgroup)
    write(p + "environ", "PATH=/usr/bin\0UCX_TLS=rc,cuda_copy\0")
    write(p + "limits", "Max locked memory         unlimited            unlimited            bytes\n")
    write(p + "net/dev", "Inter-|\n face |\n  eth0: 1000 1 0 0 0 0 0 0 2000 1 0 0 0 0 0 0\n")
    os.makedirs(os.path.join(ROOT, p, "fd"), exist_ok=True)
    for n, t in dict({"0": "/dev/null"}, **fds).items():
        os.symlink(t, os.path.join(ROOT, p, "fd", n))
    os.makedirs(os.path.join(ROOT, "var/log/pods", "%s_%s_%s" % (ns, pod, uid), ctr), exist_ok=True)
    link = os.path.join(ROOT, "var/log/containers", "%s_%s_%s-%s.log" % (pod, ns, ctr, cid))
    os.makedirs(os.path.dirname(link), exist_ok=True)
    os.symlink("/var/log/pods/%s_%s_%s/%s/0.log" % (ns, pod, uid, ctr), link)
