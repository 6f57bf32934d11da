#!/bin/sh
# shellcheck disable=SC2317,SC2034,SC2154 # helpers and their variables run through eval; n, failed: tap.sh's
# iocad end to end, inside the test VM (busybox sh, root, cwd /ioca, 4
# CPUs, a CPU model without DDIO way control): iocad runs on the host
# platform against ioca.ko (emulate=1: DDIO hit/miss counters driven from
# debugfs) and resctrl_emu.ko (the resctrl filesystem with the kernel's
# rules). Every check is one TAP line naming iocad; exits with the number
# of failures.
cd /ioca || exit 1
R=/sys/fs/resctrl
DBG=/sys/kernel/debug/ioca/socket0
EMU=/sys/module/resctrl_emu/parameters
TAP_NAME=iocad
tap_diag() { # DDIO, the sampler, every iocad group's schemata and CPUs, iocad's last lines
	echo "# ddio $(ddio 0), sampler $(sampler), groups: $(ls $R | tr '\n' ' ')"
	for g in "$R"/iocad-s0-*; do
		[ -d "$g" ] && echo "# ${g##*/}: $(tr '\n' ' ' <"$g/schemata") cpus $(cat "$g/cpus_list")"
	done
	[ -f "$LOG" ] && grep -v '^#[0-9]* ' "$LOG" | sed 's/^/#   log: /' | tail -n 12
	[ -f "$LOG" ] && grep '^#[0-9]* ' "$LOG" | sed 's/^/#   log: /' | tail -n 4
}
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, check, wait_for
. ./tap.sh
# shellcheck source=/dev/null # selftests/iocad/iocad_guest.sh: start, stop, running, logs, ddio, gmask
. ./iocad_guest.sh
echo "1..41"

ngroups() { ls -d "$R"/iocad-s0-* 2>/dev/null | wc -l; }
snapshot() {
	for g in "$R"/iocad-s0-*; do
		[ -d "$g" ] && echo "$g $(cat "$g/schemata") $(cat "$g/cpus_list")"
	done
}
# PS tenants off DDIO in every traced interval (columns found by name)
ps_off_ddio_in_trace() {
	h=$(head -n 1 "$TRACE" | tr ',' '\n' | grep -n . | sed 's/:/ /')
	cd_=$(echo "$h" | awk '$2 == "ddio_mask" { print $1 }')
	cw=$(echo "$h" | awk '$2 == "web_mask" { print $1 }')
	cb=$(echo "$h" | awk '$2 == "db_mask" { print $1 }')
	tail -n +2 "$TRACE" | cut -d, -f"$cd_,$cw,$cb" | tr ',' ' ' | while read -r d w b; do
		[ -z "$d" ] && continue
		[ $(((d & w) | (d & b))) -eq 0 ] || exit 1
	done
}

cat >/tmp/three.ini <<'INI'
[platform]
interval_ms = 500
ddio_ways_min = 2
ddio_ways_max = 6
; the emulated misses do not fall as DDIO grows: grow to the maximum
ddio_growth = paper
; the VM's CPU counters are clocks (at most 1e9 ns/s per one-CPU tenant):
; changes below 2e9 events/s are noise, so only the emulated DDIO moves.
; The tests drive DDIO misses at 1e11/s, 20x the threshold: a sample the
; loaded host delays skews one interval's rate, never across the threshold.
threshold_miss_low = 5000000000
threshold_min_rate = 2000000000

[tenant batch]
cpus = 2
ways = 3

[tenant web]
cpus = 0
ways = 2
priority = PS
networking = yes

[tenant db]
cpus = 1
ways = 2
priority = PS
INI
# + a fourth tenant
sed 's/^\[tenant batch\]/[tenant cache]\ncpus = 3\nways = 1\n\n&/' /tmp/three.ini >/tmp/four.ini
# db gone, cache in
sed '/^\[tenant db\]/,$d' /tmp/four.ini >/tmp/swap.ini

# --- before anything is there ---------------------------------------------
./iocad /tmp/three.ini >"$LOG" 2>&1
rc=$?
check "without ioca.ko: exit 75 (may clear: systemd retries), names ioca.ko and how to load it" \
	'[ "$rc" -eq 75 ] && logs "ioca.ko is not loaded" && logs "modprobe ioca"'

