#!/usr/bin/env bash
# Host-side check of iocad's systemd unit, no VM and no running systemd
# needed (seconds; vmrun.sh proves the unit under a real systemd): installs
# iocad into a temporary prefix (`make -C iocad install PREFIX=...`), so
# every path the unit names exists, then
#   1. `systemd-analyze verify` of the installed unit prints nothing (an
#      unknown key or a missing executable is only a warning to it);
#   2. `systemd-analyze security --offline=true`: the exposure is at most
#      exposure_max (docs/host.md, "The unit"), and the unit's capability
#      bounding set holds what ioca.ko asks for DDIO writes, control ops and
#      sampling (kmod/README.md, "Privileges");
#   3. Type=notify with a watchdog, the exit codes a restart would only
#      repeat (2, 3) in RestartPreventExitStatus=, and /run/iocad kept
#      across stops and restarts (iocad(8), EXIT STATUS; the DaemonSet
#      shares its lock).
# Prints "iocad-unit: N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/tap.sh disable=SC2154 # pass, fail
. "$root/scripts/tap.sh"
verdict() { # status description [output]
	if [ "$1" -eq 0 ]; then ok "iocad-unit: $2"; else
		notok "iocad-unit: $2"
		[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/#   /' | head -n 20
	fi
}
finish() {
	echo "iocad-unit: $pass passed, $fail failed"
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
	exit
}

command -v systemd-analyze >/dev/null || {
	verdict 1 "systemd-analyze not found (scripts/deps.sh installs systemd)"
	finish
}
prefix=$(mktemp -d "${TMPDIR:-/tmp}/iocad-unit.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
out=$(make --no-print-directory -C "$root/iocad" -j2 install PREFIX="$prefix" \
	SYSCONFDIR="$prefix/etc" 2>&1)
unit=$prefix/lib/systemd/system/iocad.service
verdict $? "make install PREFIX=tmp installs the unit" "$(tail -n 20 <<<"$out")"
[ -f "$unit" ] || finish

# --man=no: Documentation= names man pages that are not on MANPATH here.
out=$(systemd-analyze verify --man=no "$unit" "${unit%/*}/sys-fs-resctrl.mount" 2>&1)
verdict $((${#out} != 0)) "systemd-analyze verify: no complaint" "$out"

max=$(cat "$here/exposure_max")
out=$(systemd-analyze security --offline=true --no-pager "$unit" 2>&1)
exposure=$(sed -n 's/.*Overall exposure level for iocad.service: \([0-9.]*\).*/\1/p' <<<"$out")
awk -v e="${exposure:-x}" -v m="$max" 'BEGIN { exit !(e ~ /^[0-9.]+$/ && e <= m) }'
verdict $? "systemd-analyze security: exposure ${exposure:-unknown}, at most $max" \
	"$(grep -v '✓' <<<"$out")"

caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$unit")
missing=
for c in CAP_NET_ADMIN CAP_SYS_RAWIO CAP_PERFMON; do
	grep -qw "$c" <<<"$caps" || missing="$missing $c"
done
[ "$(grep -c '^CapabilityBoundingSet=' "$unit")" -eq 1 ] || missing="$missing (not one line)"
verdict $((${#missing} != 0)) "one CapabilityBoundingSet= line holding ioca.ko's capabilities" \
	"CapabilityBoundingSet=$caps; missing:$missing"
grep -q '^PrivateDevices=yes' "$unit"
verdict $((!$?)) "no PrivateDevices=yes (it drops CAP_SYS_RAWIO, so DDIO writes fail)"

# iocad tells systemd it is ready and alive (sd_notify, iocad/loop/notify.c)
grep -qx 'Type=notify' "$unit" && grep -q '^WatchdogSec=[1-9]' "$unit"
verdict $? "Type=notify with a WatchdogSec= (a hung loop is restarted)" \
	"$(grep -E '^(Type|WatchdogSec)=' "$unit")"
# iocad(8) EXIT STATUS: 2 a config refusal, 3 an operator's rmmod: not restarted
prevent=$(sed -n 's/^RestartPreventExitStatus=//p' "$unit")
grep -qw 2 <<<"$prevent" && grep -qw 3 <<<"$prevent" && ! grep -qw 75 <<<"$prevent"
verdict $? "RestartPreventExitStatus= holds 2 and 3, not 75 (a transient refusal is retried)" \
	"RestartPreventExitStatus=$prevent"
# A tenant CPU offline (hotplug, maintenance) is no config error: iocad judges
# it (a start waits, a reload of the running config is unchanged). Every
# --check-config the unit runs first passes it, or `systemctl reload` fails
# with exit 75 and never sends the SIGHUP.
checks=$(grep -E '^Exec(StartPre|Reload)=.*--check-config' "$unit")
[ -n "$checks" ] && ! grep -v -- '--retry-start' <<<"$checks" | grep -q .
verdict $? "every ExecStartPre=/ExecReload= --check-config has --retry-start (an offline CPU is iocad's to judge)" \
	"$checks"
grep -qx 'RuntimeDirectoryPreserve=yes' "$unit"
verdict $? "RuntimeDirectoryPreserve=yes (io_alloc's recovery record and the lock the DaemonSet shares survive a stop)"
finish
