#!/usr/bin/env bash
# Installs every Debian package ioca needs. This is the one list of them.
# Idempotent: when everything is present it prints nothing and touches no
# network; "apt-get update" runs only when something is missing.
#   deps.sh          what `make check` and every other target needs
#   deps.sh image    that, and what `make image` alone needs (debootstrap,
#                    podman: the DaemonSet's image, scripts/image/build.sh)
set -euo pipefail

LLVM_VERSION=${LLVM_VERSION:-16}

pkgs=(
	# toolchain and userspace build
	build-essential pkg-config git make file perl
	clang-"$LLVM_VERSION" llvm-"$LLVM_VERSION"-dev
	libnl-3-dev libnl-genl-3-dev libcmocka-dev libinih-dev
	# lint
	clang-format cppcheck
	# make lint's ABI check (scripts/abi/): Debian's python3 with PyYAML
	python3 python3-yaml
	# sparse: the kernel's semantic checker, make -C kmod sparse (C=1)
	sparse
	# kernel module build and the test VM's kernel
	linux-headers-amd64 linux-image-amd64 kmod
	# KUnit kernel build from source; also supplies checkpatch.pl and
	# kselftest_harness.h
	linux-source-6.1 bc flex bison libelf-dev libssl-dev xz-utils cpio
	# VM runner
	qemu-system-x86 busybox-static
	# systemd unit tests: systemd-analyze here, PID 1 of scripts/vm/sysrun.sh
	systemd
	# plots and repeatable benchmark counts
	gnuplot-nox valgrind
	# libFuzzer's runtime for clang (make fuzz)
	libclang-rt-"$LLVM_VERSION"-dev
	# iocad's metrics: the HTTP endpoint's library, and the Prometheus server
	# and promtool its end-to-end test scrapes and lints with; node_exporter
	# (as user prometheus) reads the textfile in that test
	libmicrohttpd-dev prometheus prometheus-node-exporter
	# make deb and its test (scripts/deb/): packaging, DKMS, lintian
	debhelper dh-dkms dkms lintian
	# examples/dpdk: the L3 forwarder libspec specializes (net_ring ports)
	dpdk-dev
	# selftests/oci: OCI runtimes that run a busybox container in an RDT class
	runc crun
)
if [ "${1:-}" = image ]; then
	pkgs+=(debootstrap podman)
fi
# iocad/tests/kubernetes/validate.mjs: the manifests against the Kubernetes
# API schema, with npm packages (kubernetes-models, js-yaml) at the versions
# of that directory's package-lock.json. Node.js from Debian where the
# machine has none.
kube=$(cd "$(dirname "$0")/../iocad/tests/kubernetes" && pwd)
command -v npm >/dev/null || pkgs+=(nodejs npm)
npm_deps() {
	[ -d "$kube/node_modules/kubernetes-models" ] && return 0
	echo "deps.sh: npm ci in iocad/tests/kubernetes"
	(cd "$kube" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	npm_deps
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
	command -v sudo >/dev/null || {
		echo "deps.sh: missing packages: ${missing[*]}" >&2
		echo "deps.sh: run this script as root (or install sudo) to install them" >&2
		exit 1
	}
else
	SUDO=
fi

echo "deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Wait for another apt (unattended upgrades, a parallel build) instead of failing.
lock=(-o DPkg::Lock::Timeout=900)
$SUDO apt-get "${lock[@]}" update -qq
$SUDO apt-get "${lock[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
npm_deps
echo "deps.sh: done"
