#!/usr/bin/env bash
# The packages as a user gets them: builds them with
# `make deb`'s script, installs them on this machine with apt, lets DKMS
# build ioca.ko against the installed Debian kernel's headers (the kernel
# the test VM boots) on install and again through the hook a kernel
# upgrade runs, boots that kernel in QEMU with the DKMS-built module
# and runs the packaged iocactl and a libioca-dev client against it, checks
# libspec-dev's spec-cc, headers and pkg-config file on the host, then
# purges everything and checks nothing is left under /usr, /etc,
# /lib/modules or /var/lib/dkms.
#
# Upgrades and removal under a real systemd: the same script builds the
# next version (VERSION+1, in the background while DKMS builds;
# incrementally, in a copy of the first build's tree, where only what has
# the version in is rebuilt: build.sh's DEB_FROM) and boots
# the kernel again with systemd as PID 1 over this machine's root
# (scripts/vm/sysrun.sh, its writes kept in the guest), where
# upgrade_guest.sh runs iocad's first-install postinst, sets the node up as
# the Kubernetes README says, runs iocad on a tenant config beside a
# foreign resctrl group and upgrades, removes and purges it, checking each
# step (resctrl_emu.ko stands in for resctrl).
#
# The machine must be left as it was found: the test refuses to start when
# any ioca package is installed already, refuses to install when apt would
# pull in another package (scripts/deps.sh installs them all), and purges
# what it installed whatever happened in between. Needs root (apt, DKMS):
# not root, it runs itself under passwordless sudo.
# Prints "ok - "/"not ok - " lines and "deb: N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/tap.sh disable=SC2154 # pass, fail: tap.sh's counters
. "$root/scripts/tap.sh"
pkgs=(ioca-dkms iocad libioca0 libioca-dev libspec1 libspec-dev)
apt=(apt-get -o DPkg::Lock::Timeout=900 -y -q --no-install-recommends)
start=$(date +%s)

finish() {
	echo "deb: finished in $(($(date +%s) - start)) s"
	echo "deb: $pass passed, $fail failed"
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
	exit
}
# As deps.sh does: root, else passwordless sudo, else a failure that says so.
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null && sudo -n true 2>/dev/null && exec sudo -n "$0" "$@"
	notok "the package test needs root or passwordless sudo (apt, dpkg, DKMS)"
	finish
fi

work=$(mktemp -d /tmp/ioca-deb-test.XXXXXX)
installed=0
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -z "${next_pid:-}" ] || kill "$next_pid" 2>/dev/null
	[ -z "${emu_pid:-}" ] || kill "$emu_pid" 2>/dev/null
	if [ "$installed" = 1 ]; then
		echo "deb: purging the ioca packages"
		DEBIAN_FRONTEND=noninteractive "${apt[@]}" purge "${pkgs[@]}" >"$work/purge" 2>&1 ||
			sed 's/^/    | /' "$work/purge"
		drop_new_keys
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Two runs at once would purge each other's packages.
mkdir -p "${IOCA_CACHE:-/var/cache/ioca}"
exec 9>"${IOCA_CACHE:-/var/cache/ioca}/deb-test.lock"
flock 9

present=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${pkgs[@]}" 2>/dev/null |
	awk '$2 !~ /^[up]n/ { print $1 }' | xargs)
if [ -n "$present" ]; then
	notok "no ioca package is installed before the test (found: $present; purge them first)"
	finish
fi

# --- build ---------------------------------------------------------------
# build.sh's DEB_FROM checks, with a stub dpkg-buildpackage (seconds).
while IFS= read -r line; do
	case $line in
	"ok - "*) ok "${line#ok - }" ;;
	"not ok - "*) notok "${line#not ok - }" ;;
	*) echo "    | $line" ;;
	esac
done < <("$here/build_from_test.sh" 2>&1)
t0=$(date +%s)
if DEB_JOBS=2 "$root/scripts/deb/build.sh" >"$work/build" 2>&1; then
	ok "make deb builds the packages, lintian clean, in $(($(date +%s) - t0)) s"
