#!/bin/sh
# shellcheck disable=SC2317,SC2016,SC2034,SC2154 # helpers and their variables run through eval; n, failed: tap.sh's
# resctrl faults under a running iocad, inside the test VM (busybox sh,
# root, cwd /ioca, 4 CPUs on one socket): ioca.ko emulate=1 and
# resctrl_emu.ko with 5 CLOSIDs (the default group, a runtime's class
# gold, an operator's group ops and iocad's two). An operator's group that
# took a tenant's CPU and holds a task keeps both through hotplug; a
# runtime's class that vanishes holds up only its tenant; the CLOSID check
# counts a rename's peak; a reload refused at a schemata write changes
# nothing; an unmount is waited out and a remount is followed by iocad's
# groups made again. One TAP line per check.
cd /ioca || exit 1
R=/sys/fs/resctrl
EMU=/sys/module/resctrl_emu/parameters
DBG=/sys/kernel/debug/ioca/socket0
TAP_NAME=iocad-resctrl
tap_diag() {
	echo "# ddio $(ddio 0); $(snapshot | tr '\n' ' ')"
	[ -f "$LOG" ] && grep -v '^#[0-9]* ' "$LOG" | sed 's/^/#   log: /' | tail -n 12
	[ -f "$LOG" ] && grep '^#[0-9]* ' "$LOG" | sed 's/^/#   log: /' | tail -n 4
}
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, check, wait_for
. ./tap.sh
# shellcheck source=/dev/null # selftests/iocad/iocad_guest.sh: start, stop, running, logs, ddio, gmask
. ./iocad_guest.sh
echo "1..19"

# every group, its mask and CPUs, and DDIO: what a refused change must leave
snapshot() {
	for g in "$R"/*/; do
		g=${g%/}
		[ "${g##*/}" = info ] && continue
		echo "${g##*/} $(tr '\n' ' ' <"$g/schemata") cpus $(cat "$g/cpus_list")"
	done
	echo "ddio $(ddio 0)"
}
cmask() { sed -n 's/.*L3:0=\([0-9a-f]*\).*/\1/p' "$R/$1/schemata" 2>/dev/null; }
mark() { wc -l <"$LOG"; }
since() { tail -n +$(($1 + 1)) "$LOG"; }
cpu() { echo "$2" >"/sys/devices/system/cpu/cpu$1/online"; }
bits() { # N: the number of set bits
	_b=0 _v=$1
	while [ "$_v" -gt 0 ]; do _b=$((_b + (_v & 1))) _v=$((_v >> 1)); done
	echo "$_b"
}

cat >/tmp/r.ini <<'INI'
[platform]
interval_ms = 500
ddio_ways_min = 2
ddio_ways_max = 6
ddio_growth = paper
threshold_miss_low = 5000000000
threshold_min_rate = 2000000000

[tenant web]
cpus = 0
ways = 2
priority = PS
networking = yes

[tenant batch]
cpus = 1-2
ways = 3

[tenant db]
cpus = 3
ways = 2
rdt_class = gold

[metrics]
textfile = /tmp/ioca.prom
INI
# batch renamed bulk: for a moment both are there
sed 's/^\[tenant batch\]/[tenant bulk]/' /tmp/r.ini >/tmp/rename.ini
# web one way more
sed '/^\[tenant web\]/,/^$/ s/^ways = 2$/ways = 3/' /tmp/r.ini >/tmp/web3.ini

insmod ./ioca.ko emulate=1 || echo "# insmod ioca.ko emulate=1 failed"
insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=1 num_closids=5 cache_ids=0 ||
	echo "# insmod resctrl_emu.ko failed"
mkdir -p /run $R
mount -t resctrl resctrl $R || echo "# mount resctrl failed"
mkdir $R/gold $R/ops
echo "L3:0=00f" >$R/ops/schemata
cp /tmp/r.ini /tmp/live.ini
start /tmp/live.ini
wait_for 30 '[ -d $R/iocad-s0-batch ] && [ "$(cmask gold)" != 7ff ] && [ -s "$TRACE" ]'
check "start: iocad's groups, gold's mask written, 5 CLOSIDs in use" \
	'[ "$(gcpus 0 web)" = 0 ] && [ "$(gcpus 0 batch)" = 1-2 ] && [ -n "$(cmask gold)" ] &&
	 [ "$(cmask gold)" != 7ff ] && running'

