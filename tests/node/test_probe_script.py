#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of src/probe/probe.sh, the one script that runs inside pods.

1. read-only: every command word is on an allowlist, no write of any kind
   (redirection to a file other than /dev/null, >>, tee, rm, mv, ...), every
   tool invocation uses only its read-only flags;
2. shellcheck -s sh is clean (when shellcheck is installed);
3. the process budget: with logging stand-ins for every common utility
   first on PATH, the only programs the script starts are the tool queries,
   `timeout` and one `tr` (no sed/grep/head/cat/env per section or variable);
4. the secret filter: planted HF_TOKEN, AWS_SECRET_ACCESS_KEY, a multi-line
   secret whose second line starts with UCX_TLS=, NIXL_ETCD_PASSWORD and URL
   passwords never appear in the transcript, from /proc/1/environ or the exec
   shell; a CR inside one value never makes a variable of its own; and the
   script's filter is the C rule (redact_names, built from src/core/redact.c)
   on every secret word of redact.c in several spellings;
5. the format: every section named in src/node/sections.h is printed (legacy
   ones are only read), body lines all start with '|', a tool's output cannot
   forge "@@end", a capped section says so;
6. the tools run with quiet log levels while env:exec keeps the pod's;
7. the sysroot jail: links that leave the tree are not followed, links
   inside it are;
8. the same transcript under every POSIX shell found (dash, busybox sh, bash).
Usage: test_probe_script.py [REDACT_NAMES] (from the repo root).  Exit 0 ok,
1 failure.
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

ROOT = os.getcwd()
SCRIPT = os.path.join(ROOT, "src", "probe", "probe.sh")
SECTIONS_H = os.path.join(ROOT, "src", "node", "sections.h")
# The live evidence's sections (src/live/live.h): printed only when an engine
# process is found or a window is asked for; kube:logs is the runner's own.
LIVE_H = os.path.join(ROOT, "src", "live", "live.h")


def live_section_names():
    text = open(LIVE_H).read()
    return set(n for n in re.findall(r'#define SEC_LIVE_\w+\s+"([^"]+)"', text)
               if n.startswith("live:"))
REDACT_C = os.path.join(ROOT, "src", "core", "redact.c")
REDACT_NAMES = sys.argv[1] if len(sys.argv) > 1 else None
BASE_PATH = os.environ.get("PATH", "/usr/bin:/bin")

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


# ---------------------------------------------------------------- 1. allowlist

# Shell keywords and builtins the script may use (functions it defines are
# fine too).  `cd` only moves the probe shell itself (the jail's `cd -P`);
# `unset` and `export` are checked for their only allowed uses below.
KEYWORDS = {"if", "then", "else", "elif", "fi", "for", "in", "do", "done", "while", "case",
            "esac", "return", "break", "continue", "set", "shift", "local", "true", "false",
            "!", "{", "}", "exec", "eval", "read", "[", "test", "printf", "echo", "command",
            ":", "ulimit", "cd", "unset", "export"}
# External programs: read-only ones only.
PROGRAMS = {"cat", "ls", "head", "sed", "tr", "grep", "timeout", "readlink", "uname", "df",
            "sleep", "curl", "wget", "python3",
            "env", "ibv_devinfo", "nvidia-smi", "fi_info", "ucx_info"}
# Read-only invocations of the tools (argument vectors, after `timeout 5`).
TOOL_ARGS = {
    "ibv_devinfo": [[]],
    # topo -p2p r only when topo -m shows two GPUs without NVLink
    "nvidia-smi": [["-q"], ["topo", "-m"], ["nvlink", "-s"], ["topo", "-p2p", "r"]],
    "fi_info": [["-p", "efa"]],
    "ucx_info": [["-v", "-d"], ["-v"]],
    "df": [["-k", "/dev/shm"]],
    # The live evidence (src/live/live.h): which process mapped a NIXL
    # plugin, its transport libraries, its descriptors (link texts), and
    # ONE fixed GET of NIXL's own metrics endpoint on 127.0.0.1.
    "grep": [["-l", "-s", "-e", "'libplugin_[A-Za-z0-9_]*\\.so'", "--", '"$@"'],
             ["-E", "-s", "-e", "'/(libplugin_|libnixl|libuc[pst]|libuct_|libfabric|libefa|"
              "libibverbs|libmlx5|libnccl|libgdrapi)[^/]*$'", "--", '"$m"']],
    "ls": [["-l", "--", '"$d"']],
    "curl": [["-s", "-f", "-m", "3", "--", '"$url"']],
    "wget": [["-q", "-T", "3", "-O", "-", "--", '"$url"']],
    "python3": [["-c", "'__import__(\"sys\").stdout.write(__import__(\"urllib.request\").request."
                 "urlopen(__import__(\"sys\").argv[1],timeout=3).read(int(__import__(\"sys\")."
                 "argv[2])).decode(\"utf-8\",\"replace\"))'",
                 '"$url"', '"$tm_cap"']],
}
FORBIDDEN = {"tee", "rm", "mv", "cp", "mkdir", "touch", "chmod", "chown", "kill", "pkill",
             "modprobe", "insmod", "rmmod", "dd", "sysctl", "ln", "truncate", "mknod", "mount",
             "umount", "setpci", "mlxconfig", "ip", "ifconfig", "curl", "wget", "python",
             "python3", "perl", "nc", "sh", "bash", "source", ".", "trap",
             "install", "sudo", "chroot", "nsenter", "ibv_rc_pingpong", "ib_write_bw"}


