#!/bin/sh
# shellcheck disable=SC2317,SC2016,SC2034,SC2012,SC2154 # checks are strings run through eval; n, failed: tap.sh's
# Tenants from containers, inside the test VM (busybox sh, root, cwd
# /ioca, 4 CPUs): runc runs a busybox container whose config.json puts it
# in the resctrl group "gold" (linux.intelRdt.closID, the class a runtime
# is configured with), in the cgroup pods/c1 with cpuset 1. iocad, on the
# host platform (ioca.ko emulate=1, resctrl_emu.ko), manages that class
# through a drop-in tenant file (rdt_class = gold, cgroup = pods/c1). Every
# check is one TAP line; exits with the number of failures.
cd /ioca || exit 1
R=/sys/fs/resctrl
CG=/sys/fs/cgroup
D=/tmp/tenants.d
B=/tmp/bundle
TAP_NAME=oci
tap_diag() {
	echo "# gold: schemata $(cat "$R/gold/schemata" 2>&1) tasks $({ tr '\n' ' ' <"$R/gold/tasks"; } 2>&1) groups: $(ls "$R" | tr '\n' ' ')"
	[ -f "$LOG" ] && grep -v '^#[0-9]* ' "$LOG" | sed 's/^/#   log: /' | tail -n 12
	[ -f "$LOG" ] && grep '^#[0-9]* ' "$LOG" | sed 's/^/#   log: /' | tail -n 3
}
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, check, wait_for
. ./tap.sh
# shellcheck source=/dev/null # selftests/iocad/iocad_guest.sh: LOG, pid, stop, running, logs
. ./iocad_guest.sh
echo "1..21"

# the L3 mask of resctrl group $1 on domain 0, as a number
smask() { v=$(sed -n 's/^ *L3:0=\([0-9a-f]*\).*/\1/p' "$R/$1/schemata" 2>/dev/null) && [ -n "$v" ] && echo $((0x$v)); }
# tenant $1's mask in iocad's latest interval line, as a number
imask() { v=$(grep '^#[0-9]* ' "$LOG" | tail -n 1 | sed -n "s/.* $1=0x\([0-9a-f]*\).*/\1/p") && [ -n "$v" ] && echo $((0x$v)); }
in_gold() { grep -qx "$1" $R/gold/tasks; }
ctr_pid() { ./runc state "$1" 2>/dev/null | sed -n 's/.*"pid": *\([0-9]*\).*/\1/p'; }

insmod ./ioca.ko emulate=1 || echo "# insmod ioca.ko emulate=1 failed"
# 4 CLOSIDs: the default group, the runtime's gold, and two for iocad's own groups
insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=1 num_closids=4 cache_ids=0 ||
	echo "# insmod resctrl_emu.ko failed"
mount -t resctrl resctrl $R || echo "# mount resctrl failed"
mount -t cgroup2 cgroup2 $CG || echo "# mount cgroup2 failed"
mkdir -p /run $D
# runc 1.1 takes Intel RDT as present only with "cat_l3" in /proc/cpuinfo's
# flags (libcontainer/intelrdt), which no TCG CPU has: the emulation's part
# of the CPU, the flag, is bound over /proc/cpuinfo as the filesystem is.
sed '/^flags/s/$/ cat_l3/' /proc/cpuinfo >/tmp/cpuinfo
mount --bind /tmp/cpuinfo /proc/cpuinfo || echo "# bind mount over /proc/cpuinfo failed"
# The runtime's RDT class: what containerd's rdt config (goresctrl) or an
# operator makes; runc with a bare closID only joins it.
mkdir $R/gold
full=$(smask gold)

