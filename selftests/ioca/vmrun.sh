#!/usr/bin/env bash
# Host-side driver of the ioca kselftests: builds the module and the static
# test programs, boots the Debian kernel under QEMU (TCG) via
# scripts/vm/run.sh, runs guest.sh in each boot and sums the TAP results.
#
#   boot 1: -cpu Skylake-Client (family 6 model 0x5E, no DDIO way control),
#           -smp 2: load refused without emulate=1, then every ABI test on
#           the emulated backend (the sampler test uses both CPUs)
#   boot 2: -cpu Skylake-Server (model 0x55): plain insmod selects msr
#   boot 3: -smp 2 with CPU 1 isolated as busy-poll hosts do (nohz_full=1
#           rcu_nocbs=1): starve_test, a FIFO spinner on a sampled CPU
#   boot 4: -smp 2 over two packages (run.sh --sockets 2), emulate=1:
#           socket_hotplug_test, DDIO and the sampler's sockets while
#           socket 1's only CPU goes offline and comes back; subscribe_test
#           (one stream with both sockets' CPUs, counters and DDIO masks);
#           epoch_test (a DDIO set rolled back part-way moves no epoch)
#   boot 5: -cpu Skylake-Server, -smp 3 over three packages: the middle
#           package's CPU offline before a plain insmod (msr backend)
#   boot 6: -M q35 with a device below QEMU's pcie-root-port: DDIO per
#           device with emulate=1, then refused on the msr backend
#
# First the host-side unit tests of the client code (ASan/UBSan).
# Prints the console of each boot and one closing line
# "ioca: N passed, M failed" (skipped tests are listed apart and do not
# count as passed). A boot that times out or dies counts as a failure.
# IOCA_KO=/path/ioca.ko skips the module build and tests that file.
# IOCA_VM_BOOTS="sockets devices": only the boots named (default: all of
# them: unsupported skylake-sp isolated sockets packages3 devices).
# Exits non-zero if anything failed or nothing ran.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
run=${IOCA_VM_RUN:-$root/scripts/vm/run.sh}
tests="load_test family_test ddio_test perm_test sampler_test hotplug_test concurrency_test fuzz_test
	unload_test kmsg_test caps_test owner_test emul_test starve_test generation_test sample_parts_test
	socket_hotplug_test uncore_hotplug_test subscribe_test package_offline_test readback_test
	device_test epoch_test slots_test"

pass=0 fail=0 skip=0
run_extra=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

# IOCA_KO=path runs the tests against a module built elsewhere.
ko=${IOCA_KO:-$root/kmod/ioca.ko}
target=all
[ -n "${IOCA_KO:-}" ] && target=tests
if ! make --no-print-directory -C "$here" -j2 "$target" unit >"$log/build" 2>&1; then
	tail -n 30 "$log/build"
	echo "ioca: build of selftests/ioca or kmod failed"
	echo "ioca: 0 passed, 1 failed"
	exit 1
fi
# iocactl, the operator's client, runs in the guest as its static build.
if ! make --no-print-directory -C "$root/iocad" -j2 build/iocactl.static >>"$log/build" 2>&1; then
	tail -n 30 "$log/build"
	echo "ioca: build of iocad/build/iocactl.static failed"
	echo "ioca: 0 passed, 1 failed"
	exit 1
fi
# libioca's own test against the module, static like the kselftests.
if ! make --no-print-directory -C "$root/libioca" -j2 vmtest-bin >>"$log/build" 2>&1; then
	tail -n 30 "$log/build"
	echo "ioca: build of libioca/build/libioca_vm_test failed"
	echo "ioca: 0 passed, 1 failed"
	exit 1
fi
# libspec's counter metric against the module (static, without LLVM).
if ! make --no-print-directory -C "$root/libspec" -j2 vmtest-bin >>"$log/build" 2>&1; then
	tail -n 30 "$log/build"
	echo "ioca: build of libspec/build/counters_vm_test failed"
	echo "ioca: 0 passed, 1 failed"
	exit 1