def strip_comments(text):
    out = []
    for line in text.splitlines():
        # A '#' starts a comment at the start of a word, outside quotes.
        q = None
        res = ""
        for i, ch in enumerate(line):
            if q:
                res += ch
                if ch == q and (q == "'" or line[i - 1] != "\\"):
                    q = None
                continue
            if ch in "'\"":
                q = ch
            elif ch == "#" and (i == 0 or line[i - 1] in " \t;({"):
                # not $# nor ${#var} (a length)
                if not (i > 0 and line[i - 1] == "$") and not line[max(i - 2, 0):i] == "${":
                    break
            res += ch
        out.append(res)
    return "\n".join(out)


def functions(text):
    return set(re.findall(r"^([a-z_]+)\(\) \{", text, re.M))


def drop_quoted(s):
    """Replace quoted strings by a placeholder (their content is data)."""
    return re.sub(r"'[^']*'|\"(?:\\.|[^\"\\])*\"", "Q", s)


def simple_commands(text):
    """Every simple command (after splitting on ; | && || $( ( { and line
    starts), with quoted strings neutralised."""
    body = drop_quoted(text)
    # Arithmetic is not a command.
    body = re.sub(r"\$\(\([^)]*\)\)", "0", body)
    # Line continuations join lines.
    body = body.replace("\\\n", " ")
    for raw in re.split(r"\n|;|\|\||&&|\||\$\(|\(|\)|`", body):
        s = raw.strip()
        while s.startswith(("{", "!", "then ", "else ", "do ", "elif ", "if ", "while ")):
            s = re.sub(r"^(\{|!|then |else |do |elif |if |while )\s*", "", s)
        if not s or s.startswith("}") or s in ("then", "else", "do", "done", "fi", "esac", ";;"):
            continue
        yield s


def command_words(text, funcs):
    """First word of every simple command."""
    words = []
    for s in simple_commands(text):
        w = s.split()[0]
        if re.match(r"^\d*[<>]", w):   # a redirection after a subshell
            continue
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w):   # assignment
            rest = s.split(None, 1)
            if len(rest) == 1:
                continue
            w = rest[1].split()[0] if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", rest[1]) else ""
            if not w:
                continue
        if w.endswith(")") or re.match(r"^[^ ]*\)$", w):   # case pattern
            continue
        words.append(w)
    return words


def test_allowlist():
    text = open(SCRIPT).read()
    code = strip_comments(text)
    funcs = functions(code)
    allowed = KEYWORDS | PROGRAMS | funcs
    for w in command_words(code, funcs):
        if w in FORBIDDEN:
            fail("forbidden command in probe.sh: %r" % w)
        elif w.startswith("$") or w in ("Q",) or w.startswith("*") or w.startswith("'"):
            # "$@" runs a tool vector built by `tool`; checked below.
            continue
        elif re.match(r"^[a-z0-9_:*|' .-]+\)$", w):
            continue
        elif re.match(r"^(\[[A-Za-z]+\])+$", w) or re.match(r"^\d+$", w):
            continue   # case patterns of any case ([yY][eE][sS]) and digits
        elif w not in allowed and not w.startswith(("case", "esac")) and w not in ("in",):
            # case patterns like `UCX_* | NIXL_*` and continuation lines
            if re.match(r"^[A-Z_*|\\]+$", w) or w.startswith("*") or w.endswith("*"):
                continue
            fail("command outside the allowlist in probe.sh: %r" % w)
    # export only lists (-p), unset only drops NCCL_DEBUG from the probe shell
    # (so that no tool it runs sees the pod's debug level), cd only moves the
    # probe shell around the sysroot tree (-P) or back to /.
    for s in simple_commands(code):
        words = s.split()
        if words[0] == "export" and words[1:] != ["-p"]:
            fail("export other than `export -p` in probe.sh: %r" % s)
        if words[0] == "unset" and words[1:] != ["NCCL_DEBUG"]:
            fail("unset other than `unset NCCL_DEBUG` in probe.sh: %r" % s)
        if words[0] == "cd" and words[1:2] not in (["-P"], ["/"]):
            fail("cd other than `cd -P` / `cd /` in probe.sh: %r" % s)
    # Writes: any redirection of output to something other than /dev/null or
    # a numbered descriptor.
    for m in re.finditer(r"(\d?)(>>?)\s*(&?[^\s;)]+)", drop_quoted(code)):
        op, target = m.group(2), m.group(3)
        if op == ">>":
            fail("append redirection in probe.sh: %r" % m.group(0))
        elif not (target in ("/dev/null",) or re.match(r"^&\d$", target)):
            fail("write redirection in probe.sh: %r" % m.group(0))
    # Tool invocations: `tool NAME CAP prog args...` and `toolrun prog args...`.
    joined = code.replace("\\\n", " ")
    runs = [m.group(1) for m in re.finditer(r"^\s*tool \S+ \"\$(?:big)?cap\" (.*)$", joined, re.M)]
    runs += [m.group(1) for m in re.finditer(r"^\s*toolrun (.*)$", joined, re.M)
             if m.group(1) != '"$@"']
    if not runs:
        fail("no tool runs found in probe.sh (test out of date)")
    for r in runs:
        argv = r.split()
        prog, args = argv[0], argv[1:]
        if prog not in TOOL_ARGS:
            fail("tool not on the read-only list: %r" % prog)
        elif args not in TOOL_ARGS[prog]:
            fail("tool %s run with flags outside its read-only set: %r" % (prog, args))
    # "$@" is executed in exactly one place: toolrun, after `timeout 5`
    # (two lines there: whole, or through `head -c "$hc"` for the scrape).
    m = re.search(r"^toolrun\(\) \{\n(.*?)^\}", joined, re.M | re.S)
    execs = re.findall(r"^.*(?<![\w=])\"\$@\" <.*$", joined, re.M)
    inside = re.findall(r"^.*(?<![\w=])\"\$@\" <.*$", m.group(1), re.M) if m else []
    if len(execs) != 2 or len(inside) != 2:
        fail("\"$@\" is run outside toolrun: %r" % execs)
    # head only ever cuts the scrape: `head -c "$hc"`, nothing else
    for s in simple_commands(code):
        if s.split()[0] == "head" and s.split()[1:] != ["-c", "Q"]:
            fail("head other than `head -c \"$hc\"` in probe.sh: %r" % s)