else
	sed 's/^/    | /' "$work/build" | tail -n 40
	notok "make deb builds the packages, lintian clean"
	finish
fi
version=$(cat "$root/VERSION")
next=$version+1
# The version to upgrade to, built while this one installs, from the first
# build's objects (lintian ran on the same sources above; maintscripts.sh
# runs on this iocad package too).
DEB_JOBS=2 DEB_LINTIAN=0 DEB_ARCH_ONLY=1 DEB_OUT=$work/next DEB_VERSION=$next \
	DEB_FROM=$root/build/deb/src "$root/scripts/deb/build.sh" >"$work/build-next" 2>&1 &
next_pid=$!
next_t0=$(date +%s)
debs=()
for p in "${pkgs[@]}"; do
	f=$(ls "$root"/build/deb/"${p}"_"${version}"_*.deb 2>/dev/null)
	if [ -f "$f" ]; then debs+=("$f"); else notok "package $p ${version} was built"; fi
done
[ ${#debs[@]} -eq ${#pkgs[@]} ] || finish

# What may be left behind: names that are ours anywhere in the packaged
# trees, and the whole of the module and DKMS trees (an empty updates/dkms
# directory counts). modules.dep by content: purging must undo depmod.
# kdir.sh may name /lib/modules/<release>/build, a link to the headers.
kdir=$(readlink -f "$("$root/scripts/kdir.sh")")
rel=${kdir##*/}
rel=${rel#linux-headers-}
if [ -z "$rel" ] || [ ! -d "/lib/modules/$rel" ]; then
	notok "a Debian kernel with headers (linux-image-amd64, linux-headers-amd64; kdir: '$kdir')"
	finish
fi
snapshot() {
	{
		find /usr /etc -xdev \( -iname '*ioca*' -o -name '*libspec*' -o -name 'spec-cc*' \) \
			2>/dev/null
		find "/lib/modules/$rel" /var/lib/dkms 2>/dev/null
		sha256sum "/lib/modules/$rel/modules.dep"
	} | sort
}
snapshot >"$work/before"
# DKMS makes itself a module signing key on its first build; that is
# DKMS's, not ioca's, but a key this run made goes with it.
drop_new_keys() {
	local k
	for k in /var/lib/dkms/mok.key /var/lib/dkms/mok.pub; do
		if [ -e "$k" ] && ! grep -qxF "$k" "$work/before"; then
			echo "deb: removing $k, made by DKMS during this run"
			rm -f "$k"
		fi
	done
}

# --- install ---------------------------------------------------------------
"${apt[@]}" -s install "${debs[@]}" >"$work/sim" 2>&1
extra=$(sed -nE 's/^Inst ([^ ]+) .*/\1/p' "$work/sim" | grep -vxF -f <(printf '%s\n' "${pkgs[@]}") | xargs)
if [ -n "$extra" ] || ! grep -q '^Inst ' "$work/sim"; then
	sed 's/^/    | /' "$work/sim" | tail -n 20
	notok "apt would install only the ioca packages (also: ${extra:-?}; add them to scripts/deps.sh)"
	finish
fi
ok "apt would install only the ioca packages (their dependencies are in scripts/deps.sh)"

t0=$(date +%s)
installed=1
if DEBIAN_FRONTEND=noninteractive "${apt[@]}" install "${debs[@]}" >"$work/install" 2>&1; then
	ok "apt installs the six packages in $(($(date +%s) - t0)) s"
else
	sed 's/^/    | /' "$work/install" | tail -n 40
	notok "apt installs the six packages"
	finish
fi
grep -E '^(Building (for|initial)|Loading new|Error|.*DKMS)' "$work/install" | sed 's/^/    | /'

# --- DKMS ------------------------------------------------------------------
# built_for: ioca/VERSION is installed for $rel, modules.dep finds it under
# updates/dkms/ (set in $modpath) and it was built for $rel.
built_for() {
	modpath=$(awk -F: '$1 ~ /(^|\/)ioca\.ko(\.[a-z]+)?$/ { print $1; exit }' \
		"/lib/modules/$rel/modules.dep")
	dkms status -m ioca -v "$version" -k "$rel" 2>&1 | grep -q ': installed' &&
		[[ $modpath == updates/dkms/* ]] &&
		[ "$(modinfo -F vermagic "/lib/modules/$rel/$modpath" | cut -d' ' -f1)" = "$rel" ]
}
# The package's postinst builds for the running kernel and the kernels in
# /lib/modules (a CI host runs another kernel than the one the VM boots).
if built_for; then
	ok "the package's postinst had DKMS build ioca/$version for $rel ($modpath)"
	# A kernel installed later: the module is added but not built for it
	# until the hook a kernel package runs does it.
	dkms unbuild -m ioca -v "$version" -k "$rel" >"$work/unbuild" 2>&1
	if built_for || [ -n "$modpath" ]; then
		sed 's/^/    | /' "$work/unbuild"
		notok "dkms unbuild takes ioca out of $rel (modules.dep: '${modpath:-none}')"
		finish
	fi
else
	echo "deb: the postinst did not build for $rel; the kernel hook will"
fi
t0=$(date +%s)
/etc/kernel/postinst.d/dkms "$rel" >"$work/hook" 2>&1
if built_for; then
	ok "the kernel hook (/etc/kernel/postinst.d/dkms) has DKMS build it for $rel in $(($(date +%s) - t0)) s"
else
	sed 's/^/    | /' "$work/hook" | tail -n 40
	dkms status 2>&1 | sed 's/^/    | /'
	notok "the kernel hook has DKMS build ioca/$version for $rel (modules.dep: '${modpath:-none}')"
	finish
fi

# --- what the packages hold, on the host -------------------------------------
if dpkg-query -W -f='${Conffiles}\n' iocad | grep -q '^ /etc/ioca/iocad.ini ' &&
	[ ! -e /etc/systemd/system/multi-user.target.wants/iocad.service ] &&
	[ -f /lib/systemd/system/iocad.service ] &&
	grep -q '^ExecStart=/usr/bin/iocad ' /lib/systemd/system/iocad.service; then
	ok "iocad: /etc/ioca/iocad.ini is a conffile; the unit runs /usr/bin/iocad and is not enabled"
else
	notok "iocad: /etc/ioca/iocad.ini is a conffile; the unit runs /usr/bin/iocad and is not enabled"
fi
# The packaged daemon on the simulator, with an example the README runs.
ex=$root/examples/iocad/fig7a-aggregation
if /usr/bin/iocad --sim "$ex.scn" "$ex.ini" --intervals 5 --quiet --trace "$work/trace.csv" \
	>"$work/iocad" 2>&1 && [ "$(grep -c '^[0-9]' "$work/trace.csv")" -eq 5 ]; then
	ok "the packaged iocad runs 5 intervals on the simulator and traces them"
else
	sed 's/^/    | /' "$work/iocad" "$work/trace.csv" 2>/dev/null | tail -n 20
	notok "the packaged iocad runs 5 intervals on the simulator and traces them"
fi
# Each tool names the packaged version; the packaged iocactl, without the
# module here, points at modprobe (DKMS's module), not a checkout's insmod.
vers=$(for t in iocad iocactl spec-cc; do "/usr/bin/$t" --version 2>&1 | head -n 1; done)
if [ "$(grep -c -- " $version" <<<"$vers")" -eq 3 ]; then
	ok "iocad, iocactl and spec-cc --version say $version"
else
	sed 's/^/    | /' <<<"$vers"
	notok "iocad, iocactl and spec-cc --version say $version"
fi
hint=$(/usr/bin/iocactl info 2>&1)
if [ -d /sys/module/ioca ] || grep -q 'ioca.ko is not loaded (modprobe ioca' <<<"$hint"; then
	ok "the packaged iocactl's hint without the module is modprobe ioca"
else
	sed 's/^/    | /' <<<"$hint"
	notok "the packaged iocactl's hint without the module is modprobe ioca"
fi
missing=''
for m in iocad.8 iocactl.8 iocad.ini.5 spec-cc.1; do
	[ -f "/usr/share/man/man${m##*.}/$m.gz" ] || missing+=" $m"
done
if [ -z "$missing" ]; then
	ok "man pages of iocad, iocactl, iocad.ini and spec-cc"
else
	notok "man pages installed (missing:$missing)"
fi

read -ra ioca_flags < <(pkg-config --cflags --libs libioca 2>/dev/null)
read -ra spec_flags < <(pkg-config --cflags --libs libspec 2>/dev/null)
if cc -std=c11 -Wall -Wextra -Werror -o "$work/ioca_info" "$here/ioca_info.c" \
	"${ioca_flags[@]}" >"$work/cc" 2>&1 &&
	ldd "$work/ioca_info" | grep -qE 'libioca.so.0 => /(usr/)?lib/'; then
	ok "a client builds with libioca-dev (pkg-config libioca) and links libioca.so.0"
else
	sed 's/^/    | /' "$work/cc"
	notok "a client builds with libioca-dev (pkg-config libioca) and links libioca.so.0"
fi

if /usr/bin/spec-cc "$here/spec_handler.c" -o "$work/handler.bc" >"$work/spec" 2>&1 &&
	cc -std=c11 -Wall -Wextra -Werror -o "$work/spec_check" "$here/spec_check.c" \
		"${spec_flags[@]}" >>"$work/spec" 2>&1 &&
	"$work/spec_check" "$work/handler.bc" >>"$work/spec" 2>&1; then
	ok "libspec-dev: spec-cc's IR specializes in a program built with pkg-config libspec"
else
	notok "libspec-dev: spec-cc's IR specializes in a program built with pkg-config libspec"
fi
sed 's/^/    | /' "$work/spec"

# resctrl_emu.ko for the kernel the VM boots (the kernel's resctrl needs
# RDT, which QEMU's CPUs lack), for the systemd VM below: built while the
# busybox VM, which uses one core, runs.
mkdir -p "$work/emu"
cp "$root"/selftests/resctrl_emu/Kbuild "$root"/selftests/resctrl_emu/*.[ch] "$work/emu/"
nice make -s -C "$kdir" M="$work/emu" modules >"$work/emu.log" 2>&1 &
emu_pid=$!

# --- the VM: the DKMS-built module, the packaged binaries and libraries ------
files=(--file "$here/guest.sh:/ioca/guest.sh" --file /usr/bin/iocactl:/usr/bin/iocactl)
[ -x "$work/ioca_info" ] && files+=(--file "$work/ioca_info:/ioca/ioca_info")
# The guest is busybox: each library the binaries load goes to the path
# the host's loader found it at (libioca.so.0 is the packaged one).
for lib in $(ldd /usr/bin/iocactl "$work/ioca_info" 2>/dev/null | grep -oE '/[^ ]+\.so[^ ]*' | sort -u); do
	files+=(--file "$lib:$lib")
done
sum=$(sha256sum "/lib/modules/$rel/$modpath" | cut -d' ' -f1)
t0=$(date +%s)
"$root/scripts/vm/run.sh" --kernel "/boot/vmlinuz-$rel" --cpu Skylake-Client --smp 1 --mem 512 --timeout 300 \
	--modules-dir "/lib/modules/$rel" --kmod ioca "${files[@]}" \
	-- /bin/sh /ioca/guest.sh "$modpath" "$sum" >"$work/vm" 2>&1
rc=$?
indent <"$work/vm" | grep -vE '^    \| (ok|not ok) - '
while read -r line; do
	case $line in
	"ok - "*) ok "guest: ${line#ok - }" ;;
	"not ok - "*) notok "guest: ${line#not ok - }" ;;
	esac
done < <(grep -E '^(ok|not ok) - ' "$work/vm")
grep -q '^ok - ' "$work/vm" || notok "the guest ran its checks (run.sh exited $rc)"
[ "$rc" -eq 0 ] || grep -q '^not ok - ' "$work/vm" ||
	notok "the guest exited $rc without a failing check"
echo "deb: the VM part took $(($(date +%s) - t0)) s"

# --- upgrade, remove, purge under systemd (the VM) --------------------------------
t0=$(date +%s)
wait "$next_pid"
rc=$?
next_pid=''
newdeb=$(ls "$work"/next/iocad_"${next}"_*.deb 2>/dev/null)
if [ "$rc" -eq 0 ] && [ -f "$newdeb" ]; then
	ok "version $next built for the upgrade ($(($(date +%s) - next_t0)) s, $(($(date +%s) - t0)) s waited)"
else
	sed 's/^/    | /' "$work/build-next" | tail -n 30
	notok "version $next built for the upgrade (build.sh exited $rc)"
fi
wait "$emu_pid"
rc=$?
emu_pid=''
if [ "$rc" -ne 0 ]; then
	sed 's/^/    | /' "$work/emu.log" | tail -n 20
	notok "resctrl_emu.ko builds against $kdir"
fi
if [ -f "$newdeb" ] && [ -f "$work/emu/resctrl_emu.ko" ]; then
	t0=$(date +%s)
	"$root/scripts/vm/sysrun.sh" --kernel "/boot/vmlinuz-$rel" --modules-dir "/lib/modules/$rel" \
		--cpu Skylake-Client --smp 4 --timeout 900 --append loglevel=4 \
		--file "$here/upgrade_guest.sh" --file "$root/scripts/vm/tap.sh" \
		--file "$root/selftests/systemd/iocad-vm.ini" --file "$work/emu/resctrl_emu.ko" \
		--file "$newdeb:/ioca/new/" -- sh ./upgrade_guest.sh "$version" "$next" >"$work/sysvm" 2>&1
	rc=$?
	grep -E '^#' "$work/sysvm" | sed 's/^/    | /'
	while read -r line; do
		case $line in
		"ok "*) ok "systemd guest: ${line#ok * - upgrade: }" ;;
		"not ok "*) notok "systemd guest: ${line#not ok * - upgrade: }" ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ - ' "$work/sysvm")
	plan=$(sed -nE 's/^1\.\.([0-9]+)$/\1/p' "$work/sysvm" | tail -n 1)
	got=$(grep -cE '^(not )?ok [0-9]+ - ' "$work/sysvm")
	if [ -z "$plan" ] || [ "$plan" != "$got" ]; then
		tail -n 30 "$work/sysvm" | sed 's/^/    | /'
		notok "the systemd guest ran its ${plan:-?} checks (reported $got, sysrun.sh exited $rc)"
	fi
	echo "deb: the systemd VM part (upgrade, remove, purge) took $(($(date +%s) - t0)) s"
fi

# --- purge, and nothing left ---------------------------------------------------
dpkg-query -L "${pkgs[@]}" 2>/dev/null | sort -u >"$work/owned"
t0=$(date +%s)
if DEBIAN_FRONTEND=noninteractive "${apt[@]}" purge "${pkgs[@]}" >"$work/purge" 2>&1; then
	installed=0
	ok "apt purges the six packages in $(($(date +%s) - t0)) s"
else
	sed 's/^/    | /' "$work/purge" | tail -n 30
	notok "apt purges the six packages"
	finish
fi
drop_new_keys
snapshot >"$work/after"
# Files and links the packages owned (directories such as /usr/include
# are shared; the snapshot catches an emptied directory of ours).
left=$(while read -r f; do
	if [ -d "$f" ]; then continue; fi
	if [ -e "$f" ] || [ -L "$f" ]; then echo "$f"; fi
done <"$work/owned")
diff -u "$work/before" "$work/after" >"$work/diff"
if [ -z "$left" ] && [ ! -s "$work/diff" ]; then
	ok "nothing is left under /usr, /etc, /lib/modules/$rel or /var/lib/dkms"
else
	printf '    | left: %s\n' "$left"
	sed 's/^/    | /' "$work/diff"
	notok "nothing is left under /usr, /etc, /lib/modules/$rel or /var/lib/dkms"
fi
finish
