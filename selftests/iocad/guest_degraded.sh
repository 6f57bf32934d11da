#!/bin/sh
# iocad without DDIO counters, inside the test VM (busybox sh, root, cwd
# /ioca): a Skylake-SP model, so ioca.ko loads its msr backend, and no
# uncore CHA PMU (no VM has one), so libioca finds no DDIO hit/miss
# counters. iocad must say so, refuse --mode ioca, and run the documented
# degraded mode when the config opts in. Exits with the number of failures.
# shellcheck disable=SC2317,SC2034,SC2154 # helpers and their variables run through eval; n, failed: tap.sh's
cd /ioca || exit 1
R=/sys/fs/resctrl
TAP_NAME=iocad
tap_diag() { sed 's/^/#   log: /' "$LOG" | tail -n 8; }
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, check, wait_for
. ./tap.sh
# shellcheck source=/dev/null # selftests/iocad/iocad_guest.sh: start, stop, running, logs, ddio, gmask
. ./iocad_guest.sh
echo "1..5"
ngroups() { find "$R" -maxdepth 1 -name 'iocad-s0-*' | wc -l; }

insmod ./ioca.ko || echo "# insmod ioca.ko (msr backend) failed"
# resctrl's cbm_mask as wide as the LLC the module reports (QEMU's model)
ways=$(./iocactl info | sed -n 's/.*llc-ways \([0-9]*\).*/\1/p' | head -n 1)
cbm=$(printf '0x%x' $(((1 << ${ways:-11}) - 1)))
insmod ./resctrl_emu.ko cbm_mask="$cbm" num_closids=4 || echo "# insmod resctrl_emu.ko failed"
mount -t resctrl resctrl $R || echo "# mount resctrl failed"
cp web_batch.ini /tmp/d.ini
sed 's/^\[platform\]$/&\nddio_counters = optional/' /tmp/d.ini >/tmp/opt.ini

./iocad /tmp/d.ini >"$LOG" 2>&1
rc=$?
check "no DDIO counters: said at start, --mode ioca refused with exit 2" \
	'[ "$rc" -eq 2 ] && logs "has no DDIO hit/miss counters" && logs "ddio_counters = optional"'
check "the refusal changed nothing (no group, sampler unconfigured)" \
	'[ "$(ngroups)" -eq 0 ] && ./iocactl info | grep -q "^sampler: unconfigured"'

./iocad /tmp/opt.ini >"$LOG" 2>&1 &
pid=$!
wait_for 20 'grep -q "^#2 " "$LOG"'
check "ddio_counters = optional: runs degraded, says so, groups made" \
	'kill -0 $pid && logs "degraded mode" && [ "$(ngroups)" -eq 2 ]'
check "degraded: the FSM stays in Low Keep" \
	'grep -q "^#2 .*low_keep" "$LOG" && ! grep -q "io_demand\|core_demand" "$LOG"'
kill -TERM $pid
wait $pid
rc=$?
check "degraded: SIGTERM exits 0 and removes the groups" '[ "$rc" -eq 0 ] && [ "$(ngroups)" -eq 0 ]'
echo "# iocad-degraded: $((n - failed)) passed, $failed failed"
exit "$failed"
