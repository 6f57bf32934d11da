#!/bin/sh
# Guest-side TAP test of the iocactl command-line client (the static build,
# copied in as /ioca/iocactl) against ioca.ko with emulate=1: what it
# prints, its exit codes (0 done, 1 kernel refused, 2 usage) and that the
# kernel's extack message reaches the operator. Runs as root under busybox;
# leaves the module loaded with its boot mask, as it found it.
# shellcheck disable=SC2016,SC2034,SC2154,SC2317 # conditions are eval'd by check(); rc, failed: tap.sh's
ctl=${IOCACTL:-/ioca/iocactl}
ko=${IOCA_KO:-/ioca/ioca.ko}
out=/tmp/iocactl.out
err=/tmp/iocactl.err
TAP_NAME=iocactl
tap_diag() { run_diag; }
# shellcheck source=/dev/null # scripts/vm/tap.sh: check, run, has, n, failed
. ./tap.sh

echo "1..20"

[ -d /sys/module/ioca ] || insmod "$ko" emulate=1 || echo "# insmod $ko emulate=1 failed"
"$ctl" ddio restore >/dev/null 2>&1

run "$ctl" info
check "info shows the emulated backend" '[ "$rc" -eq 0 ] && has "^backend: emulated$" "$out"'
check "info shows socket 0 at the boot mask 0x600, 2 ways" 'has "ddio-mask 0x600 ways 2" "$out"'

run "$ctl" info --json
check "info --json is one object with backend and socket 0's mask" \
	'[ "$rc" -eq 0 ] && [ "$(wc -l <"$out")" -eq 1 ] && has "^{\"backend\":\"emulated\"," "$out" &&
	has "\"sockets\":\[{\"id\":0,\"llc_ways\":11,\"ddio_mask\":1536," "$out"'

run "$ctl" ddio set 0 ways 3
check "ddio set 0 ways 3 succeeds" '[ "$rc" -eq 0 ]'
run "$ctl" info
check "info then shows mask 0x700, 3 ways" 'has "ddio-mask 0x700 ways 3" "$out"'

run "$ctl" ddio set 0 mask 0x5
check "ddio set mask 0x5 exits 1 with the extack text" \
	'[ "$rc" -eq 1 ] && has "^iocactl: ddio set: Invalid argument: .*not contiguous" "$err"'

run "$ctl" ddio set 0 mask 0xq5
check "a malformed mask is a usage error naming it" \
	'[ "$rc" -eq 2 ] && has "bad mask '"'0xq5'"'" "$err"'

run "$ctl" ddio restore
rc1=$rc
run "$ctl" info
check "ddio restore brings back 0x600" '[ "$rc1" -eq 0 ] && has "ddio-mask 0x600 ways 2" "$out"'

# A register that ignores writes (debugfs ioca/socket0/ddio_register).
echo locked >/sys/kernel/debug/ioca/socket0/ddio_register
run "$ctl" ddio set 0 ways 3
check "ddio set on a locked register exits 1 naming the socket and both values" \
	'[ "$rc" -eq 1 ] &&
	has "^iocactl: ddio set: Input/output error: socket 0: DDIO register written 0x700, read back 0x600" "$err"'
run "$ctl" info
check "info then says socket 0 is not writable, and why" \
	'has "ddio-control available yes writable no verified no" "$out" &&
	has "ddio-not-controllable: DDIO writes do not stick" "$out"'
echo normal >/sys/kernel/debug/ioca/socket0/ddio_register
"$ctl" ddio restore >/dev/null 2>&1

run "$ctl" sampler set --interval 10ms --cpus 0-1 --event instructions --event llc-misses
rc1=$rc
run "$ctl" info
check "sampler set configures interval, CPUs and events" \
	'[ "$rc1" -eq 0 ] && has "^sampler: configured" "$out" && has "interval 10000 us" "$out" &&
	has "cpus 0,1$" "$out" && has "event 1: llc-misses" "$out"'

run "$ctl" sampler set --event raw:4:0x3c --event bogus
check "an unknown event is a usage error naming it" \
	'[ "$rc" -eq 2 ] && has "bad --event '"'bogus'"'" "$err"'

run "$ctl" sampler start
check "sampler start succeeds" '[ "$rc" -eq 0 ]'

run "$ctl" monitor --count 3
check "monitor --count 3 prints 3 lines" '[ "$rc" -eq 0 ] && [ "$(grep -c "^seq " "$out")" -eq 3 ]'
seqs=$(sed -n 's/^seq \([0-9]*\) .*/\1/p' "$out" | tr '\n' ' ')
seqs=${seqs% }
read -r s1 s2 s3 rest <<EOT
$seqs
EOT
check "monitor's seqs are consecutive ($seqs)" \
	'[ -n "$s3" ] && [ -z "$rest" ] && [ $((s1 + 1)) -eq "$s2" ] && [ $((s2 + 1)) -eq "$s3" ] &&
	! has "^gap" "$out"'

run "$ctl" sample
check "sample prints an on-demand sample with both CPUs" \
	'[ "$rc" -eq 0 ] && has "on-demand" "$out" && has "^cpu 0 socket 0 \[0\]" "$out" &&
	has "^cpu 1 " "$out"'

run runas 1000 "$ctl" monitor --count 1
check "monitor as uid 1000 cannot join samples" \
	'[ "$rc" -eq 1 ] && has "^iocactl: monitor: join samples: Operation not permitted" "$err"'
check "the refusal names the capability subscribing needs" \
	'has "^iocactl: subscribing needs CAP_PERFMON (or CAP_SYS_ADMIN)$" "$err"'

run "$ctl" sampler stop
rc1=$rc
run "$ctl" info
check "sampler stop leaves it configured" '[ "$rc1" -eq 0 ] && has "^sampler: configured" "$out"'

run runas 1000 "$ctl" ddio set 0 ways 3
check "ddio set as uid 1000 is refused" \
	'[ "$rc" -eq 1 ] && has "^iocactl: ddio set: Operation not permitted" "$err"'

rmmod ioca
run "$ctl" info
check "without the module info says it is not loaded: modprobe ioca, outside a checkout" \
	'[ "$rc" -eq 1 ] && has "ioca.ko is not loaded (modprobe ioca, or emulate=1 in a VM)" "$err"'
insmod "$ko" emulate=1 || echo "# re-insmod $ko emulate=1 failed"

exit "$failed"
