#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/agent.sh: one agent scan of a node with 8 engine processes: CPU
# (user+sys, median) and max RSS; and what the node checks cost beside it.
# Issue 25's budget: 100 ms and 20 MB.  Usage: RUNS=11 sh bench/agent.sh
set -eu
cd "$(dirname "$0")/.."
python3 bench/agent_cost.py "${CI_BIN:-build/check_interconnect}" "${RUNS:-11}"
