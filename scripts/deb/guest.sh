#!/bin/sh
# Guest side of scripts/deb/test.sh: the module DKMS built on the host
# (copied to its place under /lib/modules with its modules.dep line) loads
# with modprobe, and the packaged iocactl, with the packaged libraries and
# the host's libc and libnl beside it, reports it. One "ok - "/"not ok - "
# line per check.
#   guest.sh MODULE_PATH SHA256   (the path under /lib/modules/<release>)
# shellcheck disable=SC2016,SC2034 # conditions are eval'd by check()
ko=/lib/modules/$(uname -r)/$1
sum=$2
out=/tmp/out
fails=0
check() { # description condition
	if eval "$2"; then
		echo "ok - $1"
	else
		echo "not ok - $1"
		sed 's/^/#   /' "$out" 2>/dev/null
		fails=$((fails + 1))
	fi
}

sha256sum "$ko" >"$out" 2>&1
check "the guest has the DKMS-built module at $ko" '[ "$(cut -d" " -f1 "$out")" = "$sum" ]'
modprobe ioca emulate=1 >"$out" 2>&1
check "modprobe ioca emulate=1 loads it" 'grep -q "^ioca " /proc/modules'
/usr/bin/iocactl info >"$out" 2>&1
check "the packaged iocactl info reports the emulated backend, socket 0 at 0x600" \
	'grep -q "^backend: emulated$" "$out" && grep -q "ddio-mask 0x600 ways 2" "$out"'
/usr/bin/iocactl ddio set 0 ways 3 >"$out" 2>&1 && /usr/bin/iocactl info >>"$out" 2>&1
check "the packaged iocactl sets 3 DDIO ways and reads mask 0x700 back" \
	'grep -q "ddio-mask 0x700 ways 3" "$out"'
/ioca/ioca_info >"$out" 2>&1
check "a client built on libioca-dev runs on the packaged libioca.so.0" \
	'grep -q "^backend emulated$" "$out" && grep -q "^socket 0 mask 0x700 ways 3$" "$out"'
/usr/bin/iocactl ddio restore >"$out" 2>&1
modprobe -r ioca >>"$out" 2>&1
check "ddio restore, then modprobe -r ioca unloads it" '! grep -q "^ioca " /proc/modules'
[ "$fails" -eq 0 ]