fi
if [ ! -x "$run" ]; then
	echo "ioca: $run missing (the VM runner)"
	echo "ioca: 0 passed, 1 failed"
	exit 1
fi

# The client code every verdict rests on, on the host under ASan/UBSan.
"$root/scripts/testgroup.sh" ioca-host "$here/client_unit_test" | tee "$log/host"
read -r p f < <(sed -nE 's/^ioca-host: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' "$log/host")
pass=$((pass + ${p:-0}))
fail=$((fail + ${f:-1}))

files=(--file "$ko:/ioca/ioca.ko" --file "$here/guest.sh" --file "$here/iocactl_test.sh"
	--file "$here/iocactl_device_test.sh" --file "$root/scripts/vm/tap.sh"
	--file "$root/iocad/build/iocactl.static:/ioca/iocactl"
	--file "$root/libioca/build/libioca_vm_test:/ioca/libioca_vm_test"
	--file "$root/libspec/build/counters_vm_test:/ioca/counters_vm_test")
for t in $tests; do
	files+=(--file "$here/$t")
done

want() { case " ${IOCA_VM_BOOTS:-unsupported skylake-sp isolated sockets packages3 devices} " in *" $1 "*) ;; *) return 1 ;; esac; }
boot() { # name cpu smp[:sockets] timeout mode [kernel args]
	want "$1" || return 0
	local name=$1 cpu=$2 smp=${3%%:*} sockets=1 timeout=$4 mode=$5 args="loglevel=2 ${6:-}" rc p f s start
	[ "$smp" = "$3" ] || sockets=${3#*:}
	echo "=== ioca boot $name: -cpu $cpu -smp $smp, $sockets socket(s) ($mode) $args"
	start=$(date +%s)
	"$run" --cpu "$cpu" --smp "$smp" --sockets "$sockets" --mem 512 --timeout "$timeout" --append "$args" \
		"${run_extra[@]}" "${files[@]}" -- /bin/sh /ioca/guest.sh "$mode" | tee "$log/$name"
	rc=${PIPESTATUS[0]}
	read -r p f s < <(awk -f "$here/tapsum.awk" "$log/$name")
	case $rc in
	0) ;;
	124)
		echo "ioca: boot $name timed out after ${timeout}s"
		f=$((f + 1))
		;;
	125)
		echo "ioca: boot $name died without an exit status (panic/oops?)"
		f=$((f + 1))
		;;
	*)
		if [ "$f" -eq 0 ]; then
			echo "ioca: boot $name exited $rc without a failing result"
			f=1
		fi
		;;
	esac
	echo "ioca: boot $name: $p passed, $f failed, $s skipped in $(($(date +%s) - start))s"
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + s))
}

boot unsupported Skylake-Client 2 600 full
boot skylake-sp Skylake-Server 1 180 msr
# Without nohz_full a FIFO spinner starves the CPU's ksoftirqd, and with it
# RCU grace periods that module unload waits for, whatever ioca does.
boot isolated Skylake-Client 2 240 isolated "nohz_full=1 rcu_nocbs=1"
boot sockets Skylake-Client 2:2 240 sockets
boot packages3 Skylake-Server 3:3 180 packages3
# q35: a virtio device (0000:01:00.0) below QEMU's pcie-root-port (0000:00:1c.0)
# shellcheck disable=SC2054 # commas inside QEMU's -device options
run_extra=(--machine q35 --device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x1c
	--device virtio-rng-pci,bus=rp0)
# Only on a kernel with PCI: the debug kernel (check-debug) is built without it.
kcfg=
[ -n "${IOCA_VM_KERNEL:-}" ] && kcfg=$(dirname "$IOCA_VM_KERNEL")/../../../.config
if [ -n "$kcfg" ] && [ -f "$kcfg" ] && ! grep -q '^CONFIG_PCI=y' "$kcfg"; then
	echo "ioca: boot devices skipped: $IOCA_VM_KERNEL has no CONFIG_PCI"
	skip=$((skip + 1))
else
	boot devices Skylake-Server 1 240 devices
fi

[ "$skip" -gt 0 ] && echo "ioca: $skip skipped"
echo "ioca: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
