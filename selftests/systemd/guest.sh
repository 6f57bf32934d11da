#!/bin/sh
# shellcheck disable=SC2317,SC2016,SC2034,SC2012,SC2154 # checks are strings run through eval
# The shipped iocad.service under a real systemd, inside the VM of
# scripts/vm/sysrun.sh (systemd is PID 1 over the host's root; this script
# is the oneshot ioca-vm.service, as root, cwd /ioca). vmrun.sh copies in a
# `make install` tree (dest/), ioca.ko with a modules.dep naming it
# (mods/), resctrl_emu.ko, iocad-vm.ini and scripts/vm/tap.sh. The unit
# loads ioca.ko (emulate=1 from modprobe.d) and mounts resctrl_emu.ko's
# resctrl. One TAP line per check; exits with the number of failures.
cd /ioca || exit 1
R=/sys/fs/resctrl
G=iocad-s0-
DBG=/sys/kernel/debug/ioca/socket0
INI=/etc/ioca/iocad.ini
# the highest exposure `systemd-analyze security` may give the unit
# (docs/host.md, "The unit"; verify.sh checks the same offline)
exposure_max=$(cat exposure_max)
TAP_NAME=iocad.service
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, check, wait_for
. ./tap.sh
echo "1..39"

tap_diag() {
	echo "# ddio $(ddio), $(systemctl show -p ActiveState -p SubState -p MainPID -p NRestarts iocad | tr '\n' ' ')"
	echo "# groups: $(ls "$R" 2>/dev/null | tr '\n' ' ')"
	journalctl -b -u iocad -o cat --no-pager 2>/dev/null | tail -n 12 | sed 's/^/#   journal: /'
	[ -n "${before:-}" ] || return 0
	echo "$before" | sed 's/^/#   before: /'
	snapshot | sed 's/^/#   now: /'
}
prop() { systemctl show -p "$1" --value iocad; }
ddio() { iocactl info 2>/dev/null | sed -n 's/.*ddio-mask \(0x[0-9a-f]*\) ways.*/\1/p' | head -n 1; }
sampler() { iocactl info 2>/dev/null | sed -n 's/^sampler: //p' | head -n 1; }
gmask() { # mask of iocad's group NAME as a number ("" if absent)
	v=$(sed -n 's/^ *L3:0=\([0-9a-f]*\).*/\1/p' "$R/$G$1/schemata" 2>/dev/null)
	[ -n "$v" ] && echo $((0x$v))
}
gcpus() { cat "$R/$G$1/cpus_list" 2>/dev/null; }
ngroups() { ls -d "$R/$G"* 2>/dev/null | wc -l; }
journal() { journalctl -b -u iocad -o cat --no-pager 2>/dev/null | grep -q "$1"; }
settled() { # a snapshot that held for four intervals (2 s) in a row
	_a=$(snapshot)
	for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		sleep 2
		_b=$(snapshot)
		[ "$_a" = "$_b" ] && break
		_a=$_b
	done
	echo "$_a"
}
snapshot() {
	echo "ddio $(ddio)"
	for g in "$R/$G"*; do
		[ -d "$g" ] && echo "$g $(cat "$g/schemata") $(cat "$g/cpus_list")"
	done
}
ps_off_ddio() { # web and db share no way with DDIO
	d=$(ddio)
	[ -n "$d" ] && [ -n "$(gmask web)" ] && [ -n "$(gmask db)" ] &&
		[ $(((d & $(gmask web)) | (d & $(gmask db)))) -eq 0 ]
}
# capabilities iocad may hold (ioca.ko's rules), and those it must
cap() { echo $((1 << $1)); }
CAP_NET_ADMIN=$(cap 12) CAP_SYS_RAWIO=$(cap 17) CAP_PERFMON=$(cap 38)
CAPS_MUST=$((CAP_NET_ADMIN | CAP_SYS_RAWIO | CAP_PERFMON))
CAPS_MAY=$CAPS_MUST
caps_ok() { # PID: bounding set within CAPS_MAY, effective set holds CAPS_MUST
	b=$((0x$(sed -n 's/^CapBnd:\t//p' "/proc/$1/status")))
	e=$((0x$(sed -n 's/^CapEff:\t//p' "/proc/$1/status")))
	echo "# CapBnd 0x$(printf %x "$b") CapEff 0x$(printf %x "$e")"
	[ $((b & ~CAPS_MAY)) -eq 0 ] && [ $((e & CAPS_MUST)) -eq "$CAPS_MUST" ]
}

