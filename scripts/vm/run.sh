#!/usr/bin/env bash
# run.sh: run one command as root in a throwaway QEMU guest and return its
# exit status. Interface (other parts of ioca depend on it; README.md here
# says the same with examples):
#
#   run.sh [--kernel IMG] [--modules-dir DIR] [--kmod NAME]... [--cpu MODEL]
#          [--smp N] [--sockets S] [--mem MB] [--timeout SEC] [--file HOST[:GUEST]]...
#          [--append ARGS] [--accel tcg|kvm|auto] [--share DIR:TAG]...
#          [--machine TYPE] [--device SPEC]... -- CMD [ARGS...]
#
#   --kernel IMG       bzImage to boot (default: the Debian vmlinuz whose
#                      release matches the headers scripts/kdir.sh picks)
#   --modules-dir DIR  lib/modules/<release> directory matching IMG
#                      (default: /lib/modules/<release> of the default kernel)
#   --kmod NAME        copy module NAME and every module it depends on (from
#                      DIR's modules.dep) into the guest, so `modprobe NAME`
#                      works there; NAME "all" copies the whole directory
#   --cpu MODEL        QEMU -cpu string (default max), e.g. Skylake-Server
#                      or Skylake-Server,model=1 (family 6 model 0x55)
#   --smp N, --mem MB  guest CPUs (default 2) and memory (default 512)
#   --sockets S        spread the N CPUs over S packages (sockets), N/S cores
#                      each, one thread per core; N must be a multiple of S
#                      (default 1: QEMU's own choice, one package)
#   --timeout SEC      kill the guest after SEC seconds (default 300)
#   --file HOST[:GUEST] copy a file or directory into the guest; GUEST
#                      defaults to /ioca/<name>; a relative GUEST is under
#                      /ioca, one ending in / gets <name> appended
#   --append ARGS      extra kernel command line (later words win, e.g.
#                      loglevel=7 to see every printk on the console)
#   --accel MODE       tcg (default), kvm, or auto: kvm only if a bounded
#                      probe boot succeeded once on this host (cached)
#   --share DIR:TAG    export host directory DIR read-only to the guest over
#                      9p (virtio) as mount tag TAG; the guest mounts it with
#                      `mount -t 9p -o trans=virtio,version=9p2000.L TAG PATH`
#                      after loading 9pnet_virtio and 9p (--kmod)
#   --machine TYPE     QEMU -M (default pc); q35 for PCIe root ports
#   --device SPEC      one more QEMU -device, e.g. pcie-root-port,id=rp0,chassis=1
#
# The guest runs CMD with cwd /ioca, as a child of /bin/sh under init, with
# proc, sysfs, devtmpfs, debugfs and a tmpfs /tmp mounted and loopback up.
# uid 1000 is the unprivileged user "ioca"; `runas UID[:GID] CMD...` drops
# to it. The serial console is streamed to stdout (carriage returns
# stripped); run.sh's own messages go to stderr, prefixed "run.sh:".
#
# Environment: IOCA_VM_KERNEL and IOCA_VM_MODULES_DIR are the defaults of
# --kernel and --modules-dir (so a test script run unchanged boots another
# kernel, e.g. the debug kernel of `make check-debug`); IOCA_VM_APPEND is
# added after every --append (it wins, e.g. loglevel=7 to put every checker
# report on the console); IOCA_VM_SLOWDOWN=N multiplies --timeout and the
# boot watchdog by N for a kernel N times slower (KASAN and lockdep).
#
# Exit status: CMD's status, read from the "IOCA-VM-EXIT=<n>" line init
# prints; 124 if the guest was killed at --timeout; 125 if the guest ended
# without reporting a status (panic, crash) or QEMU could not start; 2 for a
# usage error. On 124 and 125 the last 30 console lines are repeated on
# stderr.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prog=run.sh

die() { # status message
	echo "$prog: $2" >&2
	exit "$1"
}

kernel=${IOCA_VM_KERNEL:-} moddir=${IOCA_VM_MODULES_DIR:-} cpu=max smp=2 sockets=1 mem=512 timeout=300 append=''
accel=${IOCA_VM_ACCEL:-tcg}
files=() kmods=() shares=() devices=() machine=pc
while [ $# -gt 0 ]; do
	case $1 in
	--kernel | --modules-dir | --kmod | --cpu | --smp | --sockets | --mem | \
		--timeout | --file | --append | --accel | --share | --machine | --device)
		[ $# -ge 2 ] || die 2 "$1 needs a value"
		case $1 in
		--kernel) kernel=$2 ;;
		--modules-dir) moddir=${2%/} ;;
		--kmod) kmods+=("$2") ;;
		--cpu) cpu=$2 ;;
		--smp) smp=$2 ;;
		--sockets) sockets=$2 ;;
		--mem) mem=$2 ;;
		--timeout) timeout=$2 ;;
		--file) files+=("$2") ;;
		--append) append="$append $2" ;;
		--accel) accel=$2 ;;
		--share) shares+=("$2") ;;
		--machine) machine=$2 ;;
		--device) devices+=(-device "$2") ;;
		esac
		shift 2
		;;
	--) shift && break ;;
	-h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' && exit 0 ;;
	*) die 2 "unknown option '$1' (see --help)" ;;
	esac
