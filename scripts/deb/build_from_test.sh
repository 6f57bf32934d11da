#!/usr/bin/env bash
# build.sh's DEB_FROM without a package build: dpkg-buildpackage is a stub
# on PATH that keeps the changelog build.sh wrote and fails. Checks that a
# DEB_FROM inside DEB_OUT is refused before DEB_OUT is emptied (the earlier
# build's tree survives, the message says why), and that an incremental
# build's changelog names the commit the copied sources came from, not
# the tree's HEAD now. Seconds; no root. Prints "ok - "/"not ok - " lines
# (test.sh counts them) and exits 1 on a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/tap.sh disable=SC2154 # pass, fail: tap.sh's counters
. "$root/scripts/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/bin" "$tmp/out/src/debian"
cat >"$tmp/bin/dpkg-buildpackage" <<'EOF'
#!/bin/sh
cp debian/changelog "$STUB_CHANGELOG"
exit 1
EOF
chmod +x "$tmp/bin/dpkg-buildpackage"
export PATH=$tmp/bin:$PATH STUB_CHANGELOG=$tmp/changelog

# An earlier build's tree: the stamp, a changelog build.sh wrote for a
# commit that is not HEAD, the control file's Maintainer.
tree=$tmp/out/src
touch "$tree/debian/debhelper-build-stamp"
printf 'Maintainer: A <a@example.org>\n' >"$tree/debian/control"
cat >"$tree/debian/changelog" <<'EOF'
ioca (0.0.1) unstable; urgency=medium

  * Built from commit 0123abc.

 -- A <a@example.org>  Thu, 01 Jan 2026 00:00:00 +0000
EOF

out=$(DEB_OUT=$tmp/out DEB_FROM=$tree DEB_VERSION=0.0.2 "$root/scripts/deb/build.sh" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && [ -f "$tree/debian/changelog" ] && grep -q "inside DEB_OUT" <<<"$out"; then
	ok "build.sh refuses a DEB_FROM inside DEB_OUT and keeps that tree"
else
	notok "build.sh refuses a DEB_FROM inside DEB_OUT and keeps that tree (exit $rc, tree" \
		"$([ -d "$tree" ] && echo kept || echo removed)): $out"
fi

mkdir -p "$tmp/elsewhere"
[ -d "$tree" ] && mv "$tree" "$tmp/elsewhere/src"
out=$(DEB_OUT=$tmp/next DEB_FROM=$tmp/elsewhere/src DEB_VERSION=0.0.2 \
	"$root/scripts/deb/build.sh" 2>&1)
if grep -q "Built from commit 0123abc\." "$tmp/changelog" 2>/dev/null &&
	grep -q "^ -- A <a@example.org>  Thu, 01 Jan 2026 00:00:00 +0000$" "$tmp/changelog" &&
	grep -q "^ioca (0.0.2)" "$tmp/changelog"; then
	ok "an incremental build's changelog names the copied sources' commit and date"
else
	notok "an incremental build's changelog names the copied sources' commit and date:" \
		"$(cat "$tmp/changelog" 2>/dev/null) $out"
fi

[ "$fail" -eq 0 ]
