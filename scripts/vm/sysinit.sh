#!/bin/sh
# /init of a systemd test VM (sysrun.sh puts it in the initramfs and boots
# with rdinit= pointing here; busybox sh, pid 1). The guest's root becomes
# the host's / (9p, read-only, shared by sysrun.sh as tag ioca-root) under a
# tmpfs overlay, so the guest runs the host's own systemd, libraries and
# tools while every write stays in guest memory. The run's payload (/ioca,
# /ioca-run/cmd) moves to the new root, where the command runs as the
# oneshot unit ioca-vm.service once basic.target is up; that unit prints
# IOCA-VM-EXIT=<status> and ends the VM, as run.sh's init.sh does.
export PATH=/bin:/sbin
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec 0<>/dev/console 1>&0 2>&0
mount -t proc proc /proc
mount -t sysfs sysfs /sys
# Tells run.sh that the kernel booted; systemd's own start is the command's
# time, bounded by --timeout.
echo IOCA-VM-INIT

fail() {
	echo "sysinit: $*"
	echo "IOCA-VM-EXIT=125"
	vmexit 0 2>/dev/null
	reboot -f
}

for m in virtio_pci 9pnet_virtio 9p overlay; do
	modprobe "$m" || fail "modprobe $m failed (is it in --kmod?)"
done
mkdir -p /host /rw /newroot
# cache=loose: the share is read-only and nothing on the host the guest
# reads changes during a run; without caching every lookup is a round trip
# through the emulator and systemd's start takes minutes.
mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=262144,cache=loose ioca-root /host ||
	fail "cannot mount the host's root (9p tag ioca-root; run through sysrun.sh)"
mount -t tmpfs -o mode=0755 tmpfs /rw || fail "cannot mount the overlay's tmpfs"
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work overlay /newroot ||
	fail "cannot mount the overlay over the host's root"
[ -x /newroot/lib/systemd/systemd ] || fail "no /lib/systemd/systemd on the host (install systemd)"
# The host may be a container: its marker files would make systemd believe
# it runs in one too (and then ignore the kernel command line, systemd.unit=
# included). This guest is a VM.
rm -f /newroot/.dockerenv /newroot/run/.containerenv /newroot/run/systemd/container

# The payload, and the unit that runs the command. StandardOutput=tty on the
# console: systemd holds back its own status lines while the unit has it.
rm -rf /newroot/ioca /newroot/ioca-run
cp -a /ioca /newroot/ioca
cp -a /ioca-run /newroot/ioca-run
cp /bin/vmexit /newroot/ioca-run/vmexit
hostname ioca-vm
echo ioca-vm >/newroot/etc/hostname
u=/newroot/etc/systemd/system
mkdir -p "$u"
cat >"$u/ioca-vm.target" <<'UNIT'
[Unit]
Description=ioca test VM: the command's run
Requires=basic.target ioca-vm.service
After=basic.target ioca-vm.service
AllowIsolate=yes
UNIT
cat >"$u/ioca-vm.service" <<'UNIT'
[Unit]
Description=ioca test VM: the command (/ioca-run/cmd)
After=basic.target

[Service]
Type=oneshot
TimeoutStartSec=infinity
WorkingDirectory=/ioca
Environment=IOCA_VM=1 HOME=/root TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
StandardInput=null
StandardOutput=tty
StandardError=inherit
TTYPath=/dev/console
ExecStart=/bin/sh -c '/bin/sh /ioca-run/cmd; rc=$$?; echo; echo IOCA-VM-EXIT=$$rc; sync; /ioca-run/vmexit 0; systemctl poweroff --force --force'
UNIT
mount --move /dev /newroot/dev
umount /proc /sys
exec switch_root /newroot /lib/systemd/systemd
