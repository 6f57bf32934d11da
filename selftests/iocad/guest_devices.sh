#!/bin/sh
# shellcheck disable=SC2317,SC2016,SC2034,SC2154 # conditions and their variables run through eval; n, failed: tap.sh's
# iocad's [device ADDR] on the host platform, inside the test VM (busybox
# sh, root, cwd /ioca, 2 CPUs, -cpu Skylake-Server, q35): a virtio device
# 0000:01:00.0 below QEMU's pcie-root-port 0000:00:1c.0 (emulated
# registers with ioca.ko emulate=1) and one, 0000:02:00.0, below an
# ioh3420 root port 0000:00:1d.0 (8086:3420, a real root port ioca.ko does
# not know). iocad must set the first, refuse the second in one log line
# naming it and the module's reason while the tenants carry on, follow a
# reload, put back what it found on SIGTERM, and leave the put-back to the
# module when killed. TCG has no PMU: iocad must say once that it has no
# L2 counts, and why. Exits with the number of failures.
cd /ioca || exit 1
R=/sys/fs/resctrl
DEV=0000:01:00.0
BAD=0000:02:00.0
TAP_NAME="iocad devices"
tap_diag() {
	./iocactl info | grep '^device ' | sed 's/^/#   info: /'
	[ -f "$LOG" ] && grep -v '^#[0-9]* ' "$LOG" | sed 's/^/#   log: /' | tail -n 12
}
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, check, wait_for, nap
. ./tap.sh
# shellcheck source=/dev/null # selftests/iocad/iocad_guest.sh: LOG, pid, start, stop, logs
. ./iocad_guest.sh
echo "1..16"
nlogs() { grep -c "$1" "$LOG"; }
ngroups() { find "$R" -maxdepth 1 -name 'iocad-s0-*' | wc -l; }
# the module's line for $DEV: "ddio MODE perfctrlsts A B emulated[ owner-pid P]"
devline() { ./iocactl info | sed -n "s/^device $DEV: root-port 0000:00:1c.0 //p"; }
wait_log() { # PATTERN [N]: the Nth line matching it (default 1), within 30 s
	_pat=$1 _nth=${2:-1}
	wait_for 30 '[ "$(nlogs "$_pat")" -ge "$_nth" ]'
}
# up CONFIG: iocad started, its first interval done
up() {
	start "$@"
	wait_log '^#1 '
}

insmod ./ioca.ko emulate=1 || echo "# insmod ioca.ko emulate=1 failed"
insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=1 num_closids=4 cache_ids=0 ||
	echo "# insmod resctrl_emu.ko failed"
mount -t resctrl resctrl $R || echo "# mount resctrl failed"
mkdir -p /run
check "the guest has both devices where the boot put them" \
	'[ -e /sys/bus/pci/devices/$DEV ] && [ -e /sys/bus/pci/devices/$BAD ] &&
	[ "$(cat /sys/bus/pci/devices/0000:00:1d.0/device)" = 0x3420 ]'

cat >/tmp/d.ini <<INI
[platform]
interval_ms = 200
[tenant web]
cpus = 0
ways = 2
priority = PS
[tenant batch]
cpus = 1
ways = 3
[device $DEV]
ddio = off
[device $BAD]
ddio = off
INI
# variants: $DEV on, full-off or gone (the refused one's section left as it is)
sed "/^\[device $DEV\]/,/^ddio/s/^ddio = off$/ddio = on/" /tmp/d.ini >/tmp/on.ini
sed "/^\[device $DEV\]/,/^ddio/d" /tmp/d.ini >/tmp/gone.ini
sed "/^\[device $DEV\]/,/^ddio/s/^ddio = off$/ddio = full-off/" /tmp/d.ini >/tmp/full-off.ini
cp /tmp/d.ini /tmp/off.ini
load() { cp "/tmp/$1.ini" /tmp/d.ini; }

# 1. found untouched (the defaults, on): set off, a reload to full-off, SIGTERM
up /tmp/d.ini
check "iocad runs its intervals; after the first the module shows $DEV off, owned by iocad" \
	'kill -0 $pid && devline | grep -q "^ddio off perfctrlsts 0x0 0x0 emulated owner-pid $pid$"'