# --- install, as an operator would -----------------------------------------
cp -a dest/. / || echo "# copying the make install tree failed"
# ioca.ko for the unit's `modprobe ioca`: the module and the modules.dep
# vmrun.sh made, and emulate=1 (this CPU has no DDIO way control).
cp -a mods/. "/lib/modules/$(uname -r)/" || echo "# copying modules.dep and ioca.ko failed"
echo "options ioca emulate=1" >/etc/modprobe.d/ioca-vm.conf
insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=1 num_closids=8 cache_ids=0 ||
	echo "# insmod resctrl_emu.ko failed"
# a short watchdog, so the hung-iocad check below takes seconds, not the unit's 30
mkdir -p /etc/systemd/system/iocad.service.d
printf '[Service]\nWatchdogSec=10s\n' >/etc/systemd/system/iocad.service.d/watchdog.conf
systemctl daemon-reload

check "systemd is PID 1" '[ "$(cat /proc/1/comm)" = systemd ]'
out=$(systemd-analyze verify iocad.service sys-fs-resctrl.mount 2>&1)
echo "$out" | sed 's/^/#   verify: /'
check "systemd-analyze verify iocad.service sys-fs-resctrl.mount: no complaint" '[ -z "$out" ]'
systemd-analyze security --no-pager iocad.service >/tmp/security 2>&1
rc=$?
grep -v '✓' /tmp/security | sed 's/^/#   security: /'
exposure=$(sed -n 's/.*Overall exposure level for iocad.service: \([0-9.]*\).*/\1/p' /tmp/security)
check "systemd-analyze security: exposure ${exposure:-unknown}, at most $exposure_max" \
	'[ "$rc" -eq 0 ] && [ -n "$exposure" ] && awk -v e="$exposure" -v m="$exposure_max" "BEGIN { exit !(e <= m) }"'

# --- a bad config fails the start and changes nothing -----------------------
cp iocad-vm.ini $INI
printf '\n[tenant bogus]\ncpus = 9\nways = 1\n' >>$INI
systemctl start iocad 2>/dev/null
rc=$?
check "a bad config: systemctl start fails" '[ "$rc" -ne 0 ]'
bogus="$INI:[0-9]*: \[tenant bogus\] cpus: CPU 9 does not exist"
wait_for 10 'journal "$bogus"'
check "... naming file:line and the problem in the journal" 'journal "$bogus"'
check "... after the unit loaded ioca.ko (emulate=1 from modprobe.d) and mounted resctrl" \
	'iocactl info | grep -q "^backend: emulated" && mountpoint -q $R'
check "... with DDIO, resctrl and the sampler untouched" \
	'[ "$(ddio)" = 0x600 ] && [ "$(ngroups)" -eq 0 ] && [ "$(sampler)" = unconfigured ]'
wait_for 60 'journal "Start request repeated too quickly"'
check "... and restarts stop at the unit's start limit (failed, at most 3 restarts)" \
	'journal "Start request repeated too quickly" && [ "$(prop ActiveState)" = failed ] && [ "$(prop NRestarts)" -le 3 ]'
systemctl reset-failed iocad

# --- start -------------------------------------------------------------------
cp iocad-vm.ini $INI
systemctl start iocad
rc=$?
pid=$(prop MainPID)
check "systemctl start iocad: active" '[ "$rc" -eq 0 ] && [ "$(prop ActiveState)" = active ]'
wait_for 30 '[ "$(ngroups)" -eq 3 ] && [ "$(ddio)" = 0x780 ]'
check "start writes DDIO from the sandbox (ddio_ways = 4: 0x600 -> 0x780)" '[ "$(ddio)" = 0x780 ]'
check "start creates one group per tenant with its CPUs" \
	'[ "$(gcpus batch)" = 2 ] && [ "$(gcpus web)" = 0 ] && [ "$(gcpus db)" = 1 ]'
check "PS tenants off DDIO's ways" 'ps_off_ddio'
check "iocad owns a running sampler (it joined samples)" '[ "$(sampler)" = running ]'
check "Type=notify: iocad said READY and its status (systemctl status shows it)" \
	'prop StatusText | grep -q "^running"'
check "iocad holds only the unit's capabilities, with no new privileges and seccomp" \
	'caps_ok "$pid" && grep -q "^NoNewPrivs:.*1" /proc/$pid/status && grep -q "^Seccomp:.*2" /proc/$pid/status'
echo 100000000000 >$DBG/ddio_miss_rate
wait_for 40 '[ "$(ddio)" = 0x7e0 ]'
check "samples reach iocad and it acts: DDIO misses up, DDIO grows to ddio_ways_max (0x7e0)" \
	'[ "$(ddio)" = 0x7e0 ] && ps_off_ddio'

