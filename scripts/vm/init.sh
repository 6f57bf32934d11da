#!/bin/sh
# /init of the test VM's initramfs (busybox sh, pid 1). Built into the cached
# base image by run.sh; the per-run part of the initramfs adds /ioca-run/cmd
# (the command, one quoted word per argument) and the --file payload.
#
# Mounts the pseudo filesystems, brings up loopback, runs the command as a
# child of this shell with the console as its terminal, prints
# IOCA-VM-EXIT=<status> and ends the VM. Nothing here may wait forever:
# run.sh's host-side timeout is the last line of defence, not the plan.
export PATH=/bin:/sbin HOME=/root TERM=dumb IOCA_VM=1

# No /dev/console in the archive (building device nodes needs root): mount
# devtmpfs first, then take the console as stdin/out/err.
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec 0<>/dev/console 1>&0 2>&0

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tmpfs tmpfs /tmp 2>/dev/null
mkdir -p /dev/pts /dev/shm
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null
hostname ioca-vm

cd /ioca 2>/dev/null || cd /
# Tells run.sh the boot is over: a silence after this is the command's.
echo IOCA-VM-INIT
/bin/sh /ioca-run/cmd
rc=$?
echo
echo "IOCA-VM-EXIT=$rc"
sync
# isa-debug-exit (run.sh always adds it) needs ioperm(), which tinyconfig
# kernels lack (CONFIG_X86_IOPL_IOPERM); a reboot with QEMU's -no-reboot ends
# the VM on any kernel, ACPI or not; poweroff -f only halts without ACPI.
vmexit 0 2>/dev/null
reboot -f
poweroff -f
