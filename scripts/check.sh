#!/usr/bin/env bash
# Runs every test group, keeps going when one fails, and sums the
# "NAME: N passed, M failed" lines each group prints into one closing line.
# Exits non-zero if anything failed, a group crashed without a summary, or
# no test ran at all.
set -u
cd "$(dirname "$0")/.."
mk() { make --no-print-directory "$@"; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Only a group's own closing line counts: groups may print per-suite lines of
# the same shape, which must not be summed twice.
run_group() {
	local name=$1 out line
	shift
	echo "=== $name"
	out=$(mktemp)
	"$@" 2>&1 | tee "$out"
	local rc=${PIPESTATUS[0]}
	line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed" "$out" | tail -n 1)
	if [ -z "$line" ]; then
		line="$name: 0 passed, 1 failed (exited $rc without a summary)"
		echo "$line"
	elif [ "$rc" -ne 0 ] && grep -qE "^$name: [0-9]+ passed, 0 failed" <<<"$line"; then
		line="$name: 0 passed, 1 failed (exited $rc after reporting no failure)"
		echo "$line"
	fi
	echo "$line" >>"$log"
	rm -f "$out"
}

# Build first: a build failure is a failed group, not a silent skip.
run_group build bash -c 'if make --no-print-directory all; then
	echo "build: 1 passed, 0 failed"; else echo "build: 0 passed, 1 failed"; exit 1; fi'

run_group lint mk lint
for d in libspec libioca iocad; do
	run_group "$d" mk -C "$d" check
done
run_group fuzz mk -C fuzz check
run_group metrics mk -C iocad check-metrics
# Every `make ...` command the Markdown shows: its folder and targets exist,
# the cheap ones run (scripts/readme_commands.py; 1-2 min with the builds).
run_group readme-commands scripts/readme_commands.py --self-test
# iocad against static on 1000 generated cases (iocad/eval/README.md)
run_group eval-property mk -C iocad eval-check
# iocad's systemd unit, host side (its VM test is in vmtest)
run_group iocad-unit selftests/systemd/verify.sh
run_group kunit mk kunit
run_group vmtest mk vmtest
# The Debian packages: built, installed with DKMS, booted, upgraded under
# systemd, purged (20-33 min at load 17-23; README.md, "Fleet").
run_group deb scripts/deb/test.sh

pass=0
fail=0
while read -r p f; do
	pass=$((pass + p))
	fail=$((fail + f))
done < <(sed -nE 's/^[A-Za-z0-9_.-]+: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' "$log")

echo "check: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
