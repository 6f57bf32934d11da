# TAP helpers for guest test scripts, sourced (POSIX sh: busybox ash in
# run.sh guests, dash in sysrun.sh guests). The caller sets TAP_NAME, the
# prefix of every description, and may define tap_diag, which runs after a
# failed check and prints "# " lines. The guest exits with $failed.
# shellcheck shell=sh disable=SC2034,SC2154 # n, failed and rc are the caller's, out and err its files
n=0
failed=0
ok() {
	n=$((n + 1))
	echo "ok $n - $TAP_NAME: $1"
}
notok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $TAP_NAME: $1"
}
check() { # "description" 'shell condition'
	if eval "$2"; then ok "$1"; else
		notok "$1"
		echo "# failed: $2"
		command -v tap_diag >/dev/null && tap_diag
	fi
	return 0
}
check_cmd() { # "description" command...: ok if the command succeeds
	_d=$1
	shift
	if "$@"; then ok "$_d"; else
		notok "$_d"
		command -v tap_diag >/dev/null && tap_diag
	fi
	return 0
}
nap() { sleep 0.2 2>/dev/null || usleep 200000; }
wait_for() { # SECONDS 'shell condition': 0 once it holds, 1 at the deadline
	# Wall-clock: under TCG on a loaded host one evaluation can take seconds.
	_end=$(($(date +%s) + $1))
	while :; do
		eval "$2" && return 0
		[ "$(date +%s)" -lt "$_end" ] || return 1
		nap
	done
}
# run CMD...: runs it with its stdout and stderr in the caller's files $out
# and $err, its status in $rc; run_diag (for a tap_diag) shows all three.
run() {
	"$@" >"$out" 2>"$err"
	rc=$?
}
run_diag() {
	sed 's/^/#   out: /' "$out"
	sed 's/^/#   err: /' "$err"
	echo "#   status $rc"
}
# has PATTERN FILE: grep -q, a PATTERN with a leading - taken as it is
has() { grep -q -- "$1" "$2"; }
