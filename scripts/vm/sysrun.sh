#!/usr/bin/env bash
# sysrun.sh: run one command in a QEMU guest whose PID 1 is systemd -- the
# host's own Debian systemd, over a read-only 9p view of the host's / with a
# tmpfs overlay on top (nothing the guest writes reaches the host; nothing
# is downloaded or built into an image). For tests of systemd units.
#
#   sysrun.sh [run.sh options] -- CMD [ARGS...]
#
# Takes run.sh's options (--cpu, --smp, --mem, --timeout, --file, --kmod,
# --append, ...) and returns as run.sh does: CMD's status, 124 on timeout,
# 125 when the guest ended without a status, 2 on a usage error. --mem
# defaults to 1024 here (systemd, journald and udevd need more than a
# busybox guest).
#
# In the guest CMD runs as the oneshot unit ioca-vm.service, after
# basic.target (journald, udevd, tmpfiles, ... are up), as root with cwd
# /ioca and IOCA_VM=1, stdout and stderr on the console. --file payload is
# where run.sh puts it (/ioca/<name> by default). The root filesystem is the
# host's, so dynamically linked host binaries run unchanged; anything to
# install goes there by copying (it lands in the overlay). The initramfs'
# /init is sysinit.sh (through rdinit=); run.sh's own init never runs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
run=${IOCA_VM_RUN:-$here/run.sh}

# run.sh keeps the last value of an option and appends every --append, so
# the caller's options after these win (--mem) or add (--append, --kmod).
exec "$run" --mem 1024 --share /:ioca-root \
	--kmod virtio_pci --kmod 9pnet_virtio --kmod 9p --kmod overlay \
	--file "$here/sysinit.sh:/ioca-run/sysinit" \
	--append "rdinit=/ioca-run/sysinit systemd.unit=ioca-vm.target systemd.show_status=error" \
	"$@"
