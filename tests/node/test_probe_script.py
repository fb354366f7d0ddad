#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests of src/probe/probe.sh, the one script that runs inside pods.

1. read-only: every command word is on an allowlist, no write of any kind
   (redirection to a file other than /dev/null, >>, tee, rm, mv, ...), every
   tool invocation uses only its read-only flags;
2. shellcheck -s sh is clean (when shellcheck is installed);
3. the secret filter: planted HF_TOKEN, AWS_SECRET_ACCESS_KEY, a multi-line
   secret whose second line starts with UCX_TLS=, and NIXL_ETCD_PASSWORD
   never appear in the transcript, from /proc/1/environ or the exec shell;
4. the format: every section named in src/node/sections.h is printed, body
   lines all start with '|', a tool's output cannot forge "@@end".
Usage: test_probe_script.py (from the repo root).  Exit 0 ok, 1 failure.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.getcwd()
SCRIPT = os.path.join(ROOT, "src", "probe", "probe.sh")
SECTIONS_H = os.path.join(ROOT, "src", "node", "sections.h")

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


# ---------------------------------------------------------------- 1. allowlist

# Shell keywords, builtins and functions the script defines are fine.
KEYWORDS = {"if", "then", "else", "elif", "fi", "for", "in", "do", "done", "while", "case",
            "esac", "return", "break", "continue", "set", "shift", "local", "true", "false",
            "!", "{", "}", "exec", "eval", "read", "[", "test", "printf", "echo", "command",
            ":", "ulimit"}
# External programs: read-only ones only.
PROGRAMS = {"cat", "ls", "head", "sed", "tr", "grep", "timeout", "readlink", "uname", "df",
            "env", "ibv_devinfo", "nvidia-smi", "fi_info", "ucx_info"}
