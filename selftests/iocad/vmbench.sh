#!/usr/bin/env bash
# make bench, VM part of issue 8's benchmark: per interval, iocad's whole
# host path (ioca.ko collecting the samples, then iocad receiving, decoding,
# aggregating, deciding and applying) against a userspace poller reading
# the same counters with perf_event_open reads and /dev/cpu/N/msr, in the
# same QEMU (TCG) guest, at 1, 2, 4 and 8 vCPUs. Prints a table of us per
# interval and the ratio; never passes or fails on the numbers, exits
# non-zero only when a guest produced no figures.
#   IOCA_BENCH_SMP="1 2 4 8"  guest sizes
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
run=${IOCA_VM_RUN:-$root/scripts/vm/run.sh}
KDIR=${KDIR:-$("$root/scripts/kdir.sh")}
sizes=${IOCA_BENCH_SMP:-1 2 4 8}
work=$(mktemp -d "${TMPDIR:-/tmp}/iocad-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

make --no-print-directory -C "$root/kmod" >"$work/build.log" 2>&1 &&
	mkdir -p "$work/emu" &&
	cp "$root"/selftests/resctrl_emu/Kbuild "$root"/selftests/resctrl_emu/*.[ch] "$work/emu/" &&
	make -s -C "$KDIR" M="$work/emu" modules >>"$work/build.log" 2>&1 &&
	make --no-print-directory -C "$root/iocad" -j2 build/iocad.static build/iocactl.static \
		>>"$work/build.log" 2>&1 &&
	cc -std=c11 -O2 -Wall -Wextra -Werror -static -o "$work/poll_bench" "$here/poll_bench.c" \
		>>"$work/build.log" 2>&1 || {
	tail -n 20 "$work/build.log" >&2
	echo "iocad vmbench: build failed" >&2
	exit 1
}

rc=0
for n in $sizes; do
	echo "=== iocad host path bench: -smp $n" >&2
	"$run" --smp "$n" --mem 512 --timeout 600 --kmod msr --append loglevel=2 \
		--file "$root/kmod/ioca.ko" --file "$work/emu/resctrl_emu.ko" \
		--file "$root/iocad/build/iocad.static:/ioca/iocad" \
		--file "$root/iocad/build/iocactl.static:/ioca/iocactl" \
		--file "$work/poll_bench" --file "$here/bench_guest.sh" -- sh ./bench_guest.sh \
		>"$work/$n" 2>&1
	if ! grep -q '^IOCAD ' "$work/$n" || ! grep -q '^POLL ' "$work/$n"; then
		echo "iocad vmbench: -smp $n produced no figures:" >&2
		tail -n 20 "$work/$n" >&2
		rc=1
	fi
done

echo "iocad host path vs userspace poller (QEMU TCG, emulate=1; us per interval of 100 ms)"
printf '%5s | %10s %10s %10s | %10s %10s | %8s\n' cpus "ioca.ko" "iocad" "whole" "poll mean" \
	"poll med" ratio
for n in $sizes; do
	i=$(grep '^IOCAD ' "$work/$n" | tail -n 1)
	p=$(grep '^POLL ' "$work/$n" | tail -n 1)
	[ -n "$i" ] && [ -n "$p" ] || continue
	val() { sed -nE "s/.* $2=([0-9.]+).*/\1/p" <<<"$1"; }
	awk -v c="$n" -v k="$(val "$i" collect_ns)" -v u="$(val "$i" user_ns)" \
		-v p="$(val "$p" mean_us)" -v m="$(val "$p" med_us)" 'BEGIN {
		w = (k + u) / 1000
		printf "%5d | %10.1f %10.1f %10.1f | %10.1f %10.1f | %7.1fx\n", c, k / 1000, u / 1000, w, p, m, p / w }'
done
echo "ioca.ko = the module's mean collection per interval; iocad = its CPU time per interval"
echo "(receive, decode, aggregate, decide, DDIO read-back, apply when changed), both means over"
echo "the run; poller = 4 perf reads per CPU + 2 MSR reads, mean and median; ratio = poller"
echo "mean / whole (the goal: >= 5x at 8). Means carry the host's descheduling of vCPUs."
echo "(the paper reports up to 800 us per interval for its userspace daemon on real hardware)"
exit $rc