# --- reload ------------------------------------------------------------------
cp iocad-vm.ini $INI
printf '\n[tenant cache]\ncpus = 3\nways = 1\n' >>$INI
cp $INI /tmp/good.ini
systemctl reload iocad
rc=$?
wait_for 20 '[ "$(gcpus cache)" = 3 ]'
check "systemctl reload, good config: the new tenant's group with its CPU, same PID" \
	'[ "$rc" -eq 0 ] && [ "$(gcpus cache)" = 3 ] && [ "$(prop MainPID)" = "$pid" ]'
# iocad settles after the reload (the new group's first intervals) before
# the state a refused reload must leave alone is taken
before=$(settled)
printf '\n[tenant bogus]\ncpus = 9\nways = 1\n' >>$INI
systemctl reload iocad 2>/dev/null
rc=$?
sleep 2
check "systemctl reload, bad config: the reload fails, iocad keeps running (same PID)" \
	'[ "$rc" -ne 0 ] && [ "$(prop ActiveState)" = active ] && [ "$(prop MainPID)" = "$pid" ]'
check "... the journal names file:line" '[ "$(journalctl -b -u iocad -o cat --no-pager | grep -c "$bogus")" -ge 2 ]'
check "... DDIO and every group unchanged" '[ "$(snapshot)" = "$before" ]'
# past the unit's check: iocad's own refusal of the same file
systemctl kill -s HUP --kill-whom=main iocad
wait_for 10 'journal "reload rejected, keeping the running config"'
sleep 1
check "SIGHUP with the bad config: iocad rejects it, keeps running, changes nothing" \
	'journal "reload rejected, keeping the running config" && [ "$(prop MainPID)" = "$pid" ] && [ "$(snapshot)" = "$before" ]'
cp /tmp/good.ini $INI

# --- kill -9 -----------------------------------------------------------------
mkdir $R/operator && echo "L3:0=00f" >$R/operator/schemata
touch /run/iocad/kept
kill -9 "$pid"
wait_for 10 'dmesg | grep -q "owner pid $pid closed, DDIO mask 0x600 put back"'
check "kill -9: ioca.ko puts DDIO back (0x600) as the owner's socket closes" \
	'dmesg | grep -q "owner pid $pid closed, DDIO mask 0x600 put back"'
wait_for 40 '[ "$(prop ActiveState)" = active ] && [ "$(prop MainPID)" != "$pid" ] && [ "$(prop MainPID)" != 0 ]'
check "systemd restarts iocad (NRestarts=1, a new PID)" \
	'[ "$(prop NRestarts)" = 1 ] && [ "$(prop MainPID)" != "$pid" ] && [ "$(prop ActiveState)" = active ]'
wait_for 20 'journal "cleaned up 4 group(s) left by an iocad" && [ "$(ngroups)" -eq 4 ]'
check "the new iocad cleans up the 4 groups the dead one left, and says so" \
	'journal "cleaned up 4 group(s) left by an iocad" && [ "$(ngroups)" -eq 4 ] && [ "$(sampler)" = running ]'
check "... and leaves the operator's group alone" \
	'[ -d $R/operator ] && grep -q "L3:0=00f" $R/operator/schemata'
check "/run/iocad survived the restart (io_alloc's recovery record lives there)" \
	'[ -f /run/iocad/kept ]'

# --- a hung iocad: the watchdog -----------------------------------------------
pid=$(prop MainPID)
nr=$(prop NRestarts)
kill -STOP "$pid"
wait_for 120 '[ "$(prop NRestarts)" -gt "$nr" ] && [ "$(prop ActiveState)" = active ] && [ "$(prop MainPID)" != "$pid" ] && [ "$(ngroups)" -eq 4 ]'
check "a stopped (hung) iocad misses WatchdogSec= and systemd restarts it" \
	'[ "$(prop NRestarts)" -gt "$nr" ] && journal "Watchdog timeout" && [ "$(prop ActiveState)" = active ] && [ "$(ngroups)" -eq 4 ]'

# --- stop --------------------------------------------------------------------
echo 0 >$DBG/ddio_miss_rate
systemctl stop iocad
rc=$?
check "systemctl stop: inactive, a clean exit" \
	'[ "$rc" -eq 0 ] && [ "$(prop ActiveState)" = inactive ] && [ "$(prop Result)" = success ]'
check "stop restores DDIO to 0x600 and removes every iocad group" \
	'[ "$(ddio)" = 0x600 ] && [ "$(ngroups)" -eq 0 ]'
check "... the sampler is no longer iocad's, the operator's group is untouched" \
	'[ "$(sampler)" != running ] && grep -q "L3:0=00f" $R/operator/schemata'