insmod ./ioca.ko emulate=1 || echo "# insmod ioca.ko emulate=1 failed"
insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=1 num_closids=3 cache_ids=0 ||
	echo "# insmod resctrl_emu.ko failed"
mkdir -p /run
./iocad /tmp/three.ini >"$LOG" 2>&1
rc=$?
check "resctrl not mounted: exit 75, says how to mount it" \
	'[ "$rc" -eq 75 ] && logs "not mounted" && logs "mount -t resctrl resctrl /sys/fs/resctrl"'
check "a refused start leaves ioca.ko's sampler unconfigured and DDIO at 0x600" \
	'[ "$(sampler)" = unconfigured ] && [ "$(ddio 0)" = 0x600 ]'

mount -t resctrl resctrl $R || echo "# mount resctrl failed"
./iocad /tmp/three.ini >"$LOG" 2>&1
rc=$?
check "too few CLOSIDs: exit 2 with the numbers" \
	'[ "$rc" -eq 2 ] && logs "3 tenant groups need 3 CLOSIDs, but num_closids is 3"'
umount $R
rmmod resctrl_emu
insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=1 num_closids=8 cache_ids=0 ||
	echo "# insmod resctrl_emu.ko num_closids=8 failed"
mount -t resctrl resctrl $R || echo "# mount resctrl failed"
mkdir $R/operator
echo "L3:0=00f" >$R/operator/schemata

sed 's/^cpus = 1$/cpus = 1,7/' /tmp/three.ini >/tmp/bad.ini
./iocad --check-config /tmp/bad.ini >"$LOG" 2>&1
rc=$?
check "--check-config: a CPU the host lacks is refused with file:line" \
	'[ "$rc" -eq 2 ] && logs "/tmp/bad.ini:2[0-9]: \[tenant db\] cpus: CPU 7 does not exist"'
./iocad --check-config /tmp/three.ini >"$LOG" 2>&1
rc=$?
check "--check-config: a good file passes and touches nothing" \
	'[ "$rc" -eq 0 ] && [ "$(ngroups)" -eq 0 ] && [ "$(sampler)" = unconfigured ]'

# --- start: three tenants -------------------------------------------------
start /tmp/three.ini
wait_for 30 '[ "$(ngroups)" -eq 3 ] && [ -s "$TRACE" ]'
check "start: one resctrl group per tenant" \
	'[ -n "$(gmask 0 batch)" ] && [ -n "$(gmask 0 web)" ] && [ -n "$(gmask 0 db)" ]'
# web, the networking tenant, on the inclusive ways 0x3 (its own DMA lines
# land there); db, PS, off them and off DDIO's; batch beside DDIO. iocad
# starts from static's layout and makes this one its first change, once
# static's is measured (iocad/FSM.md, "Never worse for a PS tenant").
wait_for 20 '[ "$(gmask 0 batch)" -eq 112 ] && [ "$(gmask 0 web)" -eq 3 ] && [ "$(gmask 0 db)" -eq 12 ]'
check "start: masks as planned (web 0x3 on the inclusive ways, db 0xc, batch 0x70 beside DDIO 0x600)" \
	'[ "$(gmask 0 batch)" -eq 112 ] && [ "$(gmask 0 web)" -eq 3 ] && [ "$(gmask 0 db)" -eq 12 ]'
check "start: each group holds its tenant's CPUs" \
	'[ "$(gcpus 0 batch)" = 2 ] && [ "$(gcpus 0 web)" = 0 ] && [ "$(gcpus 0 db)" = 1 ]'
check "start: ioca.ko's sampler runs" '[ "$(sampler)" = running ]'

# --- I/O pressure: one DDIO way per interval up to ddio_ways_max -----------
echo 100000000000 >$DBG/ddio_miss_rate
wait_for 40 '[ "$(ddio 0)" = 0x7e0 ]'
check "miss rate up: iocactl info shows DDIO at ddio_ways_max (0x7e0)" '[ "$(ddio 0)" = 0x7e0 ]'
seq=$(awk -F, 'NR > 1 { print $7 }' "$TRACE" | uniq | tr '\n' ' ')
check "DDIO grew one way per interval: $seq" \
	'echo "$seq" | grep -q "0x600 0x700 0x780 0x7c0 0x7e0"'
