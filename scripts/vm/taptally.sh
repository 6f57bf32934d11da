#!/usr/bin/env bash
# taptally.sh NAME CONSOLE STATUS: the closing line of a VM test group from
# its guest's console (a file holding the guest's TAP) and the status the
# runner returned. Prints "NAME: N passed, M failed" and exits non-zero
# unless every test passed. A guest that planned more or fewer tests than
# it reported (it died, or a check was lost) or whose exit status is not
# its failure count (as the guest scripts exit) is one more failure.
set -u
[ $# -eq 3 ] || {
	echo "usage: taptally.sh NAME CONSOLE STATUS" >&2
	exit 2
}
name=$1 console=$2 rc=$3
pass=$(grep -cE '^ok [0-9]+ ' "$console")
fail=$(grep -cE '^not ok [0-9]+ ' "$console")
plan=$(sed -nE 's/^1\.\.([0-9]+)$/\1/p' "$console" | tail -n 1)
if [ -z "$plan" ] || [ "$plan" -ne $((pass + fail)) ]; then
	echo "$name: the guest planned '${plan:-nothing}' tests, reported $((pass + fail))"
	fail=$((fail + 1))
elif [ "$rc" -ne "$((fail > 125 ? 125 : fail))" ]; then
	echo "$name: the guest exited $rc with $fail failure(s) reported"
	fail=$((fail + 1))
fi
echo "$name: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
