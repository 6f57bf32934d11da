#!/bin/sh
# Runs inside the test VM (busybox sh, root, cwd /ioca, -smp 2): TAP tests
# of resctrl_emu.ko against the kernel's documented resctrl rules, through
# real system calls on a real mount. Exits with the number of failures.
# shellcheck disable=SC2015,SC2154 # "check && ok || notok" is the TAP idiom here; n, failed: tap.sh's
# shellcheck source=/dev/null # scripts/vm/tap.sh: n, failed, ok, notok, check_cmd
. ./tap.sh
# shellcheck disable=SC2034 # read by tap.sh
TAP_NAME=resctrl_emu
R=/sys/fs/resctrl
P=/sys/module/resctrl_emu/parameters

is() { # description got want
	if [ "$2" = "$3" ]; then ok "$1"; else notok "$1: got '$2', want '$3'"; fi
}
status() { cat $R/info/last_cmd_status; }
# put FILE TEXT: one write() of TEXT (echo -e escapes); prints the error
# message of a failed write (ash's echo names strerror) and returns its status.
put() {
	out=$( { echo -ne "$2" >"$1"; } 2>&1)
	rc=$?
	[ -z "$out" ] || echo "$out"
	return $rc
}
# refused DESC FILE TEXT ERRTEXT STATUS: the write fails with ERRTEXT and
# last_cmd_status reads STATUS.
refused() {
	if e=$(put "$2" "$3"); then
		notok "$1: write succeeded"
		return
	fi
	case $e in *"$4"*) ;; *)
		notok "$1: error '$e', want '$4'"
		return
		;;
	esac
	is "$1" "$(status)" "$5"
}

# --- loading -----------------------------------------------------------
for bad in cbm_mask=0x5 cbm_mask=0 num_closids=0 min_cbm_bits=12 shareable_bits=0x800 \
	cache_ids=1,1 io_alloc=2; do
	# Only what this insmod logged: another message may come last.
	seen=$(dmesg | wc -l)
	if insmod ./resctrl_emu.ko "$bad" 2>/dev/null; then
		notok "insmod with $bad refused"
		rmmod resctrl_emu
	else
		dmesg | tail -n +$((seen + 1)) | grep -q "resctrl_emu: ${bad%%=*}" &&
			ok "insmod with $bad refused, the message names the parameter" ||
			notok "insmod with $bad refused, but no message names ${bad%%=*}"
	fi
done
if ! insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=2 num_closids=4 \
	shareable_bits=0x600 cache_ids=0,1; then
	notok "insmod resctrl_emu.ko"
	echo "1..$n"
	exit 1
fi
check_cmd "/sys/fs/resctrl exists after load" test -d $R
check_cmd "mount -t resctrl resctrl /sys/fs/resctrl" mount -t resctrl resctrl $R
mkdir -p /tmp/m
check_cmd "a second mount is refused (one instance, as resctrl)" \
	sh -c "! mount -t resctrl resctrl /tmp/m 2>/dev/null"
check_cmd "unknown mount option refused" sh -c "! mount -t resctrl -o cdp resctrl /tmp/m 2>/dev/null"
is "filesystem magic is RDTGROUP_SUPER_MAGIC" "$(stat -f -c %t $R)" 7655821

# --- info --------------------------------------------------------------
is "info/L3/cbm_mask" "$(cat $R/info/L3/cbm_mask)" 7ff
is "info/L3/min_cbm_bits" "$(cat $R/info/L3/min_cbm_bits)" 2
is "info/L3/num_closids" "$(cat $R/info/L3/num_closids)" 4
is "info/L3/shareable_bits" "$(cat $R/info/L3/shareable_bits)" 600
is "info/last_cmd_status starts ok" "$(status)" ok
check_cmd "info files are read-only" sh -c "! echo 1 2>/dev/null >$R/info/L3/cbm_mask"
check_cmd "without io_alloc= there is no info/L3/io_alloc (a kernel before 6.19)" \
	test ! -e $R/info/L3/io_alloc -a ! -e $R/info/L3/io_alloc_cbm

# --- default group -----------------------------------------------------
is "root cpus: every online CPU" "$(cat $R/cpus)" 3
is "root cpus_list" "$(cat $R/cpus_list)" 0-1
is "root schemata: full mask on both cache ids, 3 hex digits" "$(cat $R/schemata)" \
	"L3:0=7ff;1=7ff"