def test_allowlist_catches():
    """The checker itself must fail on a write and on a foreign command."""
    global failures
    saved = failures
    for bad in ("echo 1 > /sys/class/foo\n", "rm -rf /tmp/x\n", "modprobe nvidia_peermem\n",
                "printf x >>/tmp/log\n", "cat /proc/x | tee /tmp/y\n", "curl http://x\n"):
        failures = []
        code = strip_comments(bad)
        for w in command_words(code, set()):
            if w in FORBIDDEN or w not in KEYWORDS | PROGRAMS:
                failures.append(w)
        for m in re.finditer(r"(\d?)(>>?)\s*(&?[^\s;)]+)", drop_quoted(code)):
            if m.group(2) == ">>" or not (m.group(3) == "/dev/null" or re.match(r"^&\d$", m.group(3))):
                failures.append(m.group(0))
        if not failures:
            saved.append("allowlist checker misses: %r" % bad)
            print("FAIL: allowlist checker misses: %r" % bad)
    failures = saved


# --------------------------------------------------------------- 2. shellcheck

def test_shellcheck():
    sc = shutil.which("shellcheck")
    if not sc:
        print("note: shellcheck not installed; skipped")
        return
    r = subprocess.run([sc, "-s", "sh", SCRIPT], capture_output=True, text=True)
    if r.returncode != 0:
        fail("shellcheck -s sh probe.sh:\n" + r.stdout + r.stderr)


# ------------------------------------------------------------------ helpers

def run_probe(root, env, shell="sh"):
    script = open(SCRIPT).read()
    argv = shell.split() + ["-c", script, "ci-probe", root]
    r = subprocess.run(argv, capture_output=True, env=env, timeout=120)
    return r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def section(out, name):
    m = re.search(r"^@@begin %s\n(.*?)^@@end %s (.*)$" % (re.escape(name), re.escape(name)),
                  out, re.S | re.M)
    if not m:
        return None, None
    return [l[1:] for l in m.group(1).split("\n") if l], m.group(2)


def write_exe(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)


# Fake tools printing REAL recorded outputs (tests/fixtures), so that the
# budget and format tests see realistic volumes.
FIX = os.path.join(ROOT, "tests", "fixtures")


def fake_tools(bindir):
    os.makedirs(bindir, exist_ok=True)
    o = os.path.join(FIX, "node", "outputs")
    n = os.path.join(FIX, "nixl", "outputs")
    # by absolute path: the budget test logs every sed found on PATH
    out = "'%s' '1,/^# ---$/d' " % shutil.which("sed")
    write_exe(os.path.join(bindir, "ibv_devinfo"), "#!/bin/sh\n" + out +
              "'%s/ibv_devinfo__h200_cx7_roce_plus_bond_all_active.txt'\n" % o)
    write_exe(os.path.join(bindir, "nvidia-smi"), """#!/bin/sh
case "$*" in
-q) %s'%s/nvidia-smi_-q__h100_535.183.01_fabric_completed_success.txt' ;;
"topo -m") %s'%s/nvidia-smi_topo_-m__h100_8gpu_nv18_8nic_legend_spaces.txt' ;;
"nvlink -s") %s'%s/nvidia-smi_nvlink_--status__h100_gpu0_18links_26.562GBs.txt' ;;
*) echo "nvidia-smi: unexpected $*" >&2; exit 2 ;;
esac
""" % (out, o, out, o, out, o))
    write_exe(os.path.join(bindir, "fi_info"), "#!/bin/sh\n" + out +
              "'%s/fi_info_-p_efa__fi_getinfo_-61_no_efa.txt'\nexit 1\n" % o)
    write_exe(os.path.join(bindir, "ucx_info"), """#!/bin/sh
for a do
case $a in
-v) %s'%s/ucx_info_-v__derived_1.19.0_with_cuda_gdrcopy.txt' ;;
-d) %s'%s/ucx_info_-d__derived_cx6_hdr_ib_cuda_on_mlx5_md.txt' ;;
esac
done
""" % (out, n, out, n))


