# Sums the TAP the guest printed for one boot. Input: the console log.
# Each program is framed by "# ioca-run NAME" / "# ioca-exit NAME STATUS".
# A program's missing results (fewer than its plan "1..N", or no plan at
# all, or no exit line because the VM died) count as failures, so a crash
# can never look like a pass. Prints "PASS FAIL SKIP".
function close_prog() {
	if (prog == "")
		return
	done_ = ok + notok + skip
	if (!planned) {
		fail += 1
		printf "vmrun: %s printed no TAP plan\n", prog > "/dev/stderr"
	} else if (done_ < plan) {
		fail += plan - done_
		printf "vmrun: %s reported %d of %d results\n", prog, done_, plan > "/dev/stderr"
	}
	if (!exited) {
		fail += (notok + plan - done_ > 0) ? 0 : 1
		printf "vmrun: %s did not finish\n", prog > "/dev/stderr"
	} else if (status != 0 && notok == 0 && done_ >= plan && planned) {
		fail += 1
		printf "vmrun: %s exited %d without a failing result\n", prog, status > "/dev/stderr"
	}
	pass += ok
	fail += notok
	skipped += skip
	prog = ""
}
/^# ioca-run / { close_prog(); prog = $3; plan = 0; planned = 0; ok = 0; notok = 0; skip = 0; exited = 0; next }
/^# ioca-exit / { if ($3 == prog) { exited = 1; status = $4 }; next }
prog != "" && /^1\.\.[0-9]+/ { planned = 1; plan = substr($1, 4) + 0; next }
prog != "" && /^ok [0-9]+.*# SKIP/ { skip++; next }
prog != "" && /^ok [0-9]+/ { ok++; next }
prog != "" && /^not ok [0-9]+/ { notok++; next }
END { close_prog(); printf "%d %d %d\n", pass, fail, skipped }
