#!/usr/bin/env bash
# make image: the DaemonSet's image (iocad/dist/kubernetes), built from the
# iocad .deb of `make deb` with no registry: debootstrap lays a minimal
# Debian root file system from the Debian mirror apt uses here, apt installs
# the .deb and its libraries into it, and `podman import` makes the image
# localhost/ioca/iocad:VERSION from its tarball. Then the image is tried:
# `podman run` runs `iocad --version` and five intervals of `iocad --sim` on
# an example scenario inside it.
#
# Outputs in build/image/: rootfs.tar (what was imported) and
# ioca-iocad-VERSION.oci.tar (`podman save`, for nodes whose runtime is
# containerd: `ctr -n k8s.io images import` it; CRI-O nodes share podman's
# storage or `podman load` it). Needs root (debootstrap, chroot) and
# `scripts/deps.sh image` (debootstrap, podman). Environment:
# IOCA_IMAGE_MIRROR (default: the first Debian mirror in apt's sources),
# IOCA_IMAGE_SUITE (default: this machine's release, which the .debs were
# built against).
#   build.sh            build the image, then try it
#   build.sh --try      try the image built before
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
version=$(cat "$root/VERSION")
arch=$(dpkg --print-architecture)
tag=localhost/ioca/iocad:$version
out=$root/build/image
deb=$root/build/deb/iocad_${version}_$arch.deb
die() {
	echo "image: $*" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot)"
for t in debootstrap podman; do
	command -v "$t" >/dev/null || die "$t missing (scripts/deps.sh image installs it)"
done
[ -f "$deb" ] || {
	echo "image: no $deb yet; make deb first"
	"$root/scripts/deb/build.sh" >/dev/null
}
# shellcheck source=/dev/null
suite=${IOCA_IMAGE_SUITE:-$(. /etc/os-release && echo "$VERSION_CODENAME")}
# apt's own lines (deb822 URIs: or one-line deb), not comments
mirror=${IOCA_IMAGE_MIRROR:-$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
	grep -E '^(URIs:|deb )' | grep -oE 'https?://[^ ]+/debian/?' | grep -v security |
	head -n 1 || true)}
mirror=${mirror:-http://deb.debian.org/debian}

t0=$(date +%s)
if [ "${1:-}" != --try ]; then
	rm -rf "$out"
	mkdir -p "$out"
	rootfs=$out/rootfs
	echo "image: debootstrap --variant=minbase $suite from $mirror"
	debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >"$out/debootstrap.log" 2>&1 || {
		tail -n 20 "$out/debootstrap.log" >&2
		die "debootstrap failed (log: $out/debootstrap.log)"
	}
	# apt in the chroot resolves the mirror with the host's resolver; nothing
	# in the chroot may start a service.
	cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
	printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
	chmod 755 "$rootfs/usr/sbin/policy-rc.d"
	cp "$deb" "$rootfs/tmp/"
	echo "image: apt-get install ${deb##*/} in the root file system"
	chroot "$rootfs" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends /tmp/${deb##*/}" >"$out/install.log" 2>&1 || {
		tail -n 20 "$out/install.log" >&2
		die "installing the .deb in the root file system failed (log: $out/install.log)"
	}
	# What the image need not carry: apt's lists and cache, the .deb, the
	# host's resolver and the no-services policy (the runtime sets both).
	chroot "$rootfs" apt-get clean
	rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs/tmp/${deb##*/}" "$rootfs/etc/resolv.conf" \
		"$rootfs/usr/sbin/policy-rc.d"
	tar --numeric-owner -C "$rootfs" -cf "$out/rootfs.tar" .
	rm -rf "$rootfs"
	podman rmi -f "$tag" >/dev/null 2>&1 || true
	podman import --change 'CMD ["iocad", "--help"]' --message "iocad $version from ${deb##*/}" \
		"$out/rootfs.tar" "$tag" >/dev/null || die "podman import failed"
	podman save --format oci-archive -o "$out/ioca-iocad-$version.oci.tar" "$tag" ||
		die "podman save failed"
	echo "image: $tag built in $(($(date +%s) - t0)) s ($(du -m "$out/rootfs.tar" | cut -f1) MB)"
fi

# --- the image, tried --------------------------------------------------------
ex=/ioca/examples/fig7a-aggregation
# runc with cgroupfs and lowered limits: they also run where this build
# runs inside a container (crun refuses its hybrid cgroup tree; raising
# RLIMIT_NOFILE and RLIMIT_NPROC to podman's defaults is not permitted).
run=(podman run --rm --network none --runtime runc --cgroup-manager cgroupfs
	--ulimit nofile=1024:1024 --ulimit nproc=1024:1024
	-v "$root/examples/iocad:/ioca/examples:ro" "$tag")
got=$("${run[@]}" iocad --version 2>&1) || die "iocad --version in the image failed: $got"
[[ $got == *"$version"* ]] || die "iocad --version in the image says '$got', not $version"
echo "image: podman run $tag iocad --version: $got"
got=$("${run[@]}" sh -c "iocad --sim $ex.scn $ex.ini --intervals 5 --quiet --trace /tmp/t.csv \
	>/tmp/log 2>&1 || { cat /tmp/log; exit 1; }; grep -c '^[0-9]' /tmp/t.csv" 2>&1) ||
	die "iocad --sim in the image failed: $got"
[ "$got" = 5 ] || die "iocad --sim in the image traced '$got' intervals, not 5"
echo "image: podman run $tag iocad --sim ran 5 intervals"
echo "image: ok in $(($(date +%s) - t0)) s: $tag, $out/ioca-iocad-$version.oci.tar"