# ------------------------------------------------------------ 3. process budget

# Utilities a shell script might reach for; each gets a logging stand-in
# first on PATH.  The tools themselves are logged too.
UTILS = ["sed", "grep", "head", "tail", "cat", "tr", "env", "awk", "cut", "sort", "uniq",
         "wc", "xargs", "find", "ls", "readlink", "realpath", "basename", "dirname", "stat",
         "printf", "echo", "test", "[", "true", "false", "expr", "od", "which", "id",
         "timeout", "uname", "df", "mktemp", "tee", "dd"]
TOOLS = ["ibv_devinfo", "nvidia-smi", "fi_info", "ucx_info"]


def test_process_budget():
    tmp = tempfile.mkdtemp()
    try:
        real = os.path.join(tmp, "real")
        fake_tools(real)
        logged = os.path.join(tmp, "bin")
        os.makedirs(logged)
        log = os.path.join(tmp, "log")
        path_real = real + ":" + BASE_PATH
        for u in UTILS + TOOLS:
            target = shutil.which(u, path=path_real)
            if not target:
                continue
            write_exe(os.path.join(logged, u),
                      "#!/bin/sh\nprintf '%%s\\n' '%s' >>'%s'\nexec '%s' \"$@\"\n" % (u, log, target))
        env = {"PATH": logged + ":" + path_real,
               "UCX_TLS": "rc,cuda_copy", "UCX_NET_DEVICES": "mlx5_0:1",
               "UCX_IB_GID_INDEX": "3", "UCX_RNDV_THRESH": "8192",
               "NCCL_IB_HCA": "mlx5_0", "NCCL_SOCKET_IFNAME": "eth0",
               "NIXL_ETCD_ENDPOINTS": "http://etcd:2379", "CUDA_VISIBLE_DEVICES": "0,1"}
        out, err = run_probe("", env)
        ran = open(log).read().split() if os.path.exists(log) else []
        # grep and ls: the live evidence's engine search and its reads
        # (one grep -l over every maps file, at most one more grep and one
        # ls when an engine process is found).
        # sleep: once at most, when the tool queries took under a second
        # between the two counter readings (a host with RDMA ports).
        allowed = set(TOOLS) | {"timeout", "tr", "df", "uname", "grep", "ls", "sleep"}
        if ran.count("sleep") > 1:
            fail("the probe ran sleep %d times (at most once)" % ran.count("sleep"))
        if ran.count("grep") > 2 or ran.count("ls") > 1:
            fail("the probe ran grep %d and ls %d times (at most 2 and 1, for the live evidence)"
                 % (ran.count("grep"), ran.count("ls")))
        for u in sorted(set(ran) - allowed):
            fail("the probe ran %r (%d times): a helper process" % (u, ran.count(u)))
        if ran.count("tr") > 1:
            fail("the probe ran tr %d times (at most once, for /proc/1/environ)" % ran.count("tr"))
        tools_run = [u for u in ran if u in TOOLS or u in ("df", "grep", "ls")]
        # (all NVLink between the 8 H100s: no topo -p2p r run)
        if shutil.which("timeout", path=BASE_PATH) and ran.count("timeout") != len(tools_run):
            fail("%d timeout runs for %d tool runs" % (ran.count("timeout"), len(tools_run)))
        if ran.count("nvidia-smi") != 3 or ran.count("ucx_info") != 1:
            fail("tool runs: nvidia-smi %d (want 3), ucx_info %d (want 1)"
                 % (ran.count("nvidia-smi"), ran.count("ucx_info")))
        if "@@done" not in out:
            fail("probe under logging PATH did not finish: %r" % err[-300:])
    finally:
        shutil.rmtree(tmp)


