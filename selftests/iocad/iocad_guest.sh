# shellcheck shell=sh disable=SC2034 # pid and rc are the caller's
# What the test guests that run iocad share (busybox sh, cwd /ioca;
# selftests/iocad/guest*.sh, selftests/soak/guest.sh,
# selftests/oci/guest_oci.sh), sourced after scripts/vm/tap.sh: iocad as a
# process (its log $LOG, its trace $TRACE, by default /tmp/iocad.log and
# /tmp/trace.csv; $pid the one start started) and what the platform holds,
# read through ./iocactl and resctrl at $R.
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
# ddio SOCKET: that socket's DDIO mask as ioca.ko reports it
ddio() {
	./iocactl info | sed -n "/^socket $1:/,/ddio-mask/s/.*ddio-mask \(0x[0-9a-f]*\) ways.*/\1/p" |
		head -n 1
}
sampler() { ./iocactl info | sed -n 's/^sampler: //p' | head -n 1; }
# gmask SOCKET NAME: the mask of iocad's group NAME on its socket's domain,
# as a number ("" if there is no such group)
gmask() {
	v=$(sed -n "s/.*L3:.*$1=\([0-9a-f]*\).*/\1/p" "$R/iocad-s$1-$2/schemata" 2>/dev/null)
	[ -n "$v" ] && echo $((0x$v))
}
# gcpus SOCKET NAME: the CPUs of iocad's group NAME
gcpus() { cat "$R/iocad-s$1-$2/cpus_list" 2>/dev/null; }
