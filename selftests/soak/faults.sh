# shellcheck shell=sh disable=SC2317,SC2016,SC2034,SC2154 # sourced by guest.sh: its helpers, state and counters
# The soak's faults of FAULTS.md's module, CPUs, resctrl, config and
# process rows (selftests/soak/guest.sh sources this): resctrl unmounted
# and mounted again, a runtime's class removed and made again, every
# CLOSID taken while a reload renames a tenant, an operator's group taking
# a tenant's CPU across hotplug, a reload refused at a schemata write,
# SIGHUP storms, kill -9 and a restart, and (SOAK_HOSTLOOP=1 only) rmmod
# and a new insmod of ioca.ko. Each says what it did in a "# step N:"
# line and counts a violation with viol CLASS.

# The groups of others the test keeps: ops (mask 00f on both domains, a
# task always, CPUs only while f_foreign runs) and gold, the runtime's
# class of the tenant cache. A remount takes both: made again.
mk_others() {
	[ -d $R/ops ] || mkdir $R/ops
	echo "L3:0=00f;1=00f" >$R/ops/schemata
	echo "$task" >$R/ops/tasks
	[ -d $R/gold ] || mkdir $R/gold
}

# resctrl unmounted and mounted again: at once (the mount's identity
# changed), or after iocad said it waits for it
f_remount() {
	n_remount=$((n_remount + 1))
	rand 2
	m=$(log_mark)
	umount $R || viol remount "umount $R failed"
	if [ "$r" -eq 1 ]; then
		wait_for 20 'since $m | grep -q "resctrl is not mounted at"' ||
			viol remount "the unmount was not said"
	fi
	mount -t resctrl resctrl $R || viol remount "mount failed"
	mk_others
	echo "# step $step: resctrl unmounted and mounted again ($([ "$r" -eq 1 ] && echo "after iocad said so" || echo "at once"))"
	want=$(want_groups)
	wait_for 60 '[ "$(groups_now)" = "$want" ]' ||
		viol remount "iocad's groups not made again: resctrl has '$(groups_now)', want '$want'"
}

# gold, the class of the tenant cache, removed and made again a few intervals later
f_class() {
	n_class=$((n_class + 1))
	rmdir $R/gold || viol class "rmdir gold failed"
	rand 3
	echo "# step $step: the runtime's class gold removed for $((r + 1)) interval(s)"
	wait_rows $((r + 1))
	mkdir $R/gold
	cfg_tenants "$cur" | grep -qx cache || return 0
	# a new group has the full mask; iocad's plan for cache is narrower
	wait_for 20 '! grep -q "1=7ff" $R/gold/schemata' ||
		viol class "gold made again but cache's mask not written: $(cat $R/gold/schemata)"
}

# every CLOSID taken (fillers), then a reload renaming batch: the check
# counts both groups at once and refuses; nothing changes
f_closids() {
	n_closids=$((n_closids + 1))
	# every CPU online first: a rename naming an offline CPU is refused for
	# that (placed by the CPUs as they are now) before the CLOSIDs are counted
	# (and iocad's hotplug fix-up done, so the snapshot below is what stays)
	_on=$(log_mark) _any=''
	for x in 1 2 3; do online $x || { echo 1 >/sys/devices/system/cpu/cpu$x/online && _any=1; }; done
	[ -z "$_any" ] || wait_for 20 'since $_on | grep -q "every group holds its online CPUs again"'
	k=0
	while [ $(($(groups_now | wc -w) + 1)) -lt 8 ]; do
		k=$((k + 1))
		mkdir $R/fill$k || break
	done
	sed 's/^\[tenant batch\]/[tenant bulk]/' "$cur" >"$LIVE"
	m=$(log_mark)
	before=$(groups_cpus)
	kill -HUP "$pid"
	echo "# step $step: $k filler group(s) take every CLOSID; reload renaming batch"
	wait_for 30 'since $m | grep -q "reload rejected"' ||
		viol closids "the rename was not rejected: $(since "$m" | grep -i reload | tr '\n' ' ')"
	since "$m" | grep -q "of them at once" ||
		viol closids "the refusal does not name the peak: $(since "$m" | grep rejected)"
	[ "$(groups_cpus)" = "$before" ] || viol closids "groups and CPUs $before became $(groups_cpus)"
	live_is_traced || viol closids "masks or DDIO are not the running plan's after the refusal"
	while [ "$k" -gt 0 ]; do
		rmdir $R/fill$k
		k=$((k - 1))
	done
	cp "$cur" "$LIVE"
}