def test_p2p_when_needed():
    """topo -p2p r runs only when topo -m shows two GPUs without NVLink (the
    real 2x RTX 5090 PHB matrix); the H100 NV18 matrix needs none.  The -q
    filter keeps MIG Mode and GPU Link Info > Link Width."""
    tmp = tempfile.mkdtemp()
    try:
        bindir = os.path.join(tmp, "bin")
        fake_tools(bindir)
        out, _ = run_probe(os.path.join(tmp, "none"), {"PATH": bindir + ":" + BASE_PATH})
        if section(out, "tool:nvsmi-p2p")[0] is not None:
            fail("topo -p2p r ran on the all-NVLink H100 topology")
        q, _ = section(out, "tool:nvsmi-q")
        for want in ("    MIG Mode", "        Current                           : Disabled",
                     "        GPU Link Info", "            Link Width",
                     "                Max                       : 16x"):
            if want not in (q or []):
                fail("the nvidia-smi -q filter dropped %r" % want)
        if any("PCIe Generation" in l or "Bridge Chip" in l for l in q or []):
            fail("the nvidia-smi -q filter kept lines no check reads")
        topo = os.path.join(FIX, "parse", "nvidia-smi_topo_-m__2x_rtx5090_phb_and_p2p_matrix_tabs.txt")
        write_exe(os.path.join(bindir, "nvidia-smi"), """#!/bin/sh
case "$*" in
"topo -m") '%s' '1,/^# ---$/d; /^### topo -p2p/,$d' '%s' ;;
"topo -p2p r") printf ' \tGPU0\tGPU1\t\n GPU0\tX\tGNS\t\n GPU1\tGNS\tX\t\n' ;;
*) exit 0 ;;
esac
""" % (shutil.which("sed"), topo))
        out, _ = run_probe(os.path.join(tmp, "none"), {"PATH": bindir + ":" + BASE_PATH})
        body, end = section(out, "tool:nvsmi-p2p")
        if body is None or " GPU0\tX\tGNS\t" not in body:
            fail("topo -p2p r did not run on the PHB topology: %r" % (body,))
    finally:
        shutil.rmtree(tmp)


# ------------------------------------------------------------------ 4. secrets

SECRET_VALUES = ["hf_PLANTEDsecret", "PLANTEDawsSECRET", "PLANTED_LEAK", "PLANTEDetcdpw",
                 "PLANTEDapikey", "PLANTEDcreds", "PLANTEDurlpw2"]


def test_secrets():
    tmp = tempfile.mkdtemp()
    try:
        os.makedirs(os.path.join(tmp, "proc", "1"))
        with open(os.path.join(tmp, "proc", "1", "environ"), "wb") as f:
            f.write(b"HF_TOKEN=hf_PLANTEDsecret123\0"
                    b"AWS_SECRET_ACCESS_KEY=PLANTEDawsSECRET\0"
                    b"MULTI=first line\nUCX_TLS=PLANTED_LEAK\0"
                    b"NIXL_ETCD_PASSWORD=PLANTEDetcdpw\0"
                    b"NIXL_API_KEY=PLANTEDapikey\0"
                    b"NIXL_ETCD_ENDPOINTS=http://user:PLANTEDcreds@etcd:2379,"
                    b"https://u2:PLANTEDurlpw2@etcd2:2379/x\0"
                    b"UCX_NET_DEVICES=mlx5_0:1\nHF_TOKEN=hf_PLANTEDsecret\0"
                    b"NCCL_FORGE=foo\rUCX_TLS=rc,cuda_copy\0"
                    b"UCX_TLS=tcp\0")
        out, _ = run_probe(tmp, {"PATH": BASE_PATH})
        for s in SECRET_VALUES:
            if s in out:
                fail("secret %r leaked from /proc/1/environ into the transcript" % s)
        body, _ = section(out, "env:pid1")
        body = body or []
        for want in ("UCX_TLS=tcp", "NIXL_ETCD_PASSWORD=<redacted>",
                     "NIXL_API_KEY=<redacted>", "UCX_NET_DEVICES=mlx5_0:1 <multi-line value cut>",
                     "NIXL_ETCD_ENDPOINTS=http://user:<redacted>@etcd:2379,"
                     "https://u2:<redacted>@etcd2:2379/x",
                     "NCCL_FORGE=foo\\x0dUCX_TLS=rc,cuda_copy"):
            if want not in body:
                fail("expected %r in env:pid1, got %r" % (want, body))
        if any(l.startswith("UCX_TLS=rc") for l in body) or "\r" in out:
            fail("a CR inside NCCL_FORGE's value made a variable of its own: %r" % body)
        if "MULTI" in out or "HF_TOKEN" in out or "AWS_SECRET" in out:
            fail("a non-transport variable name reached the transcript")
        # The exec shell's environment (host/pod probe, root "").
        env = {"PATH": BASE_PATH,
               "HF_TOKEN": "hf_PLANTEDsecret123",
               "AWS_SECRET_ACCESS_KEY": "PLANTEDawsSECRET",
               "MULTI": "first line\nUCX_TLS=PLANTED_LEAK",
               "NIXL_ETCD_PASSWORD": "PLANTEDetcdpw",
               "NCCL_IB_HCA": "mlx5_0\nAWS_SECRET_ACCESS_KEY=PLANTEDawsSECRET",
               "NCCL_FORGE": "foo\rUCX_NET_DEVICES=mlx5_9:1\x1b[2J",
               "NIXL_ETCD_ENDPOINTS": "http://user:PLANTEDcreds@etcd:2379",
               "UCX_TLS": "rc,cuda_copy"}
        out, _ = run_probe("", env)
        body, _ = section(out, "env:exec")
        body = body or []
        for s in SECRET_VALUES:
            if s in out:
                fail("secret %r leaked from the exec shell into the transcript" % s)
        for want in ("UCX_TLS=rc,cuda_copy", "NIXL_ETCD_PASSWORD=<redacted>",
                     "NCCL_IB_HCA=mlx5_0 <multi-line value cut>",
                     "NCCL_FORGE=foo\\x0dUCX_NET_DEVICES=mlx5_9:1\\x1b[2J",
                     "NIXL_ETCD_ENDPOINTS=http://user:<redacted>@etcd:2379"):
            if want not in body:
                fail("expected %r in env:exec, got %r" % (want, body))
        if any(l.startswith("UCX_NET_DEVICES") for l in body) or "\x1b" in out:
            fail("a control byte in one exec variable's value escaped it: %r" % body)
    finally:
        shutil.rmtree(tmp)


