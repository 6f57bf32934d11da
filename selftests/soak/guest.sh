#!/bin/sh
# shellcheck disable=SC2317,SC2016,SC2034,SC2012,SC2154 # checks are strings run through eval
# The soak, inside the test VM (busybox sh, root, cwd /ioca, 4 CPUs: 0-1 on
# socket 0, 2-3 on socket 1): iocad on the host platform against ioca.ko
# (emulate=1 emulate_sockets=2) and resctrl_emu.ko with two L3 domains,
# while a seeded random sequence of faults hits it: good and bad reloads
# (SIGHUP with edited configs), outside DDIO changes (iocactl ddio set),
# a monitor paused (SIGSTOP) and resumed (SIGCONT), DDIO traffic changes
# (the emulated counters' debugfs rates), tenant CPUs going offline and
# online, and faults.sh's: resctrl remounted, a runtime's class removed and
# made again, CLOSIDs running out under a rename, an operator's group
# taking a tenant's CPU across hotplug, a reload refused at a schemata
# write, SIGHUP storms, kill -9 (and with SOAK_HOSTLOOP=1 rmmod). After
# every step the invariants are checked against iocad's trace, its metrics
# textfile, resctrl and /proc/PID; a violation is a "# step N: ..." line
# and fails its TAP check at the end.
#
#   guest.sh SEED STEPS [HOSTLOOP]
#
# The same SEED and STEPS replay the same faults in the same order (their
# timing is the emulator's). The first steps are a warm-up that does every
# kind of fault once, after which iocad's VmRSS and fd count are taken as
# the baseline they must not grow from; the steps after it go in rounds,
# each every fault once in a seeded order.
cd /ioca || exit 1
TAP_NAME=soak
tap_diag() { echo "# ddio $(ddio 0) $(ddio 1); groups $(groups_cpus)"; }
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, check, wait_for
. ./tap.sh
# shellcheck source=/dev/null # selftests/iocad/iocad_guest.sh: start, stop, running, logs, ddio, gmask
. ./iocad_guest.sh
# shellcheck source=/dev/null # selftests/soak/faults.sh: the resctrl, process and module faults
. ./faults.sh
R=/sys/fs/resctrl
EMU=/sys/module/resctrl_emu/parameters
DBG=/sys/kernel/debug/ioca
PROM=/tmp/ioca.prom
LIVE=/tmp/live.ini
SEED=${1:-1}
STEPS=${2:-30}
HOSTLOOP=${3:-0}
mon=
mon_state=none
step=0
echo "1..$((30 + (HOSTLOOP == 1)))"
echo "# soak: seed $SEED, $STEPS steps (replay: SOAK_SEED=$SEED, the same SOAK_SECONDS)"

# --- the seeded generator (31-bit LCG: same in every sh) ---------------------
rng=$((SEED & 0x7fffffff))
rand() { # N: a number in 0..N-1 in $r
	rng=$(((rng * 1103515245 + 12345) & 0x7fffffff))
	r=$(((rng >> 8) % $1))
}

# --- what the platform holds -------------------------------------------------
groups_now() { # the resctrl groups, sorted, one line (info and mon_* aside)
	find "$R" -mindepth 1 -maxdepth 1 -type d | sed 's|.*/||' | grep -vx info | sort | tr '\n' ' '
}
groups_cpus() { # each group and its CPUs, one line
	for g in $(groups_now); do echo "$g:$(cat "$R/$g/cpus_list")"; done | tr '\n' ' '
}
online() { [ "$1" -eq 0 ] || [ "$(cat /sys/devices/system/cpu/cpu"$1"/online)" = 1 ]; }
metric() { # NAME SOCKET: the textfile's value, 0 if absent
	v=$(sed -n "s/^$1{socket=\"$2\"} \([0-9]*\).*/\1/p" "$PROM" 2>/dev/null | head -n 1)
	echo "${v:-0}"
}
bits() { # N: the number of set bits
	_b=0 _v=$1
	while [ "$_v" -gt 0 ]; do _b=$((_b + (_v & 1))) _v=$((_v >> 1)); done
	echo "$_b"
}
rows() { [ -f "$TRACE" ] && wc -l <"$TRACE" || echo 0; }
# wait_rows N: until the trace has N more rows per socket (2 sockets)
wait_rows() {
	_want=$(($(rows) + 2 * $1))
	wait_for $((20 + 4 * $1)) '[ "$(rows)" -ge "$_want" ]'
}

