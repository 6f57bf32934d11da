#!/usr/bin/env bash
# The shipped iocad.service under a real systemd (found by `make vmtest`):
# builds ioca.ko and resctrl_emu.ko against KDIR and `make -C iocad
# install` into a staging tree, boots scripts/vm/sysrun.sh (systemd as PID
# 1 over a read-only view of this machine's root, QEMU TCG, a CPU without
# DDIO way control so ioca.ko runs emulate=1) and runs guest.sh there:
# systemctl start, reload (good and bad), kill -9 of the main PID, stop.
# Prints the guest's TAP and "iocad-systemd: N passed, M failed"; a guest
# that dies or runs fewer tests than it planned counts as a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
sysrun=$root/scripts/vm/sysrun.sh
# shellcheck source=scripts/vm/guestparts.sh
. "$root/scripts/vm/guestparts.sh"
vm_runner iocad-systemd

guest_modules "$work"
# What an operator installs, with the default paths the unit names; the
# guest's root is this machine's, so the dynamic binaries run there.
vm_build "make -C iocad install" make --no-print-directory -C "$root/iocad" -j2 install \
	DESTDIR="$work/dest"
# ioca.ko where the unit's `modprobe ioca` finds it: modules.dep for the
# guest's kernel made here (depmod over the installed tree, seconds) rather
# than in the guest (minutes under TCG); the guest copies mods/ into
# /lib/modules/<release>.
rel=$(basename "$KDIR")
rel=${rel#linux-headers-}
mods=$work/stage/lib/modules/$rel
mkdir -p "$mods/updates"
ln -s "/lib/modules/$rel/kernel" "$mods/kernel"
cp /lib/modules/"$rel"/modules.{order,builtin,builtin.modinfo} "$root/kmod/ioca.ko" "$mods/" ||
	fail_all "no /lib/modules/$rel to index ioca.ko with"
mv "$mods/ioca.ko" "$mods/updates/"
vm_build "modules.dep with ioca.ko (depmod)" depmod -b "$work/stage" "$rel"
rm "$mods/kernel"

echo "=== iocad-systemd boot: systemd as PID 1, -cpu Skylake-Client -smp 4"
# 25 intervals of waiting at most, plus systemd's boot: 5 min at load 9.
"$sysrun" --cpu Skylake-Client --smp 4 --timeout 900 --append loglevel=4 \
	--file "$work/dest" --file "$mods:/ioca/mods" --file "$work/emu/resctrl_emu.ko" \
	--file "$here/iocad-vm.ini" --file "$here/exposure_max" --file "$here/guest.sh" \
	--file "$root/scripts/vm/tap.sh" \
	-- sh ./guest.sh | tee "$work/console"
"$root/scripts/vm/taptally.sh" iocad-systemd "$work/console" "${PIPESTATUS[0]}"