is "root mode" "$(cat $R/mode)" shareable
check_cmd "root tasks lists this shell" grep -qx $$ $R/tasks

# --- groups and CLOSIDs ------------------------------------------------
check_cmd "mkdir g1 g2 g3 (3 CLOSIDs besides the default)" mkdir $R/g1 $R/g2 $R/g3
e=$(mkdir $R/g4 2>&1)
case $e in *"No space left on device"*) ok "4th group refused with ENOSPC" ;;
*) notok "4th group: '$e', want ENOSPC" ;; esac
is "ENOSPC status text" "$(status)" "Out of CLOSIDs"
check_cmd "a refused mkdir leaves no directory" test ! -e $R/g4
is "new group starts with the full mask" "$(cat $R/g1/schemata)" "L3:0=7ff;1=7ff"
is "new group has no CPUs" "$(cat $R/g1/cpus_list)" ""
check_cmd "a group has cpus cpus_list mode schemata tasks" \
	sh -c "[ \"\$(ls $R/g1 | tr '\n' ' ')\" = 'cpus cpus_list mode schemata tasks ' ]"
check_cmd "mkdir inside a group is refused" sh -c "! mkdir $R/g1/sub 2>/dev/null"
check_cmd "mkdir inside info is refused" sh -c "! mkdir $R/info/x 2>/dev/null"
check_cmd "rmdir info is refused" sh -c "! rmdir $R/info 2>/dev/null"

# --- schemata ----------------------------------------------------------
check_cmd "valid write L3:0=3f0" put $R/g1/schemata 'L3:0=3f0\n'
is "only the named domain changed" "$(cat $R/g1/schemata)" "L3:0=3f0;1=7ff"
is "status ok after a valid write" "$(status)" ok
check_cmd "write with both domains" put $R/g1/schemata 'L3:0=0f0;1=00c\n'
is "both domains changed" "$(cat $R/g1/schemata)" "L3:0=0f0;1=00c"
before=$(cat $R/g1/schemata)
refused "non-contiguous mask" $R/g1/schemata 'L3:0=505\n' "Invalid argument" \
	"The mask 505 has non-consecutive 1-bits"
refused "fewer than min_cbm_bits" $R/g1/schemata 'L3:0=10\n' "Invalid argument" \
	"Need at least 2 bits in the mask"
refused "mask beyond cbm_mask" $R/g1/schemata 'L3:0=fff\n' "Invalid argument" \
	"Mask out of range"
refused "empty mask" $R/g1/schemata 'L3:0=0\n' "Invalid argument" "Mask out of range"
refused "non-hex mask" $R/g1/schemata 'L3:0=xyz\n' "Invalid argument" \
	"Non-hex character in the mask xyz"
refused "unknown resource" $R/g1/schemata 'MB:0=100\n' "Invalid argument" \
	"Unknown or unsupported resource name 'MB'"
refused "missing ':'" $R/g1/schemata 'L3\n' "Invalid argument" "Missing ':'"
refused "missing value" $R/g1/schemata 'L3:\n' "Invalid argument" "Missing 'L3' value"
refused "missing '='" $R/g1/schemata 'L3:0\n' "Invalid argument" \
	"Missing '=' or non-numeric domain"
refused "duplicate domain" $R/g1/schemata 'L3:0=f;0=f\n' "Invalid argument" \
	"Duplicate domain 0"
refused "unknown cache id (the kernel leaves the status ok)" $R/g1/schemata 'L3:7=f\n' \
	"Invalid argument" "ok"
refused "no trailing newline" $R/g1/schemata 'L3:0=f' "Invalid argument" "ok"
refused "one bad domain refuses the whole write" $R/g1/schemata 'L3:0=ff;1=505\n' \
	"Invalid argument" "The mask 505 has non-consecutive 1-bits"
refused "one bad line refuses the whole write" $R/g1/schemata 'L3:0=ff\nL3:1=1\n' \
	"Invalid argument" "Need at least 2 bits in the mask"
is "refused writes changed nothing" "$(cat $R/g1/schemata)" "$before"
check_cmd "masks may overlap (shareable groups)" put $R/g2/schemata 'L3:0=0f0\n'
check_cmd "the default group's schemata is writable" put $R/schemata 'L3:1=7f0\n'
is "default group mask written" "$(cat $R/schemata)" "L3:0=7ff;1=7f0"

