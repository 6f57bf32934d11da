#!/usr/bin/env bash
# Host side of resctrl_emu's tests (found by `make vmtest`): builds
# resctrl_emu.ko against KDIR, boots the guest kernel under QEMU (TCG) with
# two CPUs through scripts/vm/run.sh and runs guest_test.sh there. Prints
# the guest's TAP and "resctrl_emu: N passed, M failed"; a guest that dies
# or runs fewer tests than it planned counts as a failure.
#
# KDIR=<tree> builds against another kernel; IOCA_VM_KERNEL and
# IOCA_VM_MODULES_DIR (read by run.sh) boot a matching one, as the debug
# kernel run does.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/vm/guestparts.sh
. "$root/scripts/vm/guestparts.sh"
vm_runner resctrl_emu
guest_emu "$work"

"$run" --smp 2 --mem 512 --timeout 300 --file "$work/emu/resctrl_emu.ko" \
	--file "$root/scripts/vm/tap.sh" --file "$here/guest_test.sh" -- sh ./guest_test.sh | tee "$work/console"
rc=${PIPESTATUS[0]}
"$root/scripts/vm/taptally.sh" resctrl_emu "$work/console" "$rc"