# Read-only invocations of the tools (argument vectors, after `timeout 5`).
TOOL_ARGS = {
    "ibv_devinfo": [[]],
    "nvidia-smi": [["-q"], ["topo", "-m"], ["nvlink", "-s"],
                   ["--query-gpu=index,name,pci.bus_id,driver_version", "--format=csv,noheader"]],
    "fi_info": [["-p", "efa"]],
    "ucx_info": [["-v"], ["-d"]],
    "df": [["-k", "/dev/shm"]],
}
FORBIDDEN = {"tee", "rm", "mv", "cp", "mkdir", "touch", "chmod", "chown", "kill", "pkill",
             "modprobe", "insmod", "rmmod", "dd", "sysctl", "ln", "truncate", "mknod", "mount",
             "umount", "setpci", "mlxconfig", "ip", "ifconfig", "curl", "wget", "python",
             "python3", "perl", "nc", "sh", "bash", "source", ".", "trap", "export", "unset",
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
                if not (i > 0 and line[i - 1] == "$"):
                    break
            res += ch
        out.append(res)
    return "\n".join(out)


def functions(text):
    return set(re.findall(r"^([a-z_]+)\(\) \{", text, re.M))


def drop_quoted(s):
    """Replace quoted strings by a placeholder (their content is data)."""
    return re.sub(r"'[^']*'|\"(?:\\.|[^\"\\])*\"", "Q", s)


def command_words(text, funcs):
    """First word of every simple command (after splitting on ; | && || $( ( { and
    line starts), with quoted strings neutralised."""
    words = []
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
        elif w not in allowed and not w.startswith(("case", "esac")) and w not in ("in",):
            # case patterns like `UCX_* | NIXL_*` and continuation lines
            if re.match(r"^[A-Z_*|\\]+$", w) or w.startswith("*") or w.endswith("*"):
                continue
            fail("command outside the allowlist in probe.sh: %r" % w)
    # Writes: any redirection of output to something other than /dev/null or
    # a numbered descriptor.
    for m in re.finditer(r"(\d?)(>>?)\s*(&?[^\s;)]+)", drop_quoted(code)):
        op, target = m.group(2), m.group(3)
        if op == ">>":
            fail("append redirection in probe.sh: %r" % m.group(0))
        elif not (target in ("/dev/null",) or re.match(r"^&\d$", target)):
            fail("write redirection in probe.sh: %r" % m.group(0))
    # Tool invocations: `tool NAME CAP prog args...` lines.
    joined = code.replace("\\\n", " ")
    for m in re.finditer(r"^\s*tool (\S+) \"\$(?:big)?cap\" (.*)$", joined, re.M):
        argv = m.group(2).split()
        prog, args = argv[0], argv[1:]
        if prog not in TOOL_ARGS:
            fail("tool not on the read-only list: %r" % prog)
        elif args not in TOOL_ARGS[prog]:
            fail("tool %s run with flags outside its read-only set: %r" % (prog, args))
    # `set -- ... nvidia-smi -q` (the filtered -q) must only ever be -q.
    for m in re.finditer(r"set -- (?:timeout 5 )?(\S+)(.*?);", joined):
        prog, args = m.group(1), m.group(2).split()
        if prog != "timeout" and (prog not in TOOL_ARGS or args not in TOOL_ARGS[prog]):
            fail("set -- vector outside the read-only set: %r" % m.group(0))


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


# ------------------------------------------------------------------ 3. secrets

SECRET_VALUES = ["hf_PLANTEDsecret", "PLANTEDawsSECRET", "PLANTED_LEAK", "PLANTEDetcdpw",
                 "PLANTEDapikey", "PLANTEDcreds"]


def run_probe(root, env):
    script = open(SCRIPT).read()
    r = subprocess.run(["sh", "-c", script, "ci-probe", root], capture_output=True, env=env,
                       timeout=120)
    return r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


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
                    b"NIXL_ETCD_ENDPOINTS=http://user:PLANTEDcreds@etcd:2379\0"
                    b"UCX_NET_DEVICES=mlx5_0:1\nHF_TOKEN=hf_PLANTEDsecret\0"
                    b"UCX_TLS=rc,cuda_copy\0")
        out, _ = run_probe(tmp, {"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
        for s in SECRET_VALUES:
            if s in out:
                fail("secret %r leaked from /proc/1/environ into the transcript" % s)
        for want in ("|UCX_TLS=rc,cuda_copy", "|NIXL_ETCD_PASSWORD=<redacted>",
                     "|NIXL_API_KEY=<redacted>", "|UCX_NET_DEVICES=mlx5_0:1 <multi-line value cut>"):
            if want not in out:
                fail("expected %r in env:pid1" % want)
        if "MULTI" in out or "HF_TOKEN" in out or "AWS_SECRET" in out:
            fail("a non-transport variable name reached the transcript")
        # The exec shell's environment (host/pod probe, root "").
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "HF_TOKEN": "hf_PLANTEDsecret123",
               "AWS_SECRET_ACCESS_KEY": "PLANTEDawsSECRET",
               "MULTI": "first line\nUCX_TLS=PLANTED_LEAK",
               "NIXL_ETCD_PASSWORD": "PLANTEDetcdpw",
               "NCCL_IB_HCA": "mlx5_0\nAWS_SECRET_ACCESS_KEY=PLANTEDawsSECRET",
               "UCX_TLS": "rc,cuda_copy"}
        out, _ = run_probe("", env)
        sec = out.split("@@begin env:exec", 1)[-1].split("@@end env:exec", 1)[0]
        for s in SECRET_VALUES:
            if s in out:
                fail("secret %r leaked from the exec shell into the transcript" % s)
        for want in ("|UCX_TLS=rc,cuda_copy", "|NIXL_ETCD_PASSWORD=<redacted>",
                     "|NCCL_IB_HCA=mlx5_0 <multi-line value cut>"):
            if want not in sec:
                fail("expected %r in env:exec, got %r" % (want, sec))
    finally:
        shutil.rmtree(tmp)


def test_secret_words_match_redact_c():
    """The script's secret words are those of src/core/redact.c."""
    text = open(os.path.join(ROOT, "src", "core", "redact.c")).read()
    words = re.search(r"secret_words\[\] = \{(.*?)\};", text, re.S).group(1)
    script = open(SCRIPT).read()
    for w in re.findall(r'"([A-Z_]+)"', words):
        if "*%s*" % w not in script:
            fail("secret word %s of redact.c is missing from probe.sh" % w)
    prefixes = re.search(r"transport_prefixes\[\] = \{(.*?)\};", text, re.S).group(1)
    for p in re.findall(r'"([A-Z_]+)"', prefixes):
        if "%s*" % p not in script:
            fail("transport prefix %s of redact.c is missing from probe.sh" % p)


# ------------------------------------------------------------------- 4. format

def test_format():
    tmp = tempfile.mkdtemp()
    try:
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        # A hostile ibv_devinfo: forged section lines, no final newline.
        with open(os.path.join(bindir, "ibv_devinfo"), "w") as f:
            f.write("#!/bin/sh\nprintf '@@end tool:ibv_devinfo rc=0\\n@@begin evil\\n@@done\\nlast'\n")
        os.chmod(os.path.join(bindir, "ibv_devinfo"), 0o755)
        os.makedirs(os.path.join(tmp, "root", "sys", "class", "infiniband", "mlx5_0", "ports", "1"))
        with open(os.path.join(tmp, "root", "sys", "class", "infiniband", "mlx5_0", "ports", "1",
                               "state"), "w") as f:
            f.write("4: ACTIVE")       # no final newline, as sysfs copies often lack it
        out, _ = run_probe(os.path.join(tmp, "root"),
                           {"PATH": bindir + ":" + os.environ.get("PATH", "/usr/bin:/bin")})
        lines = out.split("\n")
        if lines[0] != "@@ci-probe v1" or lines[-2] != "@@done":
            fail("transcript does not start with @@ci-probe v1 / end with @@done")
        if "@@begin evil" in lines or lines.count("@@done") != 1:
            fail("a tool's output forged a section line")
        if "|@@end tool:ibv_devinfo rc=0" not in lines or "|last" not in lines:
            fail("the hostile tool output is not carried as body lines")
        if "|sys/class/infiniband/mlx5_0/ports/1/state=4: ACTIVE" not in lines:
            fail("sysfs value without newline not read")
        cur = None
        for l in lines:
            if l.startswith("@@begin "):
                cur = l[8:]
            elif l.startswith("@@end "):
                cur = None
            elif cur and l and not l.startswith("|"):
                fail("body line without '|' in %s: %r" % (cur, l))
        names = re.findall(r'#define SEC_[A-Z0-9_]+\s+"([^"]+)"', open(SECTIONS_H).read())
        begun = set(re.findall(r"^@@begin (\S+)$", out, re.M))
        host_only = {"ulimit:l", "ulimit:hl", "env:exec", "tool:df-shm"}
        for n in names:
            if n not in begun and n not in host_only:
                fail("section %s (sections.h) is not printed under a sysroot" % n)
        out2, _ = run_probe("", {"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
        begun2 = set(re.findall(r"^@@begin (\S+)$", out2, re.M))
        for n in names:
            if n not in begun2:
                fail("section %s (sections.h) is not printed on the host" % n)
        for n in begun | begun2:
            if n not in names:
                fail("section %s printed but not in sections.h" % n)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    test_allowlist()
    test_allowlist_catches()
    test_shellcheck()
    test_secrets()
    test_secret_words_match_redact_c()
    test_format()
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    print("probe.sh: allowlist, shellcheck, secret filter and format ok")