# ops takes a tenant's CPU and holds its task while another CPU goes
# offline and online; then it lets go of the CPU, which iocad takes back
# when it comes online again
f_foreign() {
	n_foreign=$((n_foreign + 1))
	# every CPU online first, so no socket loses its last online CPU
	# below (a socket without one has no DDIO counts: another fault)
	for x in 1 2 3; do online $x || echo 1 >/sys/devices/system/cpu/cpu$x/online; done
	rand 2
	c=$((r + 1))
	o=$((c == 1 ? 3 : 1))
	echo "$c" >$R/ops/cpus_list
	ops_cpus=$c
	m=$(log_mark)
	echo 0 >/sys/devices/system/cpu/cpu"$o"/online
	wait_rows 1
	echo 1 >/sys/devices/system/cpu/cpu"$o"/online
	wait_for 20 'since $m | grep -q "every group holds its online CPUs again"'
	echo "# step $step: ops took CPU $c, CPU $o went offline and online"
	[ "$(cat $R/ops/cpus_list)" = "$c" ] ||
		viol foreign "ops holds CPUs '$(cat $R/ops/cpus_list)' after the hotplug fix-up, want $c"
	grep -qx "$task" $R/ops/tasks || viol foreign "ops lost its task $task"
	echo >$R/ops/cpus_list
	ops_cpus=''
	echo 0 >/sys/devices/system/cpu/cpu"$c"/online
	wait_rows 1
	echo 1 >/sys/devices/system/cpu/cpu"$c"/online
}

# a reload that changes db's ways, refused at db's schemata write
f_badwrite() {
	n_badwrite=$((n_badwrite + 1))
	cfg_tenants "$cur" | grep -qx db || return 0
	w=$(sed -n '/^\[tenant db\]/,/^$/s/^ways = //p' "$cur")
	sed "/^\[tenant db\]/,/^\$/ s/^ways = $w\$/ways = $((w == 2 ? 3 : 2))/" "$cur" >"$LIVE"
	m=$(log_mark)
	before=$(groups_cpus)
	echo iocad-s1-db >$EMU/fail_next_schemata
	kill -HUP "$pid"
	echo "# step $step: reload (db $w -> $((w == 2 ? 3 : 2)) ways) refused at db's schemata write"
	wait_for 30 'since $m | grep -q "reload rejected\|reload: .* unchanged"' ||
		viol badwrite "no word on the reload: $(since "$m" | grep -i reload | tr '\n' ' ')"
	echo >$EMU/fail_next_schemata
	if since "$m" | grep -q "reload rejected"; then
		[ "$(groups_cpus)" = "$before" ] ||
			viol badwrite "groups and CPUs $before became $(groups_cpus)"
		live_is_traced || viol badwrite "masks or DDIO are not the running plan's after the refusal"
	fi
	cp "$cur" "$LIVE"
}

# ten SIGHUPs at once: one reload at a time, iocad goes on
f_storm() {
	n_storm=$((n_storm + 1))
	m=$(log_mark)
	for k in 1 2 3 4 5 6 7 8 9 10; do kill -HUP "$pid"; done
	echo "# step $step: ten SIGHUPs"
	sighup_answered "$m" storm
}

# kill -9: the module takes back what iocad owned, the next iocad cleans up
f_kill9() {
	n_kill=$((n_kill + 1))
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	wait_for 10 '[ "$(sampler)" != running ]' || viol kill9 "ioca.ko's sampler runs on after kill -9"
	echo "# step $step: kill -9, then iocad started again"
	restart
	wait_for 30 'logs "cleaned up [0-9]* group(s) left by an iocad"' ||
		viol kill9 "the new iocad did not clean up the dead one's groups"
}

# rmmod: iocad puts CAT back and ends (hostloop: and stays down); the
# operator loads ioca.ko again and starts it (SOAK_HOSTLOOP=1 only)
f_rmmod() {
	n_rmmod=$((n_rmmod + 1))
	rmmod ioca || viol rmmod "rmmod ioca failed"
	wait_for 20 '! running' || viol rmmod "iocad runs on without ioca.ko"
	running && kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	[ "$(groups_now)" = "gold ops " ] || viol rmmod "groups after rmmod: $(groups_now)"
	insmod ./ioca.ko emulate=1 emulate_sockets=2 || viol rmmod "insmod ioca.ko failed"
	# the NIC's traffic goes on across a module reload: the new module's
	# emulated counters at the rates the old ones were set to (a fresh
	# module counts none, which the rate check would take for iocad's fault)
	for _s in 0 1; do
		eval "_t=\$rates_$_s"
		echo "${_t%%/*}" >"$DBG/socket$_s/ddio_miss_rate"
		_t=${_t#*/}
		echo "${_t%%/*}" >"$DBG/socket$_s/ddio_hit_rate"
	done
	echo "# step $step: rmmod ioca, insmod, iocad started again"
	restart
}

# SIGHUP answered within two intervals: at most three rows of socket 0
# between the signal and the reload's line (one may be under way)
sighup_answered() { # MARK CLASS
	# (wait_for evals its condition with its own positional parameters)
	_m=$1
	wait_for 30 'since $_m | grep -q "reload: \|reload rejected"' || {
		viol "$2" "SIGHUP not answered: $(since "$_m" | tail -n 2 | tr '\n' ' ')"
		return 0
	}
	# the intervals socket 0 ran between the signal and the answer, by
	# iocad's own log: a shell that is slow to look (TCG under load) adds none
	_n=$(since "$_m" | sed -n '/reload: \|reload rejected/q; /^#[0-9]* s0 /p' | wc -l)
	[ "$_n" -le 3 ] || viol "$2" "SIGHUP answered only after $_n intervals"
}
