#!/bin/sh
# Usage (inside the KUnit VM, cwd /ioca): guest.sh
# Loads kunit.ko, then each test module in turn -- KUnit runs a module's
# suites while it loads and prints KTAP on the console -- and unloads it
# again, so exit paths run too:
#   smoke_kunit.ko                   the smoke suite (selftests/smoke)
#   ioca.ko emulate=1                if present: what kmod/tests/ exercise
#   tests/*.ko                       if present: the module's KUnit suites
# Each module that fails to load or unload prints a "kunit-guest: FAIL" line
# (kunit.sh counts them); the exit status is the number of such failures.
fail=0

step() { # what command...
	what=$1
	shift
	if ! "$@"; then
		echo "kunit-guest: FAIL $what"
		fail=$((fail + 1))
		return 1
	fi
}

if ! step "modprobe kunit" modprobe kunit; then
	exit 1
fi
if step "insmod smoke_kunit.ko" insmod ./smoke_kunit.ko; then
	step "rmmod smoke_kunit" rmmod smoke_kunit
fi
ioca=0
if [ -f ./ioca.ko ]; then
	step "insmod ioca.ko emulate=1" insmod ./ioca.ko emulate=1 && ioca=1
fi
for t in ./tests/*.ko; do
	[ -f "$t" ] || continue
	m=$(basename "$t" .ko)
	if step "insmod $m.ko" insmod "$t"; then
		step "rmmod $m" rmmod "$m"
	fi
done
if [ $ioca -eq 1 ]; then
	step "rmmod ioca" rmmod ioca
fi
exit $fail
