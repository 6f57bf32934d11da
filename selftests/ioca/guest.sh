#!/bin/sh
# Runs inside the test VM (busybox sh, as root, cwd /ioca): the kselftest
# programs of one boot, in order, each framed by "# ioca-run NAME" and
# "# ioca-exit NAME STATUS" so vmrun.sh can tell a crash from a pass.
#   guest.sh full   unsupported CPU model: refusal, then every ABI test
#                   against the emulated backend
#   guest.sh msr    a model with DDIO way control: msr backend and info
#   guest.sh isolated  CPU 1 isolated (nohz_full, rcu_nocbs): a FIFO
#                   spinner on a sampled CPU starves nothing
#   guest.sh sockets   two packages of one CPU each: socket 1 offline
#   guest.sh packages3 three packages of one CPU each, msr backend: the
#                   middle one offline before insmod
#   guest.sh devices   q35 with a device below QEMU's root port: DDIO per
#                   device emulated, then refused on the msr backend
# Exits non-zero if any program did.
mode=${1:-full}
cd /ioca || exit 1
export IOCA_KO=/ioca/ioca.ko
status=0

run() {
	echo "# ioca-run $1"
	"./$1"
	rc=$?
	echo "# ioca-exit $1 $rc"
	[ "$rc" -eq 0 ] || status=1
}

case $mode in
full)
	run load_test
	# load_test leaves the module out on a model without DDIO ways.
	[ -d /sys/module/ioca ] || insmod /ioca/ioca.ko emulate=1 ||
		echo "# ioca: insmod ioca.ko emulate=1 failed"
	export IOCA_EXPECT_BACKEND=emulated IOCA_KO_PARAMS=emulate=1
	for t in family_test ddio_test perm_test caps_test sampler_test owner_test emul_test \
		readback_test hotplug_test generation_test sample_parts_test subscribe_test epoch_test \
		slots_test concurrency_test fuzz_test unload_test kmsg_test; do
		run "$t"
	done
	# The operator's client, last: it unloads and reloads the module.
	run iocactl_test.sh
	# libioca against the reloaded module (emulate=1, both CPUs).
	run libioca_vm_test
	# libspec's counter metric: configures, reads, releases the sampler.
	run counters_vm_test
	;;
msr)
	run load_test
	export IOCA_EXPECT_BACKEND=msr IOCA_KO_PARAMS=
	run family_test
	# Before caps_test: its write, dropped by TCG, leaves the socket not writable.
	run readback_test
	run caps_test
	run emul_test
	run kmsg_test
	;;
isolated)
	insmod /ioca/ioca.ko emulate=1 || echo "# ioca: insmod ioca.ko emulate=1 failed"
	export IOCA_EXPECT_BACKEND=emulated IOCA_KO_PARAMS=emulate=1
	run starve_test
	run kmsg_test
	;;
sockets)
	insmod /ioca/ioca.ko emulate=1 || echo "# ioca: insmod ioca.ko emulate=1 failed"
	export IOCA_EXPECT_BACKEND=emulated IOCA_KO_PARAMS=emulate=1
	run uncore_hotplug_test
	run socket_hotplug_test
	run subscribe_test
	# two sockets: a set rolled back part-way
	run epoch_test
	run kmsg_test
	;;
packages3)
	echo 0 >/sys/devices/system/cpu/cpu1/online || echo "# ioca: offlining CPU 1 failed"
	insmod /ioca/ioca.ko || echo "# ioca: insmod ioca.ko with package 1 offline failed"
	export IOCA_EXPECT_BACKEND=msr IOCA_KO_PARAMS=
	run package_offline_test
	run kmsg_test
	;;
devices)
	# q35: a virtio device below QEMU's pcie-root-port 0000:00:1c.0
	insmod /ioca/ioca.ko emulate=1 || echo "# ioca: insmod ioca.ko emulate=1 failed"
	export IOCA_EXPECT_BACKEND=emulated IOCA_KO_PARAMS=emulate=1
	run device_test
	run iocactl_device_test.sh
	rmmod ioca || echo "# ioca: rmmod ioca failed"
	insmod /ioca/ioca.ko || echo "# ioca: insmod ioca.ko (msr backend) failed"
	export IOCA_EXPECT_BACKEND=msr IOCA_KO_PARAMS=
	run device_test
	run iocactl_device_test.sh
	run kmsg_test
	;;
*)
	echo "guest.sh: unknown mode '$mode' (full, msr, isolated, sockets, packages3 or devices)"
	exit 2
	;;
esac
exit $status
