#!/usr/bin/env bash
# Host side of iocad's end-to-end tests (found by `make vmtest`): builds
# ioca.ko and resctrl_emu.ko against KDIR and the static iocad and iocactl,
# boots the guest kernel under QEMU (TCG) as a CPU without DDIO way control
# (so ioca.ko runs emulate=1 with debugfs-driven DDIO hit/miss counters)
# and runs guest.sh there: iocad on the host platform, through the real
# module and the resctrl emulation. A second boot (Skylake-Server: the msr
# backend, no uncore PMU) runs guest_degraded.sh: no DDIO counters. Prints
# the guests' TAP and "iocad-vm: N passed, M failed"; a third boot with two
# sockets (--sockets 2) runs guest_sockets.sh: one iocad for both sockets,
# a reload the platform refuses, a resctrl group iocad did not create; a
# fourth (guest_io_alloc.sh) runs iocad with io_control = io_alloc on the
# emulation's io_alloc; a fifth (q35, guest_devices.sh) iocad's [device]
# sections on a root port ioca.ko emulates and one it refuses, and no L2
# counts without a PMU; a sixth (guest_resctrl.sh) resctrl's faults under a
# running iocad: hotplug beside an operator's group holding a tenant's CPU,
# a runtime's class vanishing and coming back, CLOSIDs at a rename's peak,
# a refused schemata write, unmount and remount. A guest that dies or
# runs fewer tests than it planned counts as a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/vm/guestparts.sh
. "$root/scripts/vm/guestparts.sh"
vm_runner iocad-vm
guest_parts "$work"

boot() { # name cpu smp guest-script [sockets]
	local name=$1 cpu=$2 smp=$3 script=$4 sockets=${5:-1}
	echo "=== iocad boot $name: -cpu $cpu -smp $smp, $sockets socket(s)"
	"$run" --cpu "$cpu" --smp "$smp" --sockets "$sockets" --mem 512 --timeout 600 \
		--append loglevel=2 "${guest_files[@]}" "${extra[@]}" --file "$root/scripts/vm/tap.sh" \
		--file "$here/iocad_guest.sh" --file "$here/two_sockets.ini" --file "$here/web_batch.ini" \
		--file "$here/$script" -- sh "./$script" | tee "$work/$name"
	consoles+=("$work/$name" "${PIPESTATUS[0]}")
}

consoles=()
extra=() # more run.sh options for the next boot
# IOCAD_VM_BOOTS="sockets": only the boots named (default: all of them)
want() { case " ${IOCAD_VM_BOOTS:-emulated degraded sockets io_alloc devices resctrl} " in *" $1 "*) ;; *) return 1 ;; esac; }
# emulate=1 (a model without DDIO way control): the FSM driven through debugfs
want emulated && boot emulated Skylake-Client 4 guest.sh
# msr backend, no uncore PMU: no DDIO counters, the degraded mode
want degraded && boot degraded Skylake-Server 2 guest_degraded.sh
# two sockets, one iocad: each decides alone; refused reload, others' groups
want sockets && boot sockets Skylake-Client 4 guest_sockets.sh 2
# resctrl faults: hotplug, a vanished class, CLOSIDs at the peak, remount
want resctrl && boot resctrl Skylake-Client 4 guest_resctrl.sh
# AMD's way: I/O's ways through resctrl's io_alloc, ioca.ko only samples
want io_alloc && boot io_alloc Skylake-Client 4 guest_io_alloc.sh
# q35: 0000:01:00.0 below QEMU's pcie-root-port (emulated by ioca.ko
# emulate=1), 0000:02:00.0 below an ioh3420 (8086:3420, refused)
# shellcheck disable=SC2054 # commas inside QEMU's -device options
extra=(--machine q35 --device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x1c
	--device virtio-rng-pci,bus=rp0 --device ioh3420,id=rp1,bus=pcie.0,chassis=2,addr=0x1d
	--device virtio-rng-pci,bus=rp1)
want devices && boot devices Skylake-Server 2 guest_devices.sh
extra=()
[ ${#consoles[@]} -gt 0 ] || fail_all "IOCAD_VM_BOOTS '${IOCAD_VM_BOOTS:-}' names no boot"
# per boot: its TAP plan against what it reported, its exit status
"$root/scripts/vm/taptally.sh" iocad-vm "${consoles[@]}"
