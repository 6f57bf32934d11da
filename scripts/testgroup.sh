#!/usr/bin/env bash
# Usage: testgroup.sh NAME BINARY...
# Runs cmocka test binaries with TAP output, counts every test case, and
# prints "NAME: N passed, M failed". A binary that crashes or exits non-zero
# without reporting a failing case counts as one failure, so a crash can
# never hide behind an earlier pass. Exits non-zero if anything failed or
# nothing ran.
set -u
name=$1
shift
pass=0
fail=0
for bin in "$@"; do
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$bin" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+' || true)
	f=$(printf '%s\n' "$out" | grep -cE '^not ok [0-9]+' || true)
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$name: $bin exited with status $rc" >&2
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "$name: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
