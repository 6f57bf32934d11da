#!/usr/bin/env bash
# kunit.sh (what `make kunit` runs):
#  1. self-checks the KTAP parser on its samples (ktap_selftest.sh);
#  2. builds the KUnit kernel once per machine, or reuses it (build.sh);
#  3. builds selftests/smoke's smoke_kunit.ko and, if kmod/tests/ exists,
#     ioca.ko and kmod/tests/*.ko against it, from copies in a scratch
#     directory under $IOCA_CACHE (the tree's own objects are for KDIR);
#  4. boots the KUnit kernel (scripts/vm/run.sh) and runs guest.sh, which
#     loads kunit.ko and each test module;
#  5. parses the console's KTAP (ktap.awk) and prints each suite's result and
#     "kunit: N passed, M failed" (a skipped case counts as passed and is
#     listed as skipped). Exits non-zero on any failure, a build error, a
#     guest that timed out or crashed, or when no test ran.
#
# IOCA_KUNIT_INJECT_FAILURE=1 builds the smoke suite with one case failing
# on purpose: a demonstration that a failure turns this red.
#
# kunit.sh --debug does the same on the debug kernel (build.sh --debug) and
# names its closing line "kunit-debug: ..."; debug.sh (make check-debug)
# runs it and scans its console for checker reports.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
name=kunit build_args=() mem=256
if [ "${1:-}" = --debug ]; then
	# KASAN's shadow and lockdep's tables need room.
	name=kunit-debug build_args=(--debug) mem=512
fi

. "$top/scripts/tap.sh"
skip=0
finish() {
	[ "$skip" -eq 0 ] || echo "$name: $skip of the passed cases were skipped"
	[ "$fail" -eq 0 ] || [ ! -f "${IOCA_CACHE:-/nonexistent}/$name-last-console.log" ] ||
		echo "$name: full console log: $IOCA_CACHE/$name-last-console.log"
	echo "$name: $pass passed, $fail failed"
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
	exit
}

# 1. The parser must be right before its verdicts mean anything.
out=$("$here/ktap_selftest.sh")
rc=$?
grep -E '^(not )?ok - ' <<<"$out"
p=$(sed -nE 's/^ktap-selftest: ([0-9]+) passed, ([0-9]+) failed$/\1/p' <<<"$out")
f=$(sed -nE 's/^ktap-selftest: ([0-9]+) passed, ([0-9]+) failed$/\2/p' <<<"$out")
pass=$((pass + ${p:-0}))
fail=$((fail + ${f:-0}))
[ "$rc" -eq 0 ] || [ "${f:-0}" -gt 0 ] || notok "ktap_selftest.sh exited $rc"

# 2. Kernel (cached after the first build).
start=$(date +%s)
if ! kdir=$("$here/build.sh" "${build_args[@]}"); then
	notok "KUnit kernel build failed (see above)"
	finish
fi
echo "$name: kernel ready in $(($(date +%s) - start)) s: $kdir"
release=$(cat "$kdir/kernelrelease")
moddir=$kdir/staging/lib/modules/$release
IOCA_CACHE=${IOCA_CACHE:-$(dirname "$kdir")}

# 3. Test modules, built from copies.
scratch=$(mktemp -d "$IOCA_CACHE/kunit-scratch.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
copy_src() { # dir: copy $top/dir without another kernel's build products
	mkdir -p "$scratch/$1"
	tar -C "$top/$1" -c --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='.*.cmd' --exclude=Module.symvers \
		--exclude=modules.order --exclude=.tmp_versions . | tar -C "$scratch/$1" -x
}

files=()
copy_src selftests/smoke
smoke_flags=
[ "${IOCA_KUNIT_INJECT_FAILURE:-0}" = 1 ] && smoke_flags=-DIOCA_SMOKE_INJECT_FAILURE
if make -s -C "$kdir" M="$scratch/selftests/smoke" KCFLAGS="$smoke_flags" modules \
	>"$scratch/smoke.log" 2>&1 &&
	[ -f "$scratch/selftests/smoke/smoke_kunit.ko" ]; then
	ok "smoke_kunit.ko builds against the KUnit kernel"
	files+=(--file "$scratch/selftests/smoke/smoke_kunit.ko")
else
	indent <"$scratch/smoke.log"
	notok "smoke_kunit.ko does not build against the KUnit kernel"
fi

if [ -d "$top/kmod/tests" ]; then
	copy_src kmod
	copy_src uapi
	copy_src scripts
	if make -C "$scratch/kmod" KDIR="$kdir" all tests >"$scratch/kmod.log" 2>&1 &&
		[ -f "$scratch/kmod/ioca.ko" ]; then
		ok "kmod: ioca.ko and kmod/tests build against the KUnit kernel"
		files+=(--file "$scratch/kmod/ioca.ko")
		for t in "$scratch"/kmod/tests/*.ko; do
			[ -f "$t" ] && files+=(--file "$t:tests/")
		done
	else
		tail -n 40 "$scratch/kmod.log" | indent
		notok "kmod: 'make -C kmod KDIR=<KUnit kernel> all tests' failed"
	fi
fi
[ ${#files[@]} -gt 0 ] || finish

# 4. One boot runs every suite. loglevel=7 puts KUnit's KERN_INFO lines on
# the console as they happen, so a crash still leaves the KTAP up to it.
log=$scratch/console.log
"$top/scripts/vm/run.sh" --kernel "$kdir/arch/x86/boot/bzImage" \
	--modules-dir "$moddir" --kmod kunit --mem "$mem" --timeout "${IOCA_KUNIT_TIMEOUT:-600}" \
	--append loglevel=7 --file "$here/guest.sh" "${files[@]}" \
	-- sh ./guest.sh >"$log" 2>&1
rc=$?
cp "$log" "$IOCA_CACHE/$name-last-console.log"
grep -E '^kunit-guest: FAIL|^run\.sh: ' "$log"

# 5. Verdicts.
parsed=$(awk -f "$here/ktap.awk" "$log")
grep -v '^ktap-total:' <<<"$parsed"
total=$(grep '^ktap-total:' <<<"$parsed")
p=$(sed -E 's/.*pass=([0-9]+).*/\1/' <<<"$total")
f=$(sed -E 's/.*fail=([0-9]+).*/\1/' <<<"$total")
s=$(sed -E 's/.*skip=([0-9]+).*/\1/' <<<"$total")
n=$(sed -E 's/.*suites=([0-9]+).*/\1/' <<<"$total")
pass=$((pass + p))
fail=$((fail + f))
skip=$((skip + s))
guest_fail=$(grep -c '^kunit-guest: FAIL' "$log")
fail=$((fail + guest_fail))
if [ "$n" -eq 0 ]; then
	tail -n 30 "$log" | indent
	notok "no KUnit suite reported anything"
fi
case $rc in
0) ;;
124 | 125)
	tail -n 30 "$log" | indent
	notok "KUnit guest timed out or crashed (run.sh status $rc)"
	;;
*) [ "$rc" -eq "$guest_fail" ] ||
	notok "guest.sh exited $rc but reported $guest_fail failure(s)" ;;
esac
finish
