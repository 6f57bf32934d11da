#!/bin/sh
# Runs inside the test VM of vmrun.sh (busybox sh, as root, cwd /ioca):
# loads ioca.ko (emulate=1: TCG's CPU has no DDIO way control), mounts the
# host's root (9p tag ioca-root, read-only) on /host with this guest's
# /proc, /sys, /dev and a tmpfs /tmp, and runs the dynamically linked
# policy_vm_test there, chrooted, so libLLVM and libnl are the host's.
# The test binary and its handler IR come in /ioca and are copied into the
# chroot's tmpfs /tmp (the host's tree may be anywhere, /tmp included).
# The test prints its TAP and exits with its failure count, as this does.
say() { echo "# libspec guest: $*"; }
for m in virtio_pci 9pnet_virtio 9p; do
	modprobe "$m" || say "modprobe $m failed"
done
insmod /ioca/ioca.ko emulate=1 || say "insmod ioca.ko emulate=1 failed"
mkdir -p /host
mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=262144,cache=loose ioca-root /host ||
	say "cannot mount the host's root (9p tag ioca-root)"
for d in proc sys dev; do
	mount --bind "/$d" "/host/$d" || say "cannot bind /$d into /host"
done
mount -t tmpfs tmpfs /host/tmp || say "cannot mount a tmpfs on /host/tmp"
if ! mkdir -p /host/tmp/libspec-vm ||
	! cp /ioca/policy_vm_test /ioca/policy_vm_handler.ll /host/tmp/libspec-vm/; then
	say "cannot copy the test into the chroot's /tmp"
fi
start=$(date +%s)
chroot /host /tmp/libspec-vm/policy_vm_test /tmp/libspec-vm/policy_vm_handler.ll
rc=$?
say "policy_vm_test exited $rc after $(($(date +%s) - start)) s"
exit $rc
