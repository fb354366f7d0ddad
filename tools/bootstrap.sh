#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# usage: sh tools/bootstrap.sh [MAKE-TARGET...]   (default: build)
# The README's two commands (`sh tools/bootstrap.sh run`, `... test`) and the
# skill's build: on a machine that may not even have make, install what the
# targets need, make included, then run make with them.  tools/deps.sh does
# the installing: as root on Debian/Ubuntu it apt-get installs the packages;
# otherwise it prints the one apt-get line to run and this exits 1.  The test
# packages only for a target that runs tests.  Runs from any directory.
set -eu
cd "$(dirname "$0")/.."
[ "$#" -gt 0 ] || set -- build
what=build
for t in "$@"; do
	case $t in test | check | valgrind) what="test" ;; esac
done
sh tools/deps.sh "$what"
exec make "$@"
