#!/bin/sh
# shellcheck disable=SC2317,SC2016,SC2034,SC2154 # conditions and their variables run through eval; n, failed: tap.sh's
# iocad with io_control = io_alloc, inside the test VM (busybox sh, root,
# cwd /ioca, 4 CPUs, no DDIO way control): resctrl_emu.ko offers Linux
# 6.19's info/L3/io_alloc (AMD SDCIAE), ioca.ko (emulate=1) only samples.
# iocad must enable io_alloc, write the planner's DDIO mask into
# io_alloc_cbm, keep the PS tenant off those ways, count io_alloc's CLOSID,
# leave ioca.ko's DDIO register alone and put io_alloc back as it found it
# on SIGTERM. Exits with the number of failures.
cd /ioca || exit 1
R=/sys/fs/resctrl
IO=$R/info/L3/io_alloc
IOCBM=$R/info/L3/io_alloc_cbm
TAP_NAME="iocad io_alloc"
tap_diag() {
	echo "# io_alloc $(cat $IO 2>&1), io_alloc_cbm $(cat $IOCBM 2>&1)"
	[ -f "$LOG" ] && sed 's/^/#   log: /' "$LOG" | tail -n 10
}
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, check, wait_for
. ./tap.sh
# shellcheck source=/dev/null # selftests/iocad/iocad_guest.sh: start, stop, running, logs, ddio, gmask
. ./iocad_guest.sh
echo "1..18"
pop() { v=$1 c=0; while [ "$v" -gt 0 ]; do c=$((c + (v & 1))); v=$((v >> 1)); done; echo "$c"; }
ngroups() { find "$R" -maxdepth 1 -name 'iocad-s0-*' | wc -l; }
iomask() { v=$(sed -n 's/^0=\([0-9a-f]*\).*/\1/p' $IOCBM 2>/dev/null) && [ -n "$v" ] && echo $((0x$v)); }
ps_off() { # MASK: the PS tenant is off MASK, and io_alloc_cbm holds it
	w=$(gmask 0 web)
	[ -n "$w" ] && [ $((w & $1)) -eq 0 ] && [ "$(iomask)" -eq $(($1)) ]
}
wait_ps_off() { wait_for 10 "ps_off $1"; }
ready() { # CONFIG: start iocad, until its third interval or its end
	start "$@"
	wait_for 30 'grep -q "^#3 " "$LOG" || ! running'
}
emu() { # resctrl_emu parameters...
	umount $R 2>/dev/null
	rmmod resctrl_emu 2>/dev/null
	insmod ./resctrl_emu.ko cbm_mask="$cbm" num_closids=4 "$@" &&
		mount -t resctrl resctrl $R || echo "# insmod resctrl_emu.ko $* or mount failed"
}

insmod ./ioca.ko emulate=1 || echo "# insmod ioca.ko emulate=1 failed"
ways=$(./iocactl info | sed -n 's/.*llc-ways \([0-9]*\).*/\1/p' | head -n 1)
cbm=$(printf '0x%x' $(((1 << ${ways:-11}) - 1)))
emu io_alloc=1
ddio0=$(ddio 0)
sed 's/^interval_ms = 200$/&\nio_control = io_alloc\nddio_counters = optional\nddio_ways = 3/' \
	web_batch.ini >/tmp/a.ini

# three tenant groups + io_alloc's CLOSID + the default group > num_closids=4
sed 's/^\[tenant batch\]$/[tenant extra]\ncpus = 2\nways = 2\n&/' /tmp/a.ini >/tmp/c.ini
./iocad /tmp/c.ini >"$LOG" 2>&1
rc=$?
check "io_alloc's CLOSID counted: 3 tenants on num_closids=4 refused, saying why" \
	'[ "$rc" -ne 0 ] && logs "fit num_closids=4 only without io_alloc" && [ "$(ngroups)" -eq 0 ]'
check "the refusal put io_alloc back (disabled)" '[ "$(cat $IO)" = disabled ]'