# --- the container: busybox, cpuset 1, class gold ---
mkdir -p $B/rootfs/bin $B/rootfs/proc
cp ./busybox-ctr $B/rootfs/bin/busybox
cat >$B/config.json <<'JSON'
{
	"ociVersion": "1.0.2",
	"process": {
		"terminal": false,
		"user": {"uid": 0, "gid": 0},
		"args": ["/bin/busybox", "sleep", "600"],
		"env": ["PATH=/bin"],
		"cwd": "/",
		"noNewPrivileges": true
	},
	"root": {"path": "rootfs"},
	"hostname": "c1",
	"mounts": [{"destination": "/proc", "type": "proc", "source": "proc"}],
	"linux": {
		"cgroupsPath": "/pods/c1",
		"resources": {"cpu": {"cpus": "1"}},
		"namespaces": [{"type": "pid"}, {"type": "ipc"}, {"type": "uts"}, {"type": "mount"}],
		"intelRdt": {"closID": "gold"}
	}
}
JSON
# the initramfs root cannot be pivot_root'ed away from: --no-pivot
./runc run -d --no-pivot -b $B c1 </dev/null >/tmp/runc.log 2>&1
cpid=$(ctr_pid c1)
check "runc runs the busybox container" '[ -n "$cpid" ] && kill -0 "$cpid"'
sed 's/^/#   runc: /' /tmp/runc.log
check "its task is in the resctrl group its closID names (gold/tasks)" 'in_gold "$cpid"'
check "its cgroup pods/c1 has cpuset.cpus.effective 1" \
	'[ "$(cat $CG/pods/c1/cpuset.cpus.effective 2>&1)" = 1 ]'

# --- iocad: two tenants of its own, the container's by a drop-in file ---
cat >/tmp/iocad.ini <<INI
[platform]
interval_ms = 300
tenants_dir = $D
tenants_dir = /tmp/not-yet.d

[tenant web]
cpus = 0
ways = 2
priority = PS

[tenant batch]
cpus = 3
ways = 1
INI
db() { # ways [extra]
	printf '[tenant db]\ncgroup = pods/c1\nways = %s\nrdt_class = gold\n%s' "$1" "${2:-}" >$D/.db.tmp
	mv $D/.db.tmp $D/db.ini
}
db 3
./iocad --mode static /tmp/iocad.ini >"$LOG" 2>&1 &
pid=$!
wait_for 40 'grep -q "^#[0-9]* .* db=0x" "$LOG"'
check "iocad starts with the drop-in tenant db (a cgroup, an rdt_class)" \
	'running && grep -q "^#[0-9]* .* web=0x.* db=0x" "$LOG"'
check "the runtime's class fits the CLOSIDs: it counts once, as a group of others" \
	'[ -d $R/iocad-s0-web ] && [ -d $R/iocad-s0-batch ] && ! [ -e $R/iocad-s0-db ]'
m1=$(imask db)
wait_for 10 '[ "$(smask gold)" = "$m1" ]'
check "gold's schemata is iocad's mask for db ($m1, not the full $full)" \
	'[ -n "$m1" ] && [ "$(smask gold)" = "$m1" ] && [ "$m1" != "$full" ]'
check "iocad wrote neither gold's CPUs nor its tasks" \
	'[ -z "$(cat $R/gold/cpus_list)" ] && in_gold "$cpid" && [ "$(wc -l <$R/gold/tasks)" -eq 1 ]'
check "the container's task is still under that mask" 'in_gold "$cpid" && kill -0 "$cpid"'

# a mask change reaches the class
db 4
wait_for 20 '[ -n "$(imask db)" ] && [ "$(imask db)" != "$m1" ]'
m2=$(imask db)
wait_for 10 '[ "$(smask gold)" = "$m2" ]'
check "a changed drop-in (ways 3 -> 4) moves gold's mask ($m1 -> $m2)" \
	'[ -n "$m2" ] && [ "$m2" != "$m1" ] && [ "$(smask gold)" = "$m2" ]'

# a directory made after the start is watched from then on
mkdir /tmp/not-yet.d
printf '[tenant late]\ncpus = 2\nways = 1\n' >/tmp/not-yet.d/late.ini
# its tenant would be iocad's third own group: 4 CLOSIDs = default + gold + 2
wait_for 20 'logs "3 tenant groups need 3 CLOSIDs"'
check "a tenants_dir made after the start is read; a third own group is refused (CLOSIDs)" \
	'logs "3 tenant groups need 3 CLOSIDs, but num_closids is 4: 1 is the default group and 1 group(s) iocad did not create" && running && [ "$(smask gold)" = "$m2" ] && ! [ -e $R/iocad-s0-late ]'
rm /tmp/not-yet.d/late.ini

