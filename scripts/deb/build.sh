#!/usr/bin/env bash
# Builds ioca's Debian binary packages into build/deb/ (make deb), checks
# iocad's maintainer scripts (maintscripts.sh) and runs lintian over them; a
# lintian error or warning fails the build.
#
# dpkg-buildpackage puts its products in the parent of the tree it builds
# and cleans that tree first, so it runs in a copy of the checkout (tracked
# and untracked-but-not-ignored files: what a commit of the work tree would
# hold) under build/deb/src. debian/changelog is written there from VERSION,
# the one place the version lives.
#
# Environment: DEB_JOBS (default 2) parallel jobs; DEB_LINTIAN=0 skips
# lintian; DEB_OUT (default build/deb) the output directory, emptied first;
# DEB_VERSION builds that version instead of VERSION's (written into the
# copy's VERSION, so the binaries report it too: scripts/deb/test.sh builds
# the next version to upgrade to); DEB_ARCH_ONLY=1 builds the
# architecture-dependent packages only (dpkg-buildpackage -B).
# DEB_FROM=DIR builds incrementally in a copy of DIR, the src tree of an
# earlier build.sh run (its objects kept, its packaging state dropped,
# dpkg-buildpackage -nc): make rebuilds what the new VERSION touches (every
# object or file that has the version in depends on ../VERSION in the part
# Makefiles), so test.sh's next version costs a relink and the packaging,
# not a second full build.
# Prints the .deb paths, one a line, as its last lines.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${DEB_OUT:-$root/build/deb}
jobs=${DEB_JOBS:-2}
version=${DEB_VERSION:-$(cat "$root/VERSION")}
[[ $version =~ ^[0-9][0-9a-z.+~]*$ ]] ||
	{ echo "deb: VERSION '$version' is not a Debian upstream version" >&2; exit 1; }

for t in dpkg-buildpackage dh dh_dkms; do
	command -v "$t" >/dev/null ||
		{ echo "deb: $t missing (scripts/deps.sh installs debhelper, dh-dkms)" >&2; exit 1; }
done

from=${DEB_FROM:-}
if [ -n "$from" ]; then
	# Checked before DEB_OUT is emptied: a tree inside it would go first.
	[ -f "$from/debian/debhelper-build-stamp" ] ||
		{ echo "deb: DEB_FROM=$from is not a tree build.sh has built" >&2; exit 1; }
	from=$(cd "$from" && pwd -P)
	mkdir -p "$out"
	case $from/ in
	"$(cd "$out" && pwd -P)"/*)
		echo "deb: DEB_FROM=$from is inside DEB_OUT=$out, which the build empties" \
			"(copy it elsewhere, or set DEB_OUT)" >&2
		exit 1
		;;
	esac
fi
rm -rf "$out"
src=$out/src
if [ -n "$from" ]; then
	mkdir -p "$out"
	# mtimes kept: make sees the objects as up to date, VERSION below as new
	cp -a "$from" "$src"
	rm -rf "$src/debian/tmp" "$src/debian/.debhelper"
	rm -f "$src/debian/files" "$src/debian/debhelper-build-stamp" "$src"/debian/*.substvars \
		"$src"/debian/*.debhelper.log
else
	mkdir -p "$src"
fi
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
	[ -n "$from" ] || (cd "$root" && git ls-files -z -co --exclude-standard) |
		(cd "$root" && tar --null -T - -cf -) | tar -C "$src" -xf -
	commit=$(git -C "$root" rev-parse --short HEAD)
	# The commit's date, not now: the same commit builds the same packages.
	date=$(git -C "$root" log -1 --format=%aD)
else
	[ -n "$from" ] || tar -C "$root" --exclude=./build -cf - . | tar -C "$src" -xf -
	commit=unknown
	date=$(date -R)
fi
if [ -n "$from" ]; then
	# The copy's sources are the earlier build's, not the tree's now: its
	# changelog names their commit and date (HEAD may have moved since).
	commit=$(sed -n 's/^  \* Built from commit \(.*\)\.$/\1/p' "$src/debian/changelog")
	date=$(sed -n 's/^ -- .*>  //p' "$src/debian/changelog")
	if [ -z "$commit" ] || [ -z "$date" ]; then
		echo "deb: DEB_FROM=$from has no changelog build.sh wrote" >&2
		exit 1
	fi
	# Newer than every object of the copy (a coarse file system's
	# timestamps could make them equal, and make would rebuild nothing).
	sleep 1
fi
echo "$version" >"$src/VERSION"

# Maintainer and distribution are the control file's and a local build's.
maint=$(sed -n 's/^Maintainer: //p' "$src/debian/control")
cat >"$src/debian/changelog" <<EOT
ioca ($version) unstable; urgency=medium

  * Built from commit $commit.

 -- $maint  $date
EOT

cd "$src"
what=(-b)
[ "${DEB_ARCH_ONLY:-0}" = 1 ] && what=(-B)
[ -z "$from" ] || what+=(-nc)
echo "deb: dpkg-buildpackage ${what[*]} -j$jobs in $src"
DEB_BUILD_OPTIONS="parallel=$jobs ${DEB_BUILD_OPTIONS:-}" \
	nice dpkg-buildpackage "${what[@]}" -uc -us -j"$jobs" >"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed (whole log: $out/build.log)" >&2
	exit 1
}

changes=$out/ioca_${version}_$(dpkg --print-architecture).changes
[ -f "$changes" ] || { echo "deb: no $changes after the build" >&2; exit 1; }
# What the generated maintainer scripts do to iocad's units (never the
# resctrl mount), checked without a VM.
"$root/scripts/deb/maintscripts.sh" "$out/iocad_${version}_$(dpkg --print-architecture).deb" || {
	echo "deb: debian/rules (override_dh_installsystemd) makes maintainer scripts that break upgrades" >&2
	exit 1
}
if [ "${DEB_LINTIAN:-1}" != 0 ]; then
	command -v lintian >/dev/null ||
		{ echo "deb: lintian missing (scripts/deps.sh installs it)" >&2; exit 1; }
	echo "deb: lintian $changes"
	lintian --fail-on error,warning --info "$changes" || {
		echo "deb: lintian reported the errors or warnings above" >&2
		exit 1
	}
fi
ls "$out"/*.deb
