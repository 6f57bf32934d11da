#!/usr/bin/env bash
# Usage: build.sh [--debug] [--print-dir]
# Builds the small KUnit-enabled test kernel once per machine and prints its
# build directory (a valid KDIR for external modules) on stdout.
# --debug builds the second, debug kernel instead: kunit.config plus
# debug.config (KASAN, lockdep, atomic-sleep and object debugging) into
#   $IOCA_CACHE/kunit-debug-<hash>/     (same layout as below)
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
fragments=("$here/kunit.config")
prefix=kunit
if [ "${1:-}" = --debug ]; then
	fragments+=("$here/debug.config")
	prefix=kunit-debug
	shift
fi
jobs=${IOCA_JOBS:-2}

src=$("$here/../ksrc.sh")
if [ -z "${IOCA_CACHE:-}" ]; then
	IOCA_CACHE=$(dirname "$src")
fi
kver=$(make -s -C "$src" kernelversion)
cc_ver=$(${CC:-gcc} --version | head -n 1)
key=$({
	cat "${fragments[@]}"
	echo "kernel $kver"
	echo "cc $cc_ver"
} | sha256sum | cut -c1-12)
out=$IOCA_CACHE/$prefix-$key
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
exec 9>"$IOCA_CACHE/.$prefix-$key.lock"
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

# Every option the fragments ask for must survive olddefconfig: a silently
# dropped dependency would otherwise show up much later as a missing symbol
# or a kernel that cannot boot.
check_config() {
	local line opt want got bad=0 fragment want_last
	declare -A last=()
	# A later fragment overrides an earlier one: check the last word only.
	for fragment in "${fragments[@]}"; do
		while IFS= read -r line; do
			case $line in CONFIG_*=*) last[${line%%=*}]="${line#*=}|$fragment" ;; esac
		done <"$fragment"
	done
	for opt in "${!last[@]}"; do
		want_last=${last[$opt]}
		line=$opt=${want_last%%|*}
		fragment=${want_last#*|}
		want=${line#*=}
		got=$(sed -n "s/^$opt=//p" "$out/.config")
		[ "$want" = n ] && want=
		if [ "$got" != "$want" ]; then
			echo "kunit: $fragment: $opt=${line#*=} not applied" \
				"(.config has '${got:-not set}'; a dependency is missing)" >&2
			bad=1
		fi
	done
	return $bad
}

start=$(date +%s)
echo "kunit: building $prefix kernel $kver in $out (once per machine, -j$jobs)" >&2
mkdir -p "$out"
# tinyconfig's own choice overrides warn on stderr; only show them if it fails.
if ! log=$(kmake tinyconfig 2>&1); then
	printf '%s\n' "$log" >&2
	exit 1
fi
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${fragments[@]}" >/dev/null
kmake olddefconfig >/dev/null
check_config
kmake -j"$jobs" bzImage modules
rm -rf "$out/staging"
kmake INSTALL_MOD_PATH="$out/staging" modules_install >/dev/null
kmake kernelrelease >"$out/kernelrelease"
date -u +%FT%TZ >"$stamp"
echo "kunit: built $prefix kernel in $(($(date +%s) - start)) s" >&2
echo "$out"
