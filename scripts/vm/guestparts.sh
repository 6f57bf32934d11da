# shellcheck shell=bash
# guestparts.sh (sourced by the VM tests that run iocad's host path):
# guest_parts WORK [STATIC...] builds what such a guest boots with against
# KDIR: kmod/ioca.ko in the tree, resctrl_emu.ko in WORK/emu from a copy
# (the tree's objects may be another kernel's), and iocad's static
# binaries (build/iocad.static and build/iocactl.static, or the STATIC
# targets given). The build log is WORK/build.log. On a failure it shows
# the log's end and calls the caller's fail_all with what did not build.
guest_parts() {
	local work=$1 top
	shift
	local statics=("$@")
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	[ ${#statics[@]} -gt 0 ] || statics=(build/iocad.static build/iocactl.static)
	if ! make --no-print-directory -C "$top/kmod" >"$work/build.log" 2>&1 ||
		[ ! -f "$top/kmod/ioca.ko" ]; then
		tail -n 30 "$work/build.log"
		fail_all "ioca.ko does not build against $KDIR"
	fi
	mkdir -p "$work/emu"
	cp "$top"/selftests/resctrl_emu/Kbuild "$top"/selftests/resctrl_emu/*.[ch] "$work/emu/" ||
		fail_all "cannot copy selftests/resctrl_emu"
	if ! make -s -C "$KDIR" M="$work/emu" modules >>"$work/build.log" 2>&1 ||
		[ ! -f "$work/emu/resctrl_emu.ko" ]; then
		tail -n 30 "$work/build.log"
		fail_all "resctrl_emu.ko does not build against $KDIR"
	fi
	if ! make --no-print-directory -C "$top/iocad" -j2 "${statics[@]}" \
		>>"$work/build.log" 2>&1; then
		tail -n 30 "$work/build.log"
		fail_all "iocad's ${statics[*]} do not build"
	fi
}
