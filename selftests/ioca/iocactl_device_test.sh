#!/bin/sh
# Guest-side TAP test of `iocactl ddio device` on the q35 boot (guest.sh
# devices): a virtio device 0000:01:00.0 below QEMU's pcie-root-port
# 0000:00:1c.0. With IOCA_EXPECT_BACKEND=emulated (ioca.ko emulate=1) the
# root port's software registers follow each mode and info lists the port;
# on the msr backend the real, unknown root port is refused with the
# kernel's extack and exit status 1.
# shellcheck disable=SC2016,SC2034,SC2154,SC2317 # conditions are eval'd by check(); rc, failed: tap.sh's
ctl=${IOCACTL:-/ioca/iocactl}
out=/tmp/iocactl.out
err=/tmp/iocactl.err
TAP_NAME="iocactl ddio device"
tap_diag() { run_diag; }
# shellcheck source=/dev/null # scripts/vm/tap.sh: check, run, has, n, failed
. ./tap.sh

echo "1..4"

run "$ctl" ddio device 0000:01:00.0 sideways
check "an unknown mode is a usage error naming the modes" \
	'[ "$rc" -eq 2 ] && has "expected on, off or full-off, got '"'sideways'"'" "$err"'

if [ "${IOCA_EXPECT_BACKEND:-emulated}" = emulated ]; then
	run "$ctl" ddio device 0000:01:00.0 full-off
	rc1=$rc
	run "$ctl" info
	check "ddio device full-off: info lists the root port, full-off, TPHDIS set" \
		'[ "$rc1" -eq 0 ] &&
		has "^device 0000:01:00.0: root-port 0000:00:1c.0 ddio full-off perfctrlsts 0x0 0x100 emulated$" "$out"'
	run "$ctl" info --json
	check "info --json carries the device" \
		'has "\"devices\":\[{\"addr\":\"0000:01:00.0\",\"root_port\":\"0000:00:1c.0\",\"ddio\":\"full-off\"" "$out"'
	run "$ctl" ddio device 0000:01:00.0 on
	rc1=$rc
	run "$ctl" info
	check "ddio device on: the defaults back" \
		'[ "$rc1" -eq 0 ] && has "ddio on perfctrlsts 0x80 0x0 emulated$" "$out"'
else
	run "$ctl" ddio device 0000:01:00.0 off
	check "msr backend: QEMU's root port is refused, exit 1 with the extack" \
		'[ "$rc" -eq 1 ] &&
		has "^iocactl: ddio device: Operation not supported: root port 0000:00:1c.0 (1b36:000c) above 0000:01:00.0 is not a known IIO root port" "$err"'
	run "$ctl" info
	check "msr backend: info lists no device" '[ "$rc" -eq 0 ] && ! has "^device " "$out"'
	run "$ctl" ddio device 0000:00:1f.0 off
	check "a device without a root port: exit 1 naming why" \
		'[ "$rc" -eq 1 ] && has "no PCIe root port above the device" "$err"'
fi
exit "$failed"
