#!/usr/bin/env bash
# libspec's exhaustive policy on ioca.ko's counter metric (found by `make
# vmtest`): builds ioca.ko and libspec/build/vm/policy_vm_test with its
# handler IR, boots scripts/vm/run.sh (QEMU TCG, -cpu Skylake-Client, so
# ioca.ko runs emulate=1 and counts its software fallback for the absent
# hardware events) with this machine's root shared read-only over 9p, and
# runs guest.sh there: the test runs chrooted into that root, with the
# host's libLLVM. What it checks: libspec/tests/vm/policy_vm_test.c.
# Prints the guest's TAP and "libspec-policy: N passed, M failed"; a guest
# that dies or runs fewer tests than it planned counts as a failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name=libspec-policy
# shellcheck source=scripts/vm/guestparts.sh
. "$root/scripts/vm/guestparts.sh"
vm_runner "$name"

vm_build "ioca.ko (KDIR $KDIR)" make --no-print-directory -C "$root/kmod"
vm_build "libspec's policy_vm_test" make --no-print-directory -C "$root/libspec" -j2 vmtest-policy-bin
# The test and its IR go in with the guest's files (this tree may be under
# /tmp, which the guest covers with a tmpfs); guest.sh copies them into the
# chroot.
test=$root/libspec/build/vm/policy_vm_test
ir=$root/libspec/build/vm/policy_vm_handler.ll

echo "=== $name boot: -cpu Skylake-Client -smp 2, the host's root over 9p"
start=$(date +%s)
# The test's searches take 10-30 s under TCG; the bound is for a loaded host.
"$run" --cpu Skylake-Client --smp 2 --mem 1024 --timeout 400 --append loglevel=4 \
	--share /:ioca-root --kmod virtio_pci --kmod 9pnet_virtio --kmod 9p \
	--file "$root/kmod/ioca.ko" --file "$here/guest.sh" \
	--file "$test:/ioca/policy_vm_test" --file "$ir:/ioca/policy_vm_handler.ll" \
	-- sh ./guest.sh | tee "$work/console"
rc=${PIPESTATUS[0]}
echo "$name: boot took $(($(date +%s) - start)) s"
"$root/scripts/vm/taptally.sh" "$name" "$work/console" "$rc"
