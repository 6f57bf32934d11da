#!/usr/bin/env bash
# debug.sh (what `make check-debug` runs): the kernel tests again on the
# debug kernel (build.sh --debug: KASAN, lockdep, DEBUG_ATOMIC_SLEEP,
# DEBUG_OBJECTS), where any checker report is a failure.
#
#  1. self-check of the report scanner (reports.awk) on testdata/reports-*;
#  2. builds the debug kernel once per machine, or reuses it;
#  3. the KUnit suites (kunit.sh --debug), then its console is scanned;
#  4. ioca's kselftests (selftests/ioca/vmrun.sh: fuzz, hotplug, unload, ...)
#     with ioca.ko built against the debug tree, booting the debug kernel;
#  5. resctrl_emu's tests (selftests/resctrl_emu/vmrun.sh), the same way.
# Steps 4 and 5 boot through scripts/vm/run.sh with IOCA_VM_KERNEL,
# IOCA_VM_MODULES_DIR, IOCA_VM_APPEND=loglevel=5 (warnings and errors, the
# checkers' levels, reach the console) and IOCA_VM_SLOWDOWN (default 3: the
# checkers make the guest that much slower under TCG).
#
# Each kernel-log line a checker prints is listed as "report: FILE:LINE:
# TEXT" and counts as one failure. Prints "check-debug: N passed, M failed";
# exits non-zero on any failure or when nothing ran.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

. "$top/scripts/tap.sh"
finish() {
	echo "check-debug: $pass passed, $fail failed"
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
	exit
}
# add_summary NAME FILE: adds the "NAME: N passed, M failed" line of FILE;
# a missing line is a failure.
add_summary() {
	local line p f
	line=$(grep -E "^$1: [0-9]+ passed, [0-9]+ failed" "$2" | tail -n 1)
	if [ -z "$line" ]; then
		notok "$1: no '$1: N passed, M failed' line"
		return
	fi
	p=$(sed -E 's/^[^:]+: ([0-9]+) passed.*/\1/' <<<"$line")
	f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
	pass=$((pass + p))
	fail=$((fail + f))
}
# scan WHAT LOG: every checker report in LOG is a failure.
scan() {
	local out n
	out=$(awk -f "$here/reports.awk" "$2")
	n=$(sed -n 's/^reports: //p' <<<"$out")
	if [ "${n:-1}" -eq 0 ]; then
		ok "$1: no KASAN, lockdep, atomic-sleep, ODEBUG, WARN or BUG report"
	else
		grep '^report: ' <<<"$out"
		fail=$((fail + n - 1))
		notok "$1: $n checker report line(s) in the kernel log (above)"
	fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/ioca-debug.XXXXXX")
trap 'rm -rf "$work"' EXIT

# 1. The scanner must be right before its silence means anything.
for sample in "$here"/testdata/reports-*.log; do
	want=$(cat "${sample%.log}.expect")
	got=$(awk -f "$here/reports.awk" "$sample" | tail -n 1)
	if [ "$got" = "$want" ]; then
		ok "report scanner: $(basename "$sample" .log)"
	else
		notok "report scanner: $(basename "$sample" .log): got '$got', want '$want'"
	fi
done

# 2. The debug kernel.
start=$(date +%s)
if ! kdir=$("$here/build.sh" --debug); then
	notok "debug kernel build failed (see above)"
	finish
fi
echo "check-debug: kernel ready in $(($(date +%s) - start)) s: $kdir"
IOCA_CACHE=${IOCA_CACHE:-$(dirname "$kdir")}
export IOCA_CACHE
export IOCA_VM_KERNEL=$kdir/arch/x86/boot/bzImage
IOCA_VM_MODULES_DIR=$kdir/staging/lib/modules/$(cat "$kdir/kernelrelease")
export IOCA_VM_MODULES_DIR
export IOCA_VM_APPEND=loglevel=5
export IOCA_VM_SLOWDOWN=${IOCA_VM_SLOWDOWN:-3}

# 3. KUnit suites (kunit.sh keeps the console of its boot).
start=$(date +%s)
"$here/kunit.sh" --debug | tee "$work/kunit.out"
add_summary kunit-debug "$work/kunit.out"
if [ -f "$IOCA_CACHE/kunit-debug-last-console.log" ]; then
	scan kunit-debug "$IOCA_CACHE/kunit-debug-last-console.log"
else
	notok "kunit-debug: no console log"
fi
echo "check-debug: KUnit suites took $(($(date +%s) - start)) s"

# 4. ioca.ko against the debug tree, from a copy (the tree's objects belong
# to KDIR's kernel), then the kselftests on the debug kernel.
start=$(date +%s)
for d in kmod uapi scripts; do
	mkdir -p "$work/src/$d"
	tar -C "$top/$d" -c --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='.*.cmd' --exclude=Module.symvers \
		--exclude=modules.order . | tar -C "$work/src/$d" -x
done
if make -C "$work/src/kmod" KDIR="$kdir" all >"$work/kmod.log" 2>&1 &&
	[ -f "$work/src/kmod/ioca.ko" ]; then
	ok "kmod: ioca.ko builds against the debug kernel"
	IOCA_KO=$work/src/kmod/ioca.ko KDIR=$kdir "$top/selftests/ioca/vmrun.sh" 2>&1 |
		tee "$work/ioca.out"
	add_summary ioca "$work/ioca.out"
	scan "ioca kselftests" "$work/ioca.out"
else
	tail -n 40 "$work/kmod.log" | indent
	notok "kmod: 'make -C kmod KDIR=<debug kernel>' failed"
fi
echo "check-debug: ioca kselftests took $(($(date +%s) - start)) s"

# 5. The resctrl emulation.
start=$(date +%s)
KDIR=$kdir "$top/selftests/resctrl_emu/vmrun.sh" 2>&1 | tee "$work/resctrl.out"
add_summary resctrl_emu "$work/resctrl.out"
scan resctrl_emu "$work/resctrl.out"
echo "check-debug: resctrl_emu took $(($(date +%s) - start)) s"
finish