check "the unknown root port: refused in one line naming $BAD and the module's reason" \
	'[ "$(nlogs "device $BAD: DDIO off refused: Operation not supported: device $BAD: root port 0000:00:1d.0 (8086:3420) above $BAD is not a known IIO root port")" -eq 1 ]'
check "the tenants carry on: both groups, intervals go on, $BAD not in the module's list" \
	'[ "$(ngroups)" -eq 2 ] && wait_log "^#4 " && logs "^#4 " &&
	! ./iocactl info | grep -q "^device $BAD"'
check "no L2 counts under TCG: said once, with the module's reason" \
	'[ "$(nlogs "no L2 counts (ioca.ko could not count L2_RQSTS.REFERENCES and L2_RQSTS.MISS (raw 0xff24, 0x3f24): sampler for 2 CPUs: No such file or directory")" -eq 1 ] &&
	logs "antagonists are not judged"'
load full-off
kill -HUP "$pid"
wait_log "device $DEV (network): DDIO full-off"
check "reload to full-off: said, the module shows it, the tenants unchanged" \
	'logs "devices changed, tenants unchanged" && [ "$(ngroups)" -eq 2 ] &&
	devline | grep -q "^ddio full-off perfctrlsts 0x0 0x100 emulated owner-pid $pid$"'
check "the refused device, its setting unchanged, is not tried again" \
	'[ "$(nlogs "device $BAD: DDIO .* refused")" -eq 1 ]'
stop TERM
check "SIGTERM: exit 0, $DEV back to the defaults it had (no owner), groups gone" \
	'[ "$rc" -eq 0 ] && [ "$(devline)" = "ddio on perfctrlsts 0x80 0x0 emulated" ] &&
	[ "$(ngroups)" -eq 0 ]'

# 2. found full-off, set by someone else (no owner): iocad sets on
./iocactl ddio device $DEV full-off >/dev/null
found=$(devline)
load on
up /tmp/d.ini
check "found full-off: iocad sets on, owned" \
	'[ "$found" = "ddio full-off perfctrlsts 0x0 0x100 emulated" ] &&
	devline | grep -q "^ddio on perfctrlsts 0x80 0x0 emulated owner-pid $pid$"'
load gone
kill -HUP "$pid"
wait_log "device $DEV (network): DDIO as found (no longer in the config"
check "a reload without [device $DEV]: put back as found, said" \
	'logs "no longer in the config: as found" && [ "$(devline)" = "$found" ]'
load on
kill -HUP "$pid"
wait_log "device $DEV (network): DDIO on" 2
check "a reload with it again: on again" \
	'[ "$(nlogs "device $DEV (network): DDIO on")" -eq 2 ] && devline | grep -q "^ddio on perfctrlsts 0x80 0x0 emulated owner-pid $pid$"'
stop TERM
check "SIGTERM: exit 0, $DEV back to full-off as found" \
	'[ "$rc" -eq 0 ] && [ "$(devline)" = "$found" ]'

# 3. killed: the module's owner-close puts the root port back
up /tmp/d.ini
check "again on, owned by the new iocad" \
	'devline | grep -q "^ddio on .* owner-pid $pid$"'
kill -KILL "$pid"
wait "$pid"
wait_for 5 '[ "$(devline)" = "$found" ]'
check "kill -9: the module put $DEV back as found at iocad's first change (owner close)" \
	'[ "$(devline)" = "$found" ]'
up /tmp/d.ini
check "the next iocad cleans the dead one's groups and sets $DEV on again" \
	'kill -0 $pid && logs "removed group iocad-s0-" && devline | grep -q "^ddio on .* owner-pid $pid$"'
stop TERM
check "its SIGTERM puts full-off back" '[ "$rc" -eq 0 ] && [ "$(devline)" = "$found" ]'
./iocactl ddio device $DEV on >/dev/null
umount $R
echo "# iocad-devices: $((n - failed)) passed, $failed failed"
exit "$failed"
