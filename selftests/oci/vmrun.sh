#!/usr/bin/env bash
# Host side of the OCI-runtime test (in `make vmtest`; `make oci` runs it
# alone): a real OCI runtime from Debian runs a busybox container whose
# config.json names iocad's tenant class in linux.intelRdt.closID, in a VM
# with ioca.ko (emulate=1) and the resctrl emulation
# (selftests/resctrl_emu). The guest (guest_oci.sh) checks that the
# container's task lands in that resctrl group, that iocad's masks reach
# the group's schemata and nothing else of it (rdt_class), that the
# container's cgroup is followed as a tenant (cgroup = PATH) when the
# runtime changes its cpuset, and that drop-in tenant files join, are
# refused and leave while iocad runs.
#
# The runtime is runc: Debian 12's crun (1.8.1) parses intelRdt but has no
# code that applies it (later releases do); the guest runs crun
# once as well and reports what it does as a TAP comment, not a check.
# Both runtimes and their shared libraries are copied into the guest.
# The guest console shows kernel warnings with their backtraces
# (loglevel=5), so a lockup or warning during the test is on record.
# Prints the guest's TAP and "oci-vm: N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/vm/guestparts.sh
. "$root/scripts/vm/guestparts.sh"
vm_runner oci-vm

runc=$(command -v runc) || fail_all "runc is not installed (scripts/deps.sh installs it)"
crun=$(command -v crun || true)
busybox=/bin/busybox
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	fail_all "$busybox is not a static busybox (busybox-static)"

guest_parts "$work"

# The runtimes and every shared library they load, at the same paths.
files=(--file "$runc:/ioca/runc" --file "$busybox:/ioca/busybox-ctr")
[ -n "$crun" ] && files+=(--file "$crun:/ioca/crun")
for lib in $(ldd "$runc" ${crun:+"$crun"} | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }' |
	sort -u); do
	files+=(--file "$lib:$lib")
done

"$run" --cpu Skylake-Client --smp 4 --mem 512 --timeout 300 --append loglevel=5 \
	"${guest_files[@]}" "${files[@]}" --file "$root/scripts/vm/tap.sh" \
	--file "$root/selftests/iocad/iocad_guest.sh" --file "$here/guest_oci.sh" -- sh ./guest_oci.sh |
	tee "$work/out"
rc=${PIPESTATUS[0]}
"$root/scripts/vm/taptally.sh" oci-vm "$work/out" "$rc"
