#!/usr/bin/env bash
# Usage: ktap_selftest.sh
# Self-check of ktap.awk: parses every testdata/*.ktap sample (passes, skips,
# parameters in 6.1's and the newer nested form, a failing case, a crash in
# the middle of a suite, a failing suite with no cases, a log with no tests)
# and compares the total line with the sample's .expect file. Prints one
# "ok - ..." / "not ok - ..." line per sample and "ktap-selftest: P passed,
# F failed"; exits non-zero on any mismatch or when no sample ran.
set -u
here=$(cd "$(dirname "$0")" && pwd)
pass=0
fail=0
for sample in "$here"/testdata/*.ktap; do
	[ -e "$sample" ] || continue
	name=$(basename "$sample" .ktap)
	want=$(cat "${sample%.ktap}.expect")
	got=$(awk -f "$here/ktap.awk" "$sample" | tail -n 1)
	if [ "$got" = "$want" ]; then
		pass=$((pass + 1))
		echo "ok - ktap parser: $name"
	else
		fail=$((fail + 1))
		echo "not ok - ktap parser: $name: got '$got', want '$want'"
	fi
done
echo "ktap-selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
