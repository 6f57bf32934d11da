#!/bin/sh
# shellcheck disable=SC2317,SC2034,SC2154 # helpers and their variables run through eval; n, failed: tap.sh's
# iocad on a two-socket guest (busybox sh, root, cwd /ioca, 4 CPUs: 0-1 on
# socket 0, 2-3 on socket 1), ioca.ko emulate=1 (one emulated DDIO
# register and counter set per socket, driven from debugfs) and
# resctrl_emu.ko with two L3 domains: one iocad manages both sockets, each
# deciding on its own; a second iocad is refused naming the first; a reload
# the platform refuses changes nothing on the host; a resctrl group iocad
# did not create never loses a CPU. One TAP line per check.
cd /ioca || exit 1
R=/sys/fs/resctrl
TAP_NAME=iocad-sockets
tap_diag() {
	echo "# ddio $(ddio 0) $(ddio 1), groups: $(ls $R | tr '\n' ' ')"
	[ -f "$LOG" ] && grep -v '^#[0-9]* ' "$LOG" | sed 's/^/#   log: /' | tail -n 12
	[ -f "$LOG" ] && grep '^#[0-9]* ' "$LOG" | sed 's/^/#   log: /' | tail -n 4
}
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, check, wait_for
. ./tap.sh
# shellcheck source=/dev/null # selftests/iocad/iocad_guest.sh: start, stop, running, logs, ddio, gmask
. ./iocad_guest.sh
echo "1..15"

intervals() { ./iocactl info | sed -n 's/.* intervals \([0-9]*\) .*/\1/p' | head -n 1; }
ngroups() { ls -d "$R"/iocad-s* 2>/dev/null | wc -l; }
snapshot() {
	for g in "$R"/iocad-s* "$R"/ops; do
		[ -d "$g" ] && echo "$g $(cat "$g/schemata" | tr '\n' ' ') $(cat "$g/cpus_list")"
	done
	ddio 0
	ddio 1
	./iocactl info | sed -n '/^sampler:/,/owner-pid/p' | grep -v 'seq\|collect'
}

cp two_sockets.ini /tmp/two.ini
# socket 1 gains a tenant on CPU 3
sed 's/^\[tenant db\]/[tenant cache]\ncpus = 3\nways = 1\n\n&/' /tmp/two.ini >/tmp/two-more.ini
# socket 1's db gets a third way, socket 0 unchanged
sed '/^\[tenant db\]/,$ s/^ways = 2$/ways = 3/' /tmp/two.ini >/tmp/two-db3.ini

insmod ./ioca.ko emulate=1 || echo "# insmod ioca.ko emulate=1 failed"
insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=1 num_closids=8 cache_ids=0,1 ||
	echo "# insmod resctrl_emu.ko failed"
mkdir -p /run $R
mount -t resctrl resctrl $R || echo "# mount resctrl failed"

./iocad --check-config /tmp/two.ini >"$LOG" 2>&1
check "--check-config: tenants placed on both sockets by their CPUs" \
	'logs "ok: 3 tenant(s) on socket 0, socket 1"'
sed 's/^cpus = 2$/cpus = 1-2/' /tmp/two.ini | sed '/^\[tenant batch\]/,/^$/d' >/tmp/span.ini
./iocad --check-config /tmp/span.ini >"$LOG" 2>&1
rc=$?
check "a tenant spanning sockets is refused naming it and the CPUs" \
	'[ "$rc" -eq 2 ] && logs "\[tenant db\] cpus: CPU 1 is on socket 0 but CPU 2 on socket 1"'

# --- one iocad, two sockets ---------------------------------------------------
start /tmp/two.ini
wait_for 30 '[ "$(ngroups)" -eq 3 ] && [ -s "$TRACE" ]'
check "start: groups on each socket's domain (iocad-s0-web, iocad-s0-batch, iocad-s1-db)" \
	'[ "$(gcpus 0 web)" = 0 ] && [ "$(gcpus 0 batch)" = 1 ] && [ "$(gcpus 1 db)" = 2 ] &&
	 [ -n "$(gmask 0 web)" ] && [ -n "$(gmask 1 db)" ]'
check "start: one sampler for both sockets' CPUs, owned by iocad" \
	'[ "$(sampler)" = running ] && ./iocactl info | grep -q "cpus 0,1,2"'