def secret_corpus():
    """Names from every secret word of redact.c, in several spellings and
    positions, plus near misses, all under transport prefixes (and a few
    without one, which must never be printed)."""
    words = set(re.findall(r'"([A-Z][A-Z_]*)"', open(REDACT_C).read()))
    words -= {"UCX_", "NIXL_", "NCCL_", "FI_", "MC_"}
    names = set()
    for w in sorted(words):
        if w.endswith("_") or len(w) < 2:
            continue
        for n in ("UCX_%s" % w, "NIXL_%s_FILE" % w, "NCCL_X%sY" % w.lower(), "FI_%s" % w.capitalize(),
                  "MC_A_%s_B" % w, "HF_%s" % w):
            if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", n):
                names.add(n)
    names |= {"UCX_KEEPALIVE_INTERVAL", "UCX_IB_PKEY", "NCCL_IB_PCI_RELAXED_ORDERING",
              "NIXL_ETCD_ENDPOINTS", "UCX_PASSIVE", "NCCL_KEY", "UCX_SOCKADDR_AUTH",
              "NCCL_PWD_X", "UCX_CERTAIN", "CUDA_VISIBLE_DEVICES", "GLOO_SOCKET_IFNAME",
              "VLLM_NIXL_SIDE_CHANNEL_PORT", "PATH_KEY", "TOKENIZER"}
    return sorted(names)


def test_secret_rule_is_the_c_rule():
    """The script's filter and redact.c give the same line for every name."""
    if not REDACT_NAMES or not os.path.exists(REDACT_NAMES):
        print("note: redact_names not built (run through meson); C cross-check skipped")
        return
    names = secret_corpus()
    values = {n: "v%d" % i for i, n in enumerate(names)}
    # values that are secret whatever the name, and URL credentials
    for i, v in enumerate(["user=a password=x", "x PWD=1", "?token=abc", "TOKEN:abc",
                           "Authorization: Bearer abc", "api_key=1", "passwd=2", "secret=3",
                           "http://root:p@etcd:2379", "http://root:p@ss@etcd:2379/x",
                           "https://TOK@example.com/x,http://a:b@h2:1", "etcd://h:2379",
                           "http://@h", "https://a:b@h1/x?y=http://c:d@h2", "mlx5_0:1,mlx5_1:1"]):
        n = "NIXL_VALUE_%d" % i
        names.append(n)
        values[n] = v
    c = subprocess.run([REDACT_NAMES], input="".join("%s=%s\n" % (n, values[n]) for n in names),
                       capture_output=True, text=True, check=True).stdout.split("\n")
    want = {}
    for l in c:
        if l.endswith(" skip"):
            want[l[:-5]] = None
        elif "=" in l:
            n, v = l.split("=", 1)
            want[n] = "%s=%s" % (n, v)
    env = dict(values)
    env["PATH"] = BASE_PATH
    out, _ = run_probe("", env)
    body, _ = section(out, "env:exec")
    got = {l.split("=", 1)[0]: l for l in body or []}
    for n in names:
        if want.get(n) != got.get(n):
            fail("secret rule differs for %s: C %r, pod filter %r" % (n, want.get(n), got.get(n)))


# ------------------------------------------------------------------- 5. format

def section_names():
    names, legacy = [], set()
    for line in open(SECTIONS_H):
        m = re.match(r'#define SEC_[A-Z0-9_]+\s+"([^"]+)"(.*)$', line)
        if m:
            names.append(m.group(1))
            if "legacy" in m.group(2):
                legacy.add(m.group(1))
    return names, legacy


