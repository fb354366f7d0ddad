#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What `make install` builds, read from meson's introspection of BUILD_DIR.

usage: install-targets.py BUILD_DIR            the ninja targets meson installs
       install-targets.py --prefix BUILD_DIR   the prefix BUILD_DIR is set up for

One target a line, as ninja names it (its output, relative to BUILD_DIR), so
that `ninja -C BUILD_DIR $(install-targets.py BUILD_DIR)` builds the binary,
the man page and the completions and none of the tests.
"""
import json
import os
import sys


def load(build, name):
    with open(os.path.join(build, "meson-info", "intro-" + name + ".json")) as f:
        return json.load(f)


def main(argv):
    if len(argv) == 3 and argv[1] == "--prefix":
        for opt in load(argv[2], "buildoptions"):
            if opt.get("name") == "prefix":
                print(opt.get("value", ""))
                return 0
        return 1
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    build = os.path.realpath(argv[1])
    for t in load(build, "targets"):
        if t.get("installed"):
            for f in t.get("filename", []):
                print(os.path.relpath(os.path.realpath(f), build))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