wait_for 10 'logs high_keep'
check "I/O Demand was entered and High Keep reached" 'logs io_demand && logs high_keep'
sleep 2
check "DDIO stays at the maximum" '[ "$(ddio 0)" = 0x7e0 ] && ! grep -q "0x7f0" "$TRACE"'
check "PS tenants off DDIO's ways in every interval" 'ps_off_ddio_in_trace'
check "resctrl agrees: web and db off 0x7e0" \
	'[ $(($(gmask 0 web) & 0x7e0)) -eq 0 ] && [ $(($(gmask 0 db) & 0x7e0)) -eq 0 ]'

# --- load gone: Reclaim back to the minimum --------------------------------
echo 0 >$DBG/ddio_miss_rate
wait_for 40 '[ "$(ddio 0)" = 0x600 ] && logs reclaim_done'
check "miss rate down: Reclaim takes DDIO back to 0x600" '[ "$(ddio 0)" = 0x600 ]'

# --- someone else sets DDIO -------------------------------------------------
./iocactl ddio set 0 ways 6 >/dev/null
wait_for 10 'logs "changed outside iocad"'
sleep 2
check "an outside 'iocactl ddio set' is logged and adopted, not written back" \
	'logs "changed outside iocad" && [ "$(ddio 0)" = 0x7e0 ]'
check "PS tenants re-isolated from the new ways" \
	'[ $(($(gmask 0 web) & 0x7e0)) -eq 0 ] && [ $(($(gmask 0 db) & 0x7e0)) -eq 0 ] && ps_off_ddio_in_trace'

# --- a refused resctrl write ------------------------------------------------
before=$(snapshot)
echo iocad-s0-cache >$EMU/fail_next_schemata
cp /tmp/four.ini /tmp/three.ini.next
cp /tmp/three.ini /tmp/three.ini.orig
cp /tmp/four.ini /tmp/three.ini
kill -HUP "$pid"
wait_for 10 '[ -z "$(cat $EMU/fail_next_schemata)" ] && logs "new allocation not applied"'
check "a refused schemata write (SIGHUP adding a tenant) leaves every mask as it was" \
	'[ "$(snapshot)" = "$before" ] && [ ! -d $R/iocad-s0-cache ] && logs "Injected failure"'

# --- SIGHUP: a tenant in, another out ---------------------------------------
cp /tmp/swap.ini /tmp/three.ini
kill -HUP "$pid"
wait_for 10 '[ -d $R/iocad-s0-cache ] && [ ! -d $R/iocad-s0-db ]'
check "SIGHUP: the new tenant gets a group with its CPU, the removed one's group is gone" \
	'[ "$(gcpus 0 cache)" = 3 ] && [ ! -d $R/iocad-s0-db ] && running'

# --- a sampler that will not start (ioca.ko's sampler_fail_starts) ----------
# the FSM's first decisions on the swapped tenants first: masks unchanged
# over two seconds (four intervals), so a move of theirs is not read as the
# failed reload's
before=$(snapshot)
for _i in 1 2 3 4 5 6 7 8 9 10; do
	sleep 2
	[ "$(snapshot)" = "$before" ] && break
	before=$(snapshot)
done
echo 1000 >/sys/kernel/debug/ioca/sampler_fail_starts
# a reload that changes sampling (500 -> 400 ms): neither its sampler nor the running one starts
sed 's/^interval_ms = 500/interval_ms = 400/' /tmp/swap.ini >/tmp/three.ini
kill -HUP "$pid"
wait_for 20 'logs "waiting for the sampler to start"'
check "a sampler that will not start: iocad says what it waits for, runs on, allocation kept" \
	'logs "waiting for the sampler to start" && running && [ "$(snapshot)" = "$before" ]'
cp /tmp/swap.ini /tmp/three.ini
n0=$(grep -c "reload: /tmp/three.ini unchanged" "$LOG")
kill -HUP "$pid"
wait_for 5 '[ "$(grep -c "reload: /tmp/three.ini unchanged" "$LOG")" -gt "$n0" ]'
check "... a SIGHUP while no sample comes is answered (within 5 s, not when samples return)" \
	'[ "$(grep -c "reload: /tmp/three.ini unchanged" "$LOG")" -gt "$n0" ]'
