#!/usr/bin/env bash
# Usage: ksrc.sh
# Unpacks Debian's linux-source-6.1 tarball once per machine into
# $IOCA_CACHE/linux-source-6.1 and prints that path. The kernel source is
# never copied into the repo: checkpatch.pl, kselftest_harness.h and the
# KUnit kernel all come from this one unpacked tree.
#
# Idempotent (a finished tree is reused), atomic (unpacked into a temporary
# directory beside the target, then renamed, so a half-unpacked tree is never
# visible) and locked (flock), so concurrent callers wait for one unpack.
set -euo pipefail

tarball=${IOCA_KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
if [ -z "${IOCA_CACHE:-}" ]; then
	if mkdir -p /var/cache/ioca 2>/dev/null && [ -w /var/cache/ioca ]; then
		IOCA_CACHE=/var/cache/ioca
	else
		IOCA_CACHE=$HOME/.cache/ioca
	fi
fi
name=$(basename "$tarball" .tar.xz)
dest=$IOCA_CACHE/$name

# Fast path without the lock: the rename below makes $dest all-or-nothing.
if [ -f "$dest/Makefile" ]; then
	echo "$dest"
	exit 0
fi

if [ ! -r "$tarball" ]; then
	echo "ksrc.sh: $tarball not found; install linux-source-6.1 (scripts/deps.sh)" >&2
	exit 1
fi
mkdir -p "$IOCA_CACHE"
exec 9>"$IOCA_CACHE/.$name.lock"
flock 9
if [ ! -f "$dest/Makefile" ]; then
	tmp=$(mktemp -d "$IOCA_CACHE/.$name.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	echo "ksrc.sh: unpacking $tarball into $dest (once per machine)" >&2
	tar -xJf "$tarball" -C "$tmp"
	top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	if [ -z "$top" ] || [ ! -f "$top/Makefile" ]; then
		echo "ksrc.sh: $tarball holds no kernel tree (no top-level Makefile)" >&2
		exit 1
	fi
	rm -rf "$dest"
	mv "$top" "$dest"
fi
echo "$dest"