# --- fault injection ---------------------------------------------------
echo g1 >$P/fail_next_schemata
is "knob reads back the armed group" "$(cat $P/fail_next_schemata)" g1
check_cmd "another group's write is not affected" put $R/g2/schemata 'L3:0=7f0\n'
refused "armed: a valid write to g1 fails with EIO" $R/g1/schemata 'L3:0=3\n' \
	"Input/output error" "Injected failure (resctrl_emu fail_next_schemata)"
is "the injected failure changed nothing" "$(cat $R/g1/schemata)" "$before"
is "the knob disarms after one failure" "$(cat $P/fail_next_schemata)" ""
check_cmd "the next write succeeds" put $R/g1/schemata 'L3:0=3\n'

# --- CPUs --------------------------------------------------------------
check_cmd "give CPU 1 to g1" put $R/g1/cpus_list '1\n'
is "g1 has CPU 1" "$(cat $R/g1/cpus_list)" 1
is "the default group lost CPU 1" "$(cat $R/cpus_list)" 0
check_cmd "give CPU 1 to g2 by mask" put $R/g2/cpus '2\n'
is "g2 has CPU 1" "$(cat $R/g2/cpus_list)" 1
is "g1 lost CPU 1 (a CPU is in one group)" "$(cat $R/g1/cpus_list)" ""
refused "the default group cannot drop CPUs" $R/cpus_list '1\n' "Invalid argument" \
	"Can't drop CPUs from default group"
refused "a CPU beyond nr_cpu_ids" $R/g1/cpus_list '5\n' "Numerical result out of range" \
	"Bad CPU list/mask"
refused "bad CPU list" $R/g1/cpus_list 'x\n' "Invalid argument" "Bad CPU list/mask"
check_cmd "give CPU 0 to g1" put $R/g1/cpus_list '0\n'
check_cmd "dropping CPUs from a group gives them to the default group" put $R/g1/cpus_list '\n'
is "default group has CPU 0 back" "$(cat $R/cpus_list)" 0
check_cmd "default group takes CPU 1 back from g2" put $R/cpus_list '0-1\n'
is "g2 lost CPU 1" "$(cat $R/g2/cpus_list)" ""
if [ -w /sys/devices/system/cpu/cpu1/online ]; then
	put $R/g1/cpus_list '1\n'
	echo 0 >/sys/devices/system/cpu/cpu1/online
	is "an offline CPU leaves its group" "$(cat $R/g1/cpus_list)" ""
	refused "an offline CPU cannot be assigned" $R/g1/cpus_list '1\n' "Invalid argument" \
		"Can only assign online CPUs"
	echo 1 >/sys/devices/system/cpu/cpu1/online
	is "a CPU coming online joins the default group" "$(cat $R/cpus_list)" 0-1
else
	notok "CPU 1 cannot be taken offline in this guest"
fi

# --- tasks -------------------------------------------------------------
check_cmd "move this shell to g1" put $R/g1/tasks "$$\n"
check_cmd "g1 tasks lists it" grep -qx $$ $R/g1/tasks
check_cmd "the default group no longer lists it" sh -c "! grep -qx $$ $R/tasks"
check_cmd "move it to g2" put $R/g2/tasks "$$\n"
check_cmd "g1 no longer lists it" sh -c "! grep -qx $$ $R/g1/tasks"
refused "no such task" $R/g1/tasks '999999\n' "No such process" "No task 999999"
# as the kernel's fork: a child starts in its parent's group (fork.c)
if [ "$(cat $P/fork_follow)" = Y ]; then
	sleep 30 &
	kid=$!
	check_cmd "a task forked in g2 is listed in g2" grep -qx $kid $R/g2/tasks
	check_cmd "... and is not listed in the default group" sh -c "! grep -qx $kid $R/tasks"
	kill $kid
	wait $kid 2>/dev/null
	# The work item that follows forks held back (fork_defer): a read of
	# a tasks file still shows every fork before it.
	echo 1 >$P/fork_defer
	sleep 30 &
	kid=$!
	check_cmd "a fork is in its parent's group at the next read of tasks" grep -qx $kid $R/g2/tasks
	kill $kid
	wait $kid 2>/dev/null
	# What a container runtime does: its init's pid written into a group
	# right after the fork. The fork came first: the move stays, even if
	# the work item runs only after the write.
	sleep 30 &
	kid=$!
	put $R/g1/tasks "$kid\n"
	echo 0 >$P/fork_defer
	sleep 30 &
	sleep 1 # a fork: the work item runs
	check_cmd "a task moved right after its fork stays where it was moved" grep -qx $kid $R/g1/tasks
	check_cmd "... and is not taken back to its parent's group" sh -c "! grep -qx $kid $R/g2/tasks"
	kill $kid $!
	wait 2>/dev/null