# --- configs -------------------------------------------------------------
# Tenants: socket 0 web (PS, CPU 0), batch (CPU 1); socket 1 db (PS, CPU 2),
# cache (CPU 3): selftests/iocad/two_sockets.ini and cache. CPU 0 never goes
# offline.
{
	cat two_sockets.ini
	cat <<'INI'

[tenant cache]
cpus = 3
ways = 1
rdt_class = gold

[metrics]
textfile = /tmp/ioca.prom
INI
} >/tmp/base.ini
# good: socket 1's db a third way; cache gone (CPU 3 unsampled); socket 0 reshaped
sed '/^\[tenant db\]/,/^$/ s/^ways = 2$/ways = 3/' /tmp/base.ini >/tmp/good1.ini
sed '/^\[tenant cache\]/,/^$/d' /tmp/base.ini >/tmp/good2.ini
sed -e '/^\[tenant web\]/,/^$/ s/^ways = 2$/ways = 3/' \
	-e '/^\[tenant batch\]/,/^$/ s/^ways = 3$/ways = 2/' /tmp/base.ini >/tmp/good3.ini
cp /tmp/base.ini /tmp/good0.ini
# bad: a parse error, a CPU the VM lacks, a tenant over both sockets, more
# tenant ways than the LLC has (refused against the platform's LLC)
sed '/^\[tenant batch\]/,/^$/ s/^ways = 3$/ways = banana/' /tmp/base.ini >/tmp/bad0.ini
sed '/^\[tenant cache\]/,/^$/ s/^cpus = 3$/cpus = 9/' /tmp/base.ini >/tmp/bad1.ini
sed -e '/^\[tenant batch\]/,/^$/ s/^cpus = 1$/cpus = 1-2/' \
	-e '/^\[tenant db\]/,/^$/ s/^cpus = 2$/cpus = 3/' \
	-e '/^\[tenant cache\]/,/^$/d' /tmp/base.ini >/tmp/bad2.ini
sed '/^\[tenant batch\]/,/^$/ s/^ways = 3$/ways = 10/' /tmp/base.ini >/tmp/bad3.ini
cur=/tmp/base.ini

# cfg_groups FILE: the groups iocad must hold for FILE, sorted, one line
# (a tenant with an rdt_class has the runtime's group, gold)
cfg_groups() {
	awk '/^\[/{ flush(); t = "" } /^\[tenant /{ t = $2; sub(/\]/, "", t); cls = 0 }
		/^cpus = /{ c = $3; sub(/-.*/, "", c) } /^rdt_class = /{ cls = 1 }
		function flush() { if (t != "" && !cls) print "iocad-s" (c >= 2 ? 1 : 0) "-" t }
		END { flush() }' "$1" | sort | tr '\n' ' '
}
cfg_class() { sed -n "/^\[tenant $2\]/,/^\$/p" "$1" | grep -q '^rdt_class = '; }
# every group resctrl must have: iocad's for the config in force, gold, ops
want_groups() { echo "$(cfg_groups "$cur")gold ops" | tr ' ' '\n' | grep . | sort | tr '\n' ' '; }
cfg_cpus() { # FILE TENANT: the tenant's CPU list
	sed -n "/^\[tenant $2\]/,/^\$/s/^cpus = //p" "$1"
}
cfg_tenants() { sed -n 's/^\[tenant \(.*\)\]$/\1/p' "$1"; }

# --- invariants ----------------------------------------------------------
viol() { # CLASS message: one violation of invariant CLASS at this step
	eval "v_$1=\$((v_$1 + 1))"
	echo "# step $step: $1: $2"
	# the first of a class: what iocad said just before
	eval "[ \"\$v_$1\" -eq 1 ]" && grep -v '^#[0-9]* ' "$LOG" | tail -n 4 | sed 's/^/#   log: /' &&
		grep '^#[0-9]* ' "$LOG" | tail -n 10 | sed 's/^/#   log: /'
	return 0
}
v_run=0 v_trace=0 v_ps=0 v_groups=0 v_cpus=0 v_lost=0 v_mem=0 v_fd=0 v_outside=0
v_good=0 v_bad=0 v_monitor=0 v_rate=0 v_remount=0 v_class=0 v_closids=0 v_foreign=0
v_badwrite=0 v_storm=0 v_kill9=0 v_rmmod=0 v_ops=0
n_good=0 n_bad=0 n_outside=0 n_mon=0 n_traffic=0 n_hot=0 n_remount=0 n_class=0
n_closids=0 n_foreign=0 n_badwrite=0 n_storm=0 n_kill=0 n_rmmod=0
ops_cpus='' task=''
# the DDIO traffic each socket's emulated counters were last set to: misses/hits/trace line
rates_0=0/0/0 rates_1=0/0/0
traced=1 # trace lines already checked (the header)

