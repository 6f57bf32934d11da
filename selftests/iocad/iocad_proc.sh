# shellcheck shell=sh disable=SC2034 # pid and rc are the caller's
# iocad as a process in a test guest (busybox sh, cwd /ioca), sourced by
# the guests that run it (selftests/iocad/guest*.sh, selftests/soak/guest.sh)
# after scripts/vm/tap.sh. Its log is $LOG, its trace $TRACE (by default
# /tmp/iocad.log and /tmp/trace.csv); $pid is the one start started.
LOG=${LOG:-/tmp/iocad.log}
TRACE=${TRACE:-/tmp/trace.csv}
pid=
# start CONFIG [ARGS...]: ./iocad in the background, tracing, its log
# emptied first (a wait that reads it never sees the last run's)
start() {
	: >"$LOG"
	./iocad --trace "$TRACE" "$@" >"$LOG" 2>&1 &
	pid=$!
}
# stop SIGNAL: signal iocad and wait for it; its status in $rc
stop() {
	kill "-$1" "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	pid=
}
running() { [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; }
# logs PATTERN: iocad's log has a line matching it
logs() { grep -q "$1" "$LOG"; }
