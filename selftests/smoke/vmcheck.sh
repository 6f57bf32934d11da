#!/bin/sh
# Usage (inside the VM, cwd holding smoke.ko): vmcheck.sh TOKEN
# Guest half of the smoke test run by scripts/vm/vmtest.sh: loads smoke.ko
# with TOKEN, checks the load and unload lines in dmesg and the parameter in
# sysfs, and that an unprivileged user cannot load it. Prints one
# "ok N desc" / "not ok N desc" line per check and exits with the number of
# failed checks (vmtest.sh cross-checks that against the lines).
tok=$1
rel=$(uname -r)
n=0
fail=0

check() { # desc command...
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc"
		fail=$((fail + 1))
	fi
}

unpriv_insmod_refused() {
	out=$(runas 1000 insmod ./smoke.ko token="$tok" 2>&1)
	[ $? -ne 0 ] && echo "$out" | grep -q 'Operation not permitted' &&
		[ ! -d /sys/module/smoke ]
}
in_dmesg() {
	dmesg | grep -qF "$1"
}
param_is_token() {
	[ "$(cat /sys/module/smoke/parameters/token 2>/dev/null)" = "$tok" ]
}
unloaded() {
	rmmod smoke && [ ! -d /sys/module/smoke ]
}

check "uid 1000 cannot load smoke.ko (EPERM)" unpriv_insmod_refused
check "root loads smoke.ko" insmod ./smoke.ko token="$tok"
check "load line with token and release in dmesg" \
	in_dmesg "ioca_smoke: loaded token=$tok release=$rel"
check "token parameter visible in sysfs" param_is_token
check "rmmod removes smoke" unloaded
check "unload line with token in dmesg" in_dmesg "ioca_smoke: unloaded token=$tok"
exit $fail