# the retries back off: 6 failed starts (the reload's two, then 1, 2, 4 s apart) make it 8 s or more
FAILS=/sys/kernel/debug/ioca/sampler_fail_starts
wait_for 60 '[ "$(cat $FAILS)" -le 994 ]'
echo 0 >$FAILS
# a reload whose sampler starts (500 -> 400 ms) is the fix: taken at once
sed 's/^interval_ms = 500/interval_ms = 400/' /tmp/swap.ini >/tmp/three.ini
n1=$(grep -c "samples come again" "$LOG")
kill -HUP "$pid"
wait_for 20 '[ "$(sampler)" = running ] && [ "$(grep -c "samples come again" "$LOG")" -gt "$n1" ]'
check "... a reload whose sampler starts ends the wait at once (no backoff): sampler running, samples come" \
	'[ "$(sampler)" = running ] && [ "$(grep -c "samples come again" "$LOG")" -gt "$n1" ] && running'
# the next outage: the reload's two starts and the first retries fail, the
# last one comes 1 + 2 s later (the backoff began again), not 16 s or more
echo 4 >$FAILS
cp /tmp/swap.ini /tmp/three.ini
n0=$(grep -c "sampler started again" "$LOG")
kill -HUP "$pid"
wait_for 20 '[ "$(cat $FAILS)" -eq 0 ]'
wait_for 10 '[ "$(grep -c "sampler started again" "$LOG")" -gt "$n0" ]'
check "... the next outage backs off from 1 s again, not from the last outage's wait (started within 10 s)" \
	'[ "$(grep -c "sampler started again" "$LOG")" -gt "$n0" ] && [ "$(sampler)" = running ]'
echo 0 >/sys/kernel/debug/ioca/sampler_fail_starts
wait_for 70 'logs "sampler started again" && [ "$(sampler)" = running ]'
check "... retried with backoff: the sampler runs again once it can, samples come again" \
	'logs "sampler started again" && [ "$(sampler)" = running ] && wait_for 10 "logs \"samples come again\""'
cp /tmp/three.ini.orig /tmp/three.ini

# --- SIGTERM ----------------------------------------------------------------
stop TERM
echo "# iocad exited $rc after SIGTERM"
check "SIGTERM: exit 0, DDIO back to the mask found at start, every group removed" \
	'[ "$rc" -eq 0 ] && [ "$(ddio 0)" = 0x600 ] && [ "$(ngroups)" -eq 0 ]'
check "groups iocad did not create are untouched" \
	'[ -d $R/operator ] && grep -q "L3:0=00f" $R/operator/schemata'

# --- SIGTERM while the sampler is down ----------------------------------------
cp /tmp/three.ini /tmp/down.ini
start /tmp/down.ini
wait_for 30 '[ "$(ngroups)" -eq 3 ] && [ "$(sampler)" = running ]'
echo 1000 >/sys/kernel/debug/ioca/sampler_fail_starts
sed -i 's/^interval_ms = 500/interval_ms = 400/' /tmp/down.ini
kill -HUP "$pid"
wait_for 20 'logs "waiting for the sampler to start"'
stop TERM
echo 0 >/sys/kernel/debug/ioca/sampler_fail_starts
check "SIGTERM while the sampler is down: restored (exit 0), the log says there was no sampler to stop, not EINVAL" \
	'[ "$rc" -eq 0 ] && [ "$(ddio 0)" = 0x600 ] && [ "$(ngroups)" -eq 0 ] && logs "the sampler was down (iocad was waiting for it to start again): nothing to stop" && ! logs "Invalid argument"'

# --- a DDIO register DDIO does not follow (ioca.ko's debugfs knob) ---------
echo ignoring >$DBG/ddio_register
start /tmp/three.ini
wait_for 30 '[ "$(ngroups)" -eq 3 ] && [ -s "$TRACE" ]'
stop TERM
check "an unverified DDIO register: iocactl info says verified no, iocad says so at start" \
	'./iocactl info | grep -q "ddio-control available yes writable yes verified no" &&
	logs "socket 0: DDIO way masks are set but not verified" && [ "$rc" -eq 0 ]'

