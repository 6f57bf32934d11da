#!/usr/bin/env bash
# Usage: build.sh [--print-dir]
# Builds the small KUnit-enabled test kernel once per machine and prints its
# build directory (a valid KDIR for external modules) on stdout.
#
# The kernel is `make tinyconfig` plus kunit.config, built from the unpacked
# linux-source-6.1 (scripts/ksrc.sh) with O= into
#   $IOCA_CACHE/kunit-<hash>/            build tree: arch/x86/boot/bzImage,
#                                        Module.symvers, .config
#   $IOCA_CACHE/kunit-<hash>/staging/    modules_install output (kunit.ko)
# where <hash> covers kunit.config, the kernel version and the compiler, so a
# changed fragment or toolchain builds a new tree and an unchanged one is
# reused. A flock serialises concurrent callers; a marker file written last
# tells a finished tree from one whose build was interrupted (which is
# resumed: kbuild is incremental).
#
# --print-dir only prints the directory this configuration maps to.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/kunit.config
jobs=${IOCA_JOBS:-2}

src=$("$here/../ksrc.sh")
if [ -z "${IOCA_CACHE:-}" ]; then
	IOCA_CACHE=$(dirname "$src")
fi
kver=$(make -s -C "$src" kernelversion)
cc_ver=$(${CC:-gcc} --version | head -n 1)
key=$({
	cat "$fragment"
	echo "kernel $kver"
	echo "cc $cc_ver"
} | sha256sum | cut -c1-12)
out=$IOCA_CACHE/kunit-$key
stamp=$out/.ioca-kunit-complete

if [ "${1:-}" = --print-dir ]; then
	echo "$out"
	exit 0
fi

if [ -f "$stamp" ]; then
	echo "kunit: using cached KUnit kernel at $out" >&2
	echo "$out"
	exit 0
fi

mkdir -p "$IOCA_CACHE"
exec 9>"$IOCA_CACHE/.kunit-$key.lock"
if ! flock -n 9; then
	echo "kunit: another build of $out is running; waiting for it" >&2
	flock 9
fi
if [ -f "$stamp" ]; then
	echo "kunit: using cached KUnit kernel at $out" >&2
	echo "$out"
	exit 0
fi

kmake() { make -s -C "$src" O="$out" ARCH=x86_64 "$@"; }

# Every option the fragment asks for must survive olddefconfig: a silently
# dropped dependency would otherwise show up much later as a missing symbol
# or a kernel that cannot boot.
check_config() {
	local line opt want got bad=0
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*}
		want=${line#*=}
		got=$(sed -n "s/^$opt=//p" "$out/.config")
		[ "$want" = n ] && want=
		if [ "$got" != "$want" ]; then
			echo "kunit: $fragment: $opt=${line#*=} not applied" \
				"(.config has '${got:-not set}'; a dependency is missing)" >&2
			bad=1
		fi
	done <"$fragment"
	return $bad
}

start=$(date +%s)
echo "kunit: building KUnit kernel $kver in $out (once per machine, -j$jobs)" >&2
mkdir -p "$out"
# tinyconfig's own choice overrides warn on stderr; only show them if it fails.
if ! log=$(kmake tinyconfig 2>&1); then
	printf '%s\n' "$log" >&2
	exit 1
fi
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$fragment" >/dev/null
kmake olddefconfig >/dev/null
check_config
kmake -j"$jobs" bzImage modules
rm -rf "$out/staging"
kmake INSTALL_MOD_PATH="$out/staging" modules_install >/dev/null
kmake kernelrelease >"$out/kernelrelease"
date -u +%FT%TZ >"$stamp"
echo "kunit: built KUnit kernel in $(($(date +%s) - start)) s" >&2
echo "$out"
