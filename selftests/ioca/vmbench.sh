#!/usr/bin/env bash
# The sampler benchmark, run in QEMU (TCG) guests with 1, 2, 4
# and 8 CPUs: per interval, ioca.ko's in-kernel sampler (emulated DDIO
# backend, software counters) against the IOCA paper's userspace loop that
# preads the same registers through /dev/cpu/N/msr, measured in the same
# guest. Prints a table of µs per interval and the ratio. Never pass/fail on
# time; exits non-zero only if a guest could not produce its figures.
#   IOCA_BENCH_SMP="1 2 4 8"  guest sizes;  IOCA_KO=path  prebuilt module
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
run=${IOCA_VM_RUN:-$root/scripts/vm/run.sh}
bench=$root/bench/sampler
ko=${IOCA_KO:-$root/kmod/ioca.ko}
sizes=${IOCA_BENCH_SMP:-1 2 4 8}

if [ -z "${IOCA_KO:-}" ] && ! make --no-print-directory -C "$root/kmod" >/dev/null; then
	echo "vmbench: building kmod failed" >&2
	exit 1
fi
make --no-print-directory -C "$bench" >/dev/null 2>&1 || {
	echo "vmbench: building bench/sampler failed" >&2
	exit 1
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rc=0
for n in $sizes; do
	echo "=== sampler bench: -smp $n" >&2
	"$run" --smp "$n" --mem 512 --timeout 600 --kmod msr --append loglevel=2 \
		--file "$ko:/ioca/ioca.ko" --file "$bench/sampler_bench" -- \
		/bin/sh -c 'insmod /ioca/ioca.ko emulate=1 && modprobe msr &&
			/ioca/sampler_bench -n 200 -e 4 -i 10000' >"$out/$n" 2>&1
	grep -A5 '^sampler_bench:' "$out/$n" >&2
	if ! grep -q '^BENCH ' "$out/$n"; then
		echo "vmbench: -smp $n produced no figures:" >&2
		tail -n 20 "$out/$n" >&2
		rc=1
	fi
done

echo "ioca sampler benchmark (QEMU TCG; 4 registers per CPU; 200 intervals of 10 ms; us per interval)"
printf '%5s %5s | %12s %12s %8s | %12s %12s %8s | %10s\n' cpus regs "ioca.ko med" "user med" \
	ratio "ioca.ko mean" "user mean" ratio "get med"
for n in $sizes; do
	line=$(grep '^BENCH ' "$out/$n" | tail -n 1)
	[ -n "$line" ] || continue
	val() { sed -nE "s/.* $1=([0-9.]+).*/\1/p" <<<"$line"; }
	printf '%5s %5s | %12s %12s %7sx | %12s %12s %7sx | %10s\n' "$(val cpus)" \
		"$(($(val cpus) * $(val regs)))" "$(val kernel_med_us)" "$(val user_med_us)" \
		"$(val ratio_med)" "$(val kernel_mean_us)" "$(val user_mean_us)" "$(val ratio_mean)" \
		"$(val get_med_us)"
done
echo "ratio = userspace / ioca.ko (above 1: the module is cheaper); get = one on-demand"
echo "sample-get round trip seen from userspace (request, per-CPU reads, reply)"
echo "(the paper reports up to 800 us per interval for its userspace daemon on real hardware)"
exit $rc