else
	for t in "a task forked in g2 is listed in g2" "... and is not listed in the default group" \
		"a fork is in its parent's group at the next read of tasks" \
		"a task moved right after its fork stays where it was moved" \
		"... and is not taken back to its parent's group"; do
		ok "$t # SKIP no kprobes in this kernel (fork_follow=N)"
	done
fi

# --- rmdir -------------------------------------------------------------
put $R/g2/cpus_list '1\n'
exec 3<$R/g2/schemata
check_cmd "rmdir g2" rmdir $R/g2
is "its CPUs went back to the default group" "$(cat $R/cpus_list)" 0-1
check_cmd "its tasks went back to the default group" grep -qx $$ $R/tasks
check_cmd "a file opened before rmdir now fails" sh -c "! cat <&3 >/dev/null 2>&1"
exec 3<&-
check_cmd "its CLOSID is free again" mkdir $R/g4
check_cmd "rmdir of a group with files open" sh -c "exec 4<$R/g4/tasks; rmdir $R/g4"

# --- privileges --------------------------------------------------------
check_cmd "an unprivileged user cannot write schemata" \
	sh -c "! runas 1000 sh -c 'printf \"L3:0=3\\n\" >$R/g1/schemata' 2>/dev/null"
check_cmd "an unprivileged user cannot mkdir" sh -c "! runas 1000 mkdir $R/u 2>/dev/null"

# --- unmount and unload ------------------------------------------------
check_cmd "rmmod refused while mounted" sh -c "! rmmod resctrl_emu 2>/dev/null"
check_cmd "umount" umount $R
check_cmd "remount" mount -t resctrl resctrl $R
# shellcheck disable=SC2012 # fixed, known names
is "after remount only the default group is left" "$(ls $R | tr '\n' ' ')" \
	"cpus cpus_list info mode schemata tasks "
is "after remount the default group has the full mask" "$(cat $R/schemata)" \
	"L3:0=7ff;1=7ff"
mkdir $R/g1 && put $R/g1/cpus_list '1\n'
check_cmd "umount with a group left" umount $R
check_cmd "rmmod" rmmod resctrl_emu
check_cmd "/sys/fs/resctrl is gone after unload" test ! -e $R

# --- io_alloc (Linux 6.19, AMD SDCIAE) ---------------------------------
IO=$R/info/L3/io_alloc
IOCBM=$R/info/L3/io_alloc_cbm
# readfail DESC FILE ERRTEXT STATUS: reading FILE fails with ERRTEXT and
# last_cmd_status reads STATUS.
readfail() {
	if e=$( { cat "$2" >/dev/null; } 2>&1); then
		notok "$1: read succeeded"
		return
	fi
	case $e in *"$3"*) ;; *)
		notok "$1: error '$e', want '$3'"
		return
		;;
	esac
	is "$1" "$(status)" "$4"
}
if insmod ./resctrl_emu.ko io_alloc=-1 && mount -t resctrl resctrl $R; then
	is "io_alloc=-1: io_alloc reads 'not supported'" "$(cat $IO)" "not supported"
	refused "io_alloc=-1: enabling is refused with ENODEV" $IO '1\n' "No such device" \
		"io_alloc is not supported on L3"
	readfail "io_alloc=-1: io_alloc_cbm cannot be read" $IOCBM "No such device" \
		"io_alloc is not supported on L3"
	umount $R
	rmmod resctrl_emu
else
	notok "insmod resctrl_emu.ko io_alloc=-1 and mount"
