#!/usr/bin/env bash
# What iocad's maintainer scripts, as debhelper generated them, may do to
# the units (run by build.sh after every `make deb`, so a change of
# debian/rules or of debhelper's snippets is caught in seconds, not only by
# scripts/deb/test.sh's VM upgrade):
#   - sys-fs-resctrl.mount is never stopped, started, restarted, reloaded
#     or masked: unmounting resctrl deletes every group on the host, a
#     container runtime's too;
#   - an upgrade try-restarts iocad.service after the new files are in
#     (postinst), nothing stops it before (preinst, prerm upgrade);
#   - removal stops iocad.service (prerm remove).
#   maintscripts.sh IOCAD_DEB | --dir CONTROL_DIR
# Prints one line per refusal on stderr and exits 1; silent and 0 when all hold.
set -euo pipefail
if [ "${1:-}" = --dir ]; then
	dir=$2
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	dpkg-deb -e "$1" "$dir"
fi
bad=0
refuse() {
	echo "deb: iocad's maintainer scripts: $*" >&2
	bad=1
}
# A line that acts on a unit: deb-systemd-invoke ACTION, systemctl ACTION,
# deb-systemd-helper mask.
act='(deb-systemd-invoke|systemctl)[^|;&]*\b(start|stop|restart|try-restart|reload|reload-or-restart|try-reload-or-restart)\b|deb-systemd-helper[^|;&]*\bmask\b'
for s in preinst postinst prerm postrm; do
	[ -f "$dir/$s" ] || continue
	if grep -nE "$act" "$dir/$s" | grep -F sys-fs-resctrl.mount >"$dir/hits"; then
		refuse "$s acts on sys-fs-resctrl.mount: $(tr '\n' ' ' <"$dir/hits")"
	fi
done
if [ -f "$dir/preinst" ] && grep -qE '(deb-systemd-invoke|systemctl)[^|;&]*\bstop\b' "$dir/preinst"; then
	refuse "preinst stops a unit (an upgrade must not stop iocad before the new files are in)"
fi
grep -qE "deb-systemd-invoke try-restart .*iocad\.service" "$dir/postinst" 2>/dev/null ||
	refuse "postinst does not try-restart iocad.service on upgrade"
# shellcheck disable=SC2016 # the literal test the prerm makes
if ! grep -qF '"$1" = remove' "$dir/prerm" 2>/dev/null ||
	! grep -qE 'deb-systemd-invoke stop iocad\.service' "$dir/prerm"; then
	refuse "prerm does not stop iocad.service on remove"
fi
exit "$bad"