ready /tmp/a.ini
check "runs, says io_alloc is its I/O control and that it runs degraded" \
	'kill -0 $pid && logs "resctrl.s io_alloc masks" && logs "degraded mode" && [ "$(ngroups)" -eq 2 ]'
check "io_alloc enabled by iocad" '[ "$(cat $IO)" = enabled ]'
m=$(iomask)
check "io_alloc_cbm holds the planner's DDIO mask (3 ways, the one logged)" \
	'[ -n "$m" ] && [ "$(pop "$m")" -eq 3 ] && grep "^#3 " "$LOG" | grep -q "ddio=$(printf "0x%x" "$m")"'
check "the PS tenant is off io_alloc's ways" \
	'w=$(gmask 0 web); [ -n "$w" ] && [ $((w & m)) -eq 0 ]'
check "ioca.ko's DDIO register is left alone" '[ "$(ddio 0)" = "$ddio0" ]'
# someone else's io_alloc_cbm write is read back, adopted and planned around
printf '0=600\n' >$IOCBM
wait_for 10 'logs "DDIO mask changed outside iocad: $(printf 0x%x "$m") -> 0x600"'
check "an outside io_alloc_cbm write is seen and adopted" \
	'logs "DDIO mask changed outside iocad: $(printf 0x%x "$m") -> 0x600"'
check "the adopted mask stays (iocad does not write its old one back), PS off it" \
	'wait_ps_off 0x600'
stop TERM
check "SIGTERM: exit 0, groups removed, io_alloc disabled again as found" \
	'[ "$rc" -eq 0 ] && [ "$(ngroups)" -eq 0 ] && [ "$(cat $IO)" = disabled ]'

# found enabled with masks of someone else's: put back exactly
echo 1 >$IO
printf '0=%x\n' 3 >$IOCBM
before=$(cat $IOCBM)
ready /tmp/a.ini
check "found enabled: said, and iocad's mask written" \
	'logs "found enabled" && [ "$(iomask)" -ne 3 ]'
stop TERM
check "SIGTERM: io_alloc still enabled, its masks as found" \
	'[ "$rc" -eq 0 ] && [ "$(cat $IO)" = enabled ] && [ "$(cat $IOCBM)" = "$before" ]'

# killed: the next iocad puts back what the dead one had found
echo 0 >$IO
ready /tmp/a.ini
kill -KILL "$pid"
wait "$pid"
check "kill -9 leaves io_alloc enabled and the record of what was found" \
	'[ "$(cat $IO)" = enabled ] && [ "$(head -n 1 /run/iocad/io_alloc.found)" = disabled ]'
ready /tmp/a.ini
check "the next start takes the dead iocad's record as found, and says so" \
	'kill -0 $pid && logs "did not exit cleanly found" && [ "$(iomask)" -eq $((0x700)) ]'
stop TERM
check "its SIGTERM disables io_alloc again and removes the record" \
	'[ "$rc" -eq 0 ] && [ "$(cat $IO)" = disabled ] && [ ! -e /run/iocad/io_alloc.found ]'

# a kernel whose io_alloc reads "not supported"
emu io_alloc=-1
./iocad /tmp/a.ini >"$LOG" 2>&1
rc=$?
check "io_control = io_alloc on 'not supported': exit 2 naming the file" \
	'[ "$rc" -eq 2 ] && logs "info/L3/io_alloc reads .not supported." && [ "$(ngroups)" -eq 0 ]'
sed 's/^io_control = io_alloc$/io_control = auto/' /tmp/a.ini >/tmp/auto.ini
ready /tmp/auto.ini
check "io_control = auto on 'not supported': the DDIO backend (ioca.ko's mask set)" \
	'kill -0 $pid && ! logs "resctrl.s io_alloc masks" && [ "$(ddio 0)" != "$ddio0" ]'
stop TERM
check "and SIGTERM puts ioca.ko's DDIO mask back" '[ "$rc" -eq 0 ] && [ "$(ddio 0)" = "$ddio0" ]'
umount $R
echo "# iocad-io_alloc: $((n - failed)) passed, $failed failed"
exit "$failed"