# --- an operator's rmmod wins -------------------------------------------------
systemctl reset-failed iocad 2>/dev/null
systemctl start iocad
wait_for 30 '[ "$(prop ActiveState)" = active ] && [ "$(ngroups)" -eq 3 ]'
nr=$(prop NRestarts)
rmmod ioca
wait_for 30 '[ "$(prop ActiveState)" = failed ]'
# longer than RestartSec=10s: a restart (and its modprobe) would have come by now
sleep 15
check "rmmod ioca under iocad: exit 3, no restart, the module stays out" \
	'[ "$(prop ExecMainStatus)" = 3 ] && [ "$(prop ActiveState)" = failed ] && [ "$(prop NRestarts)" = "$nr" ] && ! grep -q "^ioca " /proc/modules'
check "... iocad removed its groups and said it stays down" \
	'[ "$(ngroups)" -eq 0 ] && journal "iocad stays down until it is started again"'

# --- an rdt_class created late: its tenant waits, the others are managed ------
sed 's/^\[tenant batch\]/&\nrdt_class = late/' iocad-vm.ini >$INI
systemctl reset-failed iocad 2>/dev/null
systemctl start --no-block iocad
wait_for 90 'journal "its tenant waits for it" && [ "$(ngroups)" -eq 2 ]'
main_pid=$(prop MainPID)
check "an rdt_class not yet there: iocad runs, its tenant waits, the others are managed" \
	'[ "$(prop ActiveState)" = active ] && [ "$(ngroups)" -eq 2 ] && [ "$main_pid" -gt 0 ]'
wait_for 20 'prop StatusText | grep -q "^running, CAT waiting.*rdt_class late to be made"'
check "... systemctl status says CAT waits for that rdt_class (samples come, DDIO managed)" \
	'prop StatusText | grep -q "^running, CAT waiting (DDIO and sampling go on): rdt_class late to be made"'
mkdir $R/late
wait_for 90 'grep -q "L3:0=" $R/late/schemata && [ "$(prop ActiveState)" = active ]'
check "... once it is made, its mask is written by the same iocad (no restart)" \
	'[ "$(prop ActiveState)" = active ] && [ "$(prop MainPID)" = "$main_pid" ] && [ "$(ngroups)" -eq 2 ] && grep -q "L3:0=" $R/late/schemata'
wait_for 20 'prop StatusText | grep -q "^running: samples come"'
check "... and the status says running, CAT no longer waiting" 'prop StatusText | grep -q "^running: samples come"'
systemctl stop iocad
rmdir $R/late

# --- a transient refusal at boot, longer than the start limit -----------------
# A tenant's CPU offline at start for 40 s: Restart= alone (RestartSec=10s,
# three starts a minute) would have given up by then ("Start request
# repeated too quickly"); iocad --retry-start waits it out, the unit active
# and saying what it waits for, its watchdog (10 s here) fed meanwhile.
cp iocad-vm.ini $INI
printf '\n[tenant cache]\ncpus = 3\nways = 1\n' >>$INI
systemctl reset-failed iocad 2>/dev/null
nr=$(prop NRestarts)
if echo 0 >/sys/devices/system/cpu/cpu3/online; then
	systemctl start --no-block iocad
	wait_for 60 'journal "CPU 3 is offline" && prop StatusText | grep -q "^waiting for the start to be possible"'
	wait_pid=$(prop MainPID)
	sleep 40
	check "a tenant CPU offline at start for 40 s: the same iocad waits, active, saying so (no restart, no group)" \
		'[ "$(prop ActiveState)" = active ] && [ "$(prop MainPID)" = "$wait_pid" ] && [ "$wait_pid" -gt 0 ] && [ "$(prop NRestarts)" = "$nr" ] && prop StatusText | grep -q "^waiting for the start to be possible (next try in [0-9]* s): .*CPU 3 is offline" && [ "$(ngroups)" -eq 0 ] && journal "trying again in 16 s"'
	echo 1 >/sys/devices/system/cpu/cpu3/online
	# the next try comes within 32 s (the backoff at 40 s)
	wait_for 90 '[ "$(ngroups)" -eq 4 ] && prop StatusText | grep -q "^running"'
	check "... the CPU back online: that iocad starts (4 groups, cache on CPU 3), no restart" \
		'[ "$(ngroups)" -eq 4 ] && [ "$(gcpus cache)" = 3 ] && [ "$(prop MainPID)" = "$wait_pid" ] && [ "$(prop NRestarts)" = "$nr" ] && prop StatusText | grep -q "^running"'
	systemctl stop iocad
	check "... a stop after the wait is a clean exit that restores" \
		'[ "$(prop Result)" = success ] && [ "$(ngroups)" -eq 0 ] && [ "$(ddio)" = 0x600 ]'
else
	notok "a tenant CPU offline at start: cannot take CPU 3 offline in this VM"
	notok "... the CPU back online"
	notok "... a stop after the wait"
fi

echo "# iocad-systemd: $((n - failed)) passed, $failed failed"
exit "$failed"