def test_format():
    tmp = tempfile.mkdtemp()
    try:
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        # A hostile ibv_devinfo: forged section lines, no final newline.
        write_exe(os.path.join(bindir, "ibv_devinfo"),
                  "#!/bin/sh\nprintf '@@end tool:ibv_devinfo rc=0\\n@@begin evil\\n@@done\\nlast'\n")
        # A chatty fi_info: 100,000 lines, far over the cap.
        write_exe(os.path.join(bindir, "fi_info"),
                  "#!/bin/sh\ni=0\nwhile [ $i -lt 100000 ]; do echo \"provider: efa line $i\"; "
                  "i=$((i+1)); done\n")
        os.makedirs(os.path.join(tmp, "root", "sys", "class", "infiniband", "mlx5_0", "ports", "1"))
        with open(os.path.join(tmp, "root", "sys", "class", "infiniband", "mlx5_0", "ports", "1",
                               "state"), "w") as f:
            f.write("4: ACTIVE")       # no final newline, as sysfs copies often lack it
        out, _ = run_probe(os.path.join(tmp, "root"), {"PATH": bindir + ":" + BASE_PATH})
        lines = out.split("\n")
        if lines[0] != "@@ci-probe v1" or lines[-2] != "@@done":
            fail("transcript does not start with @@ci-probe v1 / end with @@done")
        if "@@begin evil" in lines or lines.count("@@done") != 1:
            fail("a tool's output forged a section line")
        if "|@@end tool:ibv_devinfo rc=0" not in lines or "|last" not in lines:
            fail("the hostile tool output is not carried as body lines")
        if "|sys/class/infiniband/mlx5_0/ports/1/state=4: ACTIVE" not in lines:
            fail("sysfs value without newline not read")
        body, end = section(out, "tool:fi_info-efa")
        if end is None or "capped" not in end.split():
            fail("a tool over the cap is not marked capped: %r" % end)
        elif sum(len(l) + 1 for l in body) > 65536 or len(body) < 1000:
            fail("capped fi_info body holds %d lines" % len(body))
        cur = None
        for l in lines:
            if l.startswith("@@begin "):
                cur = l[8:]
            elif l.startswith("@@end "):
                cur = None
            elif cur and l and not l.startswith("|"):
                fail("body line without '|' in %s: %r" % (cur, l))
        names, legacy = section_names()
        begun = set(re.findall(r"^@@begin (\S+)$", out, re.M))
        host_only = {"ulimit:l", "ulimit:hl", "env:exec", "tool:df-shm"}
        # Printed only when needed: -v alone when -v -d printed no version;
        # the P2P matrix when two GPUs lack NVLink; the second counter
        # reading on a host with RDMA ports (never under a sysroot).
        conditional = {"tool:ucx_info-v", "tool:nvsmi-p2p", "sys:counters"}
        for n in names:
            if n not in begun and n not in host_only | legacy | conditional:
                fail("section %s (sections.h) is not printed under a sysroot" % n)
        out2, _ = run_probe("", {"PATH": BASE_PATH})
        begun2 = set(re.findall(r"^@@begin (\S+)$", out2, re.M))
        mounts, _ = section(out2, "proc:mounts")
        shm_sized = any("size=" in l for l in mounts or [])
        for n in names:
            if n in legacy or n in conditional or (n == "tool:df-shm" and shm_sized):
                continue
            if n not in begun2:
                fail("section %s (sections.h) is not printed on the host" % n)
        for n in begun | begun2:
            if n not in names and n not in live_section_names():
                fail("section %s printed but not in sections.h" % n)
        for n in legacy & (begun | begun2):
            fail("legacy section %s is still printed" % n)
        # The ucx_info version rerun: a -v -d that printed no version.
        write_exe(os.path.join(bindir, "ucx_info"),
                  "#!/bin/sh\ncase \"$*\" in -v) echo '# Library version: 1.19.0' ;; "
                  "*) echo '# Memory domain: self' ; exit 124 ;; esac\n")
        out3, _ = run_probe(os.path.join(tmp, "root"), {"PATH": bindir + ":" + BASE_PATH})
        v, _ = section(out3, "tool:ucx_info-v")
        if v != ["# Library version: 1.19.0"]:
            fail("no -v rerun after a -v -d without a version: %r" % v)
    finally:
        shutil.rmtree(tmp)


# ------------------------------------------------------------ 6. log levels

def test_quiet_tools():
    tmp = tempfile.mkdtemp()
    try:
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        for t in ("ucx_info", "fi_info"):
            write_exe(os.path.join(bindir, t),
                      "#!/bin/sh\necho \"log=${UCX_LOG_LEVEL-unset} fi=${FI_LOG_LEVEL-unset} "
                      "file=${UCX_LOG_FILE-unset} nccl=${NCCL_DEBUG-unset}\"\n")
        env = {"PATH": bindir + ":" + BASE_PATH, "UCX_LOG_LEVEL": "debug",
               "FI_LOG_LEVEL": "trace", "NCCL_DEBUG": "INFO", "UCX_LOG_FILE": "/tmp/ucx.%p.log"}
        out, _ = run_probe("", env)
        for name in ("tool:ucx_info-vd", "tool:fi_info-efa"):
            body, _ = section(out, name)
            if body != ["log=warn fi=warn file= nccl=unset"]:
                fail("%s ran with the pod's log settings: %r" % (name, body))
        body, _ = section(out, "env:exec")
        for want in ("UCX_LOG_LEVEL=debug", "FI_LOG_LEVEL=trace", "NCCL_DEBUG=INFO"):
            if want not in (body or []):
                fail("env:exec lost the pod's %s: %r" % (want, body))
    finally:
        shutil.rmtree(tmp)


