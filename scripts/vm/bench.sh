#!/usr/bin/env bash
# bench.sh (part of `make bench`): runs every selftests/*/vmbench.sh, each of
# which boots its own guest through run.sh and prints its figures and ratios.
# Prints nothing when there is none. Benchmarks never pass or fail on their
# numbers; a benchmark that cannot run at all makes this exit non-zero.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export IOCA_VM_RUN=$here/run.sh
export KDIR=${KDIR:-$("$top/scripts/kdir.sh")}
status=0
for b in "$top"/selftests/*/vmbench.sh; do
	[ -e "$b" ] || continue
	echo "=== ${b#"$top"/}"
	bash "$b" || {
		echo "bench: ${b#"$top"/} could not run (exit $?)" >&2
		status=1
	}
done
exit $status
