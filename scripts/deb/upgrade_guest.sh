#!/bin/sh
# shellcheck disable=SC2317,SC2016,SC2034,SC2012,SC2154 # checks are strings run through eval
# Guest side of scripts/deb/test.sh's upgrade test, in the VM of
# scripts/vm/sysrun.sh: systemd is PID 1 over the host's root, where
# test.sh has installed the packages of version OLD (DKMS built ioca.ko for
# this kernel there, with no systemd running). test.sh copies in iocad's
# package of NEW (new/), resctrl_emu.ko, iocad-vm.ini (a config of this
# VM's 4 CPUs) and scripts/vm/tap.sh. Steps, each checked:
#   install:  iocad's postinst run as dpkg runs it on a first install, now
#             under systemd: nothing enabled, started, mounted or loaded
#             (a dpkg run costs a minute under TCG: this one is saved);
#   node:     the README's node setup (modules-load.d, the mount unit
#             enabled alone); a marker group and a foreign group with a CPU
#             and a task in resctrl;
#   upgrade:  iocad running with a tenant config, dpkg -i NEW: iocad runs
#             NEW with the same allocation, the foreign group and the mount
#             untouched;
#   remove:   iocad stopped, DDIO and resctrl restored, the config kept;
#   purge:    the config and the mount unit's enablement gone, resctrl
#             still mounted.
#   upgrade_guest.sh OLD NEW
cd /ioca || exit 1
OLD=$1
NEW=$2
R=/sys/fs/resctrl
G=iocad-s0-
TAP_NAME=upgrade
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, check, wait_for
. ./tap.sh
echo "1..23"
out=/tmp/out

tap_diag() {
	echo "# iocad: $(systemctl show -p ActiveState -p SubState -p MainPID iocad 2>/dev/null | tr '\n' ' ')"
	echo "# ddio $(ddio); groups: $(ls "$R" 2>/dev/null | tr '\n' ' ')"
	sed 's/^/#   out: /' "$out" 2>/dev/null | tail -n 20
	journalctl -b -u iocad -o cat --no-pager 2>/dev/null | tail -n 8 | sed 's/^/#   journal: /'
}
prop() { systemctl show -p "$2" --value "$1"; }
ddio() { /tmp/iocactl info 2>/dev/null | sed -n 's/.*ddio-mask \(0x[0-9a-f]*\) ways.*/\1/p' | head -n 1; }
ngroups() { ls -d "$R/$G"* 2>/dev/null | wc -l; }
version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null; }
# resctrl's mount, by its mount ID: a remount gets a new one (and loses
# every group, as unmounting resctrl does)
mount_id() { awk -v r=$R '$5 == r && $9 == "resctrl" { print $1 }' /proc/self/mountinfo; }
allocation() { # DDIO and every iocad group's mask and CPUs
	echo "ddio $(ddio)"
	for g in "$R/$G"*; do
		[ -d "$g" ] && echo "${g##*/} $(cat "$g/schemata") $(cat "$g/cpus_list")"
	done
}
settled() { # an allocation that held for 2 s (four intervals)
	_a=$(allocation)
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		sleep 2
		_b=$(allocation)
		[ "$_a" = "$_b" ] && break
		_a=$_b
	done
	echo "$_a"
}
foreign() { # the foreign group as its owner left it
	echo "$(cat "$R"/foreign/cpus_list) $(cat "$R"/foreign/tasks) $(cat "$R"/foreign/schemata)"
}
untouched() { # the marker, the foreign group and the mount as set up
	[ -d "$R"/marker ] && [ "$(foreign)" = "$foreign0" ] && [ "$(mount_id)" = "$mount0" ]
}
dpkg_do() { # dpkg ARGS...: its output in $out
	DEBIAN_FRONTEND=noninteractive dpkg "$@" </dev/null >"$out" 2>&1
}

# --- the machine as a host without a container's policy ----------------------
# The host is a container whose policy-rc.d forbids starting services: a
# real host has none. man-db's trigger (mandb) takes minutes under TCG.
rm -f /usr/sbin/policy-rc.d /var/lib/man-db/auto-update
echo "options ioca emulate=1" >/etc/modprobe.d/ioca-vm.conf
# the kernel's resctrl, for this CPU without RDT
insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=1 num_closids=8 cache_ids=0 ||
	echo "# insmod resctrl_emu.ko failed"

# iocactl goes with the iocad package; DDIO is read after its removal too
cp /usr/bin/iocactl /tmp/iocactl

# --- install -----------------------------------------------------------------
check "systemd is PID 1, iocad $OLD is installed" \
	'[ "$(cat /proc/1/comm)" = systemd ] && [ "$(version iocad)" = "$OLD" ]'
DPKG_MAINTSCRIPT_PACKAGE=iocad DPKG_MAINTSCRIPT_NAME=postinst \
	/var/lib/dpkg/info/iocad.postinst configure "" >"$out" 2>&1
rc=$?
check "iocad's postinst, configuring a first install under systemd, succeeds" '[ "$rc" -eq 0 ]'
check "... enabling and starting nothing, mounting nothing, loading no module" \
	'[ "$(prop iocad.service UnitFileState)" = disabled ] && [ "$(prop iocad.service ActiveState)" = inactive ] &&
	 [ "$(prop sys-fs-resctrl.mount UnitFileState)" = disabled ] && ! mountpoint -q "$R" &&
	 [ ! -d /sys/module/ioca ]'