# ------------------------------------------------------------------ 7. jail

def test_jail():
    tmp = tempfile.mkdtemp()
    try:
        outside = os.path.join(tmp, "outside")
        os.makedirs(os.path.join(outside, "ports", "1"))
        for f in ("fw_ver", "ports/1/state"):
            with open(os.path.join(outside, f), "w") as fh:
                fh.write("CANARY_OUTSIDE\n")
        with open(os.path.join(tmp, "secret"), "w") as fh:
            fh.write("CANARY_FILE\n")
        root = os.path.join(tmp, "root")
        ib = os.path.join(root, "sys", "class", "infiniband")
        dev = os.path.join(root, "sys", "devices", "pci0", "infiniband", "mlx5_0")
        os.makedirs(os.path.join(dev, "ports", "1"))
        with open(os.path.join(dev, "fw_ver"), "w") as fh:
            fh.write("28.41.1000\n")
        os.makedirs(ib)
        # sysfs-style: class entries are links into devices/ (inside: read)
        os.symlink("../../devices/pci0/infiniband/mlx5_0", os.path.join(ib, "mlx5_0"))
        # a link that leaves the tree (not read), and a file link out of it
        os.symlink(outside, os.path.join(ib, "evil0"))
        os.symlink(os.path.join(tmp, "secret"), os.path.join(dev, "board_id"))
        os.makedirs(os.path.join(root, "proc", "1"))
        os.symlink(os.path.join(tmp, "secret"), os.path.join(root, "proc", "modules"))
        os.symlink("/proc/self/environ", os.path.join(root, "proc", "1", "environ"))
        out, _ = run_probe(root, {"PATH": BASE_PATH, "UCX_CANARY_ENV": "CANARY_ENV"})
        for c in ("CANARY_OUTSIDE", "CANARY_FILE", "CANARY_ENV", "evil0"):
            if c in out:
                fail("the sysroot jail let %s through" % c)
        if "|sys/class/infiniband/mlx5_0/fw_ver=28.41.1000" not in out.split("\n"):
            fail("a sysfs-style link inside the tree was not followed")
        # A relative root works the same (the script makes it absolute).
        out2, _ = run_probe(os.path.relpath(root), {"PATH": BASE_PATH})
        if "|sys/class/infiniband/mlx5_0/fw_ver=28.41.1000" not in out2.split("\n"):
            fail("a relative sysroot is not read")
    finally:
        shutil.rmtree(tmp)


# ------------------------------------------------------------ 8. every shell

def test_shells():
    tmp = tempfile.mkdtemp()
    try:
        bindir = os.path.join(tmp, "bin")
        fake_tools(bindir)
        env = {"PATH": bindir + ":" + BASE_PATH, "UCX_TLS": "rc,cuda_copy",
               "NCCL_IB_HCA": "mlx5_0\nX", "NCCL_FORGE": "a\rb\tc",
               "NIXL_ETCD_ENDPOINTS": "http://u:p@etcd:2379", "NIXL_TOKEN": "t"}
        shells = [s for s in ("dash", "busybox sh", "bash --posix", "bash", "mksh")
                  if shutil.which(s.split()[0]) and
                  (s != "busybox sh" or subprocess.run(["busybox", "sh", "-c", ":"]).returncode == 0)]
        outs = {}
        for s in shells:
            out, err = run_probe("", env, shell=s)
            # what may differ: nothing but the ulimit wording of a shell
            outs[s] = re.sub(r"@@begin ulimit:h?l\n.*?@@end", "ULIMIT", out, flags=re.S)
            # and the live evidence, which reads this machine's process table
            outs[s] = re.sub(r"@@begin live:[^\n]*\n.*?@@end live:[^\n]*\n", "", outs[s], flags=re.S)
            if "@@done" not in out:
                fail("probe under %s did not finish: %r" % (s, err[-300:]))
        base = shells[0] if shells else None
        for s in shells[1:]:
            if outs[s] != outs[base]:
                a, b = outs[base].split("\n"), outs[s].split("\n")
                diff = [(x, y) for x, y in zip(a, b) if x != y][:3]
                fail("transcript under %s differs from %s: %r" % (s, base, diff or (len(a), len(b))))
        print("note: compared shells: %s" % ", ".join(shells))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    test_allowlist()
    test_allowlist_catches()
    test_shellcheck()
    test_process_budget()
    test_p2p_when_needed()
    test_secrets()
    test_secret_rule_is_the_c_rule()
    test_format()
    test_quiet_tools()
    test_jail()
    test_shells()
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    print("probe.sh: allowlist, shellcheck, process budget, secret filter, format, "
          "log levels, jail and shells ok")
