#!/usr/bin/env bash
# vmtest.sh (what `make vmtest` runs): kernel tests in QEMU (TCG) guests
# booting the Debian kernel that matches KDIR's headers.
#
#  1. smoke: build selftests/smoke/smoke.ko against KDIR, boot, run
#     selftests/smoke/vmcheck.sh in the guest (load with a random token,
#     dmesg, sysfs, unprivileged load refused, unload); one test per check.
#  2. runner: the exit status and --cpu/--file reach the host; a guest that
#     sleeps forever is killed at --timeout and reported (status 124) in
#     bounded time; a guest that panics is reported (status 125).
#  3. every selftests/*/vmrun.sh except smoke's: each prints its own
#     "NAME: N passed, M failed" line, which is summed in.
#
# Prints "vmtest: N passed, M failed"; exits non-zero if anything failed or
# nothing ran. Guest console output is shown indented.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
run=$here/run.sh
export IOCA_VM_RUN=$run
KDIR=${KDIR:-$("$top/scripts/kdir.sh")}
export KDIR

. "$top/scripts/tap.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ioca-vmtest.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- 1. smoke module ------------------------------------------------------
smoke_test() {
	local src=$work/smoke out tok rc nrun guest_fail
	if [ -z "$KDIR" ] || [ ! -d "$KDIR" ]; then
		notok "smoke: no kernel headers (KDIR '$KDIR'; install linux-headers-amd64)"
		return
	fi
	cp -R "$top/selftests/smoke" "$src"
	if make -s -C "$KDIR" M="$src" modules >"$work/smoke-build.log" 2>&1 &&
		[ -f "$src/smoke.ko" ]; then
		ok "smoke: smoke.ko builds against $KDIR"
	else
		indent <"$work/smoke-build.log"
		notok "smoke: smoke.ko does not build against $KDIR"
		return
	fi
	tok=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
	out=$work/smoke.out
	"$run" --timeout 300 --file "$src/smoke.ko" --file "$src/vmcheck.sh" \
		-- sh ./vmcheck.sh "$tok" 2>&1 | tee "$out" | indent
	rc=${PIPESTATUS[0]}
	guest_fail=0
	while read -r line; do
		case $line in
		"ok "*) ok "smoke: ${line#ok [0-9]* }" ;;
		"not ok "*)
			notok "smoke: ${line#not ok [0-9]* }"
			guest_fail=$((guest_fail + 1))
			;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ ' "$out")
	nrun=$(grep -cE '^(not )?ok [0-9]+ ' "$out")
	# The guest exits with its failure count: anything else means the
	# checks did not all run or the status got lost on the way out.
	if [ "$nrun" -ne 6 ] || [ "$rc" -ne "$guest_fail" ]; then
		notok "smoke: guest ran $nrun of 6 checks, $guest_fail failed, run.sh returned $rc"
	fi
}

# --- 2. the runner itself -------------------------------------------------
boot_s=20 # wall time of one full guest run, measured by runner_status_test