# --- an operator's group takes a tenant's CPU and holds a task: hotplug ----
sleep 1000 &
task=$!
echo "$task" >$R/ops/tasks
echo 2 >$R/ops/cpus_list
m=$(mark)
cpu 3 0
wait_for 20 'since $m | grep -q "every group holds its online CPUs again"'
cpu 3 1
cpu 1 0
wait_for 20 '[ "$(since $m | grep -c "every group holds its online CPUs again")" -ge 2 ]'
cpu 1 1
wait_for 20 '[ "$(since $m | grep -c "every group holds its online CPUs again")" -ge 3 ]'
sleep 2
check "hotplug fix-ups leave ops its CPU 2 and its task; batch holds CPU 1 again" \
	'[ "$(cat $R/ops/cpus_list)" = 2 ] && grep -qx "$task" $R/ops/tasks && [ "$(gcpus 0 batch)" = 1 ]'
check "said once that CPU 2 stays in a group iocad did not create" \
	'[ "$(grep -c "CPU 2 of group iocad-s0-batch is in a group iocad did not create" "$LOG")" -eq 1 ]'
# ops lets go of CPU 2 (to the default group)
echo >$R/ops/cpus_list

# --- a reload naming a CPU that went offline after start ---------------------
# placed by the CPUs as they are now, not as they were at start
cpu 3 0
m=$(mark)
cp /tmp/web3.ini /tmp/live.ini
kill -HUP "$pid"
wait_for 20 'since $m | grep -q "reload: [0-9]* socket(s) changed\|reload rejected"'
check "a reload naming a CPU gone offline since start is refused, naming it; web keeps 2 ways" \
	'since $m | grep -q "reload rejected.*CPU 3 is offline" && [ "$(bits "$(gmask 0 web)")" -eq 2 ]'
cp /tmp/r.ini /tmp/live.ini
m=$(mark)
cpu 3 1
wait_for 20 'since $m | grep -q "every group holds its online CPUs again"'

# --- a runtime's class vanishes: only its tenant waits -----------------------
rmdir $R/gold
wait_for 20 'logs "rdt_class gold vanished: its tenant waits"'
w0=$(gmask 0 web)
echo 100000000000 >$DBG/ddio_miss_rate
wait_for 40 '[ "$(ddio 0)" = 0x7e0 ]'
check "gold gone: DDIO still grows and the other tenants' masks follow" \
	'[ "$(ddio 0)" = 0x7e0 ] && [ $(($(gmask 0 web) & 0x7e0)) -eq 0 ] &&
	 [ $(($(gmask 0 batch) & 0x7e0)) -eq 0 ] && ! logs "apply failed"'
# a reload giving web a third way, while db's class is gone
m=$(mark)
cp /tmp/web3.ini /tmp/live.ini
kill -HUP "$pid"
wait_for 20 'since $m | grep -q "reload: [0-9]* socket(s) changed\|reload rejected"'
check "gold gone: a reload for web is applied (web gets its third way)" \
	'since $m | grep -q "reload: 1 socket(s) changed" && [ "$(bits "$(gmask 0 web)")" -eq 3 ]'
m=$(mark)
cp /tmp/r.ini /tmp/live.ini
kill -HUP "$pid"
wait_for 20 'since $m | grep -q "reload: [0-9]* socket(s) changed\|reload rejected"'
mkdir $R/gold
wait_for 20 '[ "$(cmask gold)" != 7ff ] && [ -n "$(cmask gold)" ]'
# db's mask as the latest interval planned it
dbmask() { grep '^#[0-9]* s0 ' "$LOG" | tail -n 1 | sed -n 's/.* db=\(0x[0-9a-f]*\).*/\1/p'; }
check "gold made again: said, and its tenant's mask is written (the plan's for db)" \
	'logs "rdt_class gold is there again" && [ -n "$(cmask gold)" ] &&
	 [ $((0x$(cmask gold))) -eq $(($(dbmask))) ]'
