#!/bin/sh
# In the bench VM (busybox sh, root, cwd /ioca): per interval, the userspace
# poller (poll_bench) and then iocad's whole host path on the same CPUs.
# iocad's cost is measured from outside, so iocad carries no timing code:
# its thread's CPU time (/proc/PID/schedstat, ns) over the sampler
# intervals the module counted in the same window -- the whole run's mean
# and the median of eight windows of about a second, which a vCPU the host
# descheduled for long moves less -- plus the module's mean collection time
# per interval (iocactl info). phase_probe splits the same libioca calls
# by step. Prints POLL, PHASE and IOCAD lines.
cd /ioca || exit 1
interval_us=100000
n=$(grep -c '^processor' /proc/cpuinfo)
insmod ./ioca.ko emulate=1 || exit 1
modprobe msr || exit 1
insmod ./resctrl_emu.ko cbm_mask=0x7ff num_closids=16 || exit 1
mount -t resctrl resctrl /sys/fs/resctrl || exit 1

./poll_bench 100 $interval_us || exit 1
./phase_probe 50 $interval_us || exit 1

{
	printf '[platform]\ninterval_ms = %d\nthreshold_miss_low = 1e12\n' $((interval_us / 1000))
	c=0
	while [ $c -lt "$n" ]; do
		printf '[tenant t%d]\ncpus = %d\nways = 1\n' $c $c
		c=$((c + 1))
	done
} >/tmp/bench.ini
echo 2000000 >/sys/kernel/debug/ioca/socket0/ddio_hit_rate
echo 500000 >/sys/kernel/debug/ioca/socket0/ddio_miss_rate
./iocad --quiet /tmp/bench.ini >/tmp/iocad.log 2>&1 &
pid=$!
json() { ./iocactl info --json | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
sleep 3
r1=$(cut -d' ' -f1 /proc/$pid/schedstat)
i1=$(json intervals)
rs=$r1 is=$i1
w=0
: >/tmp/windows
while [ $w -lt 8 ]; do
	sleep 1
	r=$(cut -d' ' -f1 /proc/$pid/schedstat)
	i=$(json intervals)
	if [ -n "$i" ] && [ "$i" -gt "$is" ]; then
		echo $(((r - rs) / (i - is))) >>/tmp/windows
		rs=$r is=$i
	fi
	w=$((w + 1))
done
r2=$rs i2=$is
collect=$(json mean_collect_ns)
med=$(sort -n /tmp/windows | sed -n "$((($(wc -l </tmp/windows) + 1) / 2))p")
kill -TERM $pid
wait $pid
rc=$?
if [ "$rc" -ne 0 ] || [ -z "$i2" ] || [ "$i2" -le "$i1" ]; then
	echo "bench_guest: iocad exited $rc or the sampler did not run (intervals $i1 -> $i2)"
	cat /tmp/iocad.log
	exit 1
fi
echo "IOCAD cpus=$n intervals=$((i2 - i1)) user_ns=$(((r2 - r1) / (i2 - i1))) user_med_ns=${med:-0} collect_ns=$collect"
