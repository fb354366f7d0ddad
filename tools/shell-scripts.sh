#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Lists the project's shell scripts (by .sh name or by a sh/bash/dash
# shebang), outside build and .git directories, for `make lint`.
cd "$(dirname "$0")/.." || exit 1
find . \( -path ./.git -o -path './build' -o -path './build-*' \) -prune -o -type f -print |
	while IFS= read -r f; do
		case "$f" in
		*.sh) echo "$f" ;;
		*) head -n 1 "$f" 2>/dev/null | grep -qE '^#!.*(/|env )(ba|da)?sh( |$)' && echo "$f" ;;
		esac
	done | LC_ALL=C sort
