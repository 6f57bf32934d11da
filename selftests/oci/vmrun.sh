#!/usr/bin/env bash
# Host side of the OCI-runtime test (found by `make vmtest`): a real OCI
# runtime from Debian runs a busybox container whose config.json names
# iocad's tenant class in linux.intelRdt.closID, in a VM with ioca.ko
# (emulate=1) and the resctrl emulation (selftests/resctrl_emu). The guest
# (guest_oci.sh) checks that the container's task lands in that resctrl
# group, that iocad's masks reach the group's schemata and nothing else of
# it (rdt_class), that the container's cgroup is followed as a tenant
# (cgroup = PATH) when the runtime changes its cpuset, and that drop-in
# tenant files join, are refused and leave while iocad runs.
#
# The runtime is runc: Debian 12's crun (1.8.1) parses intelRdt but has no
# code that applies it (later releases do); the guest runs crun
# once as well and reports what it does as a TAP comment, not a check.
# Both runtimes and their shared libraries are copied into the guest.
# Prints the guest's TAP and "oci-vm: N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
run=${IOCA_VM_RUN:-$root/scripts/vm/run.sh}
KDIR=${KDIR:-$("$root/scripts/kdir.sh")}
export KDIR
work=$(mktemp -d "${TMPDIR:-/tmp}/oci-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail_all() {
	echo "oci-vm: $1"
	echo "oci-vm: 0 passed, 1 failed"
	exit 1
}

runc=$(command -v runc) || fail_all "runc is not installed (scripts/deps.sh installs it)"
crun=$(command -v crun || true)
busybox=/bin/busybox
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	fail_all "$busybox is not a static busybox (busybox-static)"

if ! make --no-print-directory -C "$root/kmod" >"$work/build.log" 2>&1 ||
	[ ! -f "$root/kmod/ioca.ko" ]; then
	tail -n 30 "$work/build.log"
	fail_all "ioca.ko does not build against $KDIR"
fi
mkdir -p "$work/emu"
cp "$root"/selftests/resctrl_emu/Kbuild "$root"/selftests/resctrl_emu/*.[ch] "$work/emu/" ||
	fail_all "cannot copy selftests/resctrl_emu"
if ! make -s -C "$KDIR" M="$work/emu" modules >>"$work/build.log" 2>&1 ||
	[ ! -f "$work/emu/resctrl_emu.ko" ]; then
	tail -n 30 "$work/build.log"
	fail_all "resctrl_emu.ko does not build against $KDIR"
fi
if ! make --no-print-directory -C "$root/iocad" -j2 build/iocad.static build/iocactl.static \
	>>"$work/build.log" 2>&1; then
	tail -n 30 "$work/build.log"
	fail_all "iocad/build/iocad.static or iocactl.static does not build"
fi

# The runtimes and every shared library they load, at the same paths.
files=(--file "$runc:/ioca/runc" --file "$busybox:/ioca/busybox-ctr")
[ -n "$crun" ] && files+=(--file "$crun:/ioca/crun")
for lib in $(ldd "$runc" ${crun:+"$crun"} | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }' |
	sort -u); do
	files+=(--file "$lib:$lib")
done

"$run" --cpu Skylake-Client --smp 4 --mem 512 --timeout 300 --append loglevel=2 \
	--file "$root/kmod/ioca.ko" --file "$work/emu/resctrl_emu.ko" \
	--file "$root/iocad/build/iocad.static:/ioca/iocad" \
	--file "$root/iocad/build/iocactl.static:/ioca/iocactl" \
	"${files[@]}" --file "$here/guest_oci.sh" -- sh ./guest_oci.sh | tee "$work/out"
rc=${PIPESTATUS[0]}
p=$(grep -cE '^ok [0-9]+ ' "$work/out")
f=$(grep -cE '^not ok [0-9]+ ' "$work/out")
plan=$(sed -nE 's/^1\.\.([0-9]+)$/\1/p' "$work/out" | tail -n 1)
if [ -z "$plan" ] || [ "$plan" -ne $((p + f)) ]; then
	echo "oci-vm: planned '${plan:-nothing}' tests, reported $((p + f))"
	f=$((f + 1))
elif [ "$rc" -ne "$((f > 125 ? 125 : f))" ]; then
	echo "oci-vm: the guest exited $rc with $f failure(s) reported"
	f=$((f + 1))
fi
echo "oci-vm: $p passed, $f failed"
[ "$f" -eq 0 ] && [ "$p" -gt 0 ]
