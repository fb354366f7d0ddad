#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Skill entry point: `python3 scripts/check_interconnect.py VERB ARGS...`.

Runs the built check_interconnect with every argument unchanged and exits
with its exit code, as scripts/check_interconnect (the sh wrapper) does; an
agent's run_script("scripts/check_interconnect.py", args=[...]) runs this
file with python3 and those arguments.  The skill root is found from this
file's real location, so a symlink to it works from any directory.  Adds
nothing to stdout or stderr of its own when the binary is built (the
binary replaces this process).  Not built: it says how to build it and exits
69 (EX_UNAVAILABLE), never building by itself (as root the build apt-get
installs packages, a change to the machine an agent did not ask for).
Python 3.10 or later, standard library only.
"""
import os
import sys

EX_UNAVAILABLE = 69


def main() -> int:
    root = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    binary = os.path.join(root, "build", "check_interconnect")
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        sys.stderr.write(
            "check_interconnect is not built: run `sh tools/bootstrap.sh run` in %s "
            "(it installs make, a C17 compiler, meson, ninja, libyaml and jansson "
            "as root, else prints the apt-get line), then run this again\n" % root
        )
        return EX_UNAVAILABLE
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execv(binary, [binary] + sys.argv[1:])
    except OSError as e:
        sys.stderr.write("check_interconnect: cannot run %s: %s\n" % (binary, e.strerror))
        return EX_UNAVAILABLE
    return EX_UNAVAILABLE  # not reached


if __name__ == "__main__":
    sys.exit(main())
