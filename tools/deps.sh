#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# usage: tools/deps.sh build|test|ci
# Checks what `make run` (build), `make test` (test) or CI (ci) needs (make
# itself included: tools/bootstrap.sh runs this before make exists), by
# capability rather than by package name.  When something is missing: as root
# on Debian/Ubuntu it apt-get installs the packages; otherwise it prints the
# command to run and exits 1 (only a warning when just optional ones are
# missing: the tests that need them skip).  Silent when everything is there.
set -eu

what=${1:-build}
missing=""
optional=""

need_cmd() { # command package
	command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}
need_pc() { # pkg-config-name package
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$1" 2>/dev/null; then
		missing="$missing $2"
	fi
}

need_cmd cc build-essential
need_cmd make make
need_cmd meson meson
need_cmd ninja ninja-build
need_cmd pkg-config pkg-config
need_pc yaml-0.1 libyaml-dev
need_pc jansson libjansson-dev
need_pc zlib zlib1g-dev
need_pc libmicrohttpd libmicrohttpd-dev
if [ "$what" = test ] || [ "$what" = ci ]; then
	need_pc cmocka libcmocka-dev
	need_cmd python3 python3
	# deploy/'s manifests are read by tests/deploy/check_deploy.py (PyYAML)
	if ! python3 -c 'import yaml' >/dev/null 2>&1; then
		missing="$missing python3-yaml"
	fi
	# JSON outputs are validated against the schema when jsonschema is there
	if ! python3 -c 'import jsonschema' >/dev/null 2>&1; then
		optional="$optional python3-jsonschema"
	fi
	# the nixl verb's tests read the real UCX of the machine when it has one
	command -v ucx_info >/dev/null 2>&1 || optional="$optional ucx-utils"
	# the install test renders the man page with man -l
	command -v man >/dev/null 2>&1 || optional="$optional man-db"
	# the zsh completion is driven in zsh (tests/sec/completion.sh)
	command -v zsh >/dev/null 2>&1 || optional="$optional zsh"
	# the formats' consumers (tests/formats/check_consumers.py): xmllint
	# against the JUnit schema, promtool check metrics; the agent's test
	# scrapes with a real Prometheus.  Not npm: only .ci/run installs the
	# SARIF Multitool from it (Debian's npm would bring ~400 packages to a
	# new user's test run for a check that then says it skipped)
	command -v xmllint >/dev/null 2>&1 || optional="$optional libxml2-utils"
	command -v promtool >/dev/null 2>&1 || optional="$optional prometheus"
	# tests/sec/output.sh holds a SIGTERM's window open with strace
	command -v strace >/dev/null 2>&1 || optional="$optional strace"
fi
if [ "$what" = ci ]; then
	need_cmd clang clang
	need_cmd valgrind valgrind
	need_cmd shellcheck shellcheck
	# `make lint` (cppcheck) and `make format-check` (clang-format)
	need_cmd cppcheck cppcheck
	need_cmd clang-format clang-format
	# .ci/fresh-root.sh: the README's commands on a minimal Debian root
	need_cmd mmdebstrap mmdebstrap
	# libFuzzer's runtime for clang 14 (Debian 12)
	if command -v dpkg-query >/dev/null 2>&1 &&
		! dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing libclang-rt-14-dev"
	fi
fi

if [ "$what" = ci ]; then
	missing="$missing$optional"
	optional=""
fi
[ -z "$missing$optional" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "installing:$missing$optional"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086 # word splitting of the package list is wanted
	apt-get install -y -qq --no-install-recommends $missing$optional
	exit 0
fi
if [ -n "$optional" ]; then
	echo "note: some tests will be skipped without:$optional" \
		"(sudo apt-get install -y$optional)" >&2
fi
[ -z "$missing" ] && exit 0
echo "missing:$missing" >&2
echo "install them with: sudo apt-get install -y$missing" >&2
exit 1