done
[ $# -gt 0 ] || die 2 "no command given (run.sh [OPTIONS] -- CMD [ARGS...])"
for v in smp sockets mem timeout; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die 2 "--$v '${!v}' is not a positive integer"
done
[ $((smp % sockets)) -eq 0 ] || die 2 "--smp $smp is not a multiple of --sockets $sockets"
smp_arg=$smp
[ "$sockets" -eq 1 ] || smp_arg="$smp,sockets=$sockets,cores=$((smp / sockets)),threads=1"
case $accel in tcg | kvm | auto) ;; *) die 2 "--accel '$accel': want tcg, kvm or auto" ;; esac
qemu_shares=()
for s in "${shares[@]}"; do
	[[ $s =~ ^([^:,]+):([A-Za-z0-9_-]+)$ ]] || die 2 "--share '$s': want DIR:TAG (no commas in DIR)"
	[ -d "${BASH_REMATCH[1]}" ] || die 2 "--share '$s': '${BASH_REMATCH[1]}' is not a directory"
	# multidevs=remap: DIR may span several host filesystems, whose inode
	# numbers would otherwise collide in the guest.
	qemu_shares+=(-virtfs "local,path=${BASH_REMATCH[1]},mount_tag=${BASH_REMATCH[2]},security_model=none,readonly=on,multidevs=remap")
done
slowdown=${IOCA_VM_SLOWDOWN:-1}
[[ $slowdown =~ ^[1-9][0-9]*$ ]] || die 2 "IOCA_VM_SLOWDOWN '$slowdown' is not a positive integer"
timeout=$((timeout * slowdown))

if [ -z "${IOCA_CACHE:-}" ]; then
	if mkdir -p /var/cache/ioca 2>/dev/null && [ -w /var/cache/ioca ]; then
		IOCA_CACHE=/var/cache/ioca
	else
		IOCA_CACHE=$HOME/.cache/ioca
	fi
fi
export IOCA_CACHE
cache=$IOCA_CACHE/vm
mkdir -p "$cache" || die 125 "cannot create $cache"