# The trace rows since the last check: per socket consecutive intervals,
# time going forward, every PS tenant off DDIO's ways.
check_trace() {
	h=$(head -n 1 "$TRACE")
	cols=$(echo "$h" | tr ',' '\n' | awk '{ printf "%s=%d ", $1, NR }')
	# whole lines only: a row being written is read next time
	new=$(head -n "$(wc -l <"$TRACE")" "$TRACE" | tail -n +$((traced + 1)))
	base=$traced
	traced=$(($(echo "$new" | grep -c .) + traced))
	out=$(echo "$new" | awk -F, -v cols="$cols" -v st="$state_trace" -v base="$base" \
		-v rt="0=$rates_0 1=$rates_1" -v m0="$start_0" -v m1="$start_1" '
		function hex(s,   i, v, d) { v = 0; s = tolower(s); sub(/^0x/, "", s)
			for (i = 1; i <= length(s); i++) { d = index("0123456789abcdef",
				substr(s, i, 1)) - 1; v = v * 16 + d }
			return v }
		function and_(a, b,   r, bit) { r = 0; bit = 1
			while (a > 0 && b > 0) { if (a % 2 && b % 2) r += bit
				a = int(a / 2); b = int(b / 2); bit *= 2 }
			return r }
		# an interval counts off by more than 3x from the traffic set (2 intervals after a change)
		function rate(what, v, want,   x) { if (v == "" || dt <= 0) return
			x = v / dt
			if ((want > 0 && (x > 3 * want || x < want / 3)) || (want == 0 && x > 1000))
				print "rate: #" iv " s" so " " what " " int(x) "/s, traffic set to " want "/s" }
		BEGIN { n = split(cols, c, " "); for (i = 1; i <= n; i++) { split(c[i], kv, "=")
				col[kv[1]] = kv[2] }
			n = split(rt, q, " "); for (i = 1; i <= n; i++) { split(q[i], kv, "=")
				split(kv[2], it, "/"); rmiss[kv[1]] = it[1]; rhit[kv[1]] = it[2]
				rrow[kv[1]] = it[3] }
			n = split(st, s, " "); for (i = 1; i <= n; i++) { split(s[i], kv, "=")
				split(kv[2], it, "/"); last[kv[1]] = it[1]; lt[kv[1]] = it[2]
				lm[kv[1]] = it[3]; wrote[kv[1]] = it[4] } }
		$0 == "" { next }
		{ so = $col["socket"]; iv = $col["interval"] + 0; t = $col["t_s"] + 0
			dt = so in lt ? t - lt[so] : 0
			if (base + NR > rrow[so] + 4) {
				rate("misses", $col["ddio_misses"], rmiss[so])
				rate("hits", $col["ddio_hits"], rhit[so]) }
			if (so in last && iv != last[so] + 1)
				print "trace: socket " so " interval " iv " after " last[so]
			if (so in lt && t <= lt[so])
				print "trace: socket " so " t_s " t " not after " lt[so]
			last[so] = iv; lt[so] = t
			# a DDIO change iocad made, not adopted from outside
			if (!(so in lm)) lm[so] = so == 0 ? m0 : m1
			if ($col["ddio_mask"] != lm[so] && $col["ddio_outside"] == "") wrote[so] = 1
			lm[so] = $col["ddio_mask"]
			d = hex($col["ddio_mask"]); dw = $col["ddio_ways"] + 0
			split("web db", ps, " ")
			for (k in ps) { m = $col[ps[k] "_mask"]
				if (m == "") continue
				w = $col[ps[k] "_ways"] + 0; o = and_(hex(m), d)
				# off DDIO when both fit; else a partial overlap at most
				if (o && w + dw <= 11)
					print "ps: #" iv " s" so " " ps[k] " " m " on DDIO " $col["ddio_mask"]
				if (o && o == hex(m))
					print "ps: #" iv " s" so " " ps[k] " " m " wholly on DDIO " $col["ddio_mask"] }
			if ($col["ddio_hits"] == "") { nomiss++; print "nocount: #" iv " s" so " had no DDIO counts" } }
		END { for (so in last) printf "state %s=%d/%s/%s/%d\n", so, last[so], lt[so], lm[so], wrote[so]
			if (nomiss) print "nocounts " nomiss }')
	state_trace=$(echo "$out" | sed -n 's/^state //p' | tr '\n' ' ')
	echo "$out" | sed -n 's/^\(trace\|ps\|rate\): /\1 /p' >/tmp/violations
	while read -r cls msg; do viol "$cls" "$msg"; done </tmp/violations
	echo "$out" | sed -n "s/^nocount: /# step $step: /p"
	k=$(echo "$out" | sed -n 's/^nocounts //p')
	nocounts=$((nocounts + ${k:-0}))
}
state_trace=''
nocounts=0

# The live platform: each PS tenant off its socket's DDIO ways, or, when
# its ways and DDIO's are more than the LLC's 11 (a DDIO grow under I/O
# pressure, FSM.md), on them partially, never wholly. iocad writes CAT
# before DDIO, so a read between the two may see half a change: the check
# holds once two reads agree.
live_ps_ok() {
	for s in 0 1; do
		d=$(ddio "$s")
		[ -n "$d" ] || return 1
		for t in web db; do
			m=$(gmask "$s" "$t") || continue
			[ -n "$m" ] || continue
			[ $((m & d)) -eq 0 ] && continue
			[ $((m & d)) -ne "$m" ] || return 1
			[ $(($(bits "$m") + $(bits $((d))))) -gt 11 ] || return 1
		done
	done
}

# The live masks and DDIO are the last traced interval's on each socket
# (after a refused reload: the running plan's, not the refused one's).
live_vs_trace() {
	_h=$(head -n 1 "$TRACE" | tr ',' '\n' | grep -n . | sed 's/:/ /')
	for _s in 0 1; do
		_row=$(grep "^[0-9]*,$_s," "$TRACE" | tail -n 1)
		[ -n "$_row" ] || return 1
		_c=$(echo "$_h" | awk '$2 == "ddio_mask" { print $1 }')
		[ "$(ddio "$_s")" = "$(echo "$_row" | cut -d, -f"$_c")" ] || return 1
		for _t in $(cfg_tenants "$cur"); do
			_c=$(echo "$_h" | awk -v n="${_t}_mask" '$2 == n { print $1 }')
			[ -n "$_c" ] || continue
			_m=$(echo "$_row" | cut -d, -f"$_c")
			[ -n "$_m" ] || continue # the other socket's tenant
			if cfg_class "$cur" "$_t"; then
				_l=$(sed -n "s/.*L3:.*$_s=\([0-9a-f]*\).*/\1/p" "$R"/gold/schemata)
				[ -n "$_l" ] && [ $((0x$_l)) -eq $((_m)) ] || return 1
			else
				[ "$(gmask "$_s" "$_t")" = $((_m)) ] || return 1
			fi
		done
	done
}
live_is_traced() { wait_for 10 'live_vs_trace'; }

# Groups: exactly iocad's (for the config in force) and the test's own.
check_groups() {
	want=$(want_groups)
	if ! wait_for 10 '[ "$(groups_now)" = "$want" ]'; then
		viol groups "resctrl has '$(groups_now)', want '$want'"
	fi
	# each group holds its tenant's online CPUs, and the test's none
	for t in $(cfg_tenants "$cur"); do
		cfg_class "$cur" "$t" && continue
		c=$(cfg_cpus "$cur" "$t")
		s=$((c >= 2 ? 1 : 0))
		online "$c" || c=''
		if ! wait_for 10 '[ "$(cat $R/iocad-s$s-$t/cpus_list 2>/dev/null)" = "$c" ]'; then
			viol cpus "iocad-s$s-$t holds CPUs '$(cat "$R/iocad-s$s-$t/cpus_list")', want '$c'"
		fi
	done
	[ "$(cat $R/ops/cpus_list)" = "$ops_cpus" ] || viol ops "ops holds CPUs '$(cat $R/ops/cpus_list)', want '$ops_cpus'"
	grep -qx "$task" $R/ops/tasks || viol ops "ops lost its task $task"
	grep -q "L3:0=00f;1=00f" $R/ops/schemata || viol ops "ops' mask changed: $(cat $R/ops/schemata)"
}

# RssAnon: heap and stack, what a leak grows (VmRSS also counts code pages
# touched for the first time, which a rare path may do late)
proc_rss() { sed -n 's/^RssAnon:[^0-9]*\([0-9]*\) kB/\1/p' "/proc/$pid/status"; }
# open fds but the textfile's PATH.tmp.PID, open only while it is written
proc_fds() {
	_n=0
	for _f in "/proc/$pid/fd"/*; do
		# gone meanwhile (readlink fails), or the textfile being written
		case $(readlink "$_f") in '' | *ioca.prom.tmp*) ;; *) _n=$((_n + 1)) ;; esac
	done
	echo "$_n"
}
rss0='' fds0='' rss_said='' half=0 lost_0=0 lost_1=0 rss_ever='' restarted=-100

check_step() {
	if ! running; then
		viol run "iocad is not running"
		return
	fi
	check_trace
	wait_for 10 'live_ps_ok && live_ps_ok' || viol ps "live: a PS tenant on DDIO's ways: DDIO $(ddio 0) $(ddio 1), web $(gmask 0 web), db $(gmask 1 db)"
	check_groups
	for s in 0 1; do
		l=$(metric ioca_lost_samples_total $s)
		eval "was=\$lost_$s"
		[ "$l" -eq "$was" ] && continue
		eval "lost_$s=\$l"
		viol lost "socket $s: iocad lost $((l - was)) sample(s)"
		./iocactl info | sed -n '/^sampler:/,$p' | grep 'seq\|cpus' | sed 's/^/#   ioca.ko: /'
	done
	rss=$(proc_rss) fds=$(proc_fds)
	[ "$rss" = "$rss_said" ] || echo "# step $step: iocad's RssAnon $rss kB, $fds fds"
	rss_said=$rss
	if [ -n "$rss0" ]; then
		[ "$rss" -le $((rss0 + RSS_SLACK)) ] || viol mem "RssAnon $rss kB, $rss0 kB halfway"
	fi
	if [ -n "$fds0" ]; then
		wait_for 5 '[ "$(proc_fds)" -eq "$fds0" ]' || viol fd "$fds fds open, $fds0 after the warm-up: $(ls -l /proc/$pid/fd | tr '\n' ' ')"
	fi
}
RSS_SLACK=24 # kB: a few pages of stdio buffers and stack may come and go

# --- faults --------------------------------------------------------------
log_mark() { wc -l <"$LOG"; }
since() { tail -n +$(($1 + 1)) "$LOG"; }
cfg_offline() { # FILE: 0 if one of its tenant CPUs is offline
	for t in $(cfg_tenants "$1"); do
		c=$(cfg_cpus "$1" "$t")
		case $c in *-*) continue ;; esac
		online "$c" || return 0
	done
	return 1
}

# reload good|bad: SIGHUP with one of the prepared configs as the live file
f_reload() {
	rand 4
	f=/tmp/$1$r.ini
	m=$(log_mark)
	before=$(groups_cpus)
	cp "$f" "$LIVE"
	kill -HUP "$pid"
	echo "# step $step: reload $(basename "$f")"
	if [ "$1" = bad ]; then
		n_bad=$((n_bad + 1))
		wait_for 30 'since $m | grep -q "reload rejected"' ||
			viol bad "$(basename "$f") was not rejected: $(since "$m" | grep reload | tr '\n' ' ')"
		[ "$(groups_cpus)" = "$before" ] || viol bad "groups and CPUs $before became $(groups_cpus)"
		live_is_traced || viol bad "masks or DDIO are not the running plan's after the refusal"
		cp "$cur" "$LIVE"
		return
	fi
	n_good=$((n_good + 1))
	sighup_answered "$m" good
	if cmp -s "$f" "$cur"; then
		# nothing to apply, even with one of its CPUs offline
		wait_for 30 'since $m | grep -q "reload: .* unchanged"' ||
			viol good "$(basename "$f") (the same config) not said unchanged"
	elif cfg_offline "$f"; then
		# a changed config naming an offline CPU: refused, changing nothing
		wait_for 30 'since $m | grep -q "reload rejected"' ||
			viol good "$(basename "$f") with a CPU offline was not rejected"
		cp "$cur" "$LIVE"
	else
		wait_for 30 'since $m | grep -q "reload: [0-9]* socket(s) changed"' ||
			viol good "$(basename "$f") not applied: $(since "$m" | grep -i reload | tr '\n' ' ')"
		# the sampled CPUs changed: the first interval of the new sampler run
		# may fold a sample of the old one (the loop's to fix; SOAK_HOSTLOOP=1 checks it)
		if [ "$HOSTLOOP" != 1 ] && [ "$(cfg_tenants "$f")" != "$(cfg_tenants "$cur")" ]; then
			rates_0=${rates_0%/*}/$(rows) rates_1=${rates_1%/*}/$(rows)
		fi
		cur=$f
	fi
}

# iocactl ddio set: another mask on a random socket, adopted by iocad
f_outside() {
	rand 2
	s=$r
	rand 5
	k=$((r + 2))
	m=$(log_mark)
	before=$(ddio "$s")
	./iocactl ddio set "$s" ways "$k" >/dev/null || viol outside "iocactl ddio set $s ways $k failed"
	echo "# step $step: iocactl ddio set $s ways $k (was $before, now $(ddio "$s"))"
	n_outside=$((n_outside + 1))
	[ "$(ddio "$s")" = "$before" ] && return
	wait_for 30 'since $m | grep -q "socket $s: DDIO mask .*changed outside iocad"' ||
		viol outside "socket $s: the change to $k ways was not noticed"
}

# a monitor: started and paused, or resumed (and ended)
f_monitor() {
	n_mon=$((n_mon + 1))
	if [ "$mon_state" = stopped ]; then
		seen=$(grep -c '^seq ' /tmp/mon.out)
		kill -CONT "$mon"
		echo "# step $step: monitor $mon resumed ($seen samples so far)"
		mon_state=running
		# it reads on: what queued while it slept, then the new ones
		wait_for 20 '[ "$(grep -c "^seq " /tmp/mon.out)" -gt "$seen" ]' ||
			viol monitor "the resumed monitor printed no sample: $(tail -n 2 /tmp/mon.out)"
		return
	fi
	if [ "$mon_state" = running ]; then
		kill "$mon" 2>/dev/null
		wait "$mon" 2>/dev/null
		grep -q '^# per-CPU deltas' /tmp/mon.out ||
			echo "# step $step: the monitor printed no header: $(head -c 200 /tmp/mon.out)"
		echo "# step $step: monitor ended, $(grep -c . /tmp/mon.out) lines, gaps: $(grep -c '^gap:' /tmp/mon.out)"
	fi
	./iocactl monitor >/tmp/mon.out 2>&1 &
	mon=$!
	wait_rows 1
	kill -STOP "$mon"
	mon_state=stopped
	echo "# step $step: monitor $mon started and paused"
}

# the emulated DDIO counters: a socket's miss and hit rates
f_traffic() {
	rand 2
	s=$r
	rand 3
	miss=$(echo "0 1000000000 100000000000" | cut -d' ' -f$((r + 1)))
	rand 2
	hit=$((r * 10000000000))
	echo "$miss" >$DBG/socket$s/ddio_miss_rate
	echo "$hit" >$DBG/socket$s/ddio_hit_rate
	eval "rates_$s=$miss/$hit/$(rows)"
	echo "# step $step: socket $s DDIO misses $miss/s, hits $hit/s"
	n_traffic=$((n_traffic + 1))
}

# a tenant CPU (1-3) offline, or the offline one back online
f_hotplug() {
	n_hot=$((n_hot + 1))
	for c in 1 2 3; do
		if ! online $c; then
			echo 1 >/sys/devices/system/cpu/cpu$c/online
			echo "# step $step: CPU $c online"
			return
		fi
	done
	rand 3
	c=$((r + 1))
	echo 0 >/sys/devices/system/cpu/cpu$c/online
	echo "# step $step: CPU $c offline"
}

# iocad started again on the config in force (after kill -9 or rmmod): a
# new trace, new counters, the DDIO masks it finds. Every CPU online first:
# a start with a tenant CPU offline is refused (exit 2) and not retried.
restart() {
	for c in 1 2 3; do online $c || echo 1 >/sys/devices/system/cpu/cpu$c/online; done
	start_0=$(ddio 0) start_1=$(ddio 1)
	# the old trace goes first: its rows are not the new iocad's
	rm -f "$TRACE"
	start "$LIVE"
	traced=1 state_trace='' lost_0=0 lost_1=0 rates_0=${rates_0%/*}/0 rates_1=${rates_1%/*}/0
	wait_for 60 '[ "$(rows)" -ge 5 ]' || viol run "iocad did not start again: $(tail -n 3 "$LOG")"
	[ -z "$fds0" ] || fds0=$(proc_fds)
	# a new process grows as its paths run for the first time: its baseline
	# after a round, or at the latest one step before the end (as after the
	# warm-up): a restart late in a short soak must not leave none at all
	[ "$half" -eq 0 ] || half=$((step + NFAULTS))
	[ "$half" -lt "$STEPS" ] || half=$((STEPS - 1))
	restarted=$step
	rss0=''
}

# The faults: 0-5 above, 6-12 faults.sh's; 13 (rmmod) with HOSTLOOP=1
NFAULTS=13
[ "$HOSTLOOP" = 1 ] && NFAULTS=14
do_fault() {
	case $1 in
	0) f_reload good ;;
	1) f_reload bad ;;
	2) f_outside ;;
	3) f_monitor ;;
	4) f_traffic ;;
	5) f_hotplug ;;
	6) f_remount ;;
	7) f_class ;;
	8) f_closids ;;
	9) f_foreign ;;
	10) f_badwrite ;;
	11) f_storm ;;
	12) f_kill9 ;;
	13) f_rmmod ;;
	esac
}

# round: every fault once, in a seeded order, into $round
round() {
	_left=$(seq 0 $((NFAULTS - 1)) | tr '\n' ' ')
	round=''
	for _k in $(seq $NFAULTS -1 1); do
		rand "$_k"
		_x=$(echo "$_left" | cut -d' ' -f$((r + 1)))
		_left=$(echo "$_left" | tr ' ' '\n' | grep . | awk -v i=$((r + 1)) 'NR != i' | tr '\n' ' ')
		round="$round $_x"
	done
}

# --- setup -----------------------------------------------------------------
insmod ./ioca.ko emulate=1 emulate_sockets=2 || echo "# insmod ioca.ko failed"
insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=1 num_closids=8 cache_ids=0,1 ||
	echo "# insmod resctrl_emu.ko failed"
mkdir -p /run $R
mount -t resctrl resctrl $R || echo "# mount resctrl failed"
# a group of someone else's holding a task, which iocad must leave alone,
# and the runtime's class of the tenant cache
sleep 100000 &
task=$!
mk_others
check "setup: ioca.ko with two emulated sockets, resctrl with two domains" \
	'[ "$(ddio 0)" = 0x600 ] && [ "$(ddio 1)" = 0x600 ] && grep -q "1=" $R/schemata'
cp /tmp/base.ini "$LIVE"
start_0=0x600 start_1=0x600
start "$LIVE"
wait_for 60 '[ "$(rows)" -ge 5 ] && [ -s "$PROM" ]'
check "start: iocad runs with both sockets' groups and its trace and metrics" \
	'running && [ "$(groups_now)" = "$(want_groups)" ] &&
	 grep -q "^ioca_lost_samples_total{socket=\"1\"} 0" "$PROM" &&
	 grep -q "^ioca_apply_errors_total{socket=\"0\"} 0" "$PROM"'

# --- the soak ---------------------------------------------------------------
# warm-up: every fault once, in a seeded order
round
t0=$(date +%s)
for f in $round; do
	step=$((step + 1))
	do_fault "$f"
	wait_rows 2
	check_step
done
fds0=$(proc_fds)
echo "# after the warm-up ($step steps): RssAnon $(proc_rss) kB, $fds0 fds, $(grep VmRSS /proc/$pid/status)"
# RssAnon grows for a while as paths run for the first time (a rare one
# may come late), then stays: its baseline is halfway
half=$((STEPS / 2 > step ? STEPS / 2 : step))
# a restart during the warm-up: the new process needs its round too, but a
# baseline is always taken (at the latest one step before the end)
if [ $((restarted + NFAULTS)) -gt "$half" ]; then
	half=$((restarted + NFAULTS))
	[ "$half" -lt "$STEPS" ] || half=$((STEPS - 1))
fi
while [ "$step" -lt "$STEPS" ]; do
	if [ "$step" -eq "$half" ]; then
		rss0=$(proc_rss) rss_ever=1
		echo "# halfway ($step steps): RssAnon $rss0 kB"
	fi
	[ -n "$round" ] || round
	f=${round%% *} round=${round#* }
	[ "$f" = "$round" ] && round=''
	step=$((step + 1))
	do_fault "$f"
	rand 3
	wait_rows $((r + 1))
	check_step
done
echo "# $step steps in $(($(date +%s) - t0)) s of guest time: $n_good good and $n_bad bad" \
	"reloads, $n_outside outside DDIO changes, $n_mon monitor pauses/resumes," \
	"$n_traffic traffic changes, $n_hot hotplugs, $n_remount remounts, $n_class classes" \
	"removed, $n_closids CLOSID shortages, $n_foreign foreign CPU takes, $n_badwrite" \
	"refused schemata writes, $n_storm SIGHUP storms, $n_kill kill -9, $n_rmmod rmmod;" \
	"$nocounts interval(s) without DDIO counts"
echo "# end: RssAnon $(proc_rss) kB, $(proc_fds) fds, $(grep VmRSS /proc/$pid/status); iocad's log:"
grep -v '^#[0-9]* ' "$LOG" | sed 's/^/#   /' | tail -n 40

check "iocad ran through every step" '[ "$v_run" -eq 0 ] && running'
check "trace: consecutive intervals on each socket, time going forward" '[ "$v_trace" -eq 0 ]'
check "PS tenants off their socket's DDIO ways where both fit, never wholly on them (trace and resctrl)" '[ "$v_ps" -eq 0 ]'
check "resctrl holds exactly iocad's groups for the config in force, gold and ops" '[ "$v_groups" -eq 0 ]'
check "ops keeps its mask, its task and the CPUs it took ($n_foreign takes across hotplug)" \
	'[ "$v_ops" -eq 0 ] && [ "$v_foreign" -eq 0 ] && [ "$n_foreign" -gt 0 ]'
check "no interval's DDIO counts off by more than 3x from the traffic set" '[ "$v_rate" -eq 0 ]'
check "resctrl unmounted and mounted again: iocad's groups made again ($n_remount)" \
	'[ "$v_remount" -eq 0 ] && [ "$n_remount" -gt 0 ]'
check "the runtime's class removed and made again: its tenant's mask written again ($n_class)" \
	'[ "$v_class" -eq 0 ] && [ "$n_class" -gt 0 ]'
check "CLOSIDs short for a rename: refused by the check, nothing changed ($n_closids)" \
	'[ "$v_closids" -eq 0 ] && [ "$n_closids" -gt 0 ]'
check "reloads refused at a schemata write changed no group, mask or DDIO ($n_badwrite)" \
	'[ "$v_badwrite" -eq 0 ] && [ "$n_badwrite" -gt 0 ]'
check "SIGHUP answered within two intervals, also in storms ($n_storm)" \
	'[ "$v_storm" -eq 0 ] && [ "$n_storm" -gt 0 ]'
check "kill -9: the module takes back the sampler, the next iocad cleans up ($n_kill)" \
	'[ "$v_kill9" -eq 0 ] && [ "$n_kill" -gt 0 ]'
[ "$HOSTLOOP" = 1 ] && check "rmmod: iocad ends and puts CAT back, runs again after insmod ($n_rmmod)" \
	'[ "$v_rmmod" -eq 0 ] && [ "$n_rmmod" -gt 0 ]'
# make soak: each fault at least 5 times; the short pass: once
min=$((STEPS >= 6 * NFAULTS ? 5 : 1))
least=$(echo "$n_good $n_bad $n_outside $n_mon $n_traffic $n_hot $n_remount $n_class $n_closids" \
	"$n_foreign $n_badwrite $n_storm $n_kill" | tr ' ' '\n' | sort -n | head -n 1)
check "every fault injected at least $min time(s) (the least: $least)" '[ "$least" -ge "$min" ]'
check "each group holds its tenant's online CPUs (also after hotplug)" '[ "$v_cpus" -eq 0 ]'
check "no sample lost by iocad (a paused monitor costs it nothing)" '[ "$v_lost" -eq 0 ]'
check "good reloads applied or refused as the CPUs allow ($n_good)" '[ "$v_good" -eq 0 ] && [ "$n_good" -gt 0 ]'
check "bad reloads rejected, changing no group ($n_bad)" '[ "$v_bad" -eq 0 ] && [ "$n_bad" -gt 0 ]'
check "outside DDIO changes noticed and adopted ($n_outside)" '[ "$v_outside" -eq 0 ] && [ "$n_outside" -gt 0 ]'
check "RssAnon no more than $RSS_SLACK kB above halfway's (a restarted iocad's: a round later)" \
	'[ "$v_mem" -eq 0 ] && [ -n "$rss_ever" ]'
check "fds as many as after the warm-up ($fds0)" '[ "$v_fd" -eq 0 ] && [ -n "$fds0" ]'
check "a resumed monitor reads on ($n_mon pauses and resumes)" '[ "$v_monitor" -eq 0 ] && [ "$n_mon" -gt 0 ]'
check "every interval had both sockets' DDIO counts ($nocounts without)" '[ "$nocounts" -eq 0 ]'
# a refused apply is explained only by a CPU going away under it, an
# armed schemata fault the FSM's apply met first, or resctrl unmounted
# (since the last restart: the counters are the running iocad's)
apply_errors=$(($(metric ioca_apply_errors_total 0) + $(metric ioca_apply_errors_total 1)))
allowed=$((n_hot + n_foreign * 2 + n_badwrite + n_remount * 2))
check "refused applies ($apply_errors) no more than hotplugs, armed faults and unmounts explain ($allowed)" \
	'[ "$apply_errors" -le "$allowed" ]'

# --- the end: everything back --------------------------------------------
[ -n "$mon" ] && kill -CONT "$mon" 2>/dev/null && kill "$mon" 2>/dev/null
for c in 1 2 3; do online $c || echo 1 >/sys/devices/system/cpu/cpu$c/online; done
wait_rows 2
check "all CPUs back: every group holds its tenant's CPUs" 'v_cpus=0; check_groups; [ "$v_cpus" -eq 0 ]'
# DDIO after SIGTERM: the mask found at start where iocad ever set it,
# else what the last outside change left
check_trace
for s in 0 1; do
	w=$(echo "$state_trace" | tr ' ' '\n' | sed -n "s|^$s=[^/]*/[^/]*/[^/]*/||p")
	if [ "${w:-0}" = 1 ]; then eval "v=\$start_$s"; else v=$(ddio "$s"); fi
	eval "want_$s=$v"
done
echo "# iocad set DDIO itself: $state_trace (want after SIGTERM: $want_0 $want_1)"
kill -TERM "$pid"
wait_for 20 '! running'
running && kill -KILL "$pid" # reported below as its status, 137
wait "$pid"
rc=$?
pid=
check "SIGTERM: iocad exits 0" '[ "$rc" -eq 0 ]'
check "SIGTERM: DDIO back to the mask found at start where iocad set it ($want_0 $want_1)" \
	'[ "$(ddio 0)" = "$want_0" ] && [ "$(ddio 1)" = "$want_1" ]'
check "SIGTERM: iocad's groups removed, ops and gold untouched, the sampler stopped" \
	'[ "$(groups_now)" = "gold ops " ] && grep -q "L3:0=00f;1=00f" $R/ops/schemata &&
	 grep -qx "$task" $R/ops/tasks && [ "$(sampler)" != running ]'
kill "$task"
check "the kernel log has no warning, oops or lockdep report" \
	'! dmesg | grep -qE "WARNING:|BUG:|Oops:|circular locking|INFO: task"'
dmesg | grep -E -A 12 "WARNING:|BUG:|Oops:|circular locking|INFO: task" | head -n 40 | sed 's/^/# dmesg: /'
echo "# soak: seed $SEED"
exit $((failed > 125 ? 125 : failed))
