#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# usage: tools/build-image.sh [TAG]      (make image)
# Builds the agent's image from Containerfile with Debian's buildah, on a
# Debian 12 root made here with mmdebstrap (no image registry is needed),
# then runs `agent --once --format prometheus` in it on a test sysroot
# (tests/deploy/make_sysroot.py) and checks the output with promtool.
#   IMAGE_BASE=REF        build on this Debian 12 image instead
#   IMAGE_STORAGE=DRIVER  containers/storage driver (default vfs: works
#                         without overlayfs or user namespaces)
#   IMAGE_ISOLATION=MODE  buildah's isolation (default chroot: no runtime)
set -eu
cd "$(dirname "$0")/.."
version=$(sed -n "s/^  version: '\([^']*\)',.*/\1/p" meson.build)
tag=${1:-localhost/check-interconnect:$version}
storage=${IMAGE_STORAGE:-vfs}
isolation=${IMAGE_ISOLATION:-chroot}
for tool in buildah mmdebstrap python3; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "build-image: $tool is missing (apt-get install buildah mmdebstrap python3)" >&2
		exit 1
	}
done
b() { buildah --storage-driver "$storage" "$@"; }
tmp=$(mktemp -d)
ctr=""
cleanup() {
	[ -n "$ctr" ] && b rm "$ctr" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

base=${IMAGE_BASE:-}
if [ -z "$base" ]; then
	base=localhost/check-interconnect-base:bookworm
	if ! b inspect --type image "$base" >/dev/null 2>&1; then
		echo "build-image: a Debian 12 root with mmdebstrap"
		mmdebstrap --variant=minbase --quiet bookworm "$tmp/root.tar"
		b import "$tmp/root.tar" "$base" >/dev/null
		rm -f "$tmp/root.tar"
	fi
fi

echo "build-image: $tag on $base ($storage, $isolation)"
b bud --isolation "$isolation" --layers=false --build-arg BASE="$base" \
	--build-arg VERSION="$version" -f Containerfile -t "$tag" .

# agent --once in the image, on a test sysroot mounted read-only at /host,
# under the DaemonSet's restrictions where podman can run a container
# (read-only root, every capability dropped but SYS_PTRACE and
# DAC_READ_SEARCH, no_new_privs, the default seccomp profile, no network);
# else in buildah's chroot (no runtime needed), saying so.
python3 tests/deploy/make_sysroot.py "$tmp/sysroot"
agent_once="agent --once --sysroot /host --format prometheus"
restricted="--rm --read-only --cap-drop ALL --cap-add SYS_PTRACE,DAC_READ_SEARCH
	--security-opt no-new-privileges --network none -v $tmp/sysroot:/host:ro"
ran=""
if command -v podman >/dev/null 2>&1; then
	p() { podman --storage-driver "$storage" "$@"; }
	# shellcheck disable=SC2086 # the option lists split on purpose
	if p run $restricted "$tag" $agent_once >"$tmp/metrics.prom" 2>"$tmp/podman.err"; then
		ran="podman run (the DaemonSet's restrictions)"
	# a sandbox without cgroup v2 alone or without CAP_SYS_RESOURCE: runc,
	# cgroupfs and the rlimits it has
	elif command -v runc >/dev/null 2>&1 &&
		p --runtime runc --cgroup-manager cgroupfs run $restricted \
			--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
			"$tag" $agent_once >"$tmp/metrics.prom" 2>>"$tmp/podman.err"; then
		ran="podman run --runtime runc --cgroup-manager cgroupfs (the DaemonSet's restrictions)"
	else
		echo "build-image: podman run failed: $(tail -1 "$tmp/podman.err")"
	fi
fi
if [ -z "$ran" ]; then
	ctr=$(b from --quiet --pull-never "$tag")
	# shellcheck disable=SC2086
	b run --isolation "$isolation" -v "$tmp/sysroot:/host:ro" "$ctr" -- \
		/usr/bin/check_interconnect $agent_once >"$tmp/metrics.prom"
	ran="buildah run --isolation $isolation (no OCI runtime: not under the DaemonSet's restrictions)"
fi
grep -v '^#' "$tmp/metrics.prom" | grep -E '_(kv_path|verdict|engines|scan_duration_seconds)[{ ]' | grep -v ' 0$'
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$tmp/metrics.prom"
fi
for pod in decode-0 prefill-0; do
	grep -q "^check_interconnect_engine_kv_path{.*pod=\"$pod\"" "$tmp/metrics.prom" || {
		echo "build-image: agent --once in the image did not name pod $pod" >&2
		exit 1
	}
done
echo "build-image: $tag: agent --once in the image, by $ran: ok"