# --- the node, as README.md's Kubernetes node setup does it -----------------------
echo ioca >/etc/modules-load.d/ioca.conf
systemctl restart systemd-modules-load.service
systemctl enable --now sys-fs-resctrl.mount >"$out" 2>&1
check "node setup: modules-load.d loads ioca, sys-fs-resctrl.mount enabled alone mounts resctrl" \
	'[ -d /sys/module/ioca ] && [ "$(prop sys-fs-resctrl.mount UnitFileState)" = enabled ] &&
	 [ "$(prop sys-fs-resctrl.mount ActiveState)" = active ] && [ -n "$(mount_id)" ]'
mount0=$(mount_id)
mkdir "$R"/marker
# A container runtime's group: a CPU no tenant has, a task, its own mask.
mkdir "$R"/foreign
echo 3 >"$R"/foreign/cpus_list
echo "L3:0=00f" >"$R"/foreign/schemata
sleep 3600 &
sleeper=$!
echo "$sleeper" >"$R"/foreign/tasks
foreign0=$(foreign)
check "a foreign group with CPU 3, a task and mask 0x00f" \
	'[ "$(cat "$R"/foreign/cpus_list)" = 3 ] && [ "$(cat "$R"/foreign/tasks)" = "$sleeper" ] &&
	 grep -q "L3:0=00f" "$R"/foreign/schemata'

# --- iocad running on a tenant config ---------------------------------------
cp iocad-vm.ini /etc/ioca/iocad.ini
systemctl enable --now iocad.service >"$out" 2>&1
wait_for 60 '[ "$(ngroups)" -eq 3 ] && [ "$(ddio)" = 0x780 ]'
check "iocad $OLD enabled and running: 3 tenant groups, DDIO 0x780" \
	'[ "$(prop iocad.service ActiveState)" = active ] && [ "$(ngroups)" -eq 3 ] && [ "$(ddio)" = 0x780 ]'
before=$(settled)
pid0=$(prop iocad.service MainPID)
echo "$before" | sed 's/^/#   allocation: /'

# --- upgrade -------------------------------------------------------------------
t0=$(date +%s)
dpkg_do -i new/iocad_*.deb
rc=$?
echo "# dpkg -i took $(($(date +%s) - t0)) s"
check "dpkg -i iocad $NEW succeeds" '[ "$rc" -eq 0 ] && [ "$(version iocad)" = "$NEW" ]'
wait_for 60 '[ "$(prop iocad.service ActiveState)" = active ] && [ "$(ngroups)" -eq 3 ] && [ "$(ddio)" = 0x780 ]'
pid1=$(prop iocad.service MainPID)
check "iocad is running again after the upgrade, a new process" \
	'[ "$(prop iocad.service ActiveState)" = active ] && [ "$pid1" != "$pid0" ] && [ "$pid1" != 0 ]'
check "... of the new package (iocad --version says $NEW)" \
	'/usr/bin/iocad --version >"$out" 2>&1 && grep -q "$NEW" "$out" && [ "$(readlink /proc/$pid1/exe)" = /usr/bin/iocad ]'
after=$(settled)
echo "$after" | sed 's/^/#   allocation: /'
check "... with the same allocation (DDIO, every tenant's mask and CPUs)" '[ "$after" = "$before" ]'
check "... the edited config kept, the unit still enabled" \
	'cmp -s iocad-vm.ini /etc/ioca/iocad.ini && [ "$(prop iocad.service UnitFileState)" = enabled ]'
check "resctrl was never unmounted (same mount, the marker group is there)" \
	'[ "$(mount_id)" = "$mount0" ] && [ -d "$R"/marker ] && [ "$(prop sys-fs-resctrl.mount ActiveState)" = active ]'
check "the foreign group's CPU, task and mask are untouched" '[ "$(foreign)" = "$foreign0" ]'
check "the mount unit is still enabled" '[ "$(prop sys-fs-resctrl.mount UnitFileState)" = enabled ]'

# --- remove ----------------------------------------------------------------------
t0=$(date +%s)
dpkg_do --remove iocad
rc=$?
echo "# dpkg --remove took $(($(date +%s) - t0)) s"
check "dpkg --remove iocad succeeds (config files left)" \
	'[ "$rc" -eq 0 ] && [ "$(dpkg-query -W -f="\${Status}" iocad)" = "deinstall ok config-files" ]'
check "... stopping iocad, which exited cleanly" \
	'[ "$(prop iocad.service ActiveState)" != active ] && ! kill -0 "$pid1" 2>/dev/null &&
	 [ "$(prop iocad.service Result)" = success ]'
check "... and restored the platform: DDIO 0x600, no iocad group" \
	'[ "$(ddio)" = 0x600 ] && [ "$(ngroups)" -eq 0 ]'
check "... resctrl still mounted, the marker and the foreign group untouched" 'untouched'
check "... the config kept (a conffile until purge)" '[ -f /etc/ioca/iocad.ini ]'

# --- purge -----------------------------------------------------------------------
dpkg_do --purge iocad
rc=$?
check "dpkg --purge iocad succeeds" '[ "$rc" -eq 0 ] && ! dpkg -s iocad >/dev/null 2>&1'
check "... the config is gone (/etc/ioca)" '[ ! -e /etc/ioca ]'
check "... the mount unit's enablement is gone with it, no link left dangling" \
	'[ -z "$(find /etc/systemd -name "sys-fs-resctrl.mount" -o -name "iocad.service" 2>/dev/null)" ]'
check "... resctrl still mounted, the marker and the foreign group untouched" 'untouched'

kill "$sleeper" 2>/dev/null
echo "# upgrade: $((n - failed)) passed, $failed failed"
exit "$failed"
