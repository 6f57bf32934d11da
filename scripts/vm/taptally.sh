#!/usr/bin/env bash
# taptally.sh NAME CONSOLE STATUS [CONSOLE STATUS...]: the closing line of
# a VM test group from its guests' consoles (files holding each guest's
# TAP) and the status the runner returned for each. Prints "NAME: N
# passed, M failed" over all of them and exits non-zero unless every test
# passed. A guest that planned more or fewer tests than it reported (it
# died, or a check was lost) or whose exit status is not its failure count
# (as the guest scripts exit) is one more failure.
set -u
[ $# -ge 3 ] && [ $(($# % 2)) -eq 1 ] || {
	echo "usage: taptally.sh NAME CONSOLE STATUS [CONSOLE STATUS...]" >&2
	exit 2
}
name=$1
shift
many=$(($# > 2))
pass=0 fail=0
while [ $# -gt 0 ]; do
	console=$1 rc=$2
	shift 2
	who="the guest"
	[ "$many" -eq 0 ] || who="the guest of ${console##*/}"
	p=$(grep -cE '^ok [0-9]+ ' "$console")
	f=$(grep -cE '^not ok [0-9]+ ' "$console")
	plan=$(sed -nE 's/^1\.\.([0-9]+)$/\1/p' "$console" | tail -n 1)
	if [ -z "$plan" ] || [ "$plan" -ne $((p + f)) ]; then
		echo "$name: $who planned '${plan:-nothing}' tests, reported $((p + f))"
		f=$((f + 1))
	elif [ "$rc" -ne "$((f > 125 ? 125 : f))" ]; then
		echo "$name: $who exited $rc with $f failure(s) reported"
		f=$((f + 1))
	fi
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "$name: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