fi
if insmod ./resctrl_emu.ko cbm_mask=0x7ff min_cbm_bits=2 num_closids=4 cache_ids=0,1 \
	io_alloc=1 && mount -t resctrl resctrl $R; then
	is "io_alloc=1: io_alloc starts disabled" "$(cat $IO)" disabled
	readfail "disabled: io_alloc_cbm cannot be read" $IOCBM "Invalid argument" \
		"io_alloc is not enabled on L3"
	refused "disabled: io_alloc_cbm cannot be written" $IOCBM '0=f\n' "Invalid argument" \
		"io_alloc is not enabled on L3"
	mkdir $R/g1 $R/g2 $R/g3
	refused "enabling while a group holds the highest CLOSID is ENOSPC" $IO '1\n' \
		"No space left on device" "CLOSID (ctrl_hw_id) 3 for io_alloc is used by g3 group"
	is "the refused enable left io_alloc disabled" "$(cat $IO)" disabled
	rmdir $R/g3
	check_cmd "enable with the highest CLOSID free" put $IO '1\n'
	is "io_alloc reads enabled" "$(cat $IO)" enabled
	is "status ok after enabling" "$(status)" ok
	is "io_alloc_cbm starts with the full mask on every domain" "$(cat $IOCBM)" \
		"0=7ff;1=7ff"
	e=$(mkdir $R/g3 2>&1)
	case $e in *"No space left on device"*) ok "enabled: a group needing the reserved CLOSID is ENOSPC" ;;
	*) notok "enabled: mkdir of a 4th group: '$e', want ENOSPC" ;; esac
	is "its status text" "$(status)" "Out of CLOSIDs"
	check_cmd "enabling again is a no-op" put $IO '1\n'
	check_cmd "write one domain: 1=0f0" put $IOCBM '1=0f0\n'
	is "only the named domain changed" "$(cat $IOCBM)" "0=7ff;1=0f0"
	check_cmd "write both domains: 0=600;1=3" put $IOCBM '0=600;1=3\n'
	is "both domains changed, padded to cbm_mask's width" "$(cat $IOCBM)" "0=600;1=003"
	is "io_alloc_cbm is not a group's schemata" "$(cat $R/g1/schemata)" "L3:0=7ff;1=7ff"
	before=$(cat $IOCBM)
	refused "io_alloc_cbm: non-contiguous mask" $IOCBM '0=505\n' "Invalid argument" \
		"The mask 505 has non-consecutive 1-bits"
	refused "io_alloc_cbm: fewer than min_cbm_bits" $IOCBM '0=10\n' "Invalid argument" \
		"Need at least 2 bits in the mask"
	refused "io_alloc_cbm: beyond cbm_mask" $IOCBM '0=fff\n' "Invalid argument" \
		"Mask out of range"
	refused "io_alloc_cbm: empty mask" $IOCBM '0=0\n' "Invalid argument" "Mask out of range"
	refused "io_alloc_cbm: non-hex mask" $IOCBM '0=xyz\n' "Invalid argument" \
		"Non-hex character in the mask xyz"
	refused "io_alloc_cbm: missing '='" $IOCBM '0\n' "Invalid argument" \
		"Missing '=' or non-numeric domain"
	refused "io_alloc_cbm: duplicate domain" $IOCBM '0=f;0=f\n' "Invalid argument" \
		"Duplicate domain 0"
	refused "io_alloc_cbm: unknown cache id (status left ok)" $IOCBM '7=f\n' \
		"Invalid argument" "ok"
	refused "io_alloc_cbm: no trailing newline" $IOCBM '0=f' "Invalid argument" "ok"
	refused "io_alloc_cbm: one bad domain refuses the whole write" $IOCBM '0=ff;1=505\n' \
		"Invalid argument" "The mask 505 has non-consecutive 1-bits"
	is "refused io_alloc_cbm writes changed nothing" "$(cat $IOCBM)" "$before"
	refused "io_alloc: not a boolean" $IO 'x\n' "Invalid argument" "ok"
	check_cmd "an unprivileged user cannot enable or disable io_alloc" \
		sh -c "! runas 1000 sh -c 'echo 0 >$IO' 2>/dev/null"
	check_cmd "disable" put $IO '0\n'
	is "io_alloc reads disabled" "$(cat $IO)" disabled
	check_cmd "disabled: the CLOSID is free for a group again" mkdir $R/g3
	rmdir $R/g3
	put $IO '1\n'
	is "enabling again starts from the full mask" "$(cat $IOCBM)" "0=7ff;1=7ff"
	umount $R
	mount -t resctrl resctrl $R
	is "a new mount starts with io_alloc disabled" "$(cat $IO)" disabled
	check_cmd "and with every CLOSID for groups" mkdir $R/g1 $R/g2 $R/g3
	check_cmd "umount and rmmod after io_alloc" sh -c "umount $R && rmmod resctrl_emu"
else
	notok "insmod resctrl_emu.ko io_alloc=1 and mount"
fi
if dmesg | grep -E 'WARNING:|BUG:|Oops|KASAN:|ODEBUG:'; then
	notok "the kernel log has a warning (above)"
else
	ok "no warning in the kernel log"
fi

echo "1..$n"
exit $failed