runner_status_test() {
	local data=$work/data.txt script=$work/runner-check.sh rc start
	start=$(date +%s)
	echo "payload $RANDOM$RANDOM" >"$data"
	# Family 6 model 85 (0x55) is Skylake-SP; vxlan needs two other modules
	# that --kmod must bring along. Exits 42 only if every check held.
	cat >"$script" <<EOF
check() { "\$@" || { echo "runner check failed: \$*"; exit 1; }; }
check grep -qx '$(cat "$data")' /ioca/sub/dir/data.txt
check grep -qE '^cpu family\s*: 6\$' /proc/cpuinfo
check grep -qE '^model\s*: 85\$' /proc/cpuinfo
check [ "\$(runas 1000 id -u)" = 1000 ]
check modprobe vxlan
check grep -q '^udp_tunnel ' /proc/modules
args_arrived() { [ \$# -eq 4 ] && [ "\$1" = "a b" ] && [ "\$2" = "it's" ] &&
	[ "\$3" = '\$HOME' ] && [ -z "\$4" ]; }
check args_arrived "\$@"
exit 42
EOF
	# shellcheck disable=SC2016 # '$HOME' must reach the guest unexpanded
	"$run" --timeout 300 --smp 1 --cpu Skylake-Server --file "$data:sub/dir/" \
		--kmod vxlan --file "$script" -- sh runner-check.sh "a b" "it's" '$HOME' '' \
		2>&1 | indent
	rc=${PIPESTATUS[0]}
	boot_s=$(($(date +%s) - start))
	if [ "$rc" -eq 42 ]; then
		ok "runner: exit status, arguments, --cpu Skylake-Server, --file, --kmod, runas"
	else
		notok "runner: expected status 42 from the guest, run.sh returned $rc"
	fi
}

# Usage errors are caught on the host, before any boot, with status 2.
runner_usage_test() {
	local args rc bad=''
	for args in "--smp x -- true" "--kmod no_such_module -- true" \
		"--file /nonexistent/x -- true" "--bogus -- true" "--timeout 5"; do
		# shellcheck disable=SC2086 # word splitting of $args is the point
		"$run" $args >"$work/usage.log" 2>&1
		rc=$?
		if [ "$rc" -ne 2 ] || ! grep -q '^run.sh: ' "$work/usage.log"; then
			bad+=" [$args -> $rc]"
		fi
	done
	if [ -z "$bad" ]; then
		ok "runner: bad options rejected with status 2 and a message, without booting"
	else
		notok "runner: bad options not rejected:$bad"
	fi
}

runner_hang_test() {
	local t start el rc log=$work/hang.log
	# Long enough for the guest to reach the sleep on a busy machine (so the
	# command, not the boot, is what hangs), short enough to keep vmtest fast.
	t=$((boot_s * 3 / 2 + 5))
	start=$(date +%s)
	"$run" --timeout $t -- sh -c 'echo ioca-hang-test: sleeping; sleep 100000' \
		>"$log" 2>&1
	rc=$?
	el=$(($(date +%s) - start))
	indent <"$log"
	# Bound: the timeout, QEMU's kill grace, and initramfs assembly.
	if [ "$rc" -eq 124 ] && [ "$el" -le $((t + 20)) ] &&
		grep -q '^ioca-hang-test: sleeping' "$log" &&
		grep -q 'FAIL: guest timed out' "$log"; then
		ok "runner: hanging guest killed at --timeout $t and reported (${el} s)"
	else
		notok "runner: hanging guest: status $rc after ${el} s (want 124 within $((t + 20)) s)"
	fi
}

runner_panic_test() {
	local start el rc log=$work/panic.log
	start=$(date +%s)
	"$run" --timeout 300 -- sh -c 'echo c >/proc/sysrq-trigger; sleep 100000' \
		>"$log" 2>&1
	rc=$?
	el=$(($(date +%s) - start))
	tail -n 5 "$log" | indent
	if [ "$rc" -eq 125 ] && grep -q 'ended without an exit status' "$log"; then
		ok "runner: panicking guest reported without waiting for the timeout (${el} s)"
	else
		notok "runner: panicking guest: status $rc after ${el} s (want 125)"
	fi
}

# --- 3. other selftests ---------------------------------------------------
vmrun_tests() {
	local script name out rc line p f
	for script in "$top"/selftests/*/vmrun.sh; do
		[ -e "$script" ] || continue
		name=$(basename "$(dirname "$script")")
		[ "$name" = smoke ] && continue
		echo "=== selftests/$name/vmrun.sh"
		out=$work/$name.out
		bash "$script" 2>&1 | tee "$out"
		rc=${PIPESTATUS[0]}
		line=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
		if [ -z "$line" ]; then
			notok "$name: vmrun.sh exited $rc without a 'NAME: N passed, M failed' line"
			continue
		fi
		p=$(sed -E 's/^[^:]+: ([0-9]+) passed.*/\1/' <<<"$line")
		f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
		pass=$((pass + p))
		fail=$((fail + f))
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			notok "$name: vmrun.sh exited $rc after reporting no failure"
		fi
	done
}

smoke_test
runner_usage_test
runner_status_test
runner_hang_test
runner_panic_test
vmrun_tests

echo "vmtest: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
