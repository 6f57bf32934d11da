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
run=${IOCA_VM_RUN:-$root/scripts/vm/run.sh}
KDIR=${KDIR:-$("$root/scripts/kdir.sh")}
work=$(mktemp -d "${TMPDIR:-/tmp}/resctrl-emu.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail_all() {
	echo "resctrl_emu: $1"
	echo "resctrl_emu: 0 passed, 1 failed"
	exit 1
}

# Built from a copy: the tree's objects may belong to another kernel.
cp "$here"/Kbuild "$here"/*.[ch] "$work/" || fail_all "cannot copy the sources"
if ! make -s -C "$KDIR" M="$work" modules >"$work/build.log" 2>&1 ||
	[ ! -f "$work/resctrl_emu.ko" ]; then
	tail -n 30 "$work/build.log"
	fail_all "resctrl_emu.ko does not build against $KDIR"
fi

"$run" --smp 2 --mem 512 --timeout 300 --file "$work/resctrl_emu.ko" \
	--file "$here/guest_test.sh" -- sh ./guest_test.sh | tee "$work/console"
rc=${PIPESTATUS[0]}

pass=$(grep -cE '^ok [0-9]+ ' "$work/console")
fail=$(grep -cE '^not ok [0-9]+ ' "$work/console")
plan=$(sed -nE 's/^1\.\.([0-9]+)$/\1/p' "$work/console" | tail -n 1)
if [ -z "$plan" ] || [ "$plan" -ne $((pass + fail)) ]; then
	echo "resctrl_emu: the guest planned '${plan:-nothing}' tests, reported $((pass + fail))"
	fail=$((fail + 1))
elif [ "$rc" -ne "$((fail > 125 ? 125 : fail))" ]; then
	echo "resctrl_emu: guest exited $rc with $fail failure(s) reported"
	fail=$((fail + 1))
fi
echo "resctrl_emu: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