./iocad /tmp/two.ini >/tmp/second.log 2>&1
rc=$?
check "a second iocad is refused naming the running one" \
	'[ "$rc" -eq 2 ] && grep -q "another iocad (pid $pid) is running on this host" /tmp/second.log'

# I/O pressure on socket 1 only
echo 100000000000 >/sys/kernel/debug/ioca/socket1/ddio_miss_rate
wait_for 40 '[ "$(ddio 1)" = 0x780 ]'
check "socket 1's traffic grows socket 1's DDIO to its own ddio_ways_max (0x780)" \
	'[ "$(ddio 1)" = 0x780 ]'
check "socket 0's DDIO stays where it was (0x600)" '[ "$(ddio 0)" = 0x600 ]'
check "log lines and the trace name the socket" \
	'grep -q "^#[0-9]* s1 .*io_demand" "$LOG" && ! grep -q "^#[0-9]* s0 .*io_demand" "$LOG" &&
	 head -n 1 "$TRACE" | grep -q "^interval,socket,"'
check "each PS tenant is off its own socket's DDIO ways" \
	'[ $(( $(gmask 1 db) & 0x780 )) -eq 0 ] && [ $(( $(gmask 0 web) & 0x600 )) -eq 0 ]'
echo 0 >/sys/kernel/debug/ioca/socket1/ddio_miss_rate

# --- a reload the platform refuses changes nothing ---------------------------
mkdir $R/ops
echo 3 >$R/ops/cpus_list
# reloads go through a file iocad was started with: restart on live.ini
stop TERM
check "SIGTERM: every socket's DDIO and groups put back" \
	'[ "$rc" -eq 0 ] && [ "$(ngroups)" -eq 0 ] && [ "$(ddio 0)" = 0x600 ] && [ "$(ddio 1)" = 0x600 ]'
./iocad /tmp/two-more.ini >"$LOG" 2>&1
rc=$?
check "start: a tenant CPU in a group iocad did not create is refused, naming the group" \
	'[ "$rc" -eq 2 ] && logs "CPU 3 is in resctrl group .ops., which iocad did not create" &&
	 [ "$(cat $R/ops/cpus_list)" = 3 ] && [ "$(ngroups)" -eq 0 ]'
cp /tmp/two.ini /tmp/live.ini
start /tmp/live.ini
wait_for 30 '[ "$(ngroups)" -eq 3 ] && [ "$(sampler)" = running ] && [ -s "$TRACE" ]'
sleep 2
before=$(snapshot)
cp /tmp/two-more.ini /tmp/live.ini
kill -HUP "$pid"
wait_for 20 'logs "reload rejected"'
sleep 1
after=$(snapshot)
check "reload refused by the platform's check: logged, naming the group" \
	'logs "check failed: .*CPU 3 is in resctrl group .ops." && logs "reload rejected" && running'
check "reload refused: groups, masks, CPUs, DDIO and the sampler exactly as before" \
	'[ "$before" = "$after" ] && [ "$(cat $R/ops/cpus_list)" = 3 ]'
if [ "$before" != "$after" ]; then
	echo "$before" | sed 's/^/# before: /'
	echo "$after" | sed 's/^/# after:  /'
fi

# --- an accepted reload leaves the sampler and socket 0 alone ----------------
i0=$(intervals)
g0=$(gmask 0 batch)
cp /tmp/two-db3.ini /tmp/live.ini
kill -HUP "$pid"
wait_for 20 'logs "reload: socket 1: 2 tenants\|reload: socket 1: 1 tenants"'
sleep 2
check "accepted reload: only socket 1 re-planned, the sampler's epoch goes on" \
	'logs "reload: 1 socket(s) changed" && [ "$(intervals)" -gt "$i0" ] &&
	 [ "$(gmask 0 batch)" = "$g0" ] && [ "$(sampler)" = running ]'
stop TERM
check "SIGTERM after the reloads: exit 0, everything put back, ops untouched" \
	'[ "$rc" -eq 0 ] && [ "$(ngroups)" -eq 0 ] && [ "$(cat $R/ops/cpus_list)" = 3 ]'
exit $((failed > 125 ? 125 : failed))
