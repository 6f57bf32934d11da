# shellcheck shell=bash
# Sourced by the host-side test drivers (vmtest.sh, kunit.sh): one counter
# pair and the line shapes every driver prints, so the totals they report
# are counted the same way.
pass=0
fail=0
ok() {
	pass=$((pass + 1))
	echo "ok - $1"
}
notok() {
	fail=$((fail + 1))
	echo "not ok - $1"
}
# Guest console output, set off from the verdicts.
indent() { sed -u 's/^/    | /'; }