# --- a DDIO register that does not take writes (ioca.ko's debugfs knob) ----
echo locked >$DBG/ddio_register
start /tmp/three.ini
wait_for 30 '[ "$(ngroups)" -eq 3 ] && [ -s "$TRACE" ]'
echo 100000000000 >$DBG/ddio_miss_rate
wait_for 30 'logs "no DDIO way control any more"'
check "locked DDIO register: the first DDIO write fails, iocad says why and goes on" \
	'logs "no DDIO way control any more: ioca.ko: DDIO writes do not stick" && running'
sleep 2
check "locked: DDIO stays 0x600, no back-off, the groups stay, PS tenants off DDIO" \
	'[ "$(ddio 0)" = 0x600 ] && ! logs "time(s) in a row" && [ "$(ngroups)" -eq 3 ] &&
	ps_off_ddio_in_trace'
stop TERM
start /tmp/three.ini
wait_for 30 '[ "$(ngroups)" -eq 3 ] && [ -s "$TRACE" ]'
check "restart while ioca.ko says not writable: said at start, runs without DDIO control" \
	'logs "socket 0: no DDIO way control: ioca.ko: DDIO writes do not stick" && running &&
	[ "$(ddio 0)" = 0x600 ]'
stop TERM
echo 0 >$DBG/ddio_miss_rate
echo normal >$DBG/ddio_register
./iocactl ddio restore >/dev/null 2>&1
check "without DDIO control SIGTERM still exits 0 and removes every group" \
	'[ "$rc" -eq 0 ] && [ "$(ngroups)" -eq 0 ] && [ "$(ddio 0)" = 0x600 ]'

# --- kill -9 ----------------------------------------------------------------
start /tmp/three.ini
echo 100000000000 >$DBG/ddio_miss_rate
wait_for 30 '[ "$(ddio 0)" != 0x600 ] && [ "$(ngroups)" -eq 3 ]'
stop KILL
echo 0 >$DBG/ddio_miss_rate
wait_for 5 '[ "$(ddio 0)" = 0x600 ]'
check "kill -9: ioca.ko puts the DDIO mask back (owner socket closed)" '[ "$(ddio 0)" = 0x600 ]'
check "kill -9: ioca.ko stops the sampler" '[ "$(sampler)" != running ]'
start /tmp/three.ini
wait_for 30 'logs "cleaned up 3 group(s)" && [ "$(ngroups)" -eq 3 ] && [ -s "$TRACE" ]'
check "restart after kill -9: the dead instance's groups are cleaned up, and said so" \
	'logs "cleaned up 3 group(s) left by an iocad" && running'

# --- every subscriber slot others may take is taken -------------------------
stop TERM
# 15 monitors subscribe to a sampler of iocactl's (a monitor needs one
# running); stopped, they wait 3 intervals + 2 s (62 s) before giving up
./iocactl sampler set --interval 20s --cpus 0-1 --event instructions >/dev/null
./iocactl sampler start >/dev/null
mons=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	./iocactl monitor >/dev/null 2>&1 &
	mons="$mons $!"
done
sleep 3
./iocactl sampler stop >/dev/null
start /tmp/three.ini
wait_for 30 '[ "$(ngroups)" -eq 3 ] && [ "$(sampler)" = running ] && [ "$(tail -n 1 "$TRACE" | cut -d, -f1)" -ge 2 ] 2>/dev/null'
check "15 other subscribers: iocad still starts, in the slot kept for the sampler's owner" \
	'running && logs "subscribes again once it owns the sampler" && [ "$(tail -n 1 "$TRACE" | cut -d, -f1)" -ge 2 ] 2>/dev/null'
# shellcheck disable=SC2086 # one pid per word
kill $mons 2>/dev/null

# --- rmmod under a running iocad --------------------------------------------
rmmod ioca
wait_for 20 '! running'
if running; then stop KILL; else
	wait "$pid"
	rc=$?
fi
check "rmmod ioca: iocad exits 3 (an operator's rmmod: not restarted)" '[ "$rc" -eq 3 ]'
check "rmmod ioca: with a clear message naming ioca.ko, and that it stays down" \
	'logs "lost ioca.ko" && logs "iocad stays down until it is started again"'
check "rmmod ioca: iocad still removes its groups" '[ "$(ngroups)" -eq 0 ]'

echo "# iocad-vm: $((n - failed)) passed, $failed failed"
exit "$failed"