# --- kernel and modules -------------------------------------------------
release=''
if [ -z "$kernel" ]; then
	kdir=${KDIR:-$("$here/../kdir.sh")}
	release=$(basename "$kdir")
	release=${release#linux-headers-}
	kernel=/boot/vmlinuz-$release
	[ -r "$kernel" ] || die 125 "no $kernel for the headers in '$kdir'" \
		"(install linux-image-amd64, or pass --kernel)"
	[ -n "$moddir" ] || moddir=/lib/modules/$release
fi
[ -r "$kernel" ] || die 2 "--kernel '$kernel': not a readable file"
if [ -n "$moddir" ]; then
	[ -f "$moddir/modules.dep" ] || [ ${#kmods[@]} -eq 0 ] ||
		die 2 "--modules-dir '$moddir': no modules.dep there"
	release=$(basename "$moddir")
fi
[ ${#kmods[@]} -eq 0 ] || [ -n "$moddir" ] || die 2 "--kmod needs --modules-dir"

work=$(mktemp -d "${TMPDIR:-/tmp}/ioca-vm.XXXXXX") || die 125 "mktemp failed"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# --- base initramfs: busybox, init, helpers (cached by content) ---------
build_helper() { # name -> static binary in $1
	${CC:-gcc} -std=c11 -Wall -Wextra -Werror -Os -static -o "$2" "$here/$1.c" ||
		die 125 "cannot build the static guest helper $1 (need gcc and libc6-dev)"
}

base_image() {
	local busybox key img tmp root a
	busybox=$(command -v busybox) || die 125 "busybox not found (install busybox-static)"
	file -L "$busybox" 2>/dev/null | grep -q 'dynamically linked' &&
		die 125 "$busybox is dynamically linked (install busybox-static)"
	key=$(cat "$busybox" "$here/init.sh" "$here"/vmexit.[ch] "$here"/runas.[ch] \
		"$0" | sha256sum | cut -c1-12)
	img=$cache/base-$key.cpio.gz
	if [ ! -f "$img" ]; then
		exec 8>"$cache/.base.lock"
		flock 8
		if [ ! -f "$img" ]; then
			root=$work/base
			mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,root,ioca,run,lib/modules}
			cp "$busybox" "$root/bin/busybox"
			for a in $("$busybox" --list); do
				[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
			done
			build_helper vmexit "$root/bin/vmexit"
			build_helper runas "$root/bin/runas"
			cp "$here/init.sh" "$root/init"
			chmod 755 "$root/init"
			printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
				'ioca:x:1000:1000:unprivileged test user:/tmp:/bin/sh' \
				'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' >"$root/etc/passwd"
			printf '%s\n' 'root:x:0:' 'ioca:x:1000:' 'nogroup:x:65534:' >"$root/etc/group"
			tmp=$(mktemp "$cache/.base.XXXXXX")
			(cd "$root" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) |
				gzip -6 >"$tmp" || die 125 "cannot build the base initramfs"
			# The per-run archive appended after this one must start on a
			# 4-byte boundary; the kernel skips zero padding between archives.
			truncate -s $((($(stat -c %s "$tmp") + 3) / 4 * 4)) "$tmp"
			mv "$tmp" "$img"
			rm -rf "$root"
			# Images of older run.sh/busybox versions; an hour's grace
			# for runs that may still be reading one.
			find "$cache" -maxdepth 1 -name 'base-*.cpio.gz' ! -path "$img" \
				-mmin +60 -delete
		fi
		exec 8>&-
	fi
	echo "$img"
}

# --- per-run archive: command, files, modules ---------------------------
quote_words() {
	local a out=''
	for a in "$@"; do
		out+=" '${a//\'/\'\\\'\'}'"
	done
	echo "${out# }"
}

add_file() { # HOST[:GUEST]
	local host=${1%%:*} guest dst
	guest=${1#"$host"}
	guest=${guest#:}
	[ -e "$host" ] || die 2 "--file '$1': '$host' does not exist"
	case $guest in
	'') guest=/ioca/$(basename "$host") ;;
	*/) guest=$guest$(basename "$host") ;;
	esac
	case $guest in /*) ;; *) guest=/ioca/$guest ;; esac
	dst=$work/run$guest
	mkdir -p "$(dirname "$dst")"
	cp -RLp "$host" "$dst" || die 2 "--file '$1': copy failed"
}

add_kmods() {
	local gdir=$work/run/lib/modules/$release name n line path
	mkdir -p "$gdir"
	: >"$gdir/modules.dep"
	for f in modules.builtin modules.order; do
		[ -f "$moddir/$f" ] && cp "$moddir/$f" "$gdir/"
	done
	for name in "${kmods[@]}"; do
		if [ "$name" = all ]; then
			cp -R "$moddir/." "$gdir/" || die 125 "cannot copy $moddir"
			continue
		fi
		n=${name//-/_}
		line=$(awk -F: -v n="$n" '{ b = $1; sub(/.*\//, "", b); sub(/\.ko.*/, "", b);
			gsub(/-/, "_", b); if (b == n) { print; exit } }' "$moddir/modules.dep")
		[ -n "$line" ] || die 2 "--kmod '$name': not in $moddir/modules.dep"
		grep -qxF "$line" "$gdir/modules.dep" || echo "$line" >>"$gdir/modules.dep"
		for path in ${line/:/ }; do
			[ -f "$gdir/$path" ] && continue
			mkdir -p "$(dirname "$gdir/$path")"
			cp "$moddir/$path" "$gdir/$path" || die 125 "cannot copy $moddir/$path"
			# A dependency needs its own modules.dep line for modprobe.
			grep -q "^$path:" "$gdir/modules.dep" ||
				grep "^$path:" "$moddir/modules.dep" >>"$gdir/modules.dep"
		done
	done
}

run_image() {
	local f
	mkdir -p "$work/run/ioca-run" "$work/run/ioca"
	quote_words "$@" >"$work/run/ioca-run/cmd"
	for f in "${files[@]}"; do
		add_file "$f"
	done
	[ ${#kmods[@]} -eq 0 ] || add_kmods
	(cd "$work/run" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) \
		>"$work/run.cpio" || die 125 "cannot build the per-run initramfs"
}

# --- KVM: only after a bounded probe proved it works (cached per host) --
resolve_accel() {
	local probe pid result i
	probe=$cache/kvm-probe-$(uname -r)
	[ "$accel" = auto ] || return 0
	accel=tcg
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 0
	if [ ! -f "$probe" ]; then
		echo "$prog: probing KVM once on this host (30 s bound)" >&2
		# In the background and polled: a QEMU stuck inside KVM may not
		# even die on SIGKILL, and the probe must not hang this run.
		IOCA_VM_ACCEL=kvm "$0" --kernel "$kernel" --accel kvm --timeout 20 \
			-- true >/dev/null 2>&1 &
		pid=$!
		result=broken
		for ((i = 0; i < 30; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 1
		done
		if kill -0 "$pid" 2>/dev/null; then
			kill -9 "$pid" 2>/dev/null
		elif wait "$pid"; then
			result=ok
		fi
		echo "$result" >"$probe"
		echo "$prog: KVM probe: $result (cached in $probe)" >&2
	fi
	[ "$(cat "$probe")" = ok ] && accel=kvm
	return 0
}

tail_console() {
	echo "$prog: last 30 console lines:" >&2
	tail -n 30 "$work/console" | sed 's/^/    | /' >&2
	[ -s "$work/console" ] || echo "    (the console printed nothing)" >&2
}

base=$(base_image) || exit $?
run_image "$@"
cat "$base" "$work/run.cpio" >"$work/initrd"
resolve_accel

cmdline="console=ttyS0,115200 rdinit=/init panic=-1 oops=panic quiet loglevel=4"
# no_timer_check: a TCG vCPU starved by a loaded host can miss the IO-APIC
# timer check's few ticks, and the kernel then panics at boot ("IO-APIC +
# timer doesn't work!", seen under check-debug at load 15)
cmdline+=" mitigations=off tsc=reliable no_timer_check$append${IOCA_VM_APPEND:+ $IOCA_VM_APPEND}"
# One boot. A watchdog ends a guest that has not reached /init (the
# IOCA-VM-INIT line) within $boot_limit s: under TCG a boot on a loaded host
# takes up to ~90 s, and a rare one never finishes; that is the emulator, not
# the command, so run.sh retries it once instead of failing the test.
boot_limit=$((${IOCA_VM_BOOT_TIMEOUT:-150} * slowdown))
boot_once() {
	local waited=0
	rm -f "$work/qemu.pid" "$work/qstatus" "$work/boot-hang"
	: >"$work/console"
	(
		timeout -k 5 "$timeout" qemu-system-x86_64 -accel "$accel" -M "$machine" -cpu "$cpu" \
			-smp "$smp_arg" -m "$mem" -nodefaults -display none -no-reboot \
			-serial stdio -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
			-pidfile "$work/qemu.pid" -kernel "$kernel" -initrd "$work/initrd" "${qemu_shares[@]}" \
			"${devices[@]}" \
			-append "$cmdline" </dev/null 2>"$work/qemu.err" |
			sed -u 's/\r$//' | tee "$work/console"
		echo "${PIPESTATUS[0]}" >"$work/qstatus"
	) &
	local pipe=$!
	while kill -0 "$pipe" 2>/dev/null; do
		if [ "$boot_limit" -lt "$timeout" ] && [ "$waited" -ge "$boot_limit" ] &&
			! grep -q '^IOCA-VM-INIT$' "$work/console"; then
			touch "$work/boot-hang"
			kill "$(cat "$work/qemu.pid" 2>/dev/null)" 2>/dev/null
			break
		fi
		grep -q '^IOCA-VM-INIT$' "$work/console" && break
		sleep 1
		waited=$((waited + 1))
	done
	wait "$pipe"
	qstatus=$(cat "$work/qstatus" 2>/dev/null || echo 125)
}

for try in 1 2; do
	start=$(date +%s.%N)
	boot_once
	[ -f "$work/boot-hang" ] || break
	echo "$prog: guest did not reach /init within $boot_limit s (TCG boot hang, try $try)" >&2
	tail_console
done
[ -f "$work/boot-hang" ] && echo "$prog: FAIL: two boot hangs; command: $*" >&2 && exit 124
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
# QEMU warns once per CPUID bit TCG cannot emulate; that is expected noise.
grep -v "TCG doesn't support requested feature" "$work/qemu.err" >&2

if [ "$qstatus" -eq 124 ] || [ "$qstatus" -eq 137 ]; then
	echo "$prog: FAIL: guest timed out after $timeout s (killed); command: $*" >&2
	status=$(sed -nE 's/^IOCA-VM-EXIT=([0-9]+)$/\1/p' "$work/console" | tail -n 1)
	[ -z "$status" ] || echo "$prog: the command had exited with $status; the VM did not stop" >&2
	tail_console
	exit 124
fi
status=$(sed -nE 's/^IOCA-VM-EXIT=([0-9]+)$/\1/p' "$work/console" | tail -n 1)
if [ -z "$status" ]; then
	echo "$prog: FAIL: guest ended without an exit status (QEMU status $qstatus," \
		"kernel panic?); command: $*" >&2
	tail_console
	exit 125
fi
printf '%s: guest exited with status %s after %.1f s\n' "$prog" "$status" "$elapsed" >&2
exit "$status"
