#!/usr/bin/env bash
# run.sh SECONDS TARGET...: run each libFuzzer target for SECONDS from its
# seed corpus (corpus/TARGET/, read-only) plus what earlier runs found
# (build/corpus/TARGET/), one test per target; prints
# "fuzz: N passed, M failed". A crash, leak or timeout fails the target and
# leaves its reproducer as build/crash-TARGET-*; the fuzzer's log is shown.
set -uo pipefail
cd "$(dirname "$0")" || exit 1
secs=$1
shift
pass=0 fail=0
for t in "$@"; do
	found=build/corpus/$t
	mkdir -p "$found"
	log=build/$t.log
	# -seed from the clock so every run explores a little further; it is
	# printed first in the log, so a failure can be replayed.
	if build/"$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="build/crash-$t-" -print_final_stats=1 \
		"$found" "corpus/$t" >"$log" 2>&1; then
		execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
		echo "ok - fuzz: $t: ${execs:-?} inputs in ${secs}s, no crash"
		pass=$((pass + 1))
	else
		sed 's/^/    /' "$log" | tail -n 40
		echo "not ok - fuzz: $t: failed (reproducer: $(ls build/crash-"$t"-* 2>/dev/null | head -n 1))"
		fail=$((fail + 1))
	fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
