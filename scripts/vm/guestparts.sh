# shellcheck shell=bash disable=SC2034,SC2317 # run, guest_files: the caller's; fail_all: called by them
# guestparts.sh, sourced by the host side of the VM tests (selftests/*/vmrun.sh):
#
# vm_runner NAME sets up a runner that reports as NAME: $run (the VM runner,
# IOCA_VM_RUN or scripts/vm/run.sh), KDIR (exported), $work (a temporary
# directory removed at exit) and fail_all WHY, which prints WHY and
# "NAME: 0 passed, 1 failed" and exits 1.
#
# vm_build WHAT COMMAND... runs COMMAND with its output appended to
# $work/build.log; if it fails, shows the log's end and calls fail_all
# "WHAT does not build".
#
# guest_emu WORK builds resctrl_emu.ko in WORK/emu from a copy (the tree's
# objects may be another kernel's) against KDIR.
#
# guest_modules WORK builds kmod/ioca.ko in the tree and, as guest_emu,
# resctrl_emu.ko in WORK/emu, both against KDIR.
#
# guest_parts WORK [STATIC...] builds what a guest running iocad's host path
# boots with: guest_modules' and iocad's static binaries
# (build/iocad.static and build/iocactl.static, or the STATIC targets
# given). It sets guest_files, the run.sh --file options that put ioca.ko,
# resctrl_emu.ko, iocad and iocactl into the guest's /ioca. The build log
# is WORK/build.log; on a failure it shows the log's end and calls the
# caller's fail_all with what did not build.
guest_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

vm_runner() {
	vm_name=$1
	run=${IOCA_VM_RUN:-$guest_top/scripts/vm/run.sh}
	KDIR=${KDIR:-$("$guest_top/scripts/kdir.sh")}
	export KDIR
	work=$(mktemp -d "${TMPDIR:-/tmp}/$vm_name.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	fail_all() {
		echo "$vm_name: $1"
		echo "$vm_name: 0 passed, 1 failed"
		exit 1
	}
}

vm_build() {
	local what=$1
	shift
	if ! "$@" >>"$work/build.log" 2>&1; then
		tail -n 30 "$work/build.log"
		fail_all "$what does not build"
	fi
}

guest_emu() {
	local work=$1
	mkdir -p "$work/emu"
	cp "$guest_top"/selftests/resctrl_emu/Kbuild "$guest_top"/selftests/resctrl_emu/*.[ch] \
		"$work/emu/" || fail_all "cannot copy selftests/resctrl_emu"
	vm_build "resctrl_emu.ko (KDIR $KDIR)" make -s -C "$KDIR" M="$work/emu" modules
	[ -f "$work/emu/resctrl_emu.ko" ] || fail_all "resctrl_emu.ko is not there after its build"
}

guest_modules() {
	local work=$1
	vm_build "ioca.ko (KDIR $KDIR)" make --no-print-directory -C "$guest_top/kmod"
	[ -f "$guest_top/kmod/ioca.ko" ] || fail_all "ioca.ko is not there after its build"
	guest_emu "$work"
}

guest_parts() {
	local work=$1
	shift
	local statics=("$@")
	[ ${#statics[@]} -gt 0 ] || statics=(build/iocad.static build/iocactl.static)
	guest_modules "$work"
	vm_build "iocad's ${statics[*]}" make --no-print-directory -C "$guest_top/iocad" -j2 \
		"${statics[@]}"
	guest_files=(--file "$guest_top/kmod/ioca.ko" --file "$work/emu/resctrl_emu.ko"
		--file "$guest_top/iocad/build/iocad.static:/ioca/iocad"
		--file "$guest_top/iocad/build/iocactl.static:/ioca/iocactl")
}