# the runtime moves the container's CPUs: iocad follows the cgroup
./runc update --cpuset-cpus 1-2 c1 >/tmp/runc.log 2>&1
sed 's/^/#   runc update: /' /tmp/runc.log
check "runc update gives pods/c1 CPUs 1-2" '[ "$(cat $CG/pods/c1/cpuset.cpus.effective)" = 1-2 ]'
wait_for 20 'logs "cgroup pods/c1: cpuset.cpus.effective changed (2 CPUs)"'
check "iocad sees the cgroup's new CPUs within an interval or two" \
	'logs "tenant db: cgroup pods/c1: cpuset.cpus.effective changed (2 CPUs); reloading"'
wait_for 20 '[ "$(grep -c "reload: socket 0" "$LOG")" -ge 2 ]'
check "... and reloads with them (the plan checked and applied)" \
	'[ "$(grep -c "reload: socket 0" "$LOG")" -ge 2 ] && running && [ "$(smask gold)" = "$m2" ]'

# a broken drop-in: refused with file:line, nothing else moves
printf '[tenant zz]\ncpus = 2\nwayz = 1\n' >$D/zz.ini
wait_for 20 'logs "zz.ini:3: \[tenant zz\] wayz: unknown key; file refused"'
check "a broken drop-in is refused with file:line, the others keep running" \
	'logs "zz.ini:3: \[tenant zz\] wayz: unknown key; file refused" && running && [ "$(smask gold)" = "$m2" ] && [ -d $R/iocad-s0-web ]'
rm $D/zz.ini

# the file removed: the tenant leaves, the class gets its mask back
rm $D/db.ini
wait_for 20 '[ "$(smask gold)" = "$full" ]'
check "db's file removed: gold has its own mask back ($full) and is not removed" \
	'[ "$(smask gold)" = "$full" ] && [ -d $R/gold ] && in_gold "$cpid" && running'

# and SIGTERM: iocad's groups go, the runtime's class stays as it was
db 3
wait_for 20 '[ "$(smask gold)" != "$full" ]'
stop TERM
check "SIGTERM: iocad exits 0" '[ "$rc" -eq 0 ]'
check "... its own groups are removed, gold stays with its mask and task" \
	'! ls -d $R/iocad-s0-* >/dev/null 2>&1 && [ -d $R/gold ] && [ "$(smask gold)" = "$full" ] && in_gold "$cpid"'

./runc delete -f c1 >/tmp/runc.log 2>&1
sed 's/^/#   runc delete: /' /tmp/runc.log
check "runc delete: the container is gone" '! kill -0 "$cpid" 2>/dev/null'
check "... and runc left the class it did not create (an explicit closID)" '[ -d $R/gold ]'

# crun from Debian 12 (1.8.1): does it apply intelRdt? Reported, not checked.
if [ -x ./crun ]; then
	sed -i 's/"hostname": "c1"/"hostname": "c2"/; s#/pods/c1#/pods/c2#' $B/config.json
	./crun --cgroup-manager=cgroupfs run -d --no-pivot -b $B c2 </dev/null >/tmp/crun.log 2>&1
	c2=$(./crun state c2 2>/dev/null | sed -n 's/.*"pid": *\([0-9]*\).*/\1/p')
	if [ -z "$c2" ]; then
		echo "# crun $(./crun --version | head -n 1): the container did not start:"
		sed 's/^/#   crun: /' /tmp/crun.log
	elif in_gold "$c2"; then
		echo "# crun: the container's task is in gold (crun applies intelRdt.closID)"
	else
		echo "# crun $(./crun --version | sed -n 's/^crun version //p'): container started, its task is NOT in gold: intelRdt ignored"
	fi
	[ -n "$c2" ] && ./crun delete -f c2 >/dev/null 2>&1
fi
# A soft lockup or a warning that passed is still a failure (the console
# shows its backtrace).
check "the kernel log has no warning, oops, lockup or lockdep report" \
	'! dmesg | grep -qE "WARNING:|BUG:|Oops:|circular locking|INFO: task"'
dmesg | grep -E -A 12 "WARNING:|BUG:|Oops:|circular locking|INFO: task" | head -n 40 | sed 's/^/# dmesg: /'
check "the plan ran to its end" '[ "$n" -eq 20 ]'
exit "$failed"