echo 0 >$DBG/ddio_miss_rate
wait_for 40 '[ "$(ddio 0)" = 0x600 ]'

# --- CLOSIDs at the peak: a rename needs both groups at once -----------------
sleep 1
before=$(snapshot)
m=$(mark)
cp /tmp/rename.ini /tmp/live.ini
kill -HUP "$pid"
wait_for 20 'since $m | grep -q "reload rejected"'
sleep 1
check "a rename with every CLOSID in use is refused by the check, naming the peak" \
	'since $m | grep -q "2 tenant groups need 3 CLOSIDs (3 of them at once"'
check "the refused rename changed no group, mask, CPU or DDIO" '[ "$(snapshot)" = "$before" ]'
cp /tmp/r.ini /tmp/live.ini

# --- a reload refused at a schemata write -----------------------------------
before=$(snapshot)
m=$(mark)
echo iocad-s0-web >$EMU/fail_next_schemata
cp /tmp/web3.ini /tmp/live.ini
kill -HUP "$pid"
wait_for 20 'since $m | grep -q "reload rejected"'
sleep 1
check "a reload refused at web's schemata write: said with the kernel's status" \
	'since $m | grep -q "Injected failure" && running'
check "the refused reload changed no group, mask, CPU or DDIO" '[ "$(snapshot)" = "$before" ]'
cp /tmp/r.ini /tmp/live.ini
echo >$EMU/fail_next_schemata

# --- unmounted, then mounted again ---------------------------------------------
m=$(mark)
umount $R
wait_for 20 'since $m | grep -q "resctrl is not mounted at /sys/fs/resctrl"'
check "unmounted under iocad: said what CAT waits for, iocad runs on" \
	'since $m | grep -q "CAT waits for resctrl" && running'
wait_for 10 'grep -q "^ioca_cat_waiting{what=\"resctrl\"} 1" /tmp/ioca.prom'
check "... and in metrics: ioca_cat_waiting{what=\"resctrl\"} 1 while samples come (ioca_waiting 0)" \
	'grep -q "^ioca_cat_waiting{what=\"resctrl\"} 1" /tmp/ioca.prom && grep -q "^ioca_waiting 0" /tmp/ioca.prom'
mount -t resctrl resctrl $R
mkdir $R/gold
wait_for 60 '[ -d $R/iocad-s0-web ] && [ -d $R/iocad-s0-batch ] && [ "$(cmask gold)" != 7ff ]'
check "mounted again: iocad's groups made again with their CPUs, gold's mask written" \
	'[ "$(gcpus 0 web)" = 0 ] && [ "$(gcpus 0 batch)" = 1-2 ] && [ -n "$(gmask 0 web)" ] &&
	 logs "iocad.s groups are back"'
wait_for 10 'grep -q "^ioca_cat_waiting{what=\"resctrl\"} 0" /tmp/ioca.prom'
check "... ioca_cat_waiting{what=\"resctrl\"} back to 0" \
	'grep -q "^ioca_cat_waiting{what=\"resctrl\"} 0" /tmp/ioca.prom'
# umount and mount within one interval: found by the mount's identity
m=$(mark)
umount $R && mount -t resctrl resctrl $R && mkdir $R/gold
wait_for 30 '[ -d $R/iocad-s0-web ] && [ "$(gcpus 0 batch)" = 1-2 ]'
check "a quick remount is noticed: iocad's groups made again within a few intervals" \
	'since $m | grep -q "resctrl was remounted" && [ "$(gcpus 0 web)" = 0 ] &&
	 [ -n "$(gmask 0 batch)" ]'
check "iocad ran through every fault" 'running'

stop TERM
check "SIGTERM: exit 0, iocad's groups removed, gold left with its own mask" \
	'[ "$rc" -eq 0 ] && ! [ -d $R/iocad-s0-web ] && [ -d $R/gold ] && [ "$(cmask gold)" = 7ff ]'
kill "$task" 2>/dev/null
check "the kernel log has no warning or oops" '! dmesg | grep -qE "WARNING:|BUG:|Oops:"'
exit $((failed > 125 ? 125 : failed))
