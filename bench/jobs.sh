#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# bench/jobs.sh: the --jobs default this machine gets (cli_default_jobs:
# 4 per CPU, a quarter of MemAvailable at 50 MB per kubectl exec, at most
# 32), and what one kubectl exec costs here, the figure that rule rests on.
#   BENCH_EXEC_POD=NS/POD  measure a real `kubectl exec -n NS POD -- true`
#                          (the default: kubectl's start-up alone, `kubectl
#                          version --client`, a lower bound: no TLS, no stream)
#   RUNS (5)               runs, the median is printed
set -u
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bin=$(bench_bin)
"$bin" --version -v | sed -n 2p
kubectl=${KUBECTL:-kubectl}
if ! command -v "$kubectl" >/dev/null 2>&1 || [ ! -x /usr/bin/time ]; then
	echo "kubectl exec cost: not measured (needs kubectl and /usr/bin/time)"
	exit 0
fi
if [ -n "${BENCH_EXEC_POD-}" ]; then
	what="kubectl exec into $BENCH_EXEC_POD"
	set -- "$kubectl" exec -n "${BENCH_EXEC_POD%%/*}" "${BENCH_EXEC_POD#*/}" -- true
else
	what="kubectl start-up alone (no cluster: a lower bound of an exec)"
	set -- "$kubectl" version --client
fi
cpu="" rss=""
i=0
while [ "$i" -lt "${RUNS:-5}" ]; do
	# GNU time: user+system CPU seconds and the peak RSS in KiB
	r=$(/usr/bin/time -f '%U %S %M' "$@" 2>&1 >/dev/null | tail -n 1)
	cpu="$cpu $(echo "$r" | awk '{ printf "%d", ($1 + $2) * 1000 }')"
	rss="$rss $(echo "$r" | awk '{ printf "%d", $3 / 1024 }')"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # word lists
echo "$what: $(median $cpu) ms CPU, $(median $rss) MB peak RSS (median of ${RUNS:-5})"
